"""Top-p (nucleus) sampling on the article's two rows, with exact threshold comparisons.

The article's example (CONCEPTS.md §29), already sorted: row 1 = 0.7, 0.15, 0.1, 0.05 and
row 2 = 0.4, 0.3, 0.2, 0.1. At p = 0.75 row 1 keeps two tokens (0.85), row 2 needs three (0.9),
renormalised 4/9, 3/9, 2/9. The nucleus is the smallest leading group whose sum *reaches* p
(Holtzman et al. 2020, §3.1): a token is kept exactly when the sum of the tokens before it is
still below p.

Exactness. The comparison „sum ≥ p“ is made with fractions. In floating point
0.4 + 0.3 + 0.2 = 0.8999999999999999 < 0.9, so at p = 0.9 a float cut keeps D as well.
The page shows two float versions beside the exact one: the plain descending sum (≥ p) and
the rule of Hugging Face Transformers' ``TopPLogitsWarper`` (sort ascending, remove while the
cumulative sum is ≤ 1 − p; here in float64 on the same numbers, where 0.1 + 0.2 + 0.3 =
0.6000000000000001 > 0.6 makes it keep two tokens at p = 0.4 instead of one).

Temperature T is applied to the logits ln p_i before the cut, as Transformers does when both
are set (``TemperatureLogitsWarper`` comes before ``TopPLogitsWarper``): the new chances are
p_i^(1/T) / Σ p_j^(1/T). When 1/T is a whole number (T = 1, 0.5, 0.25, …) they are exact
fractions; otherwise they are irrational and are computed with 50 significant digits
(``decimal``), so that a float rounding error can never decide the cut.

An own distribution (2–8 chances the reader types, kit/distribution.py) replaces the two rows: its
tokens are named A, B, … in the order typed and sorted by chance before the cut (equal chances keep
that order), and its decimals are exact fractions like the article's.
"""

from __future__ import annotations

import decimal
import itertools
import math
from fractions import Fraction

from ..kit import distribution, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "top-p-sampling"
TITLE = "Top-p-Sampling (Nucleus Sampling)"
GROUP = "Decodieren und Sampling"
TEASER = "Gezogen wird aus den besten Tokens, bis ihre Summe p erreicht – mal zwei, mal drei."

TOKENS = ("A", "B", "C", "D")
ROWS = (("0.7", "0.15", "0.1", "0.05"), ("0.4", "0.3", "0.2", "0.1"))
DIGITS = 50

OWN = distribution.own(help="Statt der zwei Zeilen: 2 bis 8 Wahrscheinlichkeiten, mit Semikolon getrennt. Ergeben sie "
                       "nicht 1, wird durch ihre Summe geteilt. Leer: die beiden Zeilen von oben. Die Balken "
                       "einer eigenen Verteilung lassen sich im Bild ziehen.")

PARAMS = (
    Param("p", "Schwelle p", "float", 0.75, lo=0.05, hi=1.0, step=0.05,
          help="Behalten wird die kleinste Spitzengruppe, deren Summe p erreicht."),
    Param("temperature", "Temperatur T", "float", 1.0, lo=0.1, hi=3.0, step=0.05,
          help="Teilt die Logits ln p durch T, bevor geschnitten wird (T = 1: unverändert)."),
    OWN,
)

PRESETS = (
    Preset("Beispiel: p = 0,75", {}, "Zeile 1 behält zwei Tokens, Zeile 2 drei."),
    Preset("p = 0,7: genau getroffen", {"p": 0.7}, "Die Summe erreicht p genau – das genügt."),
    Preset("p = 0,9: Gleitkomma-Falle", {"p": 0.9}, "0,4 + 0,3 + 0,2 ist in Gleitkomma knapp unter 0,9."),
    Preset("Kühler: T = 0,5", {"temperature": 0.5}, "Die Spitze wird steiler, der Kern kleiner."),
    Preset("Heißer: T = 2", {"temperature": 2.0}, "Die Verteilung wird flacher, der Kern größer."),
)


