"""Elastic Weight Consolidation with two weights, solved exactly.

The example (CONCEPTS.md §5, the only objective that reproduces every figure of the article):

* both weights are 1 after the old task (Lieferung, Rücksendungen); importances F = (10, 0.1);
* the new task (Reklamationen) only asks for w₁ + w₂ = 4: L_B(w) = ½(w₁ + w₂ − 4)²;
* EWC minimises L_B(w) + Σ (λ/2)·F_i·(w_i − 1)²  (Kirkpatrick et al., Eq. 3);
  „Gleiche Strafe“ uses the weights c = (1, 1) instead of F;
* „Ohne Schutz“ is plain gradient descent on L_B from (1, 1): it moves along the gradient
  (1, 1) and stops on the line at (2, 2). That is not the λ → 0 limit of EWC.
* the old task's loss is shown in its quadratic approximation L_A(w) = ½ Σ F_i (w_i − 1)².

Closed form with penalty weights c, a start s and Δ_i = w_i − s_i: setting the gradient to zero gives
Δ_i = (D − S)/(λ c_i) with D = 4 − s₁ − s₂ and S = Δ₁ + Δ₂, hence S = D·A/(1 + A) where
A = Σ 1/(λ c_i) (the article: s = (1, 1), D = 2).
Everything is computed in exact fractions; λ, F and the start enter as the decimals the reader chose.

The reader may type own importances F and an own start (two values each, Param kind ``values``);
the article's numbers are their defaults.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task, unless_own

SLUG = "ewc"
TITLE = "Elastic Weight Consolidation (EWC)"
GROUP = "Lernen und Bewerten"
TEASER = "Neues lernen, ohne Altes zu vergessen: steife Federn an wichtigen Gewichten."

START = (Fraction(1), Fraction(1))
IMPORTANCE = (Fraction(10), Fraction(1, 10))
START_RANGE = (0.0, 4.0)
F_RANGE = (0.01, 100.0)
TARGET_SUM = Fraction(4)

MODES = (("none", "Ohne Schutz"), ("equal", "Gleiche Strafe"), ("ewc", "EWC"))

PARAMS = (
    Param("mode", "Schutz", "choice", "ewc", choices=MODES,
          help="Wie das Lernen der neuen Aufgabe die alten Gewichte schützt."),
    Param("lam", "Stärke der Strafe λ", "float", 1.0, lo=0.01, hi=100.0, step=0.05, log=True,
          help="Wie stark die alte Aufgabe gegenüber der neuen zählt (ohne Schutz wirkungslos)."),
    Param("F", "Wichtigkeit F von w₁ und w₂", "values", tuple(float(f) for f in IMPORTANCE), lo=F_RANGE[0],
          hi=F_RANGE[1], count=(2, 2),
          help="Zwei Zahlen von 0,01 bis 100, mit Semikolon getrennt: wie sehr die alte Aufgabe an jedem Gewicht hängt."),
    Param("start", "Start (w₁; w₂) nach der alten Aufgabe", "values", tuple(float(x) for x in START),
          lo=START_RANGE[0], hi=START_RANGE[1], count=(2, 2),
          help="Zwei Zahlen von 0 bis 4, mit Semikolon getrennt: wo die Gewichte vor der neuen Aufgabe stehen."),
)

PRESETS = (
    Preset("Ohne Schutz", {"mode": "none"}, "Beide Gewichte wandern gleich weit."),
    Preset("Gleiche Strafe", {"mode": "equal"}, "Jede Änderung kostet gleich viel."),
    Preset("EWC", {"mode": "ewc"}, "Wichtige Gewichte sind steif, unwichtige locker."),
)


def solve(mode: str, lam, importance=IMPORTANCE, start=START) -> tuple[Fraction, Fraction]:
    """The minimiser (w₁, w₂) for a protection mode and penalty strength."""
    distance = TARGET_SUM - sum(start)  # D
    if mode == "none":
        return start[0] + distance / 2, start[1] + distance / 2
    lam = Fraction(str(lam)) if not isinstance(lam, Fraction) else lam
    if lam <= 0:
        raise ValueError("λ muss größer als 0 sein.")
    weights = importance if mode == "ewc" else (Fraction(1), Fraction(1))
    inverse = [1 / (lam * c) for c in weights]
    a = sum(inverse)
    moved = distance * a / (1 + a)  # S = Δ₁ + Δ₂
    gap = distance - moved
    return start[0] + gap * inverse[0], start[1] + gap * inverse[1]


def old_loss(w, importance=IMPORTANCE, start=START) -> Fraction:
    return sum(f * (wi - s) ** 2 for f, wi, s in zip(importance, w, start)) / 2


def new_loss(w) -> Fraction:
    return (w[0] + w[1] - TARGET_SUM) ** 2 / 2


def compute(mode: str = "ewc", lam: float = 1.0, F: tuple = (10.0, 0.1), start: tuple = (1.0, 1.0)) -> dict:
    importance, begin = _exact(F), _exact(start)
    w = solve(mode, lam, importance, begin)
    all_modes = {m: [float(x) for x in solve(m, lam, importance, begin)] for m, _ in MODES}
    return {
        "mode": mode,
        "lam": lam,
        "F": [float(f) for f in importance],
        "F_exact": [str(f) for f in importance],
        "start": [float(x) for x in begin],
        "start_exact": [str(x) for x in begin],
        "own": importance != IMPORTANCE or begin != START,
        "w": [float(w[0]), float(w[1])],
        "w_exact": [str(w[0]), str(w[1])],
        "sum": float(w[0] + w[1]),
        "old_loss": float(old_loss(w, importance, begin)),
        "new_loss": float(new_loss(w)),
        "all_modes": all_modes,
    }


def _exact(values) -> tuple[Fraction, Fraction]:
    return tuple(Fraction(repr(float(v))) for v in values)


def _axis_words(F) -> tuple[str, str]:
    """„w₁ (wichtig, F = 10)“: which weight matters more for the old task, when one does."""
    names = []
    for i, f in enumerate(F):
        other = F[1 - i]
        word = "" if f == other else ("wichtig, " if f > other else "unwichtig, ")
        names.append(f"w{'₁₂'[i]} ({word}F = {fmt.de_auto(f)})")
    return names[0], names[1]


LABEL_SIZE = 13  # px, a solution's label on a narrow figure (the faint ones are 12: this errs on the safe side)
CLEAR = 3  # px kept between a label and a point, another label or the line


def _box(x: float, y: float, text: str, anchor: str) -> tuple[float, float, float, float]:
    """A label's box in pixels around its baseline (left, top, right, bottom)."""
    reach = svg.text_width(text, LABEL_SIZE)
    left = {"start": x, "end": x - reach, "middle": x - reach / 2}[anchor]
    return left, y - 0.75 * LABEL_SIZE, left + reach, y + 0.25 * LABEL_SIZE


