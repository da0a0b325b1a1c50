"""FlashAttention's online softmax: one query, four scalar values, processed block by block.

The article's example (CONCEPTS.md §18): given scores s = [0, 0, ln 3, ln 3] and values
v = [0, 0, 1, 1]. The unnormalised weights e^s are in the ratio [1, 1, 3, 3], so exact attention
gives (3·1 + 3·1)/8 = 0.75. In blocks of two, the block results are 0 and 1; their plain mean,
0.5, is wrong because the blocks carry different softmax mass (2 and 6).

The online softmax keeps the running maximum m and the sum l = Σ e^{s_j − m} (Milakov &
Gimelshein, Algorithm 3) and, as FlashAttention does (Dao et al., Algorithm 1), the numerator
u = Σ e^{s_j − m}·v_j. When a
block raises the maximum to m′, the old l and u are multiplied by e^{m − m′} first. After the
last block u/l equals dense softmax attention for any block size.

Proposal (P): block sizes 1–8 (3 gives blocks of 3 and 1 for four keys), a step control over the
blocks, and editable scores and values with a few presets; own lists of 2–8 keys replace the four
fields (kit/own_positions.py). Floats (math.exp) as in a real kernel.
"""

from __future__ import annotations

import math
from html import escape

from ..kit import fmt, own_positions, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE
from ..kit.layout import width as figure_width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "flash-attention"
TITLE = "FlashAttention"
GROUP = "Die Inferenz-Engine"
TEASER = "Attention Block für Block rechnen – mit laufendem Maximum, Summe und Zähler statt gemittelter Blöcke."

N = 4
MOST = own_positions.COUNT[1]
LN3 = math.log(3)
SCORES = (0.0, 0.0, LN3, LN3)
SCORE_STEP = 0.001  # the score fields' grid
VALUES = (0.0, 0.0, 1.0, 1.0)

PARAMS = (
    Param("block", "Blockgröße", "int", 2, lo=1, hi=MOST, step=1,
          help="Wie viele Keys ein Block in den schnellen Speicher lädt; 4 = alle vier Keys in einem Block."),
    Param("step", "Verarbeitete Blöcke", "int", MOST, lo=1, hi=MOST, step=1,
          help="Block für Block weiterrechnen; mehr als es gibt zählt als „alle“."),
    *(Param(f"s{i + 1}", f"Score s{i + 1}", "float", SCORES[i], lo=-20.0, hi=20.0, step=SCORE_STEP, widget="number")
      for i in range(N)),
    *(Param(f"x{i + 1}", f"Wert v{i + 1}", "float", VALUES[i], lo=-100.0, hi=100.0, step=0.1, widget="number")
      for i in range(N)),
    own_positions.own("scores", "Eigene Scores", -20.0, 20.0, "0; 1; 2; 0,5; 3", "Scores"),
    own_positions.own("values", "Eigene Values", -100.0, 100.0, "1; 0; 2; 1; 0", "Values"),
)

PRESETS = (
    Preset("Beispiel: Blöcke zu 2", {"block": 2}, "Scores [0, 0, ln 3, ln 3], Values [0, 0, 1, 1]."),
    Preset("Nach Block 1", {"block": 2, "step": 1}, "Der Zwischenstand nach dem ersten Block."),
    Preset("Blockgröße 1", {"block": 1}, "Vier Blöcke zu je einem Key."),
    Preset("Ein Block (4)", {"block": 4}, "Alles auf einmal: dichte Attention."),
    Preset("Großer Sprung", {"block": 2, "s3": 10.0, "s4": 10.0},
           "Der zweite Block hebt das Maximum stark an; der alte Stand wird fast auf 0 skaliert."),
    Preset("Maximum zuerst", {"block": 2, "s1": LN3, "s2": LN3, "s3": 0.0, "s4": 0.0,
                              "x1": 1.0, "x2": 1.0, "x3": 0.0, "x4": 0.0},
           "Der größte Score kommt zuerst; später muss nichts umskaliert werden."),
    Preset("Gleiche Scores", {"block": 2, "s3": 0.0, "s4": 0.0},
           "Alle Blöcke gleich schwer: Nur hier stimmt das einfache Mitteln zufällig."),
)


