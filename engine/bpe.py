"""Byte-level BPE: the tokenizer of the site's own trained model.

A language model reads integer ids, so text has to be cut into pieces from a fixed vocabulary.
One id per character (``tokenizer.py``) keeps the pieces readable but makes sequences long; one id
per word needs a huge vocabulary and still meets words it has never seen. Byte pair encoding
(Sennrich et al. 2016; GPT-2's byte-level variant) sits between the two:

* **Byte-level.** Text is first turned into its UTF-8 bytes, and ids 0–255 *are* those bytes. Every
  string – umlauts, emoji, Chinese, a typo – is a byte sequence, so every text encodes and there is
  no "unknown" token. A rare character simply costs several byte tokens.
* **Training** starts from the 256 bytes and repeatedly takes the adjacent pair of ids that occurs
  most often in the training text, gives it a new id (256, 257, …) and replaces the pair by it
  everywhere. Each such **merge** is one line in the file; the vocabulary is 256 + number of merges.
  Frequent German pieces (" der", "ung", "en") end up as one token, a rare compound as several.
* **Encoding** repeats the learned merges on new text, the earliest-learned applicable merge first,
  until none applies. Decoding just concatenates the bytes of the ids.
* **Chunks.** Before any of this the text is cut by a regular expression (in the spirit of GPT-2's
  and GPT-4's): a word with its leading space, up to three digits, a run of punctuation, whitespace.
  Merges never cross a chunk boundary, so no token glues the end of one word to the next one, and
  training can count each distinct chunk once with its frequency instead of walking the whole text.
  The pattern uses the standard library's ``re`` (it runs in Pyodide, where the third-party
  ``regex`` module and its ``\\p{L}`` are missing): ``[^\\W\\d_]`` is "a letter", umlauts and ß
  included. Text the pattern does not match becomes a chunk of its own, so any pattern stored in a
  file still encodes every text.

Ties while training: of the pairs with the highest count, the smallest pair (a, b) wins (compared as
tuples of ids), so training is deterministic. A merge needs a pair that occurs at least twice; when
the text has no such pair left (too short for the requested size) training stops early and
``vocab_size`` says how many ids were learned. The file format is small JSON:
``{"kind": "byte-bpe", "pattern": …, "merges": [[a, b], …]}``, merge i creating id 256 + i.
Errors (bad vocabulary size, a malformed file, an unknown id) are ``ValueError``.
"""

from __future__ import annotations

import heapq
import itertools
import json
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator

# Python's \w counts every numeric character as a word character, so [^\W\d_] alone would take
# "m²" or "x₁" for one word, where \p{L} and Oniguruma's \w (Hugging Face's tokenizers) do not.
# The superscript and subscript digits and the common fractions count as digits here instead, which
# keeps the chunks of German text, formulas included, the same in both regex engines.
_NUMERIC = "¹²³¼-¾⁰⁴-⁹₀-₉"
# Alternatives in order: a word with its leading space; up to three digits (GPT-4 cuts long
# numbers so); punctuation (and "_", which \w counts as a letter) with the newlines after it;
# whitespace up to a line end; whitespace except the last space before a word (which the word
# takes); any other whitespace. Every character matches one alternative.
PATTERN = (
    rf" ?[^\W\d_{_NUMERIC}]+| ?[\d{_NUMERIC}]{{1,3}}| ?(?:[^\s\w{_NUMERIC}]|_)+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"
)

KIND = "byte-bpe"
MIN_PAIR_COUNT = 2  # a pair seen once would only memorise the training text
_CACHE_LIMIT = 50_000  # chunks remembered by encode; cleared when full, so memory stays bounded