# -- the cut ----------------------------------------------------------------------------

def tempered(row, temperature) -> tuple[list, bool]:
    """Probabilities after temperature: exact fractions when 1/T is whole, else 50-digit decimals."""
    probs = [Fraction(x) for x in row]
    t = Fraction(repr(float(temperature))) if not isinstance(temperature, Fraction) else temperature
    inv = 1 / t
    if inv.denominator == 1:
        powers = [p ** inv.numerator for p in probs]
        total = sum(powers)
        return [x / total for x in powers], True
    with decimal.localcontext() as ctx:
        ctx.prec = DIGITS
        tt = decimal.Decimal(t.numerator) / decimal.Decimal(t.denominator)
        powers = [(decimal.Decimal(p.numerator) / decimal.Decimal(p.denominator)).ln() / tt for p in probs]
        top = max(powers)
        weights = [(x - top).exp() for x in powers]
        total = sum(weights)
        return [w / total for w in weights], False


def _as_fraction(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)  # Decimal → exact binary-free fraction


def nucleus(chances, p) -> int:
    """How many leading tokens the exact rule keeps: token j stays iff the sum before it is < p, and
    a token of chance 0 never does (50-digit chances after a temperature can sum to just under 1, so
    at p = 1 the sum alone would let it in)."""
    p = Fraction(repr(float(p))) if not isinstance(p, Fraction) else p
    before = Fraction(0)
    kept = 0
    for c in chances:
        if before >= p or c == 0:
            break
        kept += 1
        before += _as_fraction(c)
    return kept


def nucleus_float_desc(values: list[float], p: float) -> int:
    """The naive float version: add from the top until the float sum is ≥ p."""
    total, kept = 0.0, 0
    for v in values:
        kept += 1
        total += v
        if total >= p:
            break
    return kept


def nucleus_float_hf(values: list[float], p: float) -> int:
    """Transformers' TopPLogitsWarper rule in float64: ascending cumsum ≤ 1 − p is removed, the top one stays."""
    ascending = sorted(values)
    total, removed = 0.0, 0
    for v in ascending[:-1]:
        total += v
        if total <= 1 - p:
            removed += 1
    return len(values) - removed


def rows_of(dist=()) -> list[tuple[str, tuple[str, ...], tuple[Fraction, ...]]]:
    """(name, tokens, chances) of each row, sorted by chance: the article's two, or the reader's own."""
    if not dist:
        return [(f"Zeile {k}", TOKENS, tuple(Fraction(x) for x in row)) for k, row in enumerate(ROWS, start=1)]
    values, names = distribution.shares(dist), distribution.names(len(dist))
    order = sorted(range(len(values)), key=lambda i: -values[i])
    return [("Eigene", tuple(names[i] for i in order), tuple(values[i] for i in order))]


def compute(p: float = 0.75, temperature: float = 1.0, dist: tuple = ()) -> dict:
    rows = []
    for name, tokens, row in rows_of(dist):
        chances, exact = tempered(row, temperature)
        kept = nucleus(chances, p)
        fr = [_as_fraction(c) for c in chances]
        mass = sum(fr[:kept])
        renorm = [c / mass for c in fr[:kept]]
        # the float comparison works on the numbers as a program would hold them
        floats = [float(x) for x in row] if temperature == 1.0 else [float(c) for c in chances]
        cum, run = [], Fraction(0)
        for c in fr:
            run += c
            cum.append(run)
        rows.append({
            "name": name,
            "tokens": list(tokens),
            "values": [float(x) for x in row],
            "chances": [float(c) for c in fr],
            "chances_exact": [str(c) for c in fr] if exact else None,
            "cum": [float(c) for c in cum],
            "exact": exact,
            "kept": kept,
            "kept_tokens": list(tokens[:kept]),
            "mass": float(mass),
            "mass_exact": str(mass) if exact else None,
            "renorm": [float(x) for x in renorm],
            "renorm_exact": fmt.over_common(renorm) if exact else None,
            "renorm_den": math.lcm(*(x.denominator for x in renorm)) if exact else None,
            "renorm_num": [int(x * math.lcm(*(y.denominator for y in renorm))) for x in renorm] if exact else None,
            "float_cum": list(itertools.accumulate(floats)),
            "float_cum_asc": list(itertools.accumulate(sorted(floats))),
            "float_desc": nucleus_float_desc(floats, p),
            "float_hf": nucleus_float_hf(floats, p),
        })
    return {
        "p": p,
        "temperature": temperature,
        "own": bool(dist),
        "rows": rows,
        "one_minus_p": 1 - p,
        "float_ok": all(r["float_desc"] == r["kept"] and r["float_hf"] == r["kept"] for r in rows),
    }


