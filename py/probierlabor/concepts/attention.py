"""One attention head, step by step, with 2-D vectors the reader drags.

The token at position ``pos`` asks with its query q. Every token j offers a key k_j and a value v_j.
The head scores each key by the dot product q·k_j, divides by √d (d = 2 here), hides the tokens after
the asking one (the causal mask: their score becomes −∞, their weight exactly 0), turns the scores
into weights by a softmax and returns the weighted sum Σ w_j·v_j (Vaswani et al. 2017, eq. 1;
Bahdanau et al. 2015 for weights over positions).

The scores are exact (Fractions of the decimals the reader chose). Divided by √2 and put through the
softmax they are irrational: the page computes them in floats, with the largest score subtracted
first, and shows them rounded with „≈“. Exact again: equal visible scores share the weight as 1/m,
and a masked token gets 0. The output is a weighted mean of the values, so it always lies inside
their convex hull.

The reader types the query, the keys and the values (Param kind ``values``: pairs one after the
other) or drags each vector's tip in the figure (static/js/experiment/drag.js, ``data-drag-xy`` with
``data-drag-pair``). The number of keys sets the number of tokens (3–5).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from html import escape

from ..kit import drag, fmt, svg, table
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, NARROW_MIN_FONT, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "attention"
TITLE = "Attention"
GROUP = "Grundlagen"
TEASER = "Jedes Token fragt, alle anderen antworten: Wie ein Attention-Kopf entscheidet, worauf er schaut."

D = 2  # every vector has two numbers, so it can be drawn and dragged in a plane
WORDS = ("Die", "Katze", "jagt", "Mäuse", "nachts")
TOKENS = (3, len(WORDS))
RANGE = (-4.0, 4.0)
VIEW = 4.5  # the planes show −4,5 … 4,5
DRAG_STEP = 0.1

QUERY = (2.0, 1.0)
# five keys and values; the page uses as many as there are keys (the reader may type three or four)
KEYS_ALL = ((-1.0, 0.5), (2.5, -0.5), (0.5, 2.0), (1.0, -1.0), (-1.0, -1.5))
VALUES_ALL = ((-2.0, 1.0), (2.0, 2.0), (1.0, -2.0), (-1.0, -1.0), (0.0, 2.5))
DEFAULT_TOKENS = 5
DEFAULT_POS = 4  # „Mäuse“ asks: the mask hides „nachts“ from the start


def _flat(pairs) -> tuple:
    return tuple(x for pair in pairs for x in pair)


KEYS = _flat(KEYS_ALL[:DEFAULT_TOKENS])
VALUES = _flat(VALUES_ALL[:DEFAULT_TOKENS])
PAIRS = (2 * TOKENS[0], 2 * TOKENS[1])

PARAMS = (
    Param("scale", "Durch √d teilen", "bool", True,
          help="Teilt jeden Score durch √d = √2, bevor die Softmax ihn in ein Gewicht verwandelt."),
    Param("mask", "Kausale Maske", "bool", True,
          help="Ein Token sieht nur sich und die Tokens davor, nie spätere."),
    Param("pos", "Fragendes Token", "int", DEFAULT_POS, lo=1, hi=TOKENS[1], step=1,
          help="Welches Token fragt: Seine Query wird mit allen Keys verglichen."),
    Param("query", "Query q", "values", QUERY, lo=RANGE[0], hi=RANGE[1], count=(2, 2),
          help="Zwei Zahlen von −4 bis 4, mit Semikolon getrennt. Du kannst q auch im Bild ziehen."),
    Param("keys", "Keys k₁, k₂, …", "values", KEYS, lo=RANGE[0], hi=RANGE[1], count=PAIRS,
          help="Je zwei Zahlen pro Token, 3 bis 5 Tokens: „−1; 0,5; 2,5; −0,5; …“. Die Zahl der Keys "
               "bestimmt die Zahl der Tokens. Du kannst jeden Key im Bild ziehen."),
    Param("vals", "Values v₁, v₂, …", "values", VALUES, lo=RANGE[0], hi=RANGE[1], count=PAIRS,
          help="Je zwei Zahlen pro Token, wie bei den Keys, mindestens 3 Paare. Gibst du weniger Values als "
               "Keys, nimmt die Seite für die übrigen Tokens ihre eigenen. Du kannst jeden Value im Bild ziehen."),
)

PRESETS = (
    Preset("Von vorn", {}, "„Mäuse“ fragt: Die Maske verbirgt „nachts“."),
    Preset("Frühes Token", {"pos": 2}, "„Katze“ fragt: Die Maske verbirgt die drei Tokens danach."),
    Preset("Erstes Token", {"pos": 1}, "„Die“ fragt und sieht nur sich selbst."),
    Preset("Ohne Maske", {"pos": 2, "mask": False}, "„Katze“ darf auch die späteren Tokens sehen."),
    Preset("Ohne √d", {"scale": False}, "Die Scores gehen ungeteilt in die Softmax."),
    Preset("Doppelte Query", {"query": (4.0, 2.0)}, "Dieselbe Richtung, doppelt so lang."),
    Preset("Query null", {"query": (0.0, 0.0)}, "Alle Scores sind 0: Jedes Token bekommt gleich viel."),
    Preset("Drei Tokens", {"keys": _flat(KEYS_ALL[:3]), "vals": _flat(VALUES_ALL[:3]), "pos": 2},
           "Nur „Die Katze jagt“: „Katze“ fragt und sieht dasselbe wie bei fünf Tokens."),
)


# -- the computation ---------------------------------------------------------------------------

def pairs(flat) -> list[tuple]:
    return [tuple(flat[i:i + D]) for i in range(0, len(flat) - D + 1, D)]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def softmax(scores: list[float]) -> list[float]:
    """In floats, the largest score subtracted first: the weights are the same, exp cannot overflow."""
    top = max(scores)
    e = [math.exp(s - top) for s in scores]
    total = sum(e)
    return [x / total for x in e]


def attend(q, keys, values, pos: int, mask: bool, scale: bool) -> dict:
    """One head for the query at position ``pos`` (1-based). Scores exact; weights exact where they
    can be (all visible scores equal: 1/m each; masked: 0), else floats."""
    n = len(keys)
    scores = [dot(q, k) for k in keys]
    visible = [not mask or j < pos for j in range(n)]
    divisor = math.sqrt(D) if scale else 1.0
    scaled = [float(s) / divisor for s in scores]
    shown = [s for s, v in zip(scores, visible) if v]
    if len(set(shown)) == 1:  # a tie among all visible scores: exactly 1/m each, whatever √d does
        share = Fraction(1, len(shown))
        weights = [share if v else Fraction(0) for v in visible]
        exact = True
    else:
        soft = iter(softmax([s for s, v in zip(scaled, visible) if v]))
        weights = [next(soft) if v else 0.0 for v in visible]
        exact = False
    output = tuple(sum(w * v[i] for w, v in zip(weights, values)) for i in range(D))
    return {"scores": scores, "scaled": scaled, "visible": visible, "weights": weights, "exact": exact,
            "output": output}


def _typed(flat, default_all, n: int, what: str) -> tuple[list[tuple], list[str]]:
    """Pairs of a typed list for ``n`` tokens: an odd last number is dropped, missing pairs come from
    the page's own, surplus ones are left out; each said in one German note."""
    notes = []
    if len(flat) % D:
        notes.append(f"„{what}“: Die letzte Zahl hat keinen Partner und wurde weggelassen.")
    got = pairs(flat)
    if len(got) < n:
        missing = n - len(got)
        notes.append(f"„{what}“: {fmt.count(missing, 'Paar fehlte', 'Paare fehlten')}; "
                     f"{'es kommt' if missing == 1 else 'sie kommen'} aus der Vorgabe der Seite.")
        got += list(default_all[len(got):n])
    elif len(got) > n:
        notes.append(f"„{what}“: Es gibt nur {n} Tokens; "
                     f"{fmt.count(len(got) - n, 'Paar wurde', 'Paare wurden')} weggelassen.")
        got = got[:n]
    return got, notes