def blocks_of(n: int, size: int) -> list[list[int]]:
    return [list(range(start, min(start + size, n))) for start in range(0, n, size)]


def dense(scores, values) -> float:
    """Ordinary softmax attention over all keys (stable: shifted by the maximum)."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    return sum(w * v for w, v in zip(weights, values)) / sum(weights)


def online(scores, values, size: int) -> list[dict]:
    """The running state (m, l, u) after each block, with the rescaling factor e^{m − m′}."""
    m, l, u = -math.inf, 0.0, 0.0
    rows = []
    for block in blocks_of(len(scores), size):
        local_max = max(scores[j] for j in block)
        m_new = max(m, local_max)
        scale = math.exp(m - m_new) if m != -math.inf else None  # nothing to rescale before block 1
        terms = [math.exp(scores[j] - m_new) for j in block]
        l = l * (scale or 0.0) + sum(terms)
        u = u * (scale or 0.0) + sum(t * values[j] for t, j in zip(terms, block))
        local_terms = [math.exp(scores[j] - local_max) for j in block]
        local = sum(t * values[j] for t, j in zip(local_terms, block)) / sum(local_terms)
        rows.append({"positions": block, "local_max": local_max, "m_before": None if m == -math.inf else m,
                     "m": m_new, "scale": scale, "l": l, "u": u, "result": u / l, "local": local})
        m = m_new
    return rows


def compute(block: int = 2, step: int = MOST, s1: float = 0.0, s2: float = 0.0, s3: float = LN3, s4: float = LN3,
            x1: float = 0.0, x2: float = 0.0, x3: float = 1.0, x4: float = 1.0, scores: tuple = (),
            values: tuple = ()) -> dict:
    used = own_positions.lists(scores, values, [s1, s2, s3, s4], [x1, x2, x3, x4])
    scores, values = [float(s) for s in used["scores"]], [float(v) for v in used["values"]]
    rows = online(scores, values, block)
    done = min(step, len(rows))
    top = max(scores)
    mass = [math.exp(s - top) for s in scores]  # unnormalised weights, largest = 1
    total = sum(mass)
    shares = [sum(mass[j] for j in row["positions"]) / total for row in rows]
    raw_sums = [sum(math.exp(scores[j]) for j in row["positions"]) for row in rows]
    locals_done = [row["local"] for row in rows[:done]]
    naive = sum(locals_done) / len(locals_done)
    exact = dense(scores, values)
    current = rows[done - 1]
    return {
        "scores": scores,
        "values": values,
        "own": used["own"],
        "filled": used["filled"],
        "block": block,
        "n_blocks": len(rows),
        "done": done,
        "finished": done == len(rows),
        "rows": rows,
        "weights": [w / total for w in mass],
        "ratio": [w / min(mass) for w in mass],
        "block_share": shares,
        "block_sum": raw_sums,
        "m": current["m"],
        "l": current["l"],
        "u": current["u"],
        "online": current["result"],
        "dense": exact,
        "naive": naive,
        "naive_error": naive - exact if done == len(rows) else None,
        "error": abs(rows[-1]["result"] - exact),
    }


# -- text ---------------------------------------------------------------------------------

def score_text(s: float) -> str:
    for k, name in ((1, "ln 3"), (-1, "−ln 3"), (2, "2 ln 3")):
        if abs(s - k * LN3) < 1e-9:
            return name
    return fmt.de_auto(s, 3)


def num(x: float | None, digits: int = 5) -> str:
    """Up to five decimals without trailing zeros; tiny values in powers of ten (factors like e^(−10))."""
    if x is None:
        return "–"
    if x != 0 and abs(x) < 10 ** -digits:
        return sci(x)
    return fmt.de(x, digits, trim=True)


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(x: float) -> str:
    # Python's own split: x / 10**exponent divides by zero for the smallest floats (10**-324 is 0.0),
    # and the mantissa is already rounded (9,999e−6 shows as 1,00 · 10⁻⁵, not 10,00 · 10⁻⁶).
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{fmt.de(float(mantissa), 2)} · 10{str(int(exponent)).translate(SUPERSCRIPT)}"


# -- view ---------------------------------------------------------------------------------

def _rescaled(r: dict) -> str:
    """The first rise of the running maximum among the processed blocks and the factor the old state gets."""
    for k, row in enumerate(r["rows"][: r["done"]], start=1):
        if row["m_before"] is not None and row["m"] > row["m_before"]:
            return (f" Block {k} hebt das Maximum von {score_text(row['m_before'])} auf {score_text(row['m'])}; "
                    f"der alte Stand zählt danach nur noch {num(row['scale'])}-fach.")
    return " Das Maximum kam zuerst, jeder spätere Faktor ist 1." if r["done"] > 1 else ""


def _key_sentence(r: dict, keys: int) -> str:
    """The sentence under the blocks: the online result against dense attention, and why the plain
    average of the block results is right or wrong here – it weighs blocks equally, so it is right only
    when their weights are equal (or by chance); one block leaves nothing to average."""
    if r["n_blocks"] == 1:
        how = f"Ein Block mit allen {own_positions.WORDS[keys]} Keys"
    else:
        how = f"{fmt.de(r['n_blocks'])} Blöcke zu {'je' if keys % r['block'] == 0 else 'höchstens'} {fmt.de(r['block'])}"
    lead = f"Eigene {own_positions.WORDS[keys]} Keys. " if r["own"] else ""
    online, dense, naive = num(r["online"]), num(r["dense"]), num(r["naive"])
    done_rows = r["rows"][: r["done"]]
    results = "; ".join(num(row["local"]) for row in done_rows)
    if r["n_blocks"] == 1:
        text = (f"{how}: u/l = {online}, genau die dichte Attention ({dense}). Mit einem Block gibt es nichts "
                f"zu mitteln.")
    elif not r["finished"]:
        text = (f"{how}, nach Block {r['done']} von {r['n_blocks']}: Zwischenstand u/l = {online}, am Ende "
                f"exakt {dense}. {'Blockergebnis' if r['done'] == 1 else 'Blockergebnisse'} bisher {results}, "
                f"einfaches Mittel {naive}.") + _rescaled(r)
    else:
        same = online == dense
        text = (f"{how}, fertig: u/l = {online}, " + ("genau die dichte Attention. " if same else f"dicht {dense}. ")
                + f"Das einfache Mittel der Blockergebnisse {results} ergibt {naive}")
        shares = [fmt.de_auto(x) for x in r["block_share"]]
        if not math.isclose(r["naive"], r["dense"], abs_tol=1e-12):
            text += f" – falsch, denn die Blöcke sind verschieden schwer ({'; '.join(shares)})."
        elif len(set(shares)) == 1:
            text += " – hier richtig, weil alle Blöcke gleich schwer sind."
        else:
            text += " – hier richtig, aber nur zufällig."
        text += _rescaled(r)
    return lead + text + own_positions.filled_text(r["filled"])


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the heading in two lines, "(offen)" under its block's name, each share bar under
    # its label, the legend in two rows; ``line`` is what each such break adds
    narrow = layout == NARROW
    line = 18 if narrow else 0
    w = figure_width(500, layout)
    left, right = (12, w - 12) if narrow else (16, w - 16)
    title = ("Keys in Blöcken", "(Score s, Value v, Softmax-Gewicht)")
    parts = ([svg.text(left, 18, title[0], "pl-axis"), svg.text(left, 18 + line, title[1], "pl-axis")] if narrow
             else [svg.text(left, 18, " ".join(title), "pl-axis")])
    keys = len(r["scores"])
    slot = (right - left) / keys
    short = keys > 5  # narrow slots: the numbers without "s =" and "v =" (the heading names them)
    # a narrow block narrower than its name: the names of neighbouring blocks in staggered rows
    stagger = 2 * line if narrow and min(len(row["positions"]) for row in r["rows"]) * slot < 58 else 0
    y_box, box_h = 34 + line, 74
    for k, row in enumerate(r["rows"]):
        processed = k < r["done"]
        x_a = left + slot * row["positions"][0] + 3
        x_b = left + slot * (row["positions"][-1] + 1) - 3
        cls = f"pl-fa-block pl-fa-b{k % 2}" + ("" if processed else " pl-fa-todo")
        parts.append(f'<rect class="{cls}" x="{x_a:.1f}" y="{y_box}" width="{x_b - x_a:.1f}" height="{box_h}" rx="6">'
                     f'<title>Block {k + 1}</title></rect>')
        name = f"Block {k + 1}"
        y_name = y_box + box_h + 16 + stagger * (k % 2)
        if processed:
            parts.append(svg.text((x_a + x_b) / 2, y_name, name, "pl-label pl-value", "middle"))
        elif narrow:
            parts.append(svg.text((x_a + x_b) / 2, y_name, name, "pl-label pl-fa-faint", "middle"))
            parts.append(svg.text((x_a + x_b) / 2, y_name + line, "(offen)", "pl-label pl-fa-faint", "middle"))
        else:
            parts.append(svg.text((x_a + x_b) / 2, y_box + box_h + 16, name + " (offen)", "pl-label pl-fa-faint",
                                  "middle"))
    for j in range(keys):
        cx = left + slot * (j + 0.5)
        parts.append(svg.text(cx, y_box + 20, ("" if short else "s = ") + score_text(r['scores'][j]), "pl-label",
                              "middle"))
        parts.append(svg.text(cx, y_box + 40, ("" if short else "v = ") + fmt.de_auto(r['values'][j], 3), "pl-label",
                              "middle"))
        # narrow slots for many keys: whole percents (the table keeps the tenths)
        parts.append(svg.text(cx, y_box + 60, fmt.pct(r["weights"][j], 0 if narrow and short else 1), "pl-tick",
                              "middle"))

    # shares: what each block really contributes vs what plain averaging gives it
    y_sh = y_box + box_h + 44 + line + stagger
    parts.append(svg.text(left, y_sh, "Anteil jedes Blocks am Ergebnis", "pl-axis"))
    label_w = 0 if narrow else 142
    bar_x, bar_w = left + label_w, right - left - label_w
    for n, (label, shares) in enumerate((("richtig (Softmax)", r["block_share"]),
                                         ("einfaches Mitteln", [1 / r["n_blocks"]] * r["n_blocks"]))):
        y = y_sh + 30 + 50 * n if narrow else y_sh + 12 + 30 * n
        parts.append(svg.text(left, y - 6 if narrow else y + 15, label, "pl-label"))
        x = bar_x
        for k, share in enumerate(shares):
            width = bar_w * share
            cls = f"pl-fa-share pl-fa-b{k % 2}" + (" pl-fa-naive" if n else "")
            parts.append(f'<rect class="{cls}" x="{x:.1f}" y="{y}" width="{max(width, 0.5):.1f}" height="20">'
                         f'<title>Block {k + 1}: {escape(fmt.pct(share))}</title></rect>')
            if width > 46:
                parts.append(svg.text(x + width / 2, y + 15, fmt.pct(share, 0), "pl-tick pl-fa-in", "middle"))
            x += width

    # the value line: exact, running online result, plain mean
    y_ax = y_sh + 150 + 2 * line
    lo, hi = min(r["values"]), max(r["values"])
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    ax_l, ax_r = left + 24, right - 24

    def px(v):
        return ax_l + (v - lo) / (hi - lo) * (ax_r - ax_l)

    parts.append(svg.text(left, y_ax - 44, "Ergebnis auf der Achse der Values", "pl-axis"))
    parts.append(f'<line class="pl-fa-axis" x1="{ax_l}" y1="{y_ax}" x2="{ax_r}" y2="{y_ax}"/>')
    for k in range(5):
        v = lo + (hi - lo) * k / 4
        parts.append(f'<line class="pl-fa-local" x1="{px(v):.1f}" y1="{y_ax}" x2="{px(v):.1f}" y2="{y_ax + 5}"/>')
        parts.append(svg.text(px(v), y_ax + 20, num(v, 3), "pl-tick", "middle"))
    for row in r["rows"][: r["done"]]:
        x = px(row["local"])
        parts.append(f'<line class="pl-fa-local" x1="{x:.1f}" y1="{y_ax - 8}" x2="{x:.1f}" y2="{y_ax + 8}"/>')
    xd, xo, xn = px(r["dense"]), px(r["online"]), px(r["naive"])
    parts.append(f'<line class="pl-fa-dense" x1="{xd:.1f}" y1="{y_ax - 22}" x2="{xd:.1f}" y2="{y_ax + 7}">'
                 f'<title>exakt (dicht): {escape(num(r["dense"]))}</title></line>')
    parts.append(f'<circle class="pl-fa-online" cx="{xo:.1f}" cy="{y_ax}" r="7"><title>online u/l: '
                 f'{escape(num(r["online"]))}</title></circle>')
    parts.append(f'<rect class="pl-fa-naive-mark" x="{xn - 6:.1f}" y="{y_ax - 6}" width="12" height="12" '
                 f'transform="rotate(45 {xn:.1f} {y_ax})"><title>Mittel der Blockergebnisse: {escape(num(r["naive"]))}'
                 f'</title></rect>')
    # a legend row under the axis
    ly = y_ax + 52
    parts.append(f'<circle class="pl-fa-online" cx="{left + 8}" cy="{ly - 5}" r="6"/>')
    parts.append(svg.text(left + 20, ly, "online u/l", "pl-legend"))
    parts.append(f'<rect class="pl-fa-naive-mark" x="{left + 124}" y="{ly - 10}" width="10" height="10" '
                 f'transform="rotate(45 {left + 129} {ly - 5})"/>')
    parts.append(svg.text(left + 142, ly, "Mittel der Blockergebnisse", "pl-legend"))
    dense_x, dense_y = (left + 8, ly + 22) if narrow else (left + 348, ly)
    parts.append(f'<line class="pl-fa-dense" x1="{dense_x}" y1="{dense_y - 13}" x2="{dense_x}" y2="{dense_y + 3}"/>')
    parts.append(svg.text(dense_x + 10, dense_y, "exakt (dicht)", "pl-legend"))
    h = dense_y + 12 if narrow else 396
    figure = svg.figure(w, h, parts, cls="pl-fa", layout=layout, label=f"Online-Softmax über {r['n_blocks']} Blöcke: "
                        "Zwischenstand und Vergleich mit dem Mitteln")

    status = "fertig" if r["finished"] else f"nach Block {r['done']} von {r['n_blocks']}"
    readouts = [
        Readout("online", f"online u/l ({status})", num(r["online"]), r["online"], True),
        Readout("dense", "dichte Attention (exakt)", num(r["dense"]), r["dense"], True),
        Readout("naive", "Mittel der Blockergebnisse", num(r["naive"]), r["naive"], True),
        Readout("m", "laufendes Maximum m", score_text(r["m"]), r["m"]),
        Readout("l", "Summe l", num(r["l"]), r["l"]),
        Readout("u", "Zähler u", num(r["u"]), r["u"]),
    ]
    summary = _key_sentence(r, keys)
    return View(figure, readouts, summary, _table(r))



def _table(r: dict) -> str:
    rows = []
    for k, row in enumerate(r["rows"]):
        if k >= r["done"]:
            cells = [positions(row["positions"])] + ["–"] * 7
        else:
            m_change = (f"{score_text(row['m_before'])} → {score_text(row['m'])}" if row["m_before"] is not None
                        else score_text(row["m"]))
            cells = [positions(row["positions"]), score_text(row["local_max"]), m_change, num(row["scale"]),
                     num(row["l"]), num(row["u"]), num(row["result"]), num(row["local"])]
        rows.append([k + 1, *cells])
    head = ("Block", "Keys", "Blockmax", "m → m′", "Faktor e^(m−m′)", "l", "u", "u/l", "Blockergebnis")
    return table(head, rows, caption="Laufender Zustand nach jedem Block", highlight=r["done"] - 1,
                 row_heads=True, numeric=True, wide=True)


def positions(ps) -> str:
    return ", ".join(str(p + 1) for p in ps)


# -- the lesson ---------------------------------------------------------------------------

def _example_scores(result) -> bool:
    return result["scores"] == list(SCORES)


def _example_values(result) -> bool:
    return result["values"] == list(VALUES)


def _naive_right(result) -> bool:
    return result["finished"] and abs(result["naive_error"]) < 1e-9


def _equal_mass(result) -> bool:
    """Two blocks that carry the same weight, up to one step of the score fields: the page can show ln 3
    only rounded (1,0986), and a reader who types that into the first block has solved the task."""
    shares = result["block_share"]
    return (result["finished"] and len(shares) == 2 and min(shares) > 0
            and _mass_gap(result) <= SCORE_STEP)


def _mass_gap(result) -> float:
    """How far apart the two blocks' weights are, as the score difference that would even them out."""
    shares = result["block_share"]
    return abs(math.log(shares[0]) - math.log(shares[1]))