# -- what the page shows -----------------------------------------------------------------

def _num(x: float, exact_text: str | None) -> str:
    return fmt.exact(Fraction(exact_text), 6, 3) if exact_text is not None else fmt.APPROX + fmt.de(x, 3)


def _renorm_texts(row: dict, digits: int, max_den: int = 999) -> list[str]:
    """Renormalised chances as fractions over a common denominator (4/9, 3/9, 2/9) while that stays
    readable; otherwise (irrational chances, or large denominators at small T) as decimals."""
    if row["renorm_exact"] and row["renorm_den"] <= max_den:
        return row["renorm_exact"]
    return [fmt.de(x, digits) for x in row["renorm"]]


# font sizes (px) of the figure's texts, as the CSS sets them (probierlabor.css, top_p_sampling.css): the threshold's line
# keeps clear of each text's box
TICK, TOKEN, KERN, THRESHOLD = 12, 13, 14, 13


def _float_warning(rows: list[dict], own_name: str = "") -> str:
    """What a float comparison would keep instead, where it differs from the exact cut."""
    for row in rows:
        wrong = row["float_desc"] if row["float_desc"] != row["kept"] else row["float_hf"]
        if wrong != row["kept"]:
            return f" Mit Gleitkommazahlen behielte {own_name or row['name']} aber {wrong} statt {row['kept']}."
    return ""