def compute(pos: int = DEFAULT_POS, mask: bool = True, scale: bool = True, query: tuple = QUERY,
            keys: tuple = KEYS, vals: tuple = VALUES) -> dict:
    notes = []
    key_pairs = pairs(keys)
    if len(keys) % D:
        notes.append("„Keys k₁, k₂, …“: Die letzte Zahl hat keinen Partner und wurde weggelassen.")
    n = len(key_pairs)
    value_pairs, said = _typed(vals, VALUES_ALL, n, "Values v₁, v₂, …")
    notes += said
    if pos > n:
        notes.append(f"Token {pos} gibt es bei {n} Tokens nicht; es fragt Token {n}.")
        pos = n
    qf = tuple(fmt.as_fraction(x) for x in query)
    kf = [tuple(fmt.as_fraction(x) for x in k) for k in key_pairs]
    vf = [tuple(fmt.as_fraction(x) for x in v) for v in value_pairs]
    a = attend(qf, kf, vf, pos, mask, scale)
    weights = [float(w) for w in a["weights"]]
    visible = [j for j in range(n) if a["visible"][j]]
    best = max(visible, key=lambda j: (a["scores"][j], -j))
    top = max(weights)
    return {
        "n": n, "pos": pos, "mask": mask, "scale": scale,
        "words": list(WORDS[:n]),
        "q": [float(x) for x in qf],
        "keys": [[float(x) for x in k] for k in kf],
        "vals": [[float(x) for x in v] for v in vf],
        "scores": [float(s) for s in a["scores"]],
        "scores_exact": [str(s) for s in a["scores"]],
        "scaled": a["scaled"],
        "visible": a["visible"],
        "weights": weights,
        "weights_exact": [str(w) for w in a["weights"]] if a["exact"] else None,
        "output": [float(x) for x in a["output"]],
        "output_exact": [str(x) for x in a["output"]] if a["exact"] else None,
        "best": best,
        "top_weight": top,
        "winners": [j for j in range(n) if weights[j] == top],
        "query_length": math.hypot(*map(float, qf)),
        "own_keys": tuple(keys) != KEYS,
        "notes": notes,
    }


