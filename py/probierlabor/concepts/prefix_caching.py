"""Prefix caching: reuse the KV blocks of an identical token prefix, found by a chained block hash.

The example (CONCEPTS.md §15; vLLM 0.21.0, „Automatic Prefix Caching“):

* the cache holds the tokens A B C D E F G H in blocks of 2 (4 full blocks); nothing is evicted;
* the new request is the same sequence with exactly one position replaced by X (or, P, no change);
* a block is identified by a hash over (hash of the previous block, its own token ids), so a block's
  key depends on everything before it: ``h_i = H(h_{i−1}, tokens_i)``; only full blocks are cached;
* the hit is the leading run of block hashes the cache knows;
* the last token of a request is never served from the cache (our engine, ``engine/block_pool.py``,
  like vLLM): the model must process at least one prompt position to get the logits for the first
  new token, so only the first n − 1 tokens can hit. In the article's cases this changes nothing;
  it shows when the request is identical to the cached one.

The hash is sha256 over the parent hash and the token ids as little-endian int64, as in our engine,
so the short hashes shown here are the ones the engine would print for these token ids.
The block size (1, 2, 4) is a control (P); the article uses 2.
"""

from __future__ import annotations

import hashlib
import struct

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, NARROW_WIDTH, WIDE
from ..kit.lesson import Lesson, Prediction, Task
from ..kit.table import table

SLUG = "prefix-caching"
TITLE = "Prefix Caching"
GROUP = "Die Inferenz-Engine"
TEASER = "Gleicher Anfang, gespeicherte Blöcke: Schon ein geändertes Token früh im Text stoppt die Wiederverwendung."

CACHED = tuple("ABCDEFGH")
TOKEN_ID = {t: ord(t) for t in "ABCDEFGHX"}  # assumed token ids: the letter's code (A = 65, X = 88)
ROOT = b""  # the parent hash of a sequence's first block
NONE = "-"

PARAMS = (
    Param("x", "X ersetzt", "choice", "H",
          choices=tuple((t, t) for t in CACHED) + ((NONE, "nichts"),),
          help="Welches Token der neuen Anfrage durch X ersetzt ist („nichts“: dieselbe Anfrage noch einmal)."),
    Param("block_size", "Tokens pro Block", "choice", 2, choices=((1, "1"), (2, "2"), (4, "4")),
          help="Nur volle Blöcke werden gespeichert und wiederverwendet (im Beispiel 2)."),
)

PRESETS = (
    Preset("X statt H", {"x": "H"}, "Die Änderung ganz am Ende."),
    Preset("X statt A", {"x": "A"}, "Die Änderung ganz am Anfang."),
    Preset("Gleiche Anfrage", {"x": NONE}, "Nichts geändert – und trotzdem wird ein Teil neu gerechnet."),
)


def block_hash(parent: bytes, tokens) -> bytes:
    data = parent + b"".join(struct.pack("<q", TOKEN_ID[t]) for t in tokens)
    return hashlib.sha256(data).digest()


def chain(tokens, size: int) -> list[bytes]:
    """The hashes of all full blocks, each over its parent's hash and its own tokens."""
    hashes, parent = [], ROOT
    for start in range(0, len(tokens) - size + 1, size):
        parent = block_hash(parent, tokens[start:start + size])
        hashes.append(parent)
    return hashes


def request(x: str) -> list[str]:
    tokens = list(CACHED)
    if x != NONE:
        tokens[CACHED.index(x)] = "X"
    return tokens


def lookup(tokens, size: int, cached: set[bytes]) -> tuple[int, int]:
    """(blocks whose hash the cache knows, leading run; blocks actually reused after the last-token rule)."""
    matching = 0
    for h in chain(tokens, size):
        if h not in cached:
            break
        matching += 1
    eligible = (len(tokens) - 1) // size  # the last token is always computed
    return matching, min(matching, eligible)


def case(x: str, size: int) -> dict:
    tokens = request(x)
    cached = set(chain(CACHED, size))
    matching, hit = lookup(tokens, size, cached)
    common = CACHED.index(x) if x != NONE else len(CACHED)
    return {
        "x": x,
        "common_prefix": common,
        "matching_blocks": matching,
        "hit_blocks": hit,
        "reused_tokens": hit * size,
        "compute_tokens": len(tokens) - hit * size,
        "same_after": sum(a == b for a, b in zip(CACHED[common + 1:], tokens[common + 1:])),
        "last_token_rule": matching > hit,
    }