def _apart(a, b) -> bool:
    return a[2] + CLEAR <= b[0] or b[2] + CLEAR <= a[0] or a[3] + CLEAR <= b[1] or b[3] + CLEAR <= a[1]


def _narrow_place(plot: svg.Plot, a: float, b: float, lines: tuple[str, ...], wide: tuple,
                  taken: list, others: list) -> list[tuple] | None:
    """Where a solution's label goes on a narrow figure, as (text, anchor, dx, dy) per line.

    The label must stay inside the plot, off the line w₁ + w₂ = 4 (on or near which the solutions lie,
    and a small plot leaves a long label little room beside them) and ``CLEAR`` pixels from every box in
    ``taken`` (the points, the start's label, the labels placed before); ``others`` are the other points
    (pixels). The usual places come first: the wide figure's, up and right of the point, down and left,
    below, above. A point in a corner of the plot or among the others may leave none of them free: then
    the nearest free place around it that is nearer to it than to any other point (else a reader takes
    the label for a neighbour's), the name and the numbers on one line or on two. Where even that
    fails: None, and the label goes into the key. The boxes of the placed lines join ``taken``."""
    x, y = plot.px(a), plot.py(b)

    def line_y(px: float) -> float:  # the constraint line in pixels
        return plot.py(4 - (plot.x0 + (px - plot.left) / (plot.right - plot.left) * (plot.x1 - plot.x0)))

    def free(box) -> bool:
        lo, top, hi, bottom = box
        ys = (line_y(lo), line_y(hi))
        crossed = min(ys) <= bottom + CLEAR and max(ys) >= top - CLEAR
        # a label centred near an edge ends on it up to rounding
        inside = plot.left - 0.5 <= lo and hi <= plot.w + 0.5 and plot.top <= top and bottom <= plot.bottom
        return inside and not crossed and all(_apart(box, other) for other in taken)

    def centred(text: str) -> float:  # moved inside near an edge
        reach = svg.text_width(text, LABEL_SIZE)
        return min(max(x, plot.left + reach / 2), plot.w - 2 - reach / 2) - x

    def lay(texts, anchor, dx, dy):
        placed = [(t, anchor, dx, dy + 16 * k) for k, t in enumerate(texts)]
        return placed, [_box(x + dx, y + ddy, t, anchor) for t, _, _, ddy in placed]

    variants = (lines,) if len(lines) == 1 else ((" ".join(lines),), lines)
    usual, around = [], []
    for texts in variants:
        down = 16 * (len(texts) - 1)  # a two-line label grows away from its point
        widest = max(texts, key=len)
        if len(texts) == 1:
            usual.append((texts, *wide))
        usual += [(texts, "start", 14, -10 - down), (texts, "end", -14, 22), (texts, "middle", centred(widest), 28),
                  (texts, "middle", centred(widest), -16 - down)]
        around += [(texts, anchor, dx, dy) for dy in range(-96 - down, 100, 2)
                   for anchor, dx in (("start", 12), ("end", -12), ("middle", centred(widest)))]

    def distance(boxes, px: float, py: float) -> float:  # from a point to the nearest edge of the label
        return min(math.hypot(max(l - px, 0, px - r), max(t - py, 0, py - bt)) for l, t, r, bt in boxes)

    def own(boxes) -> bool:  # a label away from its point must not sit nearer to another one
        mx = sum(l + r for l, _, r, _ in boxes) / 2 / len(boxes)
        my = sum(t + b for _, t, _, b in boxes) / 2 / len(boxes)
        return all(math.dist((mx, my), (x, y)) < math.dist((mx, my), other) for other in others)

    found = [lay(*c) for c in usual]
    found = next((f for f in found if all(free(box) for box in f[1])), None)
    if found is None:
        fits = (f for f in (lay(*c) for c in around) if all(free(box) for box in f[1]) and own(f[1]))
        found = min(fits, key=lambda f: distance(f[1], x, y), default=None)
    if found is None:
        return None
    taken += found[1]
    return found[0]


