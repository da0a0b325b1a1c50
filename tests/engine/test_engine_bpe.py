"""engine/bpe.py: round trips, its plain reference, the file format, the readable token text.

The sample corpus is the site's own German prose (pages/*.md, cut to 100 000 characters), the kind
of text the site's model is trained on.
"""

import itertools
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import bpe
from engine.bpe import PATTERN, ByteBPE

ROOT = Path(__file__).resolve().parents[2]
VOCAB = 1024


@cache
def sample() -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "pages").glob("*.md")))[:100_000]


@cache
def trained() -> ByteBPE:
    return ByteBPE.train(sample(), VOCAB)


# ---------------------------------------------------------------- the plain reference
# minbpe's BasicTokenizer applied per chunk: every chunk of the text kept as it is (no counting of
# distinct chunks, no incremental pair counts, no cache); each step counts all pairs anew.


def reference_train(text: str, vocab_size: int) -> list[tuple[int, int]]:
    chunks = [list(c.encode("utf-8")) for c in re.findall(PATTERN, text)]
    merges = []
    while 256 + len(merges) < vocab_size:
        counts = Counter()
        for ids in chunks:
            counts.update(itertools.pairwise(ids))
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))  # most frequent; of equals the smallest pair
        if counts[pair] < 2:
            break
        chunks = [reference_merge(ids, pair, 256 + len(merges)) for ids in chunks]
        merges.append(pair)
    return merges


def reference_merge(ids, pair, new_id):
    out = []
    for token in ids:
        if out and (out[-1], token) == pair:  # new_id is above both ids of the pair: no overlapping merge
            out[-1] = new_id
        else:
            out.append(token)
    return out


def reference_encode(merges, text: str) -> list[int]:
    ranks = {pair: r for r, pair in enumerate(merges)}
    out = []
    for chunk in re.findall(PATTERN, text):
        ids = list(chunk.encode("utf-8"))
        while len(ids) > 1:
            pairs = [p for p in itertools.pairwise(ids) if p in ranks]
            if not pairs:
                break
            pair = min(pairs, key=ranks.get)
            ids = reference_merge(ids, pair, 256 + ranks[pair])
        out += ids
    return out


def test_training_and_encoding_match_the_reference():
    text = sample()[:20_000]  # the reference recounts every pair at every step: kept small
    ours = ByteBPE.train(text, 400)
    assert ours.merges == reference_train(text, 400)
    assert len(ours.merges) == 400 - 256
    assert ours.encode(sample()) == reference_encode(ours.merges, sample())


@given(st.text())
def test_any_text_round_trips(text):
    assert trained().decode(trained().encode(text)) == text


@given(st.integers(0, 99_000), st.integers(0, 1_000), st.text(max_size=20))
def test_encoding_matches_the_reference_on_pieces_of_the_sample(start, length, extra):
    text = sample()[start : start + length] + extra
    tokenizer = trained()
    assert tokenizer.encode(text) == reference_encode(tokenizer.merges, text)
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_training_is_deterministic_and_learns_the_full_vocabulary():
    again = ByteBPE.train(sample(), VOCAB)
    assert again.merges == trained().merges
    assert again.vocab_size == trained().vocab_size == VOCAB


def test_ties_go_to_the_smallest_pair_and_training_stops_when_no_pair_repeats():
    # Chunks "xy", " xy", " ab", " ab": (x, y), (" ", a) and (a, b) occur twice each. The smallest
    # pair (" ", a) = (32, 97) comes first, then (x, y) beats (256, b). " xy" → (" ", 257) occurs
    # once, so training stops after three merges although 300 were asked for.
    tokenizer = ByteBPE.train("xy xy ab ab", 300)
    assert tokenizer.merges == [(32, 97), (120, 121), (256, 98)]
    assert tokenizer.vocab_size == 259
    assert ByteBPE.train("ab", 1000).vocab_size == 256


@pytest.mark.parametrize("size", [255, 0, -1, 300.0, True, "512"])
def test_a_vocabulary_below_the_bytes_is_refused(size):
    with pytest.raises(ValueError, match="at least 256"):
        ByteBPE.train("Haus", size)


def test_no_learned_token_crosses_a_chunk_boundary():
    tokenizer = trained()
    whole = 0
    for token_id in range(256, tokenizer.vocab_size):
        try:
            text = tokenizer.token_bytes(token_id).decode("utf-8")
        except UnicodeDecodeError:
            continue  # a token that ends inside a character is part of a chunk by construction
        assert len(re.findall(PATTERN, text)) == 1, text
        whole += 1
    assert whole > (tokenizer.vocab_size - 256) / 2


def test_a_compound_costs_more_tokens_than_a_short_word():
    tokenizer = trained()
    assert len(tokenizer.encode("Straßenbahnhaltestelle")) > len(tokenizer.encode("Haus")) >= 1
    assert len(tokenizer.encode(sample())) < len(sample().encode("utf-8")) / 2  # merges do compress