# -- what the page shows --------------------------------------------------------------------------

def _n(x: float) -> str:
    """A typed or dragged entry as it is (0,3333 stays 0,3333); only a longer one is rounded, with „≈“."""
    return fmt.exact(fmt.as_fraction(x), 4, 2)


def _vec(v) -> str:
    return f"({_n(v[0])}; {_n(v[1])})"


def _weight(r: dict, j: int, digits: int = 2) -> str:
    """A weight as shown: exact where it is (masked 0, a tie's 1/m), else rounded with „≈“."""
    if r["weights_exact"]:
        return fmt.exact(Fraction(r["weights_exact"][j]), 3, digits, fraction=True)
    if not r["visible"][j]:
        return "0"
    return fmt.APPROX + fmt.de(r["weights"][j], digits)


def _output(r: dict) -> str:
    if r["output_exact"]:
        return "(" + "; ".join(fmt.exact(Fraction(x), 3, 2) for x in r["output_exact"]) + ")"
    return "(" + "; ".join(fmt.APPROX + fmt.de(x, 2) for x in r["output"]) + ")"


def _word(r: dict, j: int) -> str:
    return f"„{r['words'][j]}“"


def _key_sentence(r: dict) -> str:
    """Who asks, what the mask hides, who wins how much and why, and where the output lands."""
    pos, n = r["pos"], r["n"]
    asker = _word(r, pos - 1)
    lead = " ".join(r["notes"]) + " " if r["notes"] else ""
    hidden = n - sum(r["visible"])
    if hidden:
        seen = "sich selbst" if pos == 1 else fmt.count(pos, "Token", "Tokens")
        sees = f"Die Maske verbirgt {fmt.count(hidden, 'späteres Token', 'spätere Tokens')}; {asker} sieht nur {seen}."
    elif r["mask"]:
        sees = f"{asker} ist das letzte Token und sieht alle {n}."
    else:
        sees = f"Ohne Maske sieht {asker} alle {n} Tokens, auch spätere."
    text = f"{lead}{asker} fragt mit q = {_vec(r['q'])}. {sees} "
    if sum(r["visible"]) == 1:  # the first token under the mask
        return (text + f"Es gibt nur einen Score: {asker} bekommt das ganze Gewicht 1, "
                f"die Ausgabe ist sein eigener Value {_vec(r['vals'][0])}.")
    if r["weights_exact"]:
        m = sum(r["visible"])
        why = "q ist (0; 0), also ist jeder Score 0" if r["q"] == [0.0, 0.0] else "Alle sichtbaren Scores sind gleich"
        return (text + f"{why}: Jedes sichtbare Token bekommt genau {fmt.ratio(Fraction(1, m))}. "
                f"Die Ausgabe {_output(r)} ist der Mittelwert ihrer Values.")
    b = r["best"]
    score = fmt.exact(Fraction(r["scores_exact"][b]))
    scaled = f", geteilt durch √2 {fmt.APPROX}{fmt.de(r['scaled'][b], 2)}" if r["scale"] else ", ungeteilt"
    tied = [j for j, seen in enumerate(r["visible"]) if seen and r["scores_exact"][j] == r["scores_exact"][b]]
    if len(tied) > 1:  # equal scores: none of them fits best, each gets the same weight
        names = " und ".join([", ".join(_word(r, j) for j in tied[:-1]), _word(r, tied[-1])])
        text += (f"Am besten passen die Keys von {names}, gleich gut (q·k = {score}{scaled}). "
                 f"Jedes dieser Tokens bekommt {_weight(r, b)} des Gewichts.")
    else:
        text += (f"Am besten passt der Key von {_word(r, b)} (q·k = {score}{scaled}). "
                 f"{_word(r, b)} bekommt {_weight(r, b)} des Gewichts.")
    if len(tied) > 1:  # no single value to move to: the tied tokens pull equally
        text += f" Die Ausgabe {_output(r)} mischt ihre Values."
    elif r["top_weight"] > 0.9:
        text += f" Die Ausgabe {_output(r)} liegt fast auf seinem Value {_vec(r['vals'][b])}."
    elif r["top_weight"] < 0.5:
        text += f" Das ist weniger als die Hälfte: Die Ausgabe {_output(r)} mischt mehrere Values."
    else:
        text += f" Die Ausgabe {_output(r)} rückt zu seinem Value {_vec(r['vals'][b])}."
    return text