SHORT = {"none": "ohne Schutz", "equal": "gleiche Strafe", "ewc": "EWC"}


def _draw(r: dict, layout: str, in_key: tuple[str, ...]) -> tuple[svg.Plot, list[str]]:
    """The plot, and the solutions whose label found no free place (narrow only); the labels of the
    solutions in ``in_key`` stand in rows of the key above the plot instead."""
    # a narrow figure: the plot at phone width under its key (one entry a row, the plot is too small to
    # hold it), a point's label above it where it would leave the plot
    narrow = layout == NARROW
    legend = [("pl-constraint", "neue Aufgabe erfüllt"), ("pl-contour", "gleicher alter Verlust"),
              ("pl-path", "Weg der Lösung, wenn λ wächst")]
    rows = len(legend) + len(in_key)
    sx, sy = r["start"]
    seen = [v for pair in r["all_modes"].values() for v in pair] + [sx, sy]
    lo, hi = min(0, math.floor(min(seen))), max(4.2, math.ceil(max(seen)) + 0.2)  # room for every point
    plot = svg.Plot(width(440, layout), 400 + (18 * rows - 70 if narrow else 0), (lo, hi), (lo, hi),
                    label="Die beiden Gewichte und die Lösung", layout=layout,
                    margin=(16 + 18 * rows if narrow else 16, 16, 50, 60))
    ticks = list(range(math.ceil(lo), math.floor(hi) + 1))
    xlabel, ylabel = _axis_words(r["F"])
    plot.grid(xticks=ticks, yticks=ticks, xlabel=xlabel, ylabel=ylabel,
              xfmt=lambda v: fmt.de(v), yfmt=lambda v: fmt.de(v))
    for contour in _contours(tuple(r["F"]), sx, sy):
        plot.polyline(contour, "pl-contour")
    plot.line(0, 4, 4, 0, "pl-constraint")
    # the line's name goes to the one of two places farther from every point (an own start moves them)
    points = [*list(r["all_modes"].values()), r["start"]]
    place = max(((3.05, 1.05), (1.05, 3.05)), key=lambda at: min(math.dist(at, pt) for pt in points))
    plot.text(*place, "w₁ + w₂ = 4", "pl-label pl-constraint-label")
    if r["mode"] != "none":
        plot.polyline(_path(r["mode"], tuple(r["F"]), tuple(r["start"])), "pl-path")
    start = f"({fmt.de_auto(sx)}; {fmt.de_auto(sy)})"
    plot.point(sx, sy, 6, "pl-start", title=f"Start nach der alten Aufgabe: {start}")
    plot.text(sx, sy, f"Start {start}", "pl-label", "start", dy=22)
    # Labels go where the picture is empty: below the line for the first two, left of EWC's point.
    place = {"none": ("start", 12, 18), "equal": ("start", 12, 18), "ewc": ("end", -14, -10)}
    # what a narrow figure's labels keep clear of: every point (its stroke included), the start's label
    taken = [_box(plot.px(sx), plot.py(sy) + 22, f"Start {start}", "start")]
    dots = [(plot.px(a), plot.py(b)) for a, b in [r["all_modes"][m] for m, _ in MODES] + [(sx, sy)]]
    for (px, py), size in zip(dots, [9 if m == r["mode"] else 6 for m, _ in MODES] + [6]):
        edge = size + 1.25  # half of the widest stroke (pl-start, pl-current: 2,5 px)
        taken.append((px - edge, py - edge, px + edge, py + edge))
    key, homeless = [], []
    for k, (mode, label) in enumerate(MODES):
        a, b = r["all_modes"][mode]
        current = mode == r["mode"]
        plot.point(a, b, 9 if current else 6, f"pl-sol pl-sol-{mode}" + (" pl-current" if current else ""),
                   title=f"{label}: ({fmt.de(a)}; {fmt.de(b)})")
        lines = (SHORT[mode], f"({fmt.de(a)}; {fmt.de(b)})") if current else (SHORT[mode],)
        cls = "pl-label pl-value" if current else "pl-label pl-faint"
        if mode in in_key:
            key.append((f"pl-sol pl-sol-{mode}", " ".join(lines)))
        elif narrow:
            placed = _narrow_place(plot, a, b, lines, place[mode], taken, dots[:k] + dots[k + 1:])
            if placed is None:
                homeless.append(mode)
            for text, anchor, dx, dy in placed or ():
                plot.text(a, b, text, cls, anchor, dy=dy, dx=dx)
        else:
            anchor, dx, dy = place[mode]
            plot.text(a, b, " ".join(lines), cls, anchor, dy=dy, dx=dx)
    if narrow:
        for k, entry in enumerate(legend):
            plot.front.append(svg.key_row([entry], plot.left, 18 + 18 * k, w=24, gap=6, lines=[entry[0]]))
        for k, (cls, text) in enumerate(key, start=len(legend)):  # a point's mark: a dot in its colour
            plot.front.append(svg.key(plot.left + 6, 18 + 18 * k, cls, text, w=12, rx=6, gap=12))
    else:
        plot.legend(legend, corner="tr")
    return plot, homeless