def _key_sentence(r: dict) -> str:
    """The sentence under the figure: how big each nucleus is at this p and what that says – the same
    threshold gives the rows cores of different size, a sum that hits p exactly is enough, and a float
    comparison can keep one token more."""
    head = f"Bei p = {fmt.de_auto(r['p'])}" + (f" und T = {fmt.de_auto(r['temperature'])}"
                                              if r["temperature"] != 1.0 else "")
    mass = {row["name"]: _num(row["mass"], row["mass_exact"]) for row in r["rows"]}
    hit = [row["name"] for row in r["rows"] if row["exact"] and Fraction(row["mass_exact"]) == Fraction(repr(r["p"]))]
    exact_hit = (" Die Summe trifft p genau – das reicht schon." if r["own"] and hit else
                 f" {' und '.join(hit)} {'treffen' if len(hit) > 1 else 'trifft'} p genau – das reicht schon."
                 if hit else "")
    if r["own"]:
        (own,) = r["rows"]
        n = len(own["tokens"])
        core = (f"alle {n} Tokens" if own["kept"] == n
                else f"{fmt.count(own['kept'], 'Token', 'Tokens')} ({', '.join(own['kept_tokens'])})")
        text = f"{head} behält deine Verteilung {core}, Summe {mass['Eigene']}."
        if own["kept"] == 1:
            text += f" {own['kept_tokens'][0]} allein reicht: Gezogen wird immer {own['kept_tokens'][0]}."
        return text + exact_hit + _float_warning(r["rows"], "deine Verteilung")
    r1, r2 = r["rows"]
    if r1["kept"] == r2["kept"]:
        text = (f"{head} behalten beide Zeilen {fmt.count(r1['kept'], 'Token', 'Tokens')} (Summe {mass['Zeile 1']} "
                f"und {mass['Zeile 2']}). Hier sind die Kerne gleich groß, wie es bei Top-k immer wäre.")
    else:
        text = (f"{head} behält Zeile 1 {fmt.count(r1['kept'], 'Token', 'Tokens')} (Summe {mass['Zeile 1']}), "
                f"Zeile 2 braucht {r2['kept']} (Summe {mass['Zeile 2']}). Dieselbe Schwelle, verschieden große Kerne: "
                "Der Kern passt sich der Verteilung an.")
    return text + exact_hit + _float_warning(r["rows"])


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the bars at phone width, each row's kernel and its new chances in two lines
    narrow = layout == NARROW
    line = 18 if narrow else 0
    axis_y = 46 + (100 + line) * len(r["rows"])
    left, right = 60, width(440, layout) - 14
    scale = right - left
    # the threshold's label beside its line; where it would reach the temperature's note (always on a
    # narrow figure), the note goes below the axis
    xp = left + scale * r["p"]
    anchor = "end" if r["p"] > 0.8 else "start"
    p_text, p_x = f'p = {fmt.de_auto(r["p"])}', xp + (-5 if anchor == "end" else 5)
    note = (f'T = {fmt.de_auto(r["temperature"])}' + ("" if r["rows"][0]["exact"] else " (Werte gerundet)")
            if r["temperature"] != 1.0 else "")
    foot = 18 if note and (narrow or _overlap(svg.text_box(8, 22, note, TICK),
                                               svg.text_box(p_x, 22, p_text, THRESHOLD, anchor))) else 0
    w, h = width(440, layout), axis_y + 40 + foot
    # an own distribution also stands as bars in the order typed, which the reader can drag
    panel = _own_bars(r, h, left, right) if r["own"] else ""
    parts = []
    labels = []  # the boxes of the texts over the bars, which the threshold's line leaves clear
    # cumulative axis
    parts.append(f'<line class="pl-frame" x1="{left}" y1="{axis_y}" x2="{right}" y2="{axis_y}"/>')
    for i in range(11):
        x = left + scale * i / 10
        parts.append(f'<line class="pl-grid" x1="{x:.1f}" y1="30" x2="{x:.1f}" y2="{axis_y}"/>')
        if i % 2 == 0:
            parts.append(f'<text class="pl-tick" x="{x:.1f}" y="{axis_y + 16}" text-anchor="middle">'
                         f'{fmt.de(i / 10, 1)}</text>')
    parts.append(f'<text class="pl-axis" x="{(left + right) / 2:.0f}" y="{h - 6 - foot}" text-anchor="middle">'
                 f'Aufsummierte Wahrscheinlichkeit (sortiert)</text>')
    for k, row in enumerate(r["rows"]):
        y = 52 + (100 + line) * k
        parts.append(f'<text class="pl-label" x="4" y="{y + 22}" font-weight="700">{row["name"]}</text>')
        start = 0.0
        for j, token in enumerate(row["tokens"]):
            c = row["chances"][j]
            x0, x1 = left + scale * start, left + scale * (start + c)
            kept = j < row["kept"]
            cls = ("pl-dec-seg-kept" if j % 2 == 0 else "pl-dec-seg-kept2") if kept else "pl-dec-seg-cut"
            parts.append(f'<rect class="pl-dec-seg {cls}" x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 0):.1f}" '
                         f'height="34"><title>{token}: {fmt.de(c, 3)}</title></rect>')
            cx = (x0 + x1) / 2
            if x1 - x0 >= 14:
                tcls = "pl-dec-seg-text" if kept else "pl-dec-seg-text-cut"
                parts.append(f'<text class="{tcls}" x="{cx:.1f}" y="{y + 22}" text-anchor="middle">{token}</text>')
                labels.append(svg.text_box(cx, y + 22, token, TOKEN, "middle"))
            if x1 - x0 >= 34:
                label = fmt.exact(Fraction(row["chances_exact"][j]), 6, 3) if row["chances_exact"] else fmt.de(c, 3)
                label = label.replace("≈ ", "")
                parts.append(f'<text class="pl-tick" x="{cx:.1f}" y="{y - 5}" text-anchor="middle">{label}</text>')
                labels.append(svg.text_box(cx, y - 5, label, TICK, "middle"))
            start += c
        kept_text = ", ".join(row["kept_tokens"])
        mass = _num(row["mass"], row["mass_exact"])
        renorm = " · ".join(_renorm_texts(row, 2, 99))
        kern = (f"Kern {kept_text} (Summe {mass})", f"→ {renorm}")
        kern_lines = kern if narrow else [" ".join(kern)]
        for n, text in enumerate(kern_lines):
            parts.append(f'<text class="pl-label pl-dec-kern" x="4" y="{y + 56 + line * n}">{text}</text>')
        # where a line this long ends depends on the reader's font: the threshold pauses across its band
        band = [svg.text_box(4, y + 56 + line * n, text, KERN) for n, text in enumerate(kern_lines)]
        labels.append((0, band[0][1], w, band[-1][3]))
    parts.append(svg.vline(xp, 30, axis_y, "pl-dec-threshold", avoid=labels))
    parts.append(f'<text class="pl-dec-threshold-text" x="{p_x:.1f}" y="22" text-anchor="{anchor}">{p_text}</text>')
    if note:
        parts.append(f'<text class="pl-tick" x="8" y="{h - 6 if foot else 22}">{note}</text>')
    if panel:
        parts.append(panel)
        h += OWN_PANEL
    figure = svg.figure(w, h, parts, label=f'Top-p mit p = {fmt.de_auto(r["p"])}: Kern je Zeile', cls="pl-topp",
                        layout=layout)

    readouts = []
    for k, row in enumerate(r["rows"], start=1):
        readouts.append(Readout(f"row{k}", f"{row['name']}: Kern", ", ".join(row["kept_tokens"]), row["kept"], True))
        readouts.append(Readout(f"row{k}_mass", f"{row['name']}: Summe", _num(row["mass"], row["mass_exact"]),
                                row["mass"]))
    bad = [row for row in r["rows"] if row["float_desc"] != row["kept"] or row["float_hf"] != row["kept"]]
    if bad:
        row = bad[0]
        wrong = row["float_desc"] if row["float_desc"] != row["kept"] else row["float_hf"]
        text = f"{row['name']}: {wrong} statt {row['kept']} Tokens"
    else:
        text = "schneidet hier gleich"
    readouts.append(Readout("float", "Mit Gleitkommazahlen", text, r["float_ok"]))

    summary = _key_sentence(r)
    return View(figure, readouts, summary, _table(r))