PLANE = 280  # a plane's side on a wide screen


def _plane(r: dict, layout: str, label: str, xlabel: str) -> svg.Plot:
    side = width(PLANE, layout)
    plot = svg.Plot(side, side, (-VIEW, VIEW), (-VIEW, VIEW), label=label, layout=layout, margin=(12, 12, 40, 40))
    ticks = [-4, -2, 0, 2, 4]
    plot.grid(xticks=ticks, yticks=ticks, xlabel=xlabel, ylabel="2. Zahl", xfmt=fmt.tick, yfmt=fmt.tick)
    plot.line(-VIEW, 0, VIEW, 0, "pl-att-axis")
    plot.line(0, -VIEW, 0, VIEW, "pl-att-axis")
    return plot


def _handle(plot: svg.Plot, field: str, index: int | None, v, cls: str, label: str) -> None:
    """A dragged tip: the visible handle (a slider for keyboards) and a finger's larger target beneath."""
    pair = {} if index is None else {"data-drag-pair": index}
    extra = "".join(f' {k}="{v}"' for k, v in pair.items())
    plot.hits.append(f'<circle class="pl-drag-hit" cx="{plot._cx(v[0]):.1f}" cy="{plot._cy(v[1]):.1f}" '
                     f'r="{drag.TARGET_GOOD / 2:g}" data-drag-xy="{field}"{extra}/>')
    plot.point(v[0], v[1], 7, f"pl-att-handle {cls}",
               {"data-drag-xy": field, **pair, "data-drag-step": f"{DRAG_STEP:g}", "tabindex": 0, "role": "slider",
                "aria-label": f"{label}, Pfeiltasten: links, rechts die 1. Zahl, hoch, runter die 2. Zahl",
                "aria-valuemin": f"{RANGE[0]:g}", "aria-valuemax": f"{RANGE[1]:g}",
                "aria-valuenow": repr(float(v[0])), "aria-valuetext": f"{label} {_vec(v)}",
                "data-drag-value": f"{float(v[0])!r} {float(v[1])!r}"},
               title=f"{label} {_vec(v)}: ziehen")