# The curves below do not depend on λ, the slider: kept for the F and start they belong to, so that a
# slider step draws them without 61 exact solutions and 363 points of ellipses again.
@lru_cache(maxsize=32)
def _contours(F: tuple, sx: float, sy: float) -> tuple[list, ...]:
    """Curves of equal old-task loss: ellipses around the start, narrow along the important weight
    (in the article moving w₁ costs 100 times more than w₂)."""
    out = []
    for level in (0.16, 1.0, 5.05):
        a1 = math.sqrt(2 * level / F[0])
        a2 = math.sqrt(2 * level / F[1])
        out.append([(sx + a1 * math.cos(t / 60 * math.pi), sy + a2 * math.sin(t / 60 * math.pi)) for t in range(121)])
    return tuple(out)


@lru_cache(maxsize=32)
def _path(mode: str, F: tuple, start: tuple) -> list:
    """Where the solution travels as λ grows from 0,001 to 1000, for a kind of penalty."""
    importance, begin = _exact(F), _exact(start)
    path = [solve(mode, Fraction(10) ** Fraction(k, 10), importance, begin) for k in range(-30, 31)]
    return [(float(a), float(b)) for a, b in path]


def _key_sentence(r: dict) -> str:
    """The sentence under the plot: where the weights land, how close the sum comes to its target and
    what the old task lost – against learning without protection, and which weight EWC let move."""
    importance = tuple(Fraction(f) for f in r["F_exact"])
    begin = tuple(Fraction(x) for x in r["start_exact"])
    w = f"({fmt.de(r['w'][0])}; {fmt.de(r['w'][1])})"
    target, old = fmt.de_auto(float(TARGET_SUM)), fmt.de(r["old_loss"])
    if sum(begin) == TARGET_SUM:
        return f"Der Start {w} hat schon die Summe {target}: Kein Gewicht muss wandern, der alte Verlust bleibt 0."
    if r["mode"] == "none":
        return (f"Ohne Schutz wandern beide Gewichte gleich weit, auf {w}, und die Summe erreicht {target}. "
                f"Doch der alte Verlust steigt auf {old}.")
    unprotected = old_loss(solve("none", r["lam"], importance, begin), importance, begin)
    text = (f"{dict(MODES)[r['mode']]} mit λ = {fmt.de_auto(r['lam'])} hält die Gewichte bei {w}, ihre Summe bei "
            f"{fmt.de(r['sum'])} (Ziel {target}). Der alte Verlust steigt auf {old} statt {fmt.de(unprotected)} ohne Schutz.")
    if r["mode"] == "ewc" and importance[0] != importance[1]:
        loose = 1 if importance[0] < importance[1] else 2
        text += f" Gewandert ist vor allem w{'₁' if loose == 1 else '₂'}, das weniger wichtige Gewicht."
    return text


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure whose labels find no free place beside their points draws again with those
    # labels as rows of its key (the plot's inner box stays the same, so the other places do not move)
    in_key: tuple[str, ...] = ()
    while True:
        plot, homeless = _draw(r, layout, in_key)
        if not homeless:
            break
        in_key = tuple(m for m, _ in MODES if m in in_key or m in homeless)

    readouts = [
        Readout("w", "Gewichte (w₁; w₂)", f"({fmt.de(r['w'][0])}; {fmt.de(r['w'][1])})", r["w"], True),
        Readout("sum", "Summe (Ziel 4)", fmt.de(r["sum"]), r["sum"], True),
        Readout("old_loss", "Verlust alte Aufgabe", fmt.de(r["old_loss"]), r["old_loss"], True),
        Readout("new_loss", "Verlust neue Aufgabe", fmt.de(r["new_loss"]), r["new_loss"]),
    ]
    summary = _key_sentence(r)
    return View(plot.render(), readouts, summary)


