"""PagedAttention: the KV cache in fixed-size blocks, found through a block table.

The example (CONCEPTS.md §14, Kwon et al. §4.1–4.3):

* a block holds the K/V of 4 positions (the block size is a control here, 2/4/8, P);
* the physical pool has 8 blocks (P); a sequence's block table maps logical block j to a
  physical block: position p lives in block ``table[p // size]`` at slot ``p % size``;
* the article's layout puts logical blocks 0, 1 on physical blocks 4, 1; „Anordnung ändern“
  puts the same data on other physical blocks;
* a scalar attention head: every key is 0, the query is 1, the values are 1, 2, 3, … So every
  score is 0, every weight is equal, and the output is the mean of the values, (n + 1)/2.

The output is computed by really reading the pool through the block table (exact fractions),
so a wrong table would give a wrong result; the tests check it against (n + 1)/2 for every layout.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE
from ..kit.layout import width as figure_width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "paged-attention"
TITLE = "PagedAttention"
GROUP = "Die Inferenz-Engine"
TEASER = "Der KV-Cache in Blöcken fester Größe: Eine Tabelle sagt, wo der nächste Abschnitt liegt."

POOL = 8  # physical blocks
MAX_POSITIONS = 16
QUERY, KEY = 1, 0  # the scalar toy head: every key is 0

# The order in which a layout hands out physical blocks to logical blocks 0, 1, 2, …
LAYOUTS = {
    "artikel": (4, 1, 6, 0, 3, 7, 2, 5),  # the article: logical 0, 1 → physical 4, 1
    "andere": (2, 7, 5, 3, 0, 6, 1, 4),
    "zusammen": (0, 1, 2, 3, 4, 5, 6, 7),  # one contiguous piece, as without paging
}
LAYOUT_CHOICES = (("artikel", "4, 1, 6, …"), ("andere", "2, 7, 5, …"), ("zusammen", "0, 1, 2, …"))

PARAMS = (
    Param("n", "Verarbeitete Positionen", "int", 5, lo=1, hi=MAX_POSITIONS, step=1,
          help="Jeder Schritt nach rechts verarbeitet eine weitere Position (wie ein Decode-Schritt)."),
    Param("layout", "Anordnung im Speicher", "choice", "artikel", choices=LAYOUT_CHOICES,
          help="Auf welche physischen Blöcke die logischen Blöcke 0, 1, 2, … zeigen."),
    Param("block_size", "Positionen pro Block", "choice", 4, choices=((2, "2"), (4, "4"), (8, "8")),
          help="Wie viele Positionen ein Block aufnimmt (im Beispiel 4)."),
)

PRESETS = (
    Preset("Vier Positionen", {"n": 4}, "Ein Block ist genau voll."),
    Preset("Fünf Positionen", {"n": 5}, "Die fünfte Position braucht einen zweiten Block."),
    Preset("Anordnung ändern", {"n": 5, "layout": "andere"}, "Dieselben Daten auf anderen physischen Blöcken."),
)


def blocks_needed(n: int, size: int) -> int:
    return -(-n // size)


def block_table(n: int, size: int, layout: str) -> list[int]:
    return list(LAYOUTS[layout][: blocks_needed(n, size)])


def values(n: int) -> list[int]:
    """The values of positions 0 … n−1 (the article counts them 1, 2, 3, …)."""
    return list(range(1, n + 1))


def pool_contents(n: int, size: int, layout: str) -> list[list[int | None]]:
    """The physical pool after n positions: pool[b][s] is the value stored there, or None."""
    pool: list[list[int | None]] = [[None] * size for _ in range(POOL)]
    table = block_table(n, size, layout)
    for p, v in enumerate(values(n)):
        pool[table[p // size]][p % size] = v
    return pool


def attend(n: int, size: int, layout: str) -> Fraction:
    """The toy head's output, read from the pool through the block table (keys 0, query 1)."""
    pool = pool_contents(n, size, layout)
    table = block_table(n, size, layout)
    weighted, total = Fraction(0), Fraction(0)
    for p in range(n):
        value = pool[table[p // size]][p % size]
        score = QUERY * KEY
        weight = Fraction(1) if score == 0 else Fraction(math.exp(score))  # exp(q·k); here always e⁰ = 1
        weighted += weight * value
        total += weight
    return weighted / total


def compute(n: int = 5, layout: str = "artikel", block_size: int = 4) -> dict:
    size = block_size
    blocks = blocks_needed(n, size)
    table = block_table(n, size, layout)
    out = attend(n, size, layout)
    slots = blocks * size
    used_last = n - (blocks - 1) * size
    return {
        "n": n,
        "layout": layout,
        "block_size": size,
        "blocks": blocks,
        "table": table,
        "slots": slots,
        "free_slots": slots - n,
        "used_last": used_last,
        "waste_share": (slots - n) / slots,
        "output": float(out),
        "output_exact": str(out),
        "pool": pool_contents(n, size, layout),
        "free_blocks": POOL - blocks,
        "reserve_empty": MAX_POSITIONS - n,  # empty slots when reserving the maximum length instead
    }


def _rect(x, y, w, h, cls, title=""):
    return svg.rect(x, y, w, h, cls, rx=3, title=title)


def _key_sentence(r: dict, mapping: str) -> tuple[str, str]:
    """The sentence under the memory: how many blocks the positions take and what stays empty, against
    reserving the longest possible request, and the result; and apart from it that the layout changes the
    addresses, not the result, which answers the lesson's guess."""
    n, blocks = r["n"], r["blocks"]
    text = (f"{fmt.count(n, 'Position braucht', 'Positionen brauchen')} {fmt.count(blocks, 'Block', 'Blöcke')} "
            f"zu {r['block_size']} (Tabelle {mapping}).")
    if r["free_slots"] == 0:
        text += f" {'Er ist' if blocks == 1 else 'Sie sind'} genau voll, kein Platz bleibt leer."
    else:
        text += f" {'Darin' if blocks == 1 else 'Im letzten'} bleiben {fmt.count(r['free_slots'], 'Platz', 'Plätze')} leer."
    if r["reserve_empty"]:
        text += f" Eine Reservierung für {MAX_POSITIONS} Positionen ließe {fmt.de(r['reserve_empty'])} leer."
    return (text + f" Das Ergebnis ist {fmt.de_auto(r['output'])}.",
            "Es ist in jeder Anordnung gleich: PagedAttention ändert die Adressen, nicht die Rechnung.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the heading in two lines, the block table under its heading in narrower entries,
    # the physical pool in four rows of two, the empty places under the result
    narrow = layout == NARROW
    n, size, table, pool = r["n"], r["block_size"], r["table"], r["pool"]
    width = figure_width(480, layout)
    line = 18 if narrow else 0
    parts: list[str] = []
    # 1. the logical sequence, cut into logical blocks
    if narrow:
        parts.append(svg.text(12, 22, "Logische Reihenfolge", "pl-label pl-pa-head"))
        parts.append(svg.text(12, 22 + line, "(Positionen mit ihrem Value)", "pl-label pl-pa-head"))
    else:
        parts.append(svg.text(12, 22, "Logische Reihenfolge (Positionen mit ihrem Value)", "pl-label pl-pa-head"))
    cell = min(28.0, (width - 24) / MAX_POSITIONS)
    for p in range(MAX_POSITIONS):
        x = 12 + p * cell
        if p < n:
            parts.append(_rect(x + 1, 32 + line, cell - 2, 26, f"pl-pa-cell pl-pa-lb{(p // size) % 4}",
                               f"Position {p}: Value {p + 1}, logischer Block {p // size}"))
            parts.append(svg.text(x + cell / 2, 50 + line, str(p + 1), "pl-label pl-pa-num", "middle"))
        else:
            parts.append(_rect(x + 1, 32 + line, cell - 2, 26, "pl-pa-future"))
    for j in range(r["blocks"]):
        x0 = 12 + j * size * cell
        x1 = 12 + min((j + 1) * size, MAX_POSITIONS) * cell
        parts.append(f'<line class="pl-pa-brace" x1="{x0 + 2:.1f}" y1="{64 + line}" x2="{x1 - 2:.1f}" y2="{64 + line}"/>')
        parts.append(svg.text((x0 + x1) / 2, 80 + line, f"L{j}", "pl-label pl-pa-small", "middle"))
    # 2. the block table
    parts.append(svg.text(12, 108 + line, "Blocktabelle", "pl-label pl-pa-head"))
    line = 18 + 22 if narrow else 0  # a narrow table stands under its heading
    tx, step, entry = (12, 38, 36) if narrow else (110, 46, 42)
    for j, b in enumerate(table):
        x = tx + j * step
        parts.append(_rect(x, 94 + line, entry, 22, f"pl-pa-entry pl-pa-lb{j % 4}",
                           f"logischer Block {j} → physischer Block {b}"))
        parts.append(svg.text(x + entry / 2, 110 + line, f"{j}→{b}", "pl-label pl-pa-small", "middle"))
    # 3. the physical pool: 8 blocks in two rows of 4 (narrow: four rows of 2)
    parts.append(svg.text(12, 146 + line, f"Physischer Speicher: {POOL} Blöcke zu je {size} Plätzen",
                          "pl-label pl-pa-head"))
    logical_of = {b: j for j, b in enumerate(table)}
    per_row = 2 if narrow else 4
    gap = 8
    bw = (width - 24 - gap) / 2 if narrow else 110
    sw = (bw - 8) / size
    for b in range(POOL):
        row, col = divmod(b, per_row)
        x = 12 + col * (bw + gap)
        y = 158 + line + row * 62
        owned = b in logical_of
        cls = f"pl-pa-block pl-pa-lb{logical_of[b] % 4}" if owned else "pl-pa-block pl-pa-freeblock"
        parts.append(_rect(x, y, bw, 52, cls))
        label = f"P{b}" + (f" = L{logical_of[b]}" if owned else " frei")
        parts.append(svg.text(x + 5, y + 15, label, "pl-label pl-pa-small"))
        for s in range(size):
            v = pool[b][s]
            sx = x + 4 + s * sw
            if v is not None:
                parts.append(_rect(sx + 0.5, y + 22, sw - 1, 24, f"pl-pa-slot pl-pa-lb{logical_of[b] % 4}", f"Value {v}"))
                if sw >= 12:
                    parts.append(svg.text(sx + sw / 2, y + 39, str(v), "pl-label pl-pa-num", "middle"))
            elif owned:
                parts.append(_rect(sx + 0.5, y + 22, sw - 1, 24, "pl-pa-empty", "reserviert, aber leer"))
            else:
                parts.append(_rect(sx + 0.5, y + 22, sw - 1, 24, "pl-pa-none"))
    y = 158 + line + POOL // per_row * 62 + 14
    terms = " + ".join(map(str, values(n))) if n <= 5 else f"1 + 2 + … + {n}"
    parts.append(svg.text(12, y, f"Ergebnis: ({terms}) / {n} = {fmt.de_auto(r['output'])}",
                          "pl-label pl-pa-head"))
    waste = f"leer: {r['free_slots']}"
    if narrow:
        y += 20
        parts.append(svg.text(12, y, waste, "pl-label pl-pa-head pl-pa-waste"))
    else:
        parts.append(svg.text(width - 12, y, waste, "pl-label pl-pa-head pl-pa-waste", "end"))
    height = y + 10
    figure = svg.figure(width, height, parts, cls="pl-pa", layout=layout,
                        label="Logische Positionen, Blocktabelle und physischer Blockspeicher")

    mapping = ", ".join(f"{j}→{b}" for j, b in enumerate(table))
    readouts = [
        Readout("blocks", "Benötigte Blöcke", f"{r['blocks']} ({r['slots']} Plätze)", r["blocks"], True),
        Readout("table", "Blocktabelle (logisch→physisch)", mapping, table),
        Readout("free_slots", "Leere Plätze im letzten Block", fmt.de(r["free_slots"]), r["free_slots"], True),
        Readout("waste", "Anteil leerer Plätze", fmt.pct(r["waste_share"]), r["waste_share"]),
        Readout("output", "Attention-Ergebnis", fmt.de_auto(r["output"]), r["output"], True),
    ]
    summary, answer = _key_sentence(r, mapping)
    return View(figure, readouts, summary, answer=answer)


# -- the lesson ---------------------------------------------------------------------------

LESSON = Lesson(
    prediction=Prediction(
        question="Bei fünf Positionen ist das Ergebnis der Attention 3. Was passiert, wenn du eine andere "
                 "Anordnung im Speicher wählst?",
        choices=("Es bleibt 3.", "Es ändert sich, weil andere Blöcke gelesen werden.",
                 "Es geht nicht mehr, die Daten müssten nebeneinander liegen."),
        answer=0,
        shown=lambda params, result: params["layout"] != "artikel" and result["n"] == 5,
        explain="Die Blocktabelle führt zu denselben Values in derselben Reihenfolge. "
                "Nur die Adressen ändern sich, nicht die Rechnung.",
        example={"layout": "andere"},
        why_not=("",
                 "Gelesen werden wirklich andere physische Blöcke. Die Blocktabelle führt aber zu denselben Values "
                 "1 bis 5 in derselben Reihenfolge. Das Ergebnis bleibt 3.",
                 "Ohne Tabelle müssten die Daten nebeneinander liegen. Die Blocktabelle sagt aber zu jedem logischen "
                 "Block, wo er steht. So dürfen die Blöcke überall im Speicher liegen."),
    ),
    tasks=(
        Task("most_waste", "Nimm Blöcke zu 8 und finde eine Länge, bei der so viele Plätze leer bleiben "
                           "wie nur möglich.",
             solved=lambda params, result: result["block_size"] == 8 and result["free_slots"] == 7,
             explain="Im letzten Block steht nur eine Position, 7 Plätze bleiben leer. Mehr Verschnitt gibt es "
                     "nie: höchstens ein Block minus ein Platz.",
             example={"block_size": 8, "n": 9},
             hints=("„Leere Plätze im letzten Block“ zeigt, wie viel Platz verschenkt ist.",
                    "Leer bleibt am meisten, wenn im letzten Block so wenig wie möglich steht.",
                    "Stelle „Positionen pro Block“ auf 8 und verändere „Verarbeitete Positionen“."),
             near=Near(lambda params, result: result["block_size"] == 8 and result["free_slots"] == 6,
                       "Fast: Im letzten Block steht noch eine Position zu viel.",
                       {"block_size": 8, "n": 10})),
        Task("pool_full", "Belege alle 8 physischen Blöcke des Speichers.",
             solved=lambda params, result: result["free_blocks"] == 0,
             explain="Das geht nur mit Blöcken zu 2 und mindestens 15 Positionen. Kleine Blöcke lassen wenig leer, "
                     "brauchen aber lange Tabellen und viele Blöcke.",
             example={"block_size": 2, "n": 15},
             hints=("Zähle im physischen Speicher, wie viele der 8 Blöcke noch frei sind.",
                    "Es gibt höchstens 16 Positionen. Wie klein müssen die Blöcke sein, damit sie 8 Blöcke füllen?",
                    "Stelle „Positionen pro Block“ klein und „Verarbeitete Positionen“ groß."),
             near=Near(lambda params, result: result["free_blocks"] == 1,
                       "Fast: Nur noch ein physischer Block ist frei.",
                       {"block_size": 2, "n": 13})),
    ),
    discussion=(
        "Warum reserviert ein Server nicht einfach für jede Anfrage Platz für die größtmögliche Länge?",
        "Was spricht für große Blöcke, was für kleine?",
    ),
    teacher=(
        "Die meisten Antworten sind viel kürzer als die Höchstlänge. Der reservierte, aber leere Platz "
        "fehlt dann anderen Anfragen, und der Server kann weniger Texte gleichzeitig bedienen.",
        "Große Blöcke brauchen kürzere Tabellen und weniger Verwaltung, lassen im letzten Block aber mehr leer. "
        "Kleine Blöcke verschwenden wenig, dafür gibt es mehr Einträge zu verwalten.",
    ),
    misconceptions=(
        "„Die Blöcke einer Sequenz müssen nebeneinander liegen.“ Die Tabelle findet sie überall im Speicher.",
        "„PagedAttention spart Speicher, indem es Keys und Values weglässt.“ Alles bleibt erhalten; "
        "gespart wird nur der leere, reservierte Platz.",
    ),
)