def _arrow(plot: svg.Plot, v, cls: str) -> None:
    plot.body.append(svg.arrow(plot.px(0), plot.py(0), plot._cx(v[0]), plot._cy(v[1]), cls))


def _keys_panel(r: dict, layout: str) -> svg.Plot:
    plot = _plane(r, layout, "Query und Keys", "Query und Keys: 1. Zahl")
    for j, k in enumerate(r["keys"]):
        cls = "pl-att-key" if r["visible"][j] else "pl-att-key pl-att-masked"
        _arrow(plot, k, cls)
        _handle(plot, "keys", j, k, cls, f"Key von {_word(r, j)}")
        plot.text(k[0], k[1], r["words"][j], "pl-label", "middle", dy=-11)
    _arrow(plot, r["q"], "pl-att-query")
    _handle(plot, "query", None, r["q"], "pl-att-query", f"Query von {_word(r, r['pos'] - 1)}")
    plot.text(r["q"][0], r["q"][1], "q", "pl-label pl-att-q-label", "middle", dy=18)
    return plot


def _values_panel(r: dict, layout: str) -> svg.Plot:
    plot = _plane(r, layout, "Values und Ausgabe", "Values: 1. Zahl")
    o = r["output"]
    # a line as thick as the weight pulls the output, one per token in every state (a masked one 0 wide):
    # a slider step then changes attributes, not the elements the page must build and restyle
    for j, v in enumerate(r["vals"]):
        thick = 0.5 + 7 * r["weights"][j] if r["weights"][j] > 0 else 0
        plot.body.append(f'<line class="pl-att-pull" x1="{plot._cx(o[0]):.1f}" y1="{plot._cy(o[1]):.1f}" '
                         f'x2="{plot._cx(v[0]):.1f}" y2="{plot._cy(v[1]):.1f}" stroke-width="{thick:.1f}"/>')
    for j, v in enumerate(r["vals"]):
        cls = "pl-att-value" if r["visible"][j] else "pl-att-value pl-att-masked"
        _handle(plot, "vals", j, v, cls, f"Value von {_word(r, j)}")
        plot.text(v[0], v[1], r["words"][j], "pl-label", "middle", dy=-11)
    plot.front.append(f'<rect class="pl-att-out" x="{plot._cx(o[0]) - 6:.1f}" y="{plot._cy(o[1]) - 6:.1f}" '
                      f'width="12" height="12" transform="rotate(45 {plot._cx(o[0]):.1f} {plot._cy(o[1]):.1f})">'
                      f"<title>Ausgabe {escape(_output(r))}</title></rect>")
    x, y, anchor = _out_label_place(plot, r)
    plot.front.append(svg.text(x, y, "Ausgabe", "pl-label pl-att-out-label", anchor))
    return plot


LABEL_SIZE = 13  # px of .pl-label (static/css/probierlabor.css), bold for the output
OUT_LABEL = "Ausgabe"
# where the output's label may stand, in pixels from the diamond (dx, baseline dy, anchor): the first that
# keeps clear of every value's dot and word wins, so a value dragged beside the output never hides it
_AROUND = [(0, 22, "middle"), (0, -12, "middle"), (12, 5, "start"), (-12, 5, "end"),
           (12, 20, "start"), (-12, 20, "end"), (12, -10, "start"), (-12, -10, "end")]
_OUT_CANDIDATES = _AROUND + [(dx * k, dy * k + (4 if dy > 0 else 0) * (k - 1), a)
                             for k in (2, 3, 4, 5) for dx, dy, a in _AROUND]


