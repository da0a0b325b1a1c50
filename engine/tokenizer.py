"""A character-level tokenizer (one token per character of a fixed alphabet), and the cut of any tokenizer's
ids that can travel as text (``round_trip_cut``).

Real engines use subword tokenizers with 32k–200k entries; for a model this small that would only
hide what happens. With one character per token every position in a trace is readable on its own,
and "token 17" is simply the 17th character of the alphabet.
"""

from __future__ import annotations

from collections.abc import Iterable

# 48 characters, the default vocabulary of the engine's tiny models (ModelConfig.vocab_size).
DEFAULT_ALPHABET = " abcdefghijklmnopqrstuvwxyzäöüß0123456789.,!?-:\n"


class CharTokenizer:
    def __init__(self, alphabet: str = DEFAULT_ALPHABET):
        if not alphabet:
            raise ValueError("the alphabet must not be empty")
        if len(set(alphabet)) != len(alphabet):
            duplicates = sorted({ch for ch in alphabet if alphabet.count(ch) > 1})
            raise ValueError(f"the alphabet lists characters twice: {duplicates}")
        self.alphabet = alphabet
        self._ids = {ch: i for i, ch in enumerate(alphabet)}

    @property
    def vocab_size(self) -> int:
        return len(self.alphabet)

    def encode(self, text: str) -> list[int]:
        unknown = sorted({ch for ch in text if ch not in self._ids})
        if unknown:
            raise ValueError(f"characters outside the tokenizer's alphabet: {unknown!r}")
        return [self._ids[ch] for ch in text]

    def decode(self, ids: Iterable[int]) -> str:
        return "".join(self.token_text(i) for i in ids)

    def token_text(self, token_id: int) -> str:
        if not 0 <= token_id < len(self.alphabet):
            raise ValueError(f"token id {token_id} outside 0…{len(self.alphabet) - 1}")
        return self.alphabet[token_id]


def round_trip_cut(tokenizer, ids, length: int) -> tuple[int, ...]:
    """The longest start of ``ids``, at most ``length`` tokens, whose text ``tokenizer`` encodes back to
    exactly these tokens. Every cut of characters does; a byte-level BPE's cut may split a character or
    leave a word piece that tokenizes otherwise, and a cut between two words always does (merges never
    cross the space before a word), so it is at most one word short. A prompt so cut can travel as text
    (a trace's header, a link) and gives the same tokens again."""
    for n in range(min(length, len(ids)), 0, -1):
        kept = list(ids[:n])
        if tokenizer.encode(tokenizer.decode(kept)) == kept:
            return tuple(kept)
    return ()