class ByteBPE:
    def __init__(self, merges: Iterable[tuple[int, int]] = (), pattern: str = PATTERN):
        self.merges = [(int(a), int(b)) for a, b in merges]
        self.pattern = pattern
        self._regex = re.compile(pattern)
        self._ranks = {pair: rank for rank, pair in enumerate(self.merges)}
        self._bytes = [bytes([i]) for i in range(256)]
        for a, b in self.merges:
            self._bytes.append(self._bytes[a] + self._bytes[b])
        self._cache: dict[str, tuple[int, ...]] = {}

    @property
    def vocab_size(self) -> int:
        return 256 + len(self.merges)

    # ----------------------------------------------------------------- training
    @classmethod
    def train(cls, text: str, vocab_size: int) -> ByteBPE:
        """Learn ``vocab_size - 256`` merges from ``text`` (fewer if the text runs out of pairs).

        The text is cut into chunks once and each distinct chunk is kept with its count. Pair
        counts are then kept up to date: a merge only rewrites the chunks that contain its pair
        (``where``), and the best pair comes from a heap whose outdated entries are skipped.
        """
        if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 256:
            raise ValueError(f"vocab_size must be an integer of at least 256 (the bytes), got {vocab_size!r}")
        tokenizer = cls()
        chunk_counts = Counter(tokenizer.chunks(text))
        words = [list(chunk.encode("utf-8")) for chunk in chunk_counts]
        freqs = list(chunk_counts.values())
        counts: Counter[tuple[int, int]] = Counter()
        where: dict[tuple[int, int], set[int]] = {}
        for i, word in enumerate(words):
            for pair in itertools.pairwise(word):
                counts[pair] += freqs[i]
                where.setdefault(pair, set()).add(i)
        heap = [(-n, pair) for pair, n in counts.items()]
        heapq.heapify(heap)
        merges: list[tuple[int, int]] = []
        while len(merges) < vocab_size - 256 and heap:
            neg, pair = heapq.heappop(heap)
            if counts.get(pair) != -neg:
                continue  # outdated entry; the pair's current count was pushed when it changed
            if -neg < MIN_PAIR_COUNT:
                break
            new_id = 256 + len(merges)
            merges.append(pair)
            changed = set()
            for i in where.pop(pair):
                word, freq = words[i], freqs[i]
                merged = _merge(word, pair, new_id)
                if len(merged) == len(word):
                    continue  # this chunk lost the pair to an earlier merge
                for old in itertools.pairwise(word):
                    counts[old] -= freq
                    changed.add(old)
                for new in itertools.pairwise(merged):
                    counts[new] += freq
                    changed.add(new)
                    where.setdefault(new, set()).add(i)
                words[i] = merged
            for p in changed:
                n = counts[p]
                if n > 0:
                    heapq.heappush(heap, (-n, p))
                else:
                    del counts[p]
        return cls(merges)

    # ----------------------------------------------------------------- encoding
    def chunks(self, text: str) -> Iterator[str]:
        """The pattern's matches in order, and whatever lies between them as chunks of their own."""
        pos = 0
        for m in self._regex.finditer(text):
            if m.start() > pos:
                yield text[pos : m.start()]
            if m.end() > m.start():
                yield m.group()
            pos = m.end()
        if pos < len(text):
            yield text[pos:]

    def merge_steps(self, chunk: str) -> Iterator[tuple[int, list[int]]]:
        """Encoding one chunk step by step: each merge it applies (its rank) and the ids after it.

        The ranks only grow: a merge removes its pair everywhere, and a pair it creates contains the
        new id, so it was learned later. The first k merges alone therefore encode the chunk to the ids
        after its last step of rank below k (the bytes if there is none): one pass serves every k.
        """
        ids = list(chunk.encode("utf-8"))
        ranks = self._ranks
        while len(ids) > 1:
            pair = min(itertools.pairwise(ids), key=lambda p: ranks.get(p, len(ranks)))
            rank = ranks.get(pair)
            if rank is None:
                return
            ids = _merge(ids, pair, 256 + rank)
            yield rank, ids

    def _encode_chunk(self, chunk: str) -> tuple[int, ...]:
        last = deque(self.merge_steps(chunk), maxlen=1)  # only the final merge's ids count
        return tuple(last[0][1]) if last else tuple(chunk.encode("utf-8"))

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        cache = self._cache
        for chunk in self.chunks(text):
            ids = cache.get(chunk)
            if ids is None:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                ids = cache[chunk] = self._encode_chunk(chunk)
            out.extend(ids)
        return out

    def decode(self, ids: Iterable[int]) -> str:
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", errors="replace")

    def token_bytes(self, token_id: int) -> bytes:
        if isinstance(token_id, bool) or not isinstance(token_id, int) or not 0 <= token_id < len(self._bytes):
            raise ValueError(f"token id {token_id!r} outside 0…{len(self._bytes) - 1}")
        return self._bytes[token_id]

    def token_text(self, token_id: int) -> str:
        """The token's text; a byte that is not part of a complete UTF-8 character shows as ‹C3›.

        A token may end in the middle of a character (ä is C3 A4; a token can hold just C3).
        UTF-8 is prefix-free, so at each position at most one length of 1–4 bytes decodes.
        """
        data = self.token_bytes(token_id)
        parts, i = [], 0
        while i < len(data):
            for n in range(1, 5):
                try:
                    parts.append(data[i : i + n].decode("utf-8"))
                except UnicodeDecodeError:
                    continue
                i += n
                break
            else:
                parts.append(f"‹{data[i]:02X}›")
                i += 1
        return "".join(parts)

    # ----------------------------------------------------------------- file
    def to_json(self) -> str:
        """The file: one merge per line, so a retrained tokenizer's diff shows what changed."""
        merges = ",\n".join(f"    [{a}, {b}]" for a, b in self.merges)
        head = f'{{\n  "kind": {json.dumps(KIND)},\n  "pattern": {json.dumps(self.pattern)},\n  "merges": ['
        return f"{head}\n{merges}\n  ]\n}}\n" if merges else f"{head}]\n}}\n"

    @classmethod
    def from_json(cls, s: str) -> ByteBPE:
        try:
            data = json.loads(s)
        except json.JSONDecodeError as e:
            raise ValueError(f"tokenizer file is not valid JSON: {e}") from None
        if not isinstance(data, dict) or set(data) != {"kind", "pattern", "merges"}:
            raise ValueError('tokenizer file must be an object with exactly "kind", "pattern" and "merges"')
        if data["kind"] != KIND:
            raise ValueError(f'tokenizer file has kind {data["kind"]!r}, expected {KIND!r}')
        pattern = data["pattern"]
        if not isinstance(pattern, str):
            raise ValueError("tokenizer pattern must be a string")
        try:
            compiled = re.compile(pattern)
        except re.error as e:
            raise ValueError(f"tokenizer pattern is not a valid regular expression: {e}") from None
        if compiled.fullmatch(""):
            raise ValueError("tokenizer pattern must not match the empty string")
        merges = data["merges"]
        if not isinstance(merges, list):
            raise ValueError("tokenizer merges must be a list of [a, b] pairs")
        seen = set()
        for rank, pair in enumerate(merges):
            ok = isinstance(pair, list) and len(pair) == 2
            ok = ok and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 256 + rank for x in pair)
            if not ok:
                raise ValueError(
                    f"merge {rank} is {pair!r}: it must be a pair of ids below {256 + rank} "
                    "(the bytes and the ids of earlier merges)"
                )
            if tuple(pair) in seen:
                raise ValueError(f"merge {rank} repeats the pair {pair!r}")
            seen.add(tuple(pair))
        return cls([tuple(p) for p in merges], pattern)


def _merge(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace each occurrence of ``pair`` in ``ids``, left to right, without overlaps."""
    a, b = pair
    out, i, n = [], 0, len(ids)
    while i < n:
        if ids[i] == a and i + 1 < n and ids[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