# -- the lesson ---------------------------------------------------------------------------

LESSON = Lesson(
    prediction=Prediction(
        question="Du stellst bei EWC die Strafe ganz hoch, auf λ = 100. Was passiert mit den Gewichten?",
        choices=("w₂ übernimmt allein, die Summe erreicht fast 4",
                 "beide bleiben nahe 1, die Summe bleibt weit unter 4",
                 "beide wandern auf 2"),
        answer=1,
        shown=unless_own(lambda params, result: result["mode"] == "ewc" and result["lam"] >= 50),
        explain="Bei λ = 100 kostet auch das unwichtige w₂ viel. Die Gewichte bleiben bei (1,00; 1,18), "
                "die Summe bei 2,18: Die neue Aufgabe wird kaum gelernt.",
        example={"lam": 100.0},
        why_not=("Bei kleinem λ stimmt das: Dann übernimmt das unwichtige w₂ die Änderung. Bei λ = 100 kostet "
                 "aber auch w₂ viel, obwohl es unwichtig ist. Es rückt nur auf 1,18.",
                 "",
                 "So wäre es ganz ohne Schutz: Dann teilen sich beide Gewichte die Änderung. Eine hohe Strafe hält "
                 "sie dagegen fest, das wichtige w₁ am stärksten."),
    ),
    tasks=(
        Task("learn_new", "Stelle λ so ein, dass EWC die neue Aufgabe fast ganz lernt: Die Summe soll mindestens "
                          "3,9 sein.",
             solved=unless_own(lambda params, result: result["mode"] == "ewc" and result["sum"] >= 3.9),
             explain="Bei kleinem λ lernt EWC die neue Aufgabe fast ganz. Trotzdem bleibt w₁ nahe 1, "
                     "denn die Änderung übernimmt das unwichtige w₂.",
             example={"lam": 0.1},
             hints=("Die Summe w₁ + w₂ zeigt, wie weit die neue Aufgabe gelernt ist. Ganz gelernt ist sie bei 4.",
                    "Je kleiner λ, desto weniger hält die Strafe die Gewichte fest.",
                    "Schiebe „Stärke der Strafe λ“ nach links."),
             near=Near(unless_own(lambda params, result: result["mode"] == "ewc" and 3.85 <= result["sum"] < 3.9),
                       "Fast: Die Summe liegt knapp unter 3,9. Die Strafe darf noch etwas schwächer sein.",
                       {"lam": 0.7})),
        Task("equal_cost", "Wähle „Gleiche Strafe“ und erreiche auch dort eine Summe von mindestens 3,9. "
                           "Vergleiche den Verlust der alten Aufgabe.",
             solved=unless_own(lambda params, result: result["mode"] == "equal" and result["sum"] >= 3.9),
             explain="Gleiche Strafe schiebt beide Gewichte fast bis 2. Die alte Aufgabe verliert dann über 4,5, "
                     "bei EWC nur etwa 0,2.",
             example={"mode": "equal", "lam": 0.1},
             hints=("Stelle „Schutz“ auf „Gleiche Strafe“.",
                    "Auch hier lernt das Modell mehr, je kleiner λ ist. Schaue danach auf den Verlust der alten Aufgabe."),
             near=Near(unless_own(lambda params, result: result["mode"] == "equal" and 3.8 <= result["sum"] < 3.9),
                       "Fast: Die Summe liegt knapp unter 3,9. Auch hier darf λ noch etwas kleiner sein.",
                       {"mode": "equal", "lam": 0.2})),
        Task("balance", "Finde bei EWC ein λ, bei dem der Verlust der alten und der neuen Aufgabe beide unter "
                        "0,12 liegen.",
             solved=unless_own(lambda params, result: (result["mode"] == "ewc" and result["old_loss"] < 0.12
                                                     and result["new_loss"] < 0.12)),
             explain="Um λ = 3,16 halten sich beide Verluste die Waage. "
                     "λ legt fest, wie viel dir die alte Aufgabe im Vergleich zur neuen wert ist.",
             example={"lam": 3.16},
             hints=("Großes λ schont die alte Aufgabe, kleines λ lernt die neue. Gesucht ist ein Wert dazwischen.",
                    "Verschiebe bei EWC „Stärke der Strafe λ“, bis beide Verluste etwa gleich groß sind."),
             near=Near(unless_own(lambda params, result: (result["mode"] == "ewc" and result["old_loss"] < 0.15
                                                        and result["new_loss"] < 0.15)),
                       "Fast: Beide Verluste liegen schon unter 0,15. Verschiebe λ ein wenig, sodass der größere sinkt.",
                       {"lam": 2.0})),
    ),
    discussion=(
        "Woher weiß EWC, welches Gewicht für die alte Aufgabe wichtig ist?",
        "Warum lernt „Ohne Schutz“ die neue Aufgabe perfekt und ist trotzdem die schlechteste Wahl?",
    ),
    teacher=(
        "Nach der alten Aufgabe misst man, wie stark ihr Verlust steigt, wenn sich ein Gewicht ändert "
        "(die Fisher-Information F). Hier ist F = 10 für w₁ und 0,1 für w₂.",
        "Ohne Schutz wandern beide Gewichte auf 2. Die neue Aufgabe ist gelöst, aber der Verlust der alten steigt "
        "auf 5,05. Das Netz verlernt die alte Aufgabe: Man nennt das katastrophales Vergessen.",
    ),
    misconceptions=(
        "„EWC friert die alten Gewichte ein.“ Falsch: Alle Gewichte dürfen sich ändern, "
        "wichtige nur teurer als unwichtige.",
        "„Ein großes λ ist immer besser.“ Falsch: Dann lernt das Netz die neue Aufgabe kaum noch.",
    ),
)