def test_umlauts_and_sharp_s_are_letters_and_numbers_go_in_threes():
    assert re.findall(PATTERN, "Die Größe: 12345 m² (x₁ = ½)\n\n  Ende") == [
        "Die", " Größe", ":", " 123", "45", " m", "²", " (", "x", "₁", " =", " ½", ")\n\n", " ", " Ende",
    ]


def test_text_the_pattern_does_not_match_is_kept():
    tokenizer = ByteBPE([(ord("l"), ord("l"))], pattern=r"[a-z]+")
    assert tokenizer.decode(tokenizer.encode("Hallo Welt!")) == "Hallo Welt!"
    assert tokenizer.encode("Hallo") == [ord("H"), ord("a"), 256, ord("o")]


def test_the_cache_gives_the_same_ids_after_it_is_cleared(monkeypatch):
    monkeypatch.setattr(bpe, "_CACHE_LIMIT", 3)
    tokenizer = ByteBPE(trained().merges)
    text = sample()[:5_000]
    assert tokenizer.encode(text) == tokenizer.encode(text) == trained().encode(text)
    assert len(tokenizer._cache) <= 3


def test_decode_replaces_broken_bytes_and_refuses_unknown_ids():
    tokenizer = ByteBPE()
    assert tokenizer.decode([0xC3, 0xA4, 0xC3]) == "ä\ufffd"
    with pytest.raises(ValueError, match="outside 0…255"):
        tokenizer.decode([256])


def test_token_text_marks_bytes_of_incomplete_characters():
    # ä is C3 A4, € is E2 82 AC
    tokenizer = ByteBPE([(0x20, 0xC3), (0xC3, 0xA4), (0xA4, ord("b")), (0xE2, 0x82)])
    assert tokenizer.token_text(256) == " ‹C3›"
    assert tokenizer.token_text(257) == "ä"
    assert tokenizer.token_text(258) == "‹A4›b"
    assert tokenizer.token_text(259) == "‹E2›‹82›"
    assert tokenizer.token_text(ord("a")) == "a"
    assert tokenizer.token_bytes(257) == "ä".encode()
    for token_id in range(trained().vocab_size):  # every complete character shows as itself
        text = trained().token_text(token_id)
        if "‹" not in text:
            assert text.encode("utf-8") == trained().token_bytes(token_id)


def test_json_round_trip():
    tokenizer = trained()
    data = json.loads(tokenizer.to_json())
    assert data == {"kind": "byte-bpe", "pattern": PATTERN, "merges": [list(p) for p in tokenizer.merges]}
    loaded = ByteBPE.from_json(tokenizer.to_json())
    assert loaded.merges == tokenizer.merges and loaded.vocab_size == VOCAB
    assert loaded.encode(sample()) == tokenizer.encode(sample())
    assert ByteBPE.from_json(ByteBPE().to_json()).vocab_size == 256


def good(**change):
    data = {"kind": "byte-bpe", "pattern": PATTERN, "merges": [[97, 98], [256, 99]]}
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "exactly"),
        (json.dumps({"kind": "byte-bpe", "merges": []}), "exactly"),
        (good(extra=1), "exactly"),
        (good(kind="wordpiece"), "kind 'wordpiece'"),
        (good(pattern=3), "pattern must be a string"),
        (good(pattern="(["), "not a valid regular expression"),
        (good(pattern="a*"), "empty string"),
        (good(merges={}), "merges must be a list"),
        (good(merges=[[97, 98], [257, 99]]), "merge 1 is \\[257, 99\\]"),
        (good(merges=[[97]]), "merge 0"),
        (good(merges=[[97, -1]]), "merge 0"),
        (good(merges=[[97, 98.0]]), "merge 0"),
        (good(merges=[[97, True]]), "merge 0"),
        (good(merges=[[97, 98], [97, 98]]), "repeats the pair"),
    ],
)
def test_a_bad_file_is_refused_clearly(text, message):
    with pytest.raises(ValueError, match=message):
        ByteBPE.from_json(text)
    assert ByteBPE.from_json(good()).vocab_size == 258


@given(st.integers(0, 50_000), st.integers(1, 200))
def test_merge_steps_apply_ever_later_merges_and_any_prefix_of_them_is_that_tokenizer(start, length):
    """The page „Tokenisierung“ reads every k off one pass: the first k merges alone encode a chunk to the
    ids after its last step of rank below k."""
    tokenizer = trained()
    text = sample()[start : start + length]
    for chunk in tokenizer.chunks(text):
        steps = list(tokenizer.merge_steps(chunk))
        ranks = [rank for rank, _ in steps]
        assert ranks == sorted(set(ranks))
        assert (tuple(steps[-1][1]) if steps else tuple(chunk.encode("utf-8"))) == tokenizer._encode_chunk(chunk)
        for k in sorted({0, len(tokenizer.merges)} | set(ranks) | {r + 1 for r in ranks}):
            fewer = ByteBPE(tokenizer.merges[:k])
            want = [ids for rank, ids in steps if rank < k]
            assert fewer.encode(chunk) == (want[-1] if want else list(chunk.encode("utf-8")))