def _out_label_place(plot: svg.Plot, r: dict) -> tuple[float, float, str]:
    """The output's label beside the diamond where it overlaps no value's word or dot and stays in the plane;
    where every place is taken (values piled round the output), the one farthest from them."""
    size = max(LABEL_SIZE, NARROW_MIN_FONT)
    taken = []
    for v, word in zip(r["vals"], r["words"]):
        vx, vy = plot._cx(v[0]), plot._cy(v[1])
        taken.append(svg.text_box(vx, vy - 11, word, size, "middle"))
        taken.append((vx - 8, vy - 8, vx + 8, vy + 8))
    ox, oy = plot._cx(r["output"][0]), plot._cy(r["output"][1])
    best, room = None, -math.inf
    for dx, dy, anchor in _OUT_CANDIDATES:
        box = svg.text_box(ox + dx, oy + dy, OUT_LABEL, size, anchor)
        if box[0] < 0 or box[2] > plot.w or box[1] < 0 or box[3] > plot.bottom:
            continue
        clear = min(max(b[0] - box[2], box[0] - b[2], b[1] - box[3], box[1] - b[3]) for b in taken)
        if clear >= 0:
            return ox + dx, oy + dy, anchor
        if clear > room:
            best, room = (ox + dx, oy + dy, anchor), clear
    return best or (ox, oy + 22, "middle")


def _weights_panel(r: dict, layout: str) -> svg.Plot:
    n = r["n"]
    w = width(200, layout) if layout == WIDE else width(PLANE, layout)
    plot = svg.Plot(w, 200 if layout == NARROW else width(PLANE, layout), (0, n), (0, 1.15), label="Gewichte",
                    layout=layout, margin=(12, 8, 40, 44))
    plot.grid(xticks=[], yticks=[0, 0.5, 1], xlabel="Gewichte nach der Softmax", ylabel="Gewicht",
              yfmt=lambda v: fmt.de(v, 1))
    for j in range(n):
        x0, x1 = plot.px(j + 0.15), plot.px(j + 0.85)
        wj = r["weights"][j]
        plot.body.append(svg.rect(x0, plot.py(wj), x1 - x0, plot.py(0) - plot.py(wj), "pl-att-bar"))
        # a masked token: an empty, dashed place where its bar would stand (there, hidden, for the others)
        shown = "" if r["visible"][j] else " pl-att-shown"
        plot.body.append(svg.rect(x0, plot.py(1), x1 - x0, plot.py(0) - plot.py(1), "pl-att-masked-box" + shown))
        plot.text(j + 0.5, wj, _weight(r, j).replace(fmt.APPROX, ""), "pl-att-weight", "middle", dy=-5)
        plot.text(j + 0.5, 0, r["words"][j], "pl-axis", "middle", dy=16)
    return plot


def _panel(plot: svg.Plot) -> tuple[float, float, str]:
    """A panel of the figure whose group carries its box and ranges (data-box …): the browser's 2-D drag
    maps the pointer through the nearest element that has them."""
    return plot.w, plot.h, (f'<g data-box="{plot.left} {plot.top} {plot.right} {plot.bottom}" '
                            f'data-xrange="{plot.x0:g} {plot.x1:g}" data-yrange="{plot.y0:g} {plot.y1:g}">'
                            f"{plot.inner()}</g>")


def _figure(r: dict, layout: str) -> str:
    panels = [_keys_panel(r, layout), _weights_panel(r, layout), _values_panel(r, layout)]
    total_w, total_h, body = svg.panels([_panel(p) for p in panels], layout)
    label = (f"Links Query und Keys, in der Mitte die Gewichte, rechts die Values und die Ausgabe; "
             f"es fragt {_word(r, r['pos'] - 1)}")
    return svg.figure(total_w, total_h, body, label=label, cls="pl-att", layout=layout)


def _steps_table(r: dict) -> str:
    """Every number of the head in one table: key, score, scaled score, weight, value."""
    head = ["Token", "Key k", "q·k", "÷ √2" if r["scale"] else "ungeteilt", "Gewicht", "Value v"]
    rows = []
    for j in range(r["n"]):
        if r["visible"][j]:
            scaled = (fmt.APPROX + fmt.de(r["scaled"][j], 2)) if r["scale"] and r["scores"][j] else fmt.exact(Fraction(r["scores_exact"][j]))
        else:
            scaled = "−∞ (Maske)"
        rows.append([f"{j + 1} {r['words'][j]}", _vec(r["keys"][j]), fmt.exact(Fraction(r["scores_exact"][j])),
                     scaled, _weight(r, j), _vec(r["vals"][j])])
    caption = (f"Schritt für Schritt für die Query von {_word(r, r['pos'] - 1)}; Gewichte "
               + ("exakt" if r["weights_exact"] else "auf zwei Stellen gerundet"))
    return table.table(head, rows, caption=caption, row_heads=True, numeric=True, highlight=r["best"])


