"""Peer check: engine/bpe.py against Hugging Face's tokenizers, id for id.

Run with ``make test-peer`` (its own venv, see requirements-peer.txt); skipped in ``make test``.

The library gets our merges and nothing else: a BPE model over GPT-2's byte-level alphabet (each
byte shown as one printable character), a ``Split`` pre-tokenizer with our pattern (the library runs
it in Oniguruma, we in Python's ``re``) and ``ByteLevel(use_regex=False)`` to turn each chunk into
bytes. Its BPE merges by a priority queue of (rank, position), ours by repeating the
lowest-ranked pair; both must give the same ids on the site's German prose and on random texts.

The random texts draw from characters that both regex engines classify alike. Measured over every
code point, they differ only where their Unicode tables do: Oniguruma counts combining marks, the
connector punctuation other than "_" and the circled letters as word characters and Python does not;
Python counts the numeric symbols the pattern does not list (৴, ⑫, …) as word characters and the
separators U+001C–U+001F as whitespace; and the two know different Unicode versions.
"""

import random
import re
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

from engine.bpe import ByteBPE  # noqa: E402 (after the skip: without tokenizers the module is not collected)

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "pages").glob("*.md")))[:100_000]
# German letters, other scripts, digits of three scripts, the numeric signs the pattern lists,
# punctuation, symbols, emoji (four UTF-8 bytes) and whitespace of several kinds.
ALPHABET = (
    "aeinrstdhulgmobkwzfvpcjyqxAEINRSTDHULGMOBKWZFVPCJYQXäöüßÄÖÜéèçñ"
    "αβγΩжЯ中文字ひらカナ한글"
    "0123456789٣٤५६²³¹½₁₂"
    ".,;:!?-–—„“”‘’'\"()[]{}«»‹›…/\\_*&%$€§°±×−≈≠→✓■"
    "😀🧪👍🏽"
    "      \t\n\r\x0b\x0c\xa0\u2003\u3000"
)


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's table: printable bytes stand for themselves, the others for characters from 256 on."""
    keep = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def library_tokenizer(ours: ByteBPE):
    table = bytes_to_unicode()
    assert set(table.values()) == set(tokenizers.pre_tokenizers.ByteLevel.alphabet())

    def name(token_id: int) -> str:
        return "".join(table[b] for b in ours.token_bytes(token_id))

    vocab = {name(i): i for i in range(ours.vocab_size)}
    assert len(vocab) == ours.vocab_size  # no two ids with the same bytes, else the library merges them
    merges = [(name(a), name(b)) for a, b in ours.merges]
    tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE(vocab, merges))
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Sequence(
        [
            tokenizers.pre_tokenizers.Split(tokenizers.Regex(ours.pattern), behavior="isolated"),
            tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    return tokenizer


@pytest.fixture(scope="module")
def pair():
    ours = ByteBPE.train(SAMPLE, 1024)
    return ours, library_tokenizer(ours)


def random_texts(n: int, seed: int = 0):
    """Pieces of the sample mixed with random characters, so that merges and odd bytes both occur."""
    rng = random.Random(seed)
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 6)):
            if rng.random() < 0.5:
                start = rng.randrange(len(SAMPLE))
                parts.append(SAMPLE[start : start + rng.randint(1, 80)])
            else:
                parts.append("".join(rng.choices(ALPHABET, k=rng.randint(1, 20))))
        yield "".join(parts)


def test_library_cuts_the_same_chunks(pair):
    """Chunks are compared directly: a difference shows here even where no merge would cross it."""
    ours, _ = pair
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(ours.pattern), behavior="isolated")
    for text in [SAMPLE, *random_texts(2_000)]:
        assert [piece for piece, _ in split.pre_tokenize_str(text)] == re.findall(ours.pattern, text), repr(text[:200])


def test_library_gives_our_ids_on_the_sample(pair):
    ours, library = pair
    assert ours.vocab_size == 1024
    ids = ours.encode(SAMPLE)
    assert library.encode(SAMPLE, add_special_tokens=False).ids == ids


def test_library_gives_our_ids_on_random_texts(pair):
    ours, library = pair
    for text in random_texts(2_000):
        assert library.encode(text, add_special_tokens=False).ids == ours.encode(text), repr(text)


def test_library_gives_our_ids_for_every_single_token(pair):
    ours, library = pair
    for token_id in range(ours.vocab_size):
        text = ours.token_bytes(token_id).decode("utf-8", errors="ignore")
        assert library.encode(text, add_special_tokens=False).ids == ours.encode(text)
