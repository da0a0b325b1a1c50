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
The block size (1–8) is a control (P); the article uses 2.

Own case: the reader types the cached text and/or the new request, one token per character (id = the
character's code, as for the letters). Without an own request, the request is the cached text with X
at the chosen letter's position (A = 1st … H = 8th). Characters that do not fit into a full block
are drawn, but never cached.
"""

from __future__ import annotations

import hashlib
import struct

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, NARROW_WIDTH, WIDE
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "prefix-caching"
TITLE = "Prefix Caching"
GROUP = "Die Inferenz-Engine"
TEASER = "Gleicher Anfang, gespeicherte Blöcke: Schon ein geändertes Token früh im Text stoppt die Wiederverwendung."

CACHED = tuple("ABCDEFGH")
ROOT = b""  # the parent hash of a sequence's first block
NONE = "-"
LONGEST = 12  # characters of an own text: the figure still shows each one in a box
TYPABLE = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ" "abcdefghijklmnopqrstuvwxyz" "ÄÖÜäöüß" "0123456789 ")
SPACE_SHOWN = "␣"


def token_id(t: str) -> int:
    """Assumed token id: the character's code (A = 65, X = 88)."""
    return ord(t)

PARAMS = (
    Param("x", "X ersetzt", "choice", "H",
          choices=(*tuple((t, t) for t in CACHED), (NONE, "nichts")),
          help="Welches Token der neuen Anfrage durch X ersetzt ist („nichts“: dieselbe Anfrage noch einmal)."),
    Param("block_size", "Tokens pro Block", "int", 2, lo=1, hi=8, step=1,
          help="Nur volle Blöcke werden gespeichert und wiederverwendet (im Beispiel 2)."),
    Param("cached", "Eigener Text im Cache", "text", "", count=(1, LONGEST), allowed=TYPABLE, widget="z. B. Hallo Welt",
          help="Bis zu 12 Zeichen (Buchstaben, Ziffern, Leerzeichen), ein Token je Zeichen. Leer: A bis H."),
    Param("prompt", "Eigene neue Anfrage", "text", "", count=(1, LONGEST), allowed=TYPABLE, widget="z. B. Hallo Wald",
          help="Bis zu 12 Zeichen. Leer: der Text im Cache mit X an der gewählten Stelle."),
)

PRESETS = (
    Preset("X statt H", {"x": "H"}, "Die Änderung ganz am Ende."),
    Preset("X statt A", {"x": "A"}, "Die Änderung ganz am Anfang."),
    Preset("Gleiche Anfrage", {"x": NONE}, "Nichts geändert – und trotzdem wird ein Teil neu gerechnet."),
)


def block_hash(parent: bytes, tokens) -> bytes:
    data = parent + b"".join(struct.pack("<q", token_id(t)) for t in tokens)
    return hashlib.sha256(data).digest()


def chain(tokens, size: int) -> list[bytes]:
    """The hashes of all full blocks, each over its parent's hash and its own tokens."""
    hashes, parent = [], ROOT
    for start in range(0, len(tokens) - size + 1, size):
        parent = block_hash(parent, tokens[start:start + size])
        hashes.append(parent)
    return hashes


def request(x: str, stored=CACHED) -> list[str]:
    """The stored text with X at the position of the letter x in A…H (unchanged where the text is shorter)."""
    tokens = list(stored)
    if x != NONE and CACHED.index(x) < len(tokens):
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


def compare(stored, tokens, size: int) -> dict:
    """What the cache holding ``stored`` gives a request ``tokens``."""
    matching, hit = lookup(tokens, size, set(chain(stored, size)))
    common = next((i for i, (a, b) in enumerate(zip(stored, tokens)) if a != b), min(len(stored), len(tokens)))
    return {
        "common_prefix": common,
        "matching_blocks": matching,
        "hit_blocks": hit,
        "reused_tokens": hit * size,
        "compute_tokens": len(tokens) - hit * size,
        "same_after": sum(a == b for a, b in zip(stored[common + 1:], tokens[common + 1:])),
        "last_token_rule": matching > hit,
    }


def case(x: str, size: int, stored=CACHED) -> dict:
    return {"x": x, **compare(stored, request(x, stored), size)}


def compute(x: str = "H", block_size: int = 2, cached: str = "", prompt: str = "") -> dict:
    size = block_size
    stored = tuple(cached) if cached else CACHED
    tokens = list(prompt) if prompt else request(x, stored)
    old, new = chain(stored, size), chain(tokens, size)
    r = {"x": x, **compare(stored, tokens, size)}
    r.update({
        "block_size": size,
        "own_cached": bool(cached),
        "own_prompt": bool(prompt),
        "x_outside": not prompt and x != NONE and CACHED.index(x) >= len(stored),
        "cached_tokens": list(stored),
        "tokens": tokens,
        "cached_hashes": [h.hex()[:6] for h in old],
        "hashes": [h.hex()[:6] for h in new],
        "same_hash": [a == b for a, b in zip(old, new)],
        "full_blocks": len(new),
        # X at every position the letters A…H name, as far as the cached text reaches
        "table": [case(t, size, stored) for t in (*CACHED[:len(stored)], NONE)],
    })
    return r


def _letter(x: str) -> str:
    return "nichts" if x == NONE else x


def _tokens(n: int) -> str:
    return "1 Token" if n == 1 else f"{n} Tokens"


def _shown(t: str) -> str:
    return SPACE_SHOWN if t == " " else t


# The longest first line of the narrow figure's sentence with the article's eight tokens
# ("Wiederverwendet: 8 von 8 Tokens (4 volle Blöcke);"): it just fits the phone's width.
ARTICLE_LINE = 49


def _key_sentence(r: dict, what: str) -> str:
    """The sentence under the blocks: how much of the common start the cache gives back – only whole
    blocks, nothing once the first block differs, never the last token's block – and what is left to compute."""
    common, reused, hit, compute = r["common_prefix"], r["reused_tokens"], r["hit_blocks"], r["compute_tokens"]
    text = f"{what[0].upper()}{what[1:]}, Blöcke zu {r['block_size']}: "
    if common == 0:
        text += (f"Kein Treffer, schon der erste Block ist anders und damit jeder Hash danach. Alle "
                 f"{_tokens(compute)} werden neu gerechnet")
        return text + (f", obwohl die {r['same_after']} folgenden gleich sind." if r["same_after"] and not r["own_prompt"]
                       else ".")
    if hit == 0 and not r["last_token_rule"]:
        start = "Nur das erste Token stimmt" if common == 1 else f"Die ersten {common} Tokens stimmen"
        return (text + f"{start} überein, das füllt keinen ganzen Block. Nichts kommt aus dem Cache, "
                f"{_tokens(compute)} sind neu zu rechnen.")
    blocks = f"{hit} {'vollem Block' if hit == 1 else 'vollen Blöcken'}"
    text += f"Die ersten {_tokens(common)} stimmen überein. "
    if reused == common:
        text += f"Alle kommen in {blocks} aus dem Cache, {_tokens(compute)} sind neu zu rechnen."
    else:
        text += (f"Aus dem Cache kommen aber nur {reused}, in {blocks}" if hit else "Aus dem Cache kommt aber nichts"
                 ) + f"; {_tokens(compute)} sind neu zu rechnen."
    if r["last_token_rule"]:
        text += " Das letzte Token wird immer selbst gerechnet, darum fällt sein Block weg, auch wenn er im Cache läge."
    elif reused < common:
        text += " Ein angefangener Block zählt nicht."
    return text


def view(r: dict, layout: str = WIDE) -> View:
    size, hit = r["block_size"], r["hit_blocks"]
    n = len(r["tokens"])
    stored = r["cached_tokens"]
    gap, x0 = 6, 16
    narrow = layout == NARROW

    def gaps(length):  # the gaps between a row's blocks, a rest after the last full block included
        return gap * (length // size - (1 if length % size == 0 else 0))
    # a narrow figure fits the longer of the two rows into the phone's width
    cell = 50 if not narrow else min((NARROW_WIDTH - x0 - 10 - gaps(m)) / m for m in (len(stored), n))
    # a narrow figure with blocks narrower than a hash staggers the texts under neighbouring blocks
    stagger = 14 if size * cell < 50 else 0
    def bx(j):  # left edge of block j
        return x0 + j * (size * cell + gap)
    width = max(int(bx(len(t) // size) + len(t) % size * cell) - (gap if narrow and len(t) % size == 0 else 0)
                for t in (stored, r["tokens"])) + 10
    parts: list[str] = []

    def row(y, title, tokens, hashes, kind):
        parts.append(svg.text(x0, y - 8, title, "pl-label pl-pc-head"))
        full = len(tokens) // size
        if len(tokens) % size:  # a rest shorter than a block: drawn, never cached
            left = bx(full)
            parts.append(f'<rect class="pl-pc-block pl-pc-rest" x="{left}" y="{y}" width="{len(tokens) % size * cell}" '
                         f'height="34" rx="4"><title>kein voller Block</title></rect>')
            for k, t in enumerate(tokens[full * size:]):
                parts.append(svg.text(left + k * cell + cell / 2, y + 23, _shown(t), "pl-label pl-pc-tok", "middle"))
        for j in range(full):
            left = bx(j)
            if kind == "cache":
                cls = "pl-pc-block pl-pc-stored"
            elif j < hit:
                cls = "pl-pc-block pl-pc-hit"
            else:
                cls = "pl-pc-block pl-pc-miss"
            parts.append(f'<rect class="{cls}" x="{left}" y="{y}" width="{size * cell}" height="34" rx="4"/>')
            for k in range(size):
                i = j * size + k
                t = tokens[i]
                cx = left + k * cell + cell / 2
                if k:
                    parts.append(f'<line class="pl-pc-sep" x1="{left + k * cell}" y1="{y + 4}" '
                                 f'x2="{left + k * cell}" y2="{y + 30}"/>')
                changed = kind == "new" and (i >= len(stored) or stored[i] != t)
                parts.append(svg.text(cx, y + 23, _shown(t), "pl-label pl-pc-tok" + (" pl-pc-x" if changed else ""),
                                      "middle"))
            parts.append(svg.text(left + size * cell / 2, y + 52 + stagger * (j % 2), hashes[j], "pl-label pl-pc-hash",
                                  "middle"))
            if j:
                parts.append(svg.arrow(left - gap - 2, y + 48, left + 4, y + 48, "pl-pc-chain", head=5))

    row(30, f"Im Cache: Blöcke zu {size}, Hash je Block", stored, r["cached_hashes"], "cache")
    # the lower line of staggered hashes reaches down to the =/≠ row: it moves into the room above the next row
    cmp_y = 112 + stagger / 2
    for j, same in enumerate(r["same_hash"]):
        parts.append(svg.text(bx(j) + size * cell / 2, cmp_y, "=" if same else "≠",
                              "pl-label pl-pc-cmp" + ("" if same else " pl-pc-diff"), "middle"))
    row(150, "Neue Anfrage", r["tokens"], r["hashes"], "new")
    for j in range(r["full_blocks"]):
        known = j < len(r["same_hash"]) and r["same_hash"][j]  # a request longer than the cache: its tail is new
        label = "Treffer" if j < hit else ("Letztes Token" if known else "neu")
        if size == 1 and label == "Letztes Token":
            label = "letztes"
        parts.append(svg.text(bx(j) + size * cell / 2, 224 + stagger * (1 + j % 2), label,
                              "pl-label pl-pc-status" + (" pl-pc-status-hit" if j < hit else ""), "middle"))
    lines = (f"Wiederverwendet: {r['reused_tokens']} von {n} Tokens ({hit} "
             f"{'voller Block' if hit == 1 else 'volle Blöcke'});", f"neu zu rechnen: {r['compute_tokens']}")
    if layout == NARROW:
        if len(lines[0]) > ARTICLE_LINE:  # longer own texts: the count of blocks in a line of its own
            lines = (*lines[0].split(" (", 1)[:1], "(" + lines[0].split(" (", 1)[1], lines[1])
        parts += [svg.text(x0, 254 + 2 * stagger + 18 * k, text, "pl-label pl-pc-head") for k, text in enumerate(lines)]
    else:
        parts.append(svg.text(x0, 254, " ".join(lines), "pl-label pl-pc-head"))
    height = 266 + (2 * stagger + 18 * (len(lines) - 1) if layout == NARROW else 0)
    figure = svg.figure(width, height, parts, cls="pl-pc", layout=layout,
                        label="Gespeicherte und neue Tokenfolge in Blöcken mit verketteten Hashes")

    readouts = [
        Readout("common_prefix", "Gemeinsamer Anfang", _tokens(r["common_prefix"]), r["common_prefix"]),
        Readout("hit_blocks", "Wiederverwendete Blöcke", fmt.de(hit), hit),
        Readout("reused_tokens", "Wiederverwendete Tokens", fmt.de(r["reused_tokens"]), r["reused_tokens"], True),
        Readout("compute_tokens", "Neu zu rechnen", _tokens(r["compute_tokens"]), r["compute_tokens"], True),
        Readout("same_after", "Gleiche Tokens nach X" if not r["own_prompt"] else "Gleiche Tokens nach der Änderung",
                fmt.de(r["same_after"]), r["same_after"]),
    ]
    def place(x):  # with an own cached text, a letter names a position
        if not r["own_cached"] or x == NONE:
            return _letter(x)
        return f"{CACHED.index(x) + 1}. ({_shown(stored[CACHED.index(x)])})"
    rows = [(place(c["x"]), c["common_prefix"], c["hit_blocks"], c["reused_tokens"]) for c in r["table"]]
    extra = table(("X ersetzt", "gemeinsamer Anfang", "Blöcke", "Tokens wiederverwendet"), rows,
                  caption=f"Alle Positionen von X bei Blöcken zu {size}", row_heads=True, numeric=True,
                  highlight=[] if r["own_prompt"] else [i for i, c in enumerate(r["table"]) if c["x"] == r["x"]])
    if r["own_cached"] or r["own_prompt"]:
        def text(tokens):
            return "„" + "".join(tokens) + "“"
        what = (f"Im Cache {text(stored)}, neue Anfrage {text(r['tokens'])}"
                + (" (der Text hat keine Stelle für X)" if r["x_outside"] else ""))
    else:
        what = "keine Änderung" if r["x"] == NONE else f"X statt {r['x']}"
    summary = _key_sentence(r, what)
    # the table has every position of X, the one the lesson's guess asks about too
    return View(figure, readouts, summary, extra, extra_answers=True)


# -- the lesson ---------------------------------------------------------------------------

def _article(params) -> bool:
    """The tasks speak of the letters A to H: no own text typed."""
    return not params["cached"] and not params["prompt"]


LESSON = Lesson(
    prediction=Prediction(
        question="X ersetzt A, die übrigen sieben Tokens sind genau gleich. Wie viele Tokens kommen bei "
                 "Blöcken zu 2 aus dem Cache?",
        choices=("keines", "sechs", "sieben"),
        answer=0,
        shown=lambda params, result: params["x"] == "A" and params["block_size"] == 2 and _article(params),
        explain="Der erste Block hat einen anderen Hash. Jeder folgende Hash baut auf ihm auf, "
                "also kennt der Cache keinen einzigen Block.",
        example={"x": "A"},
        why_not=("",
                 "X verdirbt nur den ersten Block, die Blöcke C D, E F und G H sehen gleich aus. "
                 "Ihr Hash baut aber auf dem Hash davor auf. Deshalb kennt der Cache keinen davon.",
                 "Sieben Tokens sind gleich, da scheint alles außer X wiederverwendbar. Der Cache sucht aber nur "
                 "den gleichen Anfang, und der endet schon vor dem ersten Token."),
    ),
    tasks=(
        Task("keep_all", "Lass X an der Stelle von H und ändere nur die Blockgröße, bis alle sieben gleichen "
                         "Tokens aus dem Cache kommen.",
             solved=lambda params, result: (params["x"] == "H" and _article(params)
                                            and result["reused_tokens"] == result["common_prefix"]),
             explain="Bei Blöcken zu einem Token ist jeder Block voll, also geht vom gleichen Anfang nichts verloren. "
                     "Dafür braucht der Cache viel mehr Einträge.",
             example={"block_size": 1},
             hints=("Vergleiche „Gemeinsamer Anfang“ mit „Wiederverwendete Tokens“.",
                    "Nur volle Blöcke kommen aus dem Cache. Ein angebrochener Block am Ende des gleichen Anfangs geht verloren.",
                    "Verändere nur „Tokens pro Block“, bis am Ende des gleichen Anfangs kein Block angebrochen ist.")),
        Task("same_request", "Schicke genau dieselbe Anfrage noch einmal. Alle Hashes sind gleich. "
                             "Warum muss das Modell trotzdem etwas neu rechnen?",
             # the same request: X in a block left unfinished also leaves every full block's hash equal,
             # for another reason than the one the explanation gives
             solved=lambda params, result: (params["x"] == NONE and all(result["same_hash"])
                                            and result["compute_tokens"] > 0),
             explain="Um das erste neue Token zu wählen, braucht das Modell die Ausgabe der letzten Position. "
                     "Die muss es selbst rechnen, und weil nur volle Blöcke zählen, fällt der Block mit ihr weg.",
             example={"x": NONE},
             hints=("Schaue, welche Blockhashes gleich sind und wie viele Tokens trotzdem neu zu rechnen sind.",
                    "Was muss das Modell selbst rechnen, um das erste neue Token zu wählen?",
                    "Wähle bei „X ersetzt“ den Eintrag „nichts“."),
             near=Near(lambda params, result: (params["x"] != NONE and all(result["same_hash"])
                                               and result["compute_tokens"] > 0),
                       "Fast: Alle vollen Blöcke stimmen überein, doch X steckt im angebrochenen letzten Block. "
                       "Schicke die Anfrage ganz ohne X.",
                       {"x": "H", "block_size": 3})),
        Task("late_miss", "Nimm Blöcke zu 4 und finde die späteste Stelle für X, bei der gar nichts aus dem Cache "
                          "kommt.",
             solved=lambda params, result: params["block_size"] == 4 and params["x"] == "D" and _article(params),
             explain="D liegt noch im ersten Block. Dessen Hash ändert sich und mit ihm jeder folgende, "
                     "obwohl A, B und C gleich sind.",
             example={"block_size": 4, "x": "D"},
             hints=("Bei Blöcken zu 4 bilden A bis D den ersten Block.",
                    "Eine Änderung im ersten Block ändert dessen Hash und damit jeden folgenden.",
                    "Stelle „Tokens pro Block“ auf 4 und rücke X bei „X ersetzt“ Stelle für Stelle nach hinten."),
             near=Near(lambda params, result: (params["block_size"] == 4 and _article(params)
                                               and params["x"] in ("C", "E")),
                       "Fast: Die gesuchte Stelle ist nur eine Position entfernt.",
                       {"block_size": 4, "x": "E"})),
    ),
    discussion=(
        "Ein Chatbot setzt vor jede Frage dieselbe lange Anleitung. Warum lohnt sich Prefix Caching dort besonders?",
        "Warum hängt der Hash eines Blocks auch von allen Blöcken davor ab und nicht nur von seinen eigenen Tokens?",
    ),
    teacher=(
        "Die Anleitung ist bei jeder Anfrage der gleiche Anfang. Die Blöcke der Anleitung liegen schon im Cache, "
        "also muss nur die neue Frage gerechnet werden.",
        "Ab der zweiten Schicht hängen Keys und Values einer Position vom ganzen Text davor ab; in der ersten "
        "nur vom Token und seiner Position. Gleiche Tokens nach einer Änderung haben deshalb andere K/V und "
        "dürfen nicht wiederverwendet werden.",
    ),
    misconceptions=(
        "„Gleiche Tokens irgendwo im Text werden wiederverwendet.“ Es zählt nur der gleiche Anfang; "
        "nach der ersten Änderung ist Schluss.",
        "„Prefix Caching macht jedes Token der Antwort schneller.“ Es spart Prefill, darum kommt das erste "
        "Token früher. Die weiteren Tokens der Antwort brauchen so lange wie vorher.",
    ),
)