def view(r: dict, layout: str = WIDE) -> View:
    weights = " · ".join(f"{w} {_weight(r, j)}" for j, w in enumerate(r["words"]))
    readouts = [
        Readout("weights", "Gewichte" + (" (exakt)" if r["weights_exact"] else " (gerundet)"), weights,
                r["weights"]),
        Readout("output", "Ausgabe Σ w·v", _output(r), r["output"], True),
        Readout("scores", "Scores q·k", "; ".join(fmt.exact(Fraction(s)) for s in r["scores_exact"]), r["scores"]),
        Readout("asks", "Es fragt", f"Token {r['pos']} {_word(r, r['pos'] - 1)}", r["pos"]),
    ]
    return View(_figure(r, layout), readouts, _key_sentence(r), _steps_table(r))


# -- the lesson ----------------------------------------------------------------------------------

FOCUS = 0.9


def _page_keys(result) -> bool:
    """The page's own keys, asked by „Mäuse“ with √d."""
    return not result["own_keys"] and result["pos"] == DEFAULT_POS and result["scale"] and not result["notes"]


def _visible_scores(result) -> list[str]:
    return [s for s, seen in zip(result["scores_exact"], result["visible"]) if seen]


def _tie(result) -> bool:
    """Two visible tokens with the same score (so exactly the same weight), with a query that is not 0."""
    scores = _visible_scores(result)
    return any(result["q"]) and len(set(scores)) < len(scores)


def _closest_scores(result) -> float:
    scores = sorted(Fraction(s) for s in _visible_scores(result))
    return min((b - a for a, b in itertools.pairwise(scores)), default=math.inf)


