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

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Prediction, Task

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


def _narrow_place(plot: svg.Plot, a: float, b: float, lines: tuple[str, ...], wide: tuple) -> list[tuple]:
    """Where a solution's label goes on a narrow figure, as (text, anchor, dx, dy) per line: the wide
    figure's place, else up and right of the point, down and left, below, above; the first that stays
    inside the plot and off the line w₁ + w₂ = 4, on or near which the solutions lie (a small plot
    leaves a long label little room beside them). Where none does, the name and the numbers of the
    point take a line each, tried at the same places; the last resort is centred above the point."""
    x, y = plot.px(a), plot.py(b)

    def line_y(px: float) -> float:  # the constraint line in pixels
        return plot.py(4 - (plot.x0 + (px - plot.left) / (plot.right - plot.left) * (plot.x1 - plot.x0)))

    def free(text: str, anchor: str, dx: float, dy: float) -> bool:
        reach = 7.5 * len(text)  # about 7,5 px a character
        lo, hi = {"start": (x + dx, x + dx + reach), "end": (x + dx - reach, x + dx),
                  "middle": (x + dx - reach / 2, x + dx + reach / 2)}[anchor]
        top, bottom = y + dy - 12, y + dy + 3  # a 13-px label around its baseline
        crossed = min(line_y(lo), line_y(hi)) <= bottom and max(line_y(lo), line_y(hi)) >= top
        return plot.left <= lo and hi <= plot.w and not crossed

    def centred(text: str) -> float:  # moved inside near an edge
        reach = 7.5 * len(text)
        return min(max(x, plot.left + reach / 2), plot.w - 2 - reach / 2) - x

    for texts in (lines, ) if len(lines) == 1 else ((" ".join(lines),), lines):
        down = 16 * (len(texts) - 1)  # a two-line label grows away from its point
        widest = max(texts, key=len)
        for anchor, dx, dy in ((*wide[:2], wide[2]), ("start", 14, -10 - down), ("end", -14, 22),
                               ("middle", centred(widest), 28), ("middle", centred(widest), -16 - down)):
            if len(texts) > 1 and (anchor, dx, dy) == (*wide[:2], wide[2]):
                continue
            placed = [(t, anchor, dx, dy + 16 * k) for k, t in enumerate(texts)]
            if all(free(*p) for p in placed):
                return placed
    return [(" ".join(lines), "middle", centred(" ".join(lines)), -14)]


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width under its key (one entry a row, the plot is too small to
    # hold it), a point's label above it where it would leave the plot
    narrow = layout == NARROW
    legend = [("pl-constraint", "neue Aufgabe erfüllt"), ("pl-contour", "gleicher alter Verlust"),
              ("pl-path", "Weg der Lösung, wenn λ wächst")]
    sx, sy = r["start"]
    seen = [v for pair in r["all_modes"].values() for v in pair] + [sx, sy]
    lo, hi = min(0, math.floor(min(seen))), max(4.2, math.ceil(max(seen)) + 0.2)  # room for every point
    plot = svg.Plot(width(440, layout), 400 + (18 * len(legend) - 70 if narrow else 0), (lo, hi), (lo, hi),
                    label="Die beiden Gewichte und die Lösung", layout=layout,
                    margin=(16 + 18 * len(legend) if narrow else 16, 16, 50, 60))
    ticks = list(range(math.ceil(lo), math.floor(hi) + 1))
    xlabel, ylabel = _axis_words(r["F"])
    plot.grid(xticks=ticks, yticks=ticks, xlabel=xlabel, ylabel=ylabel,
              xfmt=lambda v: fmt.de(v), yfmt=lambda v: fmt.de(v))
    # Curves of equal old-task loss: ellipses around the start, narrow along the important weight
    # (in the article moving w₁ costs 100 times more than w₂).
    for level in (0.16, 1.0, 5.05):
        a1 = math.sqrt(2 * level / r["F"][0])
        a2 = math.sqrt(2 * level / r["F"][1])
        plot.polyline([(sx + a1 * math.cos(t / 60 * math.pi), sy + a2 * math.sin(t / 60 * math.pi))
                       for t in range(121)], "pl-contour")
    plot.line(0, 4, 4, 0, "pl-constraint")
    # the line's name goes to the one of two places farther from every point (an own start moves them)
    points = list(r["all_modes"].values()) + [r["start"]]
    place = max(((3.05, 1.05), (1.05, 3.05)), key=lambda at: min(math.dist(at, pt) for pt in points))
    plot.text(*place, "w₁ + w₂ = 4", "pl-label pl-constraint-label")
    # Where the solution travels as λ grows, for the chosen kind of penalty.
    if r["mode"] != "none":
        importance, begin = _exact(r["F"]), _exact(r["start"])
        path = [solve(r["mode"], Fraction(10) ** Fraction(k, 10), importance, begin) for k in range(-30, 31)]
        plot.polyline([(float(a), float(b)) for a, b in path], "pl-path")
    start = f"({fmt.de_auto(sx)}; {fmt.de_auto(sy)})"
    plot.point(sx, sy, 6, "pl-start", title=f"Start nach der alten Aufgabe: {start}")
    plot.text(sx, sy, f"Start {start}", "pl-label", "start", dy=22)
    short = {"none": "ohne Schutz", "equal": "gleiche Strafe", "ewc": "EWC"}
    # Labels go where the picture is empty: below the line for the first two, left of EWC's point.
    place = {"none": ("start", 12, 18), "equal": ("start", 12, 18), "ewc": ("end", -14, -10)}
    for mode, label in MODES:
        a, b = r["all_modes"][mode]
        current = mode == r["mode"]
        plot.point(a, b, 9 if current else 6, f"pl-sol pl-sol-{mode}" + (" pl-current" if current else ""),
                   title=f"{label}: ({fmt.de(a)}; {fmt.de(b)})")
        lines = (short[mode], f"({fmt.de(a)}; {fmt.de(b)})") if current else (short[mode],)
        cls = "pl-label pl-value" if current else "pl-label pl-faint"
        if narrow:
            for text, anchor, dx, dy in _narrow_place(plot, a, b, lines, place[mode]):
                plot.text(a, b, text, cls, anchor, dy=dy, dx=dx)
        else:
            anchor, dx, dy = place[mode]
            plot.text(a, b, " ".join(lines), cls, anchor, dy=dy, dx=dx)
    if narrow:
        for k, entry in enumerate(legend):
            plot.front.append(svg.key_row([entry], plot.left, 18 + 18 * k, w=24, gap=6, lines=[entry[0]]))
    else:
        plot.legend(legend, corner="tr")

    readouts = [
        Readout("w", "Gewichte (w₁; w₂)", f"({fmt.de(r['w'][0])}; {fmt.de(r['w'][1])})", r["w"], True),
        Readout("sum", "Summe (Ziel 4)", fmt.de(r["sum"]), r["sum"], True),
        Readout("old_loss", "Verlust alte Aufgabe", fmt.de(r["old_loss"]), r["old_loss"], True),
        Readout("new_loss", "Verlust neue Aufgabe", fmt.de(r["new_loss"]), r["new_loss"]),
    ]
    label = dict(MODES)[r["mode"]]
    summary = (
        f"{label}"
        + ("" if r["mode"] == "none" else f" mit λ = {fmt.de_auto(r['lam'])}")
        + f": Gewichte ({fmt.de(r['w'][0])}; {fmt.de(r['w'][1])}), Summe {fmt.de(r['sum'])}, "
        f"Verlust der alten Aufgabe {fmt.de(r['old_loss'])}."
    )
    return View(plot.render(), readouts, summary)


# -- the lesson ---------------------------------------------------------------------------

def _article(check):
    """The lesson's numbers are the article's F and start; own ones neither solve nor answer it."""
    return lambda params, result: not result["own"] and check(params, result)


LESSON = Lesson(
    prediction=Prediction(
        question="Du stellst bei EWC die Strafe ganz hoch, auf λ = 100. Was passiert mit den Gewichten?",
        choices=("w₂ übernimmt allein, die Summe erreicht fast 4",
                 "beide bleiben nahe 1, die Summe bleibt weit unter 4",
                 "beide wandern auf 2"),
        answer=1,
        shown=_article(lambda params, result: result["mode"] == "ewc" and result["lam"] >= 50),
        explain="Bei λ = 100 kostet auch das unwichtige w₂ viel. Die Gewichte bleiben bei (1,00; 1,18), "
                "die Summe bei 2,18: Die neue Aufgabe wird kaum gelernt.",
        example={"lam": 100.0},
    ),
    tasks=(
        Task("learn_new", "Stelle λ so ein, dass EWC die neue Aufgabe fast ganz lernt: Die Summe soll mindestens "
                          "3,9 sein.",
             solved=_article(lambda params, result: result["mode"] == "ewc" and result["sum"] >= 3.9),
             explain="Bei kleinem λ lernt EWC die neue Aufgabe fast ganz. Trotzdem bleibt w₁ nahe 1, "
                     "denn die Änderung übernimmt das unwichtige w₂.",
             example={"lam": 0.1}),
        Task("equal_cost", "Wähle „Gleiche Strafe“ und erreiche auch dort eine Summe von mindestens 3,9. "
                           "Vergleiche den Verlust der alten Aufgabe.",
             solved=_article(lambda params, result: result["mode"] == "equal" and result["sum"] >= 3.9),
             explain="Gleiche Strafe schiebt beide Gewichte fast bis 2. Die alte Aufgabe verliert dann über 4,5, "
                     "bei EWC nur etwa 0,2.",
             example={"mode": "equal", "lam": 0.1}),
        Task("balance", "Finde bei EWC ein λ, bei dem der Verlust der alten und der neuen Aufgabe beide unter "
                        "0,12 liegen.",
             solved=_article(lambda params, result: (result["mode"] == "ewc" and result["old_loss"] < 0.12
                                                     and result["new_loss"] < 0.12)),
             explain="Um λ = 3,16 halten sich beide Verluste die Waage. "
                     "λ legt fest, wie viel dir die alte Aufgabe im Vergleich zur neuen wert ist.",
             example={"lam": 3.16}),
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