def _overlap(a: svg.Box, b: svg.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


OWN_PANEL = 150  # the height of the own distribution's bars under the figure


def _own_bars(r: dict, y: float, left: float, right: float) -> str:
    """The typed distribution (before temperature) as bars A, B, … from ``y`` down, each draggable."""
    (row,) = r["rows"]  # sorted by chance; its names A, B, … say the order typed
    values = [row["values"][row["tokens"].index(token)] for token in sorted(row["tokens"])]
    top, bottom = y + 28, y + OWN_PANEL - 26
    group = (right - left) / len(values)
    bar = min(40, group * 0.6)
    parts = [f'<text class="pl-axis" x="{left}" y="{y + 14}">Eigene Verteilung (zum Ziehen)</text>',
             f'<line class="pl-frame" x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}"/>']
    bars = []
    for i, value in enumerate(values):
        cx = left + group * (i + 0.5)
        target, handle = distribution.bar(OWN, i, value, x=cx - bar / 2, width=bar, top=top, bottom=bottom,
                                          cls="pl-topp-own", room=group, title=f"{distribution.LETTERS[i]}: {fmt.de_auto(value)}")
        parts.append(target)
        bars.append(handle)
        parts.append(f'<text class="pl-tick" x="{cx:.1f}" y="{bottom + 16}" text-anchor="middle">'
                     f'{distribution.LETTERS[i]} {fmt.de_auto(value)}</text>')
    return "".join(parts + bars)


def _table(r: dict) -> str:
    rows, classes = [], []
    for k, row in enumerate(r["rows"], start=1):
        renorm = iter(_renorm_texts(row, 3))
        for j, token in enumerate(row["tokens"]):
            exact = row["chances_exact"][j] if row["chances_exact"] else None
            cum_exact = None
            if row["exact"]:
                cum_exact = str(sum(Fraction(c) for c in row["chances_exact"][:j + 1]))
            kept = j < row["kept"]
            rows.append([f"{k}{token}" if not r["own"] else token, _num(row["chances"][j], exact), _num(row["cum"][j], cum_exact),
                         next(renorm) if kept else "–"])
            classes.append("" if kept else "pl-dec-out")
    head = ["Token", "Wahrscheinlichkeit" + (" (nach T)" if r["temperature"] != 1.0 else ""), "Summe bis hier", "im Kern"]
    checks = []
    for row in r["rows"]:
        checks.append([row["name"], str(row["kept"]), str(row["float_desc"]), str(row["float_hf"])])
    check_classes = ["pl-dec-warn" if c[1] != c[2] or c[1] != c[3] else "" for c in checks]
    return (table(head, rows, caption=f"p = {fmt.de_auto(r['p'])}: Kern und umgerechnete Wahrscheinlichkeiten",
                  row_classes=classes, numeric=True)
            + table(["", "exakt", "Gleitkomma ≥ p", "wie Transformers"], checks,
                    caption="Wie viele Tokens behalten werden", row_classes=check_classes, numeric=True))


# -- the lesson ----------------------------------------------------------------------------

def _kept(row: int):
    # the tasks speak of the article's rows; an own distribution neither solves nor answers them
    return lambda params, result: None if result["own"] else result["rows"][row]["kept"]


def _hits_a_sum_exactly(params, result) -> bool:
    """A cumulative sum of an article's row equals p exactly, and yet the computer cuts it right."""
    p = Fraction(str(params["p"]))
    return (not result["own"] and result["float_ok"]
            and any(total == p for row in result["rows"] if row["exact"]
                    for total in itertools.accumulate(map(Fraction, row["chances_exact"]))))


LESSON = Lesson(
    prediction=Prediction(
        question="Zeile 1 behält bei T = 1 zwei Tokens. Wie viele behält sie bei der Temperatur T = 2 (p bleibt 0,75)?",
        choices=("eins", "zwei", "drei", "vier"),
        answer=2,
        shown=lambda params, result: params["p"] == 0.75 and params["temperature"] == 2.0 and not result["own"],
        explain="Eine höhere Temperatur macht die Verteilung flacher: A verliert, B, C und D gewinnen. "
                "Erst A, B und C zusammen erreichen dann 0,75.",
        example={"temperature": 2.0},
        why_not=("Eine kleinere Temperatur macht die Spitze steiler, dann reicht A allein. "
                 "T = 2 wirkt umgekehrt: Die Verteilung wird flacher, und A verliert.",
                 "p bleibt gleich, da liegt zwei nahe. Die Temperatur ändert aber die Wahrscheinlichkeiten selbst. "
                 "Bei T = 2 erreichen A und B zusammen keine 0,75 mehr.",
                 "",
                 "Die Verteilung wird bei T = 2 flacher, aber nicht ganz flach. "
                 "A, B und C zusammen kommen schon über 0,75, D bleibt draußen."),
    ),
    tasks=(
        # at T = 1: a lower temperature also leaves one token, without p doing it
        Task("one_token", "Lass T bei 1 und stelle p so ein, dass in Zeile 1 nur noch ein Token übrig bleibt.",
             solved=lambda params, result: params["temperature"] == 1 and _kept(0)(params, result) == 1,
             explain="A allein hat 0,7. Sobald p höchstens 0,7 ist, reicht A schon aus.",
             example={"p": 0.7},
             hints=("Schau, wie viel A in Zeile 1 allein hat.",
                    "Der Kern endet, sobald seine Summe p erreicht. Wann reicht A allein?",
                    "Lass „Temperatur T“ bei 1 und senke „Schwelle p“ Schritt für Schritt."),
             near=Near(lambda params, result: params["temperature"] != 1 and _kept(0)(params, result) == 1,
                       "Fast: Zeile 1 behält nur ein Token, aber das hat die Temperatur erledigt. "
                       "Stelle T zurück auf 1 und arbeite mit p.",
                       {"temperature": 0.5})),
        Task("float_trap", "Finde ein p, bei dem eine Rechnung mit Gleitkommazahlen anders schneidet als die exakte.",
             solved=lambda params, result: not result["float_ok"] and not result["own"],
             explain="Bei p = 0,9 ergibt 0,4 + 0,3 + 0,2 im Rechner 0,8999999999999999. "
                     "Das liegt knapp unter 0,9, also nimmt das Programm D noch dazu.",
             example={"p": 0.9},
             hints=("Schaue auf die Zeile „Mit Gleitkommazahlen“.",
                    "Gefährlich sind Werte von p, die eine Summe von Wahrscheinlichkeiten genau treffen.",
                    "Stelle „Schwelle p“ nacheinander auf die Summen, die du in den beiden Zeilen ablesen kannst."),
             near=Near(_hits_a_sum_exactly,
                       "Fast: Hier trifft eine Summe p genau. An solchen Stellen droht die Falle, "
                       "doch diese Summe rechnet der Rechner noch richtig.",
                       {"p": 0.7})),
        Task("cool_down", "Lass p bei 0,75 und ändere nur die Temperatur, bis in Zeile 2 nur A übrig bleibt.",
             solved=lambda params, result: params["p"] == 0.75 and _kept(1)(params, result) == 1,
             explain="Eine kleine Temperatur macht die Spitze steiler. Ab T = 0,2 hat A allein mehr als 0,75.",
             example={"temperature": 0.2},
             hints=("Schaue auf Zeile 2: Wie viel hat A dort allein?",
                    "Eine kleinere Temperatur macht die Spitze steiler. Dann wächst der Anteil von A.",
                    "Lass „Schwelle p“ bei 0,75 und senke „Temperatur T“ Schritt für Schritt."),
             near=Near(lambda params, result: (params["p"] == 0.75 and _kept(1)(params, result) == 2
                                               and result["rows"][1]["chances"][0] >= 0.8 * params["p"]),  # within a fifth of p
                       "Fast: A allein hat in Zeile 2 schon beinahe 0,75. Es fehlt nur noch ein kleines Stück.",
                       {"temperature": 0.3})),
    ),
    discussion=(
        "Top-k behält immer gleich viele Tokens. Warum passt ein fester Wert zu Zeile 1 und Zeile 2 nicht gleich gut?",
        "Ein Sprachmodell soll einmal Programmcode ergänzen und einmal eine Geschichte schreiben. "
        "Welches p und welche Temperatur würdest du jeweils wählen?",
    ),
    teacher=(
        "Top-p passt die Auswahl an die Verteilung an: Bei einer klaren Spitze (Zeile 1) bleiben wenige Tokens, "
        "bei einer flachen Verteilung (Zeile 2) mehr. Top-k nimmt immer gleich viele.",
        "Für Code passen ein kleines p und eine niedrige Temperatur: wenige, sichere Tokens. Für Geschichten "
        "passen ein größeres p und eine höhere Temperatur: mehr Vielfalt, aber auch mehr Unsinn.",
    ),
    misconceptions=(
        "p ist keine Anzahl von Tokens, sondern eine Schwelle für die Summe ihrer Wahrscheinlichkeiten.",
        "Nach dem Schnitt werden die übrigen Wahrscheinlichkeiten neu verteilt, sodass sie wieder 1 ergeben.",
    ),
)
