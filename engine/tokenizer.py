"""A character-level tokenizer: one token per character of a fixed alphabet.

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