def compute(x: str = "H", block_size: int = 2) -> dict:
    size = block_size
    tokens = request(x)
    old, new = chain(CACHED, size), chain(tokens, size)
    r = case(x, size)
    r.update({
        "block_size": size,
        "cached_tokens": list(CACHED),
        "tokens": tokens,
        "cached_hashes": [h.hex()[:6] for h in old],
        "hashes": [h.hex()[:6] for h in new],
        "same_hash": [a == b for a, b in zip(old, new)],
        "full_blocks": len(new),
        "table": [case(t, size) for t in CACHED + (NONE,)],
    })
    return r


def _letter(x: str) -> str:
    return "nichts" if x == NONE else x


def view(r: dict, layout: str = WIDE) -> View:
    size, hit = r["block_size"], r["hit_blocks"]
    n = len(r["tokens"])
    gap, x0 = 6, 16
    cell = 50 if layout == WIDE else (NARROW_WIDTH - x0 - 10 - gap * (n // size - 1)) / n
    # a narrow figure with blocks narrower than a hash staggers the texts under neighbouring blocks
    stagger = 14 if size * cell < 50 else 0
    def bx(j):  # left edge of block j
        return x0 + j * (size * cell + gap)
    width = int(bx(n // size)) + 10 - (gap if layout == NARROW else 0)
    parts: list[str] = []

    def row(y, title, tokens, hashes, kind):
        parts.append(svg.text(x0, y - 8, title, "pl-label pl-pc-head"))
        for j in range(n // size):
            left = bx(j)
            if kind == "cache":
                cls = "pl-pc-block pl-pc-stored"
            elif j < hit:
                cls = "pl-pc-block pl-pc-hit"
            else:
                cls = "pl-pc-block pl-pc-miss"
            parts.append(f'<rect class="{cls}" x="{left}" y="{y}" width="{size * cell}" height="34" rx="4"/>')
            for k in range(size):
                t = tokens[j * size + k]
                cx = left + k * cell + cell / 2
                if k:
                    parts.append(f'<line class="pl-pc-sep" x1="{left + k * cell}" y1="{y + 4}" '
                                 f'x2="{left + k * cell}" y2="{y + 30}"/>')
                parts.append(svg.text(cx, y + 23, t, "pl-label pl-pc-tok" + (" pl-pc-x" if t == "X" else ""), "middle"))
            parts.append(svg.text(left + size * cell / 2, y + 52 + stagger * (j % 2), hashes[j], "pl-label pl-pc-hash",
                                  "middle"))
            if j:
                parts.append(svg.arrow(left - gap - 2, y + 48, left + 4, y + 48, "pl-pc-chain", head=5))

    row(30, f"Im Cache: Blöcke zu {size}, Hash je Block", r["cached_tokens"], r["cached_hashes"], "cache")
    for j, same in enumerate(r["same_hash"]):
        parts.append(svg.text(bx(j) + size * cell / 2, 112, "=" if same else "≠",
                              "pl-label pl-pc-cmp" + ("" if same else " pl-pc-diff"), "middle"))
    row(150, "Neue Anfrage", r["tokens"], r["hashes"], "new")
    for j in range(n // size):
        label = "Treffer" if j < hit else ("Letztes Token" if r["same_hash"][j] else "neu")
        if size == 1 and label == "Letztes Token":
            label = "letztes"
        parts.append(svg.text(bx(j) + size * cell / 2, 224 + stagger * (1 + j % 2), label,
                              "pl-label pl-pc-status" + (" pl-pc-status-hit" if j < hit else ""), "middle"))
    lines = (f"Wiederverwendet: {r['reused_tokens']} von {n} Tokens ({hit} volle "
             f"{'Block' if hit == 1 else 'Blöcke'});", f"neu zu rechnen: {r['compute_tokens']}")
    if layout == NARROW:
        parts += [svg.text(x0, 254 + 2 * stagger + 18 * k, text, "pl-label pl-pc-head") for k, text in enumerate(lines)]
    else:
        parts.append(svg.text(x0, 254, " ".join(lines), "pl-label pl-pc-head"))
    height = 266 + (2 * stagger + 18 if layout == NARROW else 0)
    figure = svg.figure(width, height, parts, cls="pl-pc", layout=layout,
                        label="Gespeicherte und neue Tokenfolge in Blöcken mit verketteten Hashes")

    readouts = [
        Readout("common_prefix", "Gemeinsamer Anfang", f"{r['common_prefix']} Tokens", r["common_prefix"]),
        Readout("hit_blocks", "Wiederverwendete Blöcke", fmt.de(hit), hit),
        Readout("reused_tokens", "Wiederverwendete Tokens", fmt.de(r["reused_tokens"]), r["reused_tokens"], True),
        Readout("compute_tokens", "Neu zu rechnen", f"{r['compute_tokens']} Tokens", r["compute_tokens"], True),
        Readout("same_after", "Gleiche Tokens nach X", fmt.de(r["same_after"]), r["same_after"]),
    ]
    rows = [(_letter(c["x"]), c["common_prefix"], c["hit_blocks"], c["reused_tokens"]) for c in r["table"]]
    extra = table(("X ersetzt", "gemeinsamer Anfang", "Blöcke", "Tokens wiederverwendet"), rows,
                  caption=f"Alle Positionen von X bei Blöcken zu {size}", row_heads=True, numeric=True,
                  highlight=[i for i, c in enumerate(r["table"]) if c["x"] == r["x"]])
    what = "keine Änderung" if r["x"] == NONE else f"X statt {r['x']}"
    summary = (f"{what}, Blöcke zu {size}: {r['common_prefix']} gemeinsame Tokens am Anfang, "
               f"{hit} volle Blöcke mit {r['reused_tokens']} Tokens aus dem Cache, {r['compute_tokens']} neu zu rechnen.")
    if r["last_token_rule"]:
        summary += " Das letzte Token wird immer selbst gerechnet, auch wenn sein Block im Cache läge."
    return View(figure, readouts, summary, extra)


# -- the lesson ---------------------------------------------------------------------------

LESSON = Lesson(
    prediction=Prediction(
        question="X ersetzt A, die übrigen sieben Tokens sind genau gleich. Wie viele Tokens kommen bei "
                 "Blöcken zu 2 aus dem Cache?",
        choices=("keines", "sechs", "sieben"),
        answer=0,
        shown=lambda params, result: params["x"] == "A" and params["block_size"] == 2,
        explain="Der erste Block hat einen anderen Hash. Jeder folgende Hash baut auf ihm auf, "
                "also kennt der Cache keinen einzigen Block.",
        example={"x": "A"},
    ),
    tasks=(
        Task("keep_all", "Lass X an der Stelle von H und ändere nur die Blockgröße, bis alle sieben gleichen "
                         "Tokens aus dem Cache kommen.",
             solved=lambda params, result: params["x"] == "H" and result["reused_tokens"] == result["common_prefix"],
             explain="Bei Blöcken zu einem Token ist jeder Block voll, also geht vom gleichen Anfang nichts verloren. "
                     "Dafür braucht der Cache viel mehr Einträge.",
             example={"block_size": 1}),
        Task("same_request", "Finde eine Anfrage, bei der alle Hashes gleich sind und trotzdem etwas neu gerechnet "
                             "wird.",
             solved=lambda params, result: all(result["same_hash"]) and result["compute_tokens"] > 0,
             explain="Um das erste neue Token zu wählen, braucht das Modell die Ausgabe der letzten Position. "
                     "Die muss es selbst rechnen, und weil nur volle Blöcke zählen, fällt der Block mit ihr weg.",
             example={"x": NONE}),
        Task("late_miss", "Nimm Blöcke zu 4 und finde die späteste Stelle für X, bei der gar nichts aus dem Cache "
                          "kommt.",
             solved=lambda params, result: params["block_size"] == 4 and params["x"] == "D",
             explain="D liegt noch im ersten Block. Dessen Hash ändert sich und mit ihm jeder folgende, "
                     "obwohl A, B und C gleich sind.",
             example={"block_size": 4, "x": "D"}),
    ),
    discussion=(
        "Ein Chatbot setzt vor jede Frage dieselbe lange Anleitung. Warum lohnt sich Prefix Caching dort besonders?",
        "Warum hängt der Hash eines Blocks auch von allen Blöcken davor ab und nicht nur von seinen eigenen Tokens?",
    ),
    teacher=(
        "Die Anleitung ist bei jeder Anfrage der gleiche Anfang. Die Blöcke der Anleitung liegen schon im Cache, "
        "also muss nur die neue Frage gerechnet werden.",
        "Keys und Values einer Position hängen vom ganzen Text davor ab. Gleiche Tokens nach einer Änderung "
        "haben deshalb andere K/V und dürfen nicht wiederverwendet werden.",
    ),
    misconceptions=(
        "„Gleiche Tokens irgendwo im Text werden wiederverwendet.“ Es zählt nur der gleiche Anfang; "
        "nach der ersten Änderung ist Schluss.",
        "„Prefix Caching macht auch die Antwort schneller.“ Es spart nur Prefill. Jedes Token der Antwort "
        "muss weiterhin erzeugt werden.",
    ),
)