LESSON = Lesson(
    prediction=Prediction(
        question="„Mäuse“ fragt mit q = (2; 1), und „Katze“ bekommt etwa 0,69 des Gewichts. Du verdoppelst "
                 "die Query auf (4; 2). Was passiert mit dem Gewicht von „Katze“?",
        choices=("Es bleibt gleich: Die Softmax teilt ja durch die Summe",
                 "Es wächst: Die Verteilung wird steiler",
                 "Es verdoppelt sich auf über 1"),
        answer=1,
        shown=lambda params, result: (tuple(params["query"]) == (4.0, 2.0) and tuple(params["keys"]) == KEYS
                                      and result["pos"] == DEFAULT_POS and result["scale"]),
        explain="Alle Scores verdoppeln sich, also auch ihre Abstände. Das wirkt wie eine halbe Temperatur: "
                "„Katze“ bekommt jetzt etwa 0,89.",
        example={"query": (4.0, 2.0)},
        why_not=("Die Softmax ändert sich nicht, wenn du zu allen Scores dieselbe Zahl addierst. "
                 "Verdoppeln ändert aber die Abstände.",
                 "",
                 "Ein Gewicht ist nie größer als 1: Die Gewichte ergeben zusammen immer 1."),
    ),
    tasks=(
        Task("focus", f"Ändere nur die Query, bis ein Token mindestens {fmt.de(FOCUS, 1)} des Gewichts bekommt.",
             solved=lambda params, result: _page_keys(result) and result["top_weight"] >= FOCUS,
             explain="Eine längere Query in Richtung eines Keys macht seinen Score groß. "
                     "Die Softmax gibt ihm dann fast alles.",
             example={"query": (4.0, 1.0)},
             hints=("Schaue auf die Balken in der Mitte.",
                    "Der Score ist q·k: Er wächst, wenn q länger wird und in die Richtung des Keys zeigt.",
                    "Mache q länger und drehe es genauer in die Richtung des Keys von „Katze“."),
             near=Near(lambda params, result: _page_keys(result) and 0.8 <= result["top_weight"] < FOCUS,
                       "Fast: schon über 0,8. Noch ein Stück länger oder genauer in Richtung des Keys.",
                       {"query": (4.0, 2.0)})),
        Task("equal", "Sorge dafür, dass zwei sichtbare Tokens genau gleich viel Gewicht bekommen. "
                      "Die Query darf dabei nicht (0; 0) sein.",
             solved=lambda params, result: _tie(result),
             explain="Gleiche Scores geben gleiche Gewichte, genau gleich, welche Zahl die Softmax auch "
                     "ausrechnet. Es kommt nur auf q·k an, nicht darauf, wie Key oder Query einzeln aussehen.",
             example={"keys": (*KEYS[:4], 2.0, 0.5, *KEYS[6:])},
             hints=("Gleiche Gewichte gibt es nur bei gleichen Scores.",
                    "Der Score ist q·k. Ändere einen Key oder die Query, bis zwei Scores gleich sind.",
                    "Mit q = (2; 1) hat „Katze“ den Score 4,5. Schiebe den Key von „jagt“, bis "
                    "2 · (1. Zahl) + (2. Zahl) auch 4,5 ergibt."),
             near=Near(lambda params, result: (any(result["q"]) and not _tie(result)
                                               and _closest_scores(result) <= Fraction(1, 2)),
                       "Fast: Zwei Scores liegen schon weniger als 0,5 auseinander.",
                       {"query": (2.4, 2.0)})),
        Task("mask", "Finde ein fragendes Token, dessen Gewichte sich durch die Maske nicht ändern.",
             solved=lambda params, result: result["pos"] == result["n"],
             explain="Die Maske verbirgt nur Tokens nach dem fragenden. Nach dem letzten kommt keins mehr: "
                     "Es sieht mit und ohne Maske alle. Jedes frühere Token verliert mit Maske die späteren, "
                     "denn beim Training darf es die Wörter nicht sehen, die es vorhersagen soll.",
             example={"pos": 5},
             hints=("Schalte die Maske aus und wieder ein und vergleiche die Balken.",
                    "Die Maske verbirgt die Tokens nach dem fragenden.",
                    "Welches Token hat keine Tokens nach sich?"),
             near=None),
        Task("key", "Ziehe den Key von „Die“, bis „Die“ das meiste Gewicht bekommt.",
             solved=lambda params, result: (result["keys"][0] != list(KEYS_ALL[0]) and sum(result["visible"]) >= 2
                                            and result["winners"] == [0]),
             explain="Der Score hängt vom Key ab: Zeigt der Key von „Die“ in die Richtung der Query "
                     "und ist länger als die anderen, gewinnt „Die“.",
             example={"keys": (3.0, 1.5, *KEYS[2:])},
             hints=("Der Key von „Die“ zeigt nach links oben, q nach rechts.",
                    "Ziehe die Spitze des Keys von „Die“ nach rechts, in die Richtung von q.",
                    "Mit q = (2; 1) muss der Key q·k über 4,5 bringen, den Score von „Katze“."),
             near=None),
    ),
    discussion=(
        "Hier fragt jedes Token mit derselben Query. Warum bekommt im Modell jedes Token eine eigene?",
        "Was würde ein Sprachmodell beim Training lernen, wenn es keine kausale Maske gäbe?",
    ),
    teacher=(
        "Query, Key und Value sind drei verschiedene Abbildungen desselben Tokens. Die Query sagt, was ein "
        "Token sucht, der Key, was es bietet, der Value, was es weitergibt.",
        "Ohne Maske sähe jedes Token das nächste Wort. Das Modell lernte abzuschreiben und könnte beim "
        "Erzeugen nichts, weil das nächste Wort dann noch fehlt.",
        "Haben die Einträge von Query und Key etwa dieselbe Größe, wächst die Streuung der Scores mit √d. "
        "Die Teilung durch √d hält sie gleich, wie groß d auch ist (in großen Modellen 64 oder 128). Sonst "
        "gäbe die Softmax fast immer einem Token fast alles.",
    ),
    misconceptions=(
        "„Attention sucht das ähnlichste Wort.“ Nur ungefähr: Der Score ist ein Skalarprodukt, die Länge "
        "der Vektoren zählt mit.",
        "„Die Ausgabe ist der Value des Gewinners.“ Nein: Sie ist ein gewichteter Mittelwert aller "
        "sichtbaren Values und liegt zwischen ihnen.",
    ),
)