def _rescales(result) -> list[float]:
    return [row["scale"] for row in result["rows"][1:]]  # block 1 has nothing to rescale


LESSON = Lesson(
    prediction=Prediction(
        question="Mit Blöcken zu zwei endet u/l bei 0,75. Was zeigt u/l am Ende, wenn du Blöcke zu eins nimmst?",
        choices=("0,5, wie das einfache Mittel", "wieder 0,75", "einen ganz anderen Wert"),
        answer=1,
        shown=lambda params, result: (params["block"] == 1 and result["finished"]
                                      and _example_scores(result) and _example_values(result)),
        explain="Die laufende Rechnung mit m, l und u gibt bei jeder Blockgröße die gewöhnliche Attention. "
                "Nur das einfache Mittel der Blöcke hängt von der Aufteilung ab.",
        example={"block": 1},
        why_not=("Bei Blöcken zu eins ist jeder Key ein eigener Block, und deren einfaches Mittel wäre wirklich 0,5. "
                 "u/l mittelt aber keine Blöcke. Es führt m, l und u weiter und endet wieder bei 0,75.",
                 "",
                 "Mehr Blöcke heißen öfter umskalieren, da könnte sich etwas verschieben. Jeder Faktor gleicht den alten "
                 "Stand aber genau an das neue Maximum an. Am Ende steht wieder 0,75."),
    ),
    tasks=(
        Task("one_block", "Nimm die Scores und Values des Beispiels und ändere nur die Blockgröße, "
                          "bis das einfache Mittel der Blöcke stimmt.",
             solved=lambda params, result: (_example_scores(result) and _example_values(result)
                                            and _naive_right(result)),
             explain="Mit Blockgröße 4 gibt es nur einen Block, also nichts zu mitteln. Mehrere Blöcke tragen "
                     "verschieden viel Gewicht und dürfen nicht gleich zählen.",
             example={"block": 4},
             hints=("Vergleiche „Mittel der Blockergebnisse“ mit „dichte Attention (exakt)“.",
                    "Das Mittel geht schief, weil die Blöcke verschieden viel Gewicht tragen. "
                    "Wann gibt es nichts mehr zu gewichten?",
                    "Verändere nur „Blockgröße“ und probiere auch die großen Werte."),
             near=Near(lambda params, result: (_example_scores(result) and _example_values(result)
                                               and result["finished"] and abs(result["naive_error"]) < 0.1),
                       "Fast: Das einfache Mittel liegt schon nah am richtigen Wert. "
                       "Es gibt aber noch mehr als einen Block.",
                       {"block": 3})),
        Task("equal_mass", "Lass die Blöcke bei zwei und ändere nur Scores, bis das einfache Mittel stimmt.",
             solved=lambda params, result: (params["block"] == 2 and _example_values(result)
                                            and _equal_mass(result)),
             explain="Das einfache Mittel stimmt nur, wenn beide Blöcke gleich viel Gewicht tragen. "
                     "Dafür müssen ihre Summen e hoch Score gleich groß sein.",
             example={"s3": 0.0, "s4": 0.0},
             hints=("Schaue auf „Anteil jedes Blocks am Ergebnis“: Wie viel trägt jeder Block richtig gerechnet?",
                    "Das einfache Mittel zählt beide Blöcke gleich. Es stimmt also nur, wenn beide gleich schwer sind.",
                    "Ändere die Scores eines Blocks, bis seine Summe e hoch Score der des anderen gleicht."),
             near=Near(lambda params, result: (params["block"] == 2 and _example_values(result) and result["finished"]
                                               and len(result["block_share"]) == 2 and _mass_gap(result) < 0.25),
                       "Fast: Die beiden Blöcke tragen schon fast gleich viel Gewicht. Gleiche die Scores noch genauer an.",
                       {"s3": 0.1, "s4": 0.1})),
        Task("big_jump", "Hebe einen Score in einem späteren Block so weit an, dass der alte Stand mit einem Faktor "
                         "unter 0,001 umskaliert wird.",
             solved=lambda params, result: any(s < 0.001 for s in _rescales(result)),
             explain="Ein viel größerer Score hebt das Maximum. Die alten Terme werden dann so klein, "
                     "wie sie auch in der gewöhnlichen Softmax wären.",
             example={"s3": 7.0},
             hints=("Die Spalte „Faktor e^(m−m′)“ zeigt, womit der alte Stand umskaliert wird.",
                    "Je weiter ein neuer Score über dem bisherigen Maximum liegt, desto kleiner wird der Faktor.",
                    "Erhöhe „Score s3“ oder „Score s4“ deutlich."),
             near=Near(lambda params, result: any(s < 0.01 for s in _rescales(result)),
                       "Fast: Der alte Stand schrumpft schon auf unter ein Hundertstel. Hebe den Score noch ein Stück an.",
                       {"s3": 5.0})),
        Task("max_first", "Nimm Blöcke zu eins und ändere die Scores so, dass kein Block umskalieren muss.",
             solved=lambda params, result: (params["block"] == 1 and len(set(result["scores"])) > 1
                                            and all(s == 1 for s in _rescales(result))),
             explain="Steht der größte Score ganz vorn, bleibt das laufende Maximum gleich. "
                     "Jeder spätere Faktor ist dann e⁰ = 1.",
             example={"block": 1, "s1": 2.0},
             hints=("Umskaliert wird nur, wenn ein späterer Block das laufende Maximum hebt.",
                    "Bei Blöcken zu eins ist jeder Key ein eigener Block. Welcher Score müsste dann ganz vorn stehen?",
                    "Stelle „Blockgröße“ auf 1 und ändere „Score s1“."),
             # the right order with bigger blocks: the preset „Maximum zuerst“ lands here
             near=Near(lambda params, result: (params["block"] != 1 and len(set(result["scores"])) > 1
                                               and result["finished"] and all(s == 1 for s in _rescales(result))),
                       "Fast: Kein Block muss umskalieren. Die Aufgabe verlangt aber Blöcke zu eins.",
                       {"block": 2, "s1": 2.0})),
    ),
    discussion=(
        "Warum darf man die Ergebnisse der Blöcke nicht einfach mitteln?",
        "Beim Vorwärtslauf rechnet FlashAttention so viel wie gewöhnliche Attention. Woher kommt dann der Zeitgewinn?",
    ),
    teacher=(
        "Jeder Block trägt so viel Gewicht, wie seine Summe e hoch Score groß ist. Im Beispiel trägt "
        "der zweite Block dreimal so viel wie der erste, also muss er auch dreimal so viel zählen.",
        "Der Gewinn liegt im Speicher: Die großen Tabellen aller Scores müssen nicht in den langsamen "
        "Speicher geschrieben und wieder gelesen werden. Jeder Block bleibt im schnellen Speicher auf dem Chip.",
    ),
    misconceptions=(
        "„FlashAttention rechnet nur ungefähr.“ Das Ergebnis ist dieselbe Attention; "
        "höchstens winzige Rundungsunterschiede kommen vor.",
        "„Das Umskalieren ist ein Trick, der das Ergebnis verändert.“ Es sorgt gerade dafür, dass alle "
        "Terme am Ende zum selben Maximum passen.",
        "„Kleinere Blöcke machen es genauer.“ Jede Blockgröße liefert dasselbe Ergebnis.",
    ),
)
