"""Gradient descent on a bowl in two weights, step by step and exact.

The loss is a quadratic bowl with its minimum at (0, 0) and the curvatures λ₁, λ₂ along the axes:

    L(w) = ½ (λ₁·w₁² + λ₂·w₂²),   ∇L(w) = (λ₁·w₁, λ₂·w₂).

Plain gradient descent takes w ← w − η·∇L(w), so every weight is multiplied by its own fixed factor
1 − η·λᵢ in every step: it converges iff |1 − η·λᵢ| < 1, i.e. η < 2/λᵢ, and the most curved direction
sets the limit 2/λ_max (Goodfellow, Bengio, Courville: Deep Learning, Kap. 4.3). With momentum (Polyak 1964,
the „heavy ball“): v ← β·v − η·∇L(w), w ← w + v, starting with v = 0; on this bowl it converges
iff η·λᵢ < 2(1 + β) (the roots of z² − (1 + β − η·λᵢ)·z + β = 0 lie inside the unit circle).
Plain descent is the case β = 0.

Every step is linear in the decimals the reader chose, so the path is computed in exact fractions;
the page shows it rounded. The reader may type the start and the two curvatures (Param kind
``values``) and drag the start in the figure.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from ..kit import drag, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task, unless_own

SLUG = "gradientenabstieg"
TITLE = "Gradientenabstieg"
GROUP = "Grundlagen"
TEASER = "Schritt für Schritt bergab: Wie groß darf ein Schritt sein, ohne dass der Weg davonläuft?"

CURVATURE = (1.0, 4.0)
START = (-3.0, 2.0)
START_RANGE = (-4.0, 4.0)
CURVATURE_RANGE = (0.1, 20.0)
VIEW = 4.5  # the figure shows −4,5 … 4,5 on both axes; a step beyond leaves it
MAX_STEPS = 50

PARAMS = (
    # a log slider's step is a power of ten: its values are 10^(k/20), rounded to three digits (0,447, 0,562)
    Param("lr", "Lernrate η", "float", 0.1, lo=0.001, hi=2.0, step=0.05, log=True,
          help="Mit welchem Faktor der Gradient zum Schritt wird: Schritt = η mal Gradient, bergab."),
    Param("steps", "Schritte", "int", 20, lo=0, hi=MAX_STEPS, step=1,
          help="Wie viele Schritte der Abstieg macht."),
    Param("momentum", "Momentum", "bool", False,
          help="Jeder Schritt behält einen Teil β des vorigen Schritts."),
    Param("beta", "Momentum β", "float", 0.9, lo=0.0, hi=0.99, step=0.01,
          help="Welcher Anteil des vorigen Schritts mitgenommen wird (nur mit Momentum)."),
    Param("start", "Start (w₁; w₂)", "values", START, lo=START_RANGE[0], hi=START_RANGE[1], count=(2, 2),
          help="Zwei Zahlen von −4 bis 4, mit Semikolon getrennt. Du kannst den Start auch im Bild ziehen."),
    Param("curv", "Krümmung (λ₁; λ₂)", "values", CURVATURE, lo=CURVATURE_RANGE[0], hi=CURVATURE_RANGE[1],
          count=(2, 2),
          help="Zwei Zahlen von 0,1 bis 20, mit Semikolon getrennt: wie stark die Schüssel entlang w₁ und w₂ "
               "gekrümmt ist."),
)

PRESETS = (
    Preset("Von vorn", {}, "η = 0,1: Der Weg kommt in 20 Schritten fast an."),
    Preset("Zu kleine Lernrate", {"lr": 0.01}, "η = 0,01: Der Weg kriecht."),
    Preset("Zickzack", {"lr": 0.447}, "Knapp unter der Grenze: Der Weg springt über die Talsohle."),
    # the title shows on hover before the guess: it names neither the limit's rule nor what the path does
    Preset("Zu große Lernrate", {"lr": 0.562}, "Etwas größer als beim Zickzack."),
    Preset("Mit Momentum", {"lr": 0.01, "momentum": True, "steps": 50},
           "Dieselbe kleine Lernrate, aber mit Schwung."),
    Preset("Runde Schüssel", {"curv": (1.0, 1.0)}, "Gleiche Krümmung: Der Weg führt gerade zum Minimum."),
)


def loss(w, curvature) -> Fraction:
    return (curvature[0] * w[0] ** 2 + curvature[1] * w[1] ** 2) / 2


def path(start, curvature, lr, steps: int, beta=Fraction(0)) -> list[tuple[Fraction, Fraction]]:
    """The weights after 0, 1, …, ``steps`` steps of (heavy-ball) gradient descent, exact."""
    w, v = tuple(start), (Fraction(0), Fraction(0))
    visited = [w]
    for _ in range(steps):
        v = tuple(beta * vi - lr * c * wi for vi, c, wi in zip(v, curvature, w))
        w = tuple(wi + vi for wi, vi in zip(w, v))
        visited.append(w)
    return visited


def limit(curvature: Fraction, beta=Fraction(0)) -> Fraction:
    """The largest learning rate below which descent along a direction of this curvature converges."""
    return 2 * (1 + beta) / curvature


def compute(lr: float = 0.1, steps: int = 20, momentum: bool = False, beta: float = 0.9,
            start: tuple = START, curv: tuple = CURVATURE) -> dict:
    eta, b = fmt.as_fraction(lr), fmt.as_fraction(beta) if momentum else Fraction(0)
    begin = tuple(fmt.as_fraction(x) for x in start)
    curvature = tuple(fmt.as_fraction(c) for c in curv)
    visited = path(begin, curvature, eta, steps, b)
    losses = [loss(w, curvature) for w in visited]
    limits = [limit(c, b) for c in curvature]
    # a direction runs away where the rule says so and the start has a part along it
    away = [eta > lim and x != 0 for lim, x in zip(limits, begin)]
    swings = [eta == lim and x != 0 for lim, x in zip(limits, begin)]
    edge = away if any(away) else swings
    outside = next((k for k, w in enumerate(visited) if max(abs(w[0]), abs(w[1])) > VIEW), None)
    return {
        "lr": lr, "steps": steps, "momentum": momentum, "beta": float(b),
        "start": [float(x) for x in begin],
        "curv": [float(c) for c in curvature],
        "own": begin != tuple(map(Fraction, START)) or curvature != tuple(map(Fraction, CURVATURE)),
        "path": [[float(a), float(c)] for a, c in visited],
        "w": [float(x) for x in visited[-1]],
        "losses": [float(x) for x in losses],
        "loss_start": float(losses[0]),
        "loss_start_exact": str(losses[0]),
        "loss_end": float(losses[-1]),
        "loss_end_exact": str(losses[-1]),
        "ratio_exact": str(losses[-1] / losses[0]) if losses[0] else "0",
        "w_exact": [str(x) for x in visited[-1]],
        "ratio": float(losses[-1] / losses[0]) if losses[0] else 0.0,
        "factors": [float(1 - eta * c) for c in curvature],
        "factors_exact": [str(1 - eta * c) for c in curvature],
        "limits": [float(x) for x in limits],
        "limit": float(min(limits)),
        "limit_exact": str(min(limits)),
        "diverges": any(away),
        "swings": any(swings) and not any(away),
        "edge_axes": [i for i in range(2) if edge[i]],  # the directions that run away (or swing for ever)
        "outside": outside,
    }


# -- what the page shows -----------------------------------------------------------------

HUGE = 1e6  # beyond this a number says only „über einer Million“
TINY = Fraction(1, 10**6)  # below this a loss says „fast 0“: fourteen zeros after the comma help nobody


def _exact(x) -> Fraction:
    """A Fraction, its str (as compute writes exact values) or a typed decimal."""
    return Fraction(x) if isinstance(x, str) else fmt.as_fraction(x)


def _num(x, digits: int = 2) -> str:
    """An exact number as it ends, with „≈“ where it is rounded to ``digits`` places."""
    x = _exact(x)
    if abs(x) >= HUGE:
        return ("über " if x > 0 else "unter minus ") + "einer Million"
    return fmt.exact(x, digits, digits)


def _small(x) -> str:
    """A loss near 0 with its first digits (≈ 0,000532), not as ≈ 0,00."""
    x = _exact(x)
    if 0 < abs(x) < TINY:
        return f"fast 0 (unter {fmt.de(TINY, 6)})"
    if abs(x) >= 1 or x == 0 or (fmt.decimal_places(x) or 99) <= 6:
        return _num(x, 6 if abs(x) < 1 else 2)
    return fmt.APPROX + fmt.de_auto(float(x))


def _point(w) -> str:
    """Two exact coordinates; one „≈“ before the pair where either is rounded."""
    parts = [_num(x) for x in w]
    if any(part.startswith(fmt.APPROX) for part in parts):  # both to two places then, as the readout always was
        parts = [_num(x, 0) if abs(_exact(x)) >= HUGE else fmt.de(float(_exact(x)), 2) for x in w]
        return f"{fmt.APPROX}({parts[0]}; {parts[1]})"
    return f"({parts[0]}; {parts[1]})"


def _share(ratio) -> str:
    """The end's loss as a share of the start's, in percent with one decimal."""
    ratio = Fraction(ratio)
    if ratio < Fraction(1, 1000):
        return "weniger als 0,1 %"
    exact = (fmt.decimal_places(ratio * 100) or 99) <= 1
    return ("" if exact else fmt.APPROX) + fmt.pct(float(ratio), 1)


def _rule(r: dict) -> str:
    lim = fmt.exact(Fraction(r["limit_exact"]))
    lim = (" " if lim.startswith(fmt.APPROX.strip()) else " = ") + lim  # „≈ 0,216“ needs no „=“
    return ("2·(1 + β)/λ_max" if r["momentum"] else "2/λ_max") + lim


def _factor(r: dict, axis: int, equals: bool = False) -> str:
    """1 − η·λ along an axis, exact where it ends within three places; ``equals`` puts „=“ before it."""
    text = fmt.exact(Fraction(r["factors_exact"][axis]), 3)
    return ("" if not equals else " " if text.startswith(fmt.APPROX) else " = ") + text


def _axes(r: dict) -> str:
    return " und ".join(f"w{'₁₂'[i]}" for i in r["edge_axes"])


def _overshoots(visited) -> bool:
    """Some weight changes its sign on the way: the path crosses the valley's floor."""
    return any(a * b < 0 for axis in range(2) for a, b in zip((p[axis] for p in visited), (p[axis] for p in visited[1:])))


def _key_sentence(r: dict) -> tuple[str, str]:
    """Where the steps went: arrived, still crawling, zigzag, swinging for ever or running away; and apart
    from it the sentence with the limit of the learning rate, which answers the lesson's guess."""
    lr, n = fmt.de_auto(r["lr"]), r["steps"]
    steps = fmt.count(n, "Schritt", "Schritten")
    with_momentum = f" und Momentum β = {fmt.de(r['beta'], 2, trim=True)}" if r["momentum"] else ""
    limit = f"Die Grenze für die Lernrate ist {_rule(r)}."
    if r["loss_start"] == 0:
        return "Der Start liegt schon im Minimum. Dort ist der Gradient 0, und kein Schritt bewegt etwas.", ""
    if n == 0:
        return f"Noch kein Schritt: Der Start {_point(r['start'])} hat den Verlust {_num(r['loss_start_exact'])}.", limit
    answer = ""
    # with β = 0 the momentum switch changes nothing: no swing builds up, the plain sentences hold
    swing = r["momentum"] and r["beta"] > 0
    if r["diverges"] or r["swings"]:
        if r["diverges"]:
            text = ""
            answer = f"Die Lernrate η = {lr} ist größer als {_rule(r)}."
            if swing:
                text += (f"Entlang {_axes(r)} schaukelt sich der Weg mit dem Schwung auf und springt immer weiter "
                         "über die Talsohle. ")
            else:
                factors = " und ".join(f"1 − η·λ{'₁₂'[i]}{_factor(r, i, equals=True)}" for i in r["edge_axes"])
                text += (f"Entlang {_axes(r)} {'sind' if len(r['edge_axes']) > 1 else 'ist'} {factors} kleiner "
                         "als −1: Jeder Schritt springt dort über die "
                         "Talsohle und landet weiter weg. ")
            text += "Auf Dauer wächst der Verlust ohne Grenze. "
        else:
            text = (f"Mit η = {lr}{with_momentum} kommt der Weg nie an: "
                    f"Entlang {_axes(r)} pendelt er über die Talsohle hin und her, ohne abzuklingen. ")
            if swing:
                # the roots −1 and −β: the swing grows towards (1 + β)/(1 − β) times the start's part, no further
                beta = fmt.as_fraction(r["beta"])
                times = fmt.exact((1 + beta) / (1 - beta), 2, 2)
                text += (f"Der Schwung schaukelt das Pendeln auf, aber nie über das {times}-Fache des Abstands "
                         "am Start hinaus. ")
            answer = f"Die Lernrate η = {lr} liegt genau auf der Grenze {_rule(r)}."
        # while the other direction still shrinks, the loss may fall over the first steps before it grows
        if not r["diverges"] and r["loss_end"] > r["loss_start"]:
            text += (f"Nach {steps} ist der Verlust von {_num(r['loss_start_exact'])} auf "
                     f"{_num(r['loss_end_exact'])} gewachsen.")
        elif not r["diverges"]:
            text += f"Nach {steps} ist der Verlust {_small(r['loss_end_exact'])}."
        elif r["loss_end"] > r["loss_start"]:
            text += (f"Nach {steps} ist er von {_num(r['loss_start_exact'])} auf {_num(r['loss_end_exact'])} "
                     "gewachsen.")
        else:
            text += (f"Nach {steps} ist er noch {_small(r['loss_end_exact'])} (am Start {_num(r['loss_start_exact'])}): "
                     "Das Wachsen zeigt sich erst nach mehr Schritten.")
    else:
        text = (f"Mit η = {lr}{with_momentum} fällt der Verlust in {steps} von {_num(r['loss_start_exact'])} auf "
                f"{_small(r['loss_end_exact'])}" + (f", das sind {_share(r['ratio_exact'])} des Anfangs." if r["loss_end"] else "."))
        # a direction the start has no part along stays at 0: its factor moves nothing
        jumping = [i for i in range(2) if r["factors"][i] < 0 and r["start"][i] != 0]
        if r["loss_end"] == 0:
            text += " Der Weg liegt genau im Minimum."
        elif swing and _overshoots(r["path"]):
            text += " Der Schwung trägt den Weg über das Minimum hinaus, dann pendelt er zurück."
        elif r["ratio"] > 0.1 and r["lr"] <= r["limit"] / 4:
            # without the limit's value: a preset shows this sentence before the guess that asks for it
            text += " Der Weg kriecht: η dürfte viel größer sein, ohne dass der Weg davonläuft."
        elif not swing and jumping:
            k = min(jumping, key=lambda i: r["factors"][i])
            text += (f" Entlang w{'₁₂'[k]} springt jeder Schritt über die Talsohle "
                     f"(Faktor {_factor(r, k)}): Der Weg läuft im Zickzack.")
    if r["outside"] is not None:
        text += f" Ab Schritt {r['outside']} liegt der Weg außerhalb des Bildes."
    if r["momentum"] and answer:
        # the limit with momentum, 2(1 + β)/λ_max, is not the one the guess asks for
        text, answer = f"{answer} {text}", ""
    return text, answer


LEVELS = (0.5, 2.0, 8.0, 32.0)  # the contour lines: where the loss is 0,5, 2, 8 and 32


def _dot(x: float, y: float, radius: float) -> str:
    """A filled circle as two arcs of a path."""
    return f"M{x - radius:.1f} {y:.1f}a{radius:g} {radius:g} 0 1 0 {2 * radius:g} 0a{radius:g} {radius:g} 0 1 0 {-2 * radius:g} 0"


def _plot(layout: str) -> svg.Plot:
    narrow = layout == NARROW
    return svg.Plot(width(440, layout), width(440, layout) + (36 if narrow else 0), (-VIEW, VIEW), (-VIEW, VIEW),
                    label="Die Verlustschüssel in zwei Gewichten und der Weg des Abstiegs", layout=layout,
                    margin=(52 if narrow else 16, 16, 50, 56))


@lru_cache(maxsize=32)
def _contours(curv: tuple, layout: str) -> tuple[str, ...]:
    """The curves of equal loss as markup: they depend on the bowl, not on the step size or the start,
    and were a third of a slider step's drawing."""
    plot = _plot(layout)
    for level in LEVELS:
        a1, a2 = (math.sqrt(2 * level / c) for c in curv)
        plot.polyline([(a1 * math.cos(t / 60 * math.pi), a2 * math.sin(t / 60 * math.pi)) for t in range(121)],
                      "pl-gd-contour")
    return tuple(plot.body)


def _figure(r: dict, layout: str) -> svg.Plot:
    narrow = layout == NARROW
    legend = [("pl-gd-contour", "gleicher Verlust"), ("pl-gd-path", "Weg der Schritte")]
    plot = _plot(layout)
    ticks = [-4, -2, 0, 2, 4]
    plot.grid(xticks=ticks, yticks=ticks, xlabel=f"w₁ (λ₁ = {fmt.de_auto(r['curv'][0])})",
              ylabel=f"w₂ (λ₂ = {fmt.de_auto(r['curv'][1])})", xfmt=fmt.tick, yfmt=fmt.tick)
    plot.body += _contours(tuple(r["curv"]), layout)
    plot.point(0, 0, 5, "pl-gd-min", title="Minimum (0; 0), Verlust 0")
    points = r["path"]
    plot.polyline([tuple(p) for p in points], "pl-gd-path")  # the clip path cuts what leaves the figure
    # the steps between start and end as one path of small dots: a slider step that changes how many
    # lie inside the figure then changes one attribute, not the number of elements the page must restyle
    dots = [(plot.px(a), plot.py(b)) for a, b in points[1:-1] if max(abs(a), abs(b)) <= VIEW]
    plot.body.append(f'<path class="pl-gd-step" d="{"".join(_dot(x, y, 3) for x, y in dots) or "M0 0"}"/>')
    end = points[-1]
    if len(points) > 1 and max(abs(end[0]), abs(end[1])) <= VIEW:
        plot.point(*end, 5, "pl-gd-end", title=f"nach Schritt {len(points) - 1}: {_point(r['w_exact'])}")
    sx, sy = r["start"]
    step = 0.1
    # a finger's target (static/js/experiment/drag.js: data-drag-xy) under the visible handle
    plot.hits.append(f'<circle class="pl-drag-hit" cx="{plot.px(sx):.1f}" cy="{plot.py(sy):.1f}" '
                     f'r="{drag.TARGET_GOOD / 2:g}" data-drag-xy="start"/>')
    plot.point(sx, sy, 8, "pl-gd-start",
               {"data-drag-xy": "start", "data-drag-step": f"{step:g}", "tabindex": 0, "role": "slider",
                "aria-label": "Start (w₁; w₂), Pfeiltasten: links, rechts w₁, hoch, runter w₂",
                "aria-valuemin": f"{START_RANGE[0]:g}", "aria-valuemax": f"{START_RANGE[1]:g}",
                "aria-valuenow": repr(sx), "aria-valuetext": f"Start {_point((sx, sy))}",
                "data-drag-value": f"{sx!r} {sy!r}"},
               title=f"Start {_point((sx, sy))}: ziehen")
    plot.text(sx, sy, "Start", "pl-label", "middle", dy=-14)
    if narrow:
        plot.front.append(svg.key_row(legend, plot.left, 18, w=24, gap=6, lines=[c for c, _ in legend]))
    else:
        plot.legend(legend, corner="tr")
    return plot


def view(r: dict, layout: str = WIDE) -> View:
    n = r["steps"]
    readouts = [
        Readout("loss_start", "Verlust am Start", _num(r["loss_start_exact"]), r["loss_start"]),
        Readout("loss_end", f"Verlust nach {fmt.count(n, 'Schritt', 'Schritten')}", _small(r["loss_end_exact"]),
                r["loss_end"], True),
        Readout("w", "Gewichte am Ende (w₁; w₂)", _point(r["w_exact"]), r["w"]),
    ]
    # without momentum the limit is the answer to „Erst vermuten“: it shows where the path itself reaches it
    if r["momentum"] or r["diverges"] or r["swings"]:
        # without momentum it is the very limit the guess asks for: held back until the reader has guessed
        readouts.append(Readout("limit", "Grenze der Lernrate", _rule(r), r["limit"], True, answers=not r["momentum"]))
    if not r["momentum"]:
        readouts.append(Readout("factors", "Faktor je Schritt (1 − η·λ)",
                                f"{_factor(r, 0)}; {_factor(r, 1)}",
                                r["factors"]))
    summary, answer = _key_sentence(r)
    return View(_figure(r, layout).render(), readouts, summary, answer=answer)


# -- the lesson ---------------------------------------------------------------------------

# The tasks lie beside the presets, not on them: „Zu große Lernrate“ (0,562) is more than EDGE over the
# limit, and „Mit Momentum“ takes 50 steps, more than QUICK.
EDGE = 0.05
QUICK = 30

LESSON = Lesson(
    prediction=Prediction(
        question="Die Schüssel ist entlang w₂ viermal so stark gekrümmt wie entlang w₁ (λ = 1 und 4). "
                 "Bei welchen Lernraten läuft der Weg davon?",
        choices=("über 0,5", "über 2", "nie: Nahe am Minimum wird der Gradient klein und bremst jeden Schritt"),
        answer=0,
        shown=unless_own(lambda params, result: not result["momentum"] and result["diverges"]),
        explain="Entlang w₂ wird der Abstand in jedem Schritt mit 1 − 4η malgenommen. Für η > 0,5 ist das "
                "kleiner als −1: Der Weg landet jedes Mal weiter weg, auf der anderen Seite.",
        example={"lr": 0.708},
        why_not=("",
                 "Für die flache Richtung w₁ (λ = 1) stimmt das. Die stärker gekrümmte Richtung w₂ erreicht "
                 "ihre Grenze 2/4 aber zuerst.",
                 "Der Gradient wird nahe am Minimum klein, aber η·λ bleibt gleich. Ist η·λ größer als 2, "
                 "wächst der Abstand mit jedem Schritt."),
    ),
    tasks=(
        Task("fast", "Finde eine Lernrate, mit der der Verlust in höchstens 10 Schritten unter 0,1 % des "
                     "Anfangs fällt.",
             solved=unless_own(lambda params, result: (not result["momentum"] and result["steps"] <= 10
                                                  and result["ratio"] < 0.001)),
             explain="Am schnellsten geht es, wenn beide Faktoren 1 − η·λ klein sind. Bei η = 0,4 wären sie "
                     "0,6 und −0,6: Beide Richtungen schrumpften gleich schnell.",
             example={"lr": 0.398, "steps": 10},
             hints=("Stelle „Schritte“ auf 10 und schaue auf den Verlust am Ende.",
                    "Eine größere Lernrate hilft der flachen Richtung w₁. Über 0,5 läuft aber w₂ davon.",
                    "Schaue auf „Faktor je Schritt“: Beide Faktoren sollen dem Betrag nach möglichst klein sein."),
             near=Near(unless_own(lambda params, result: (not result["momentum"] and result["steps"] <= 10
                                                     and 0.001 <= result["ratio"] < 0.01)),
                       "Fast: Der Verlust liegt schon unter 1 % des Anfangs. Ein etwas anderes η hilft.",
                       {"lr": 0.2, "steps": 10})),
        Task("edge", f"Bringe den Weg zum Davonlaufen, mit einer Lernrate höchstens {fmt.de(EDGE)} über der Grenze.",
             solved=unless_own(lambda params, result: (result["diverges"]
                                                  and result["lr"] <= result["limit"] + EDGE)),
             explain="Die Grenze ist 2/λ_max. Knapp darüber wächst der Abstand entlang w₂ nur langsam, aber er "
                     "wächst mit jedem Schritt: Auf Dauer läuft der Weg davon.",
             example={"lr": 0.501},
             hints=("Die Grenze ist 2/λ_max: 2 geteilt durch die stärkere der beiden Krümmungen.",
                    "Schiebe η knapp über diese Grenze und schaue, wie der Verlust wächst."),
             near=Near(unless_own(lambda params, result: (not result["diverges"] and not result["momentum"]
                                                     and result["lr"] >= 0.4)),
                       "Fast: Der Weg springt schon im Zickzack. Ein wenig mehr, dann läuft er davon.",
                       {"lr": 0.447})),
        Task("momentum", f"Stelle η auf 0,01 und bringe den Verlust in höchstens {QUICK} Schritten unter 1 % des "
                         "Anfangs.",
             solved=unless_own(lambda params, result: (result["lr"] <= 0.0101 and result["steps"] <= QUICK
                                                  and result["ratio"] < 0.01)),
             explain="Momentum sammelt Schwung: Zeigen die Gradienten lange in dieselbe Richtung, wird der "
                     "Schritt bis zu 1/(1 − β)-mal so groß. Zu viel Schwung trägt den Weg aber über das Minimum "
                     "hinaus, und er pendelt zurück.",
             example={"lr": 0.01, "momentum": True, "steps": QUICK, "beta": 0.85},
             hints=("Ohne Hilfe ist η = 0,01 zu klein: Der Weg kriecht.",
                    "Schalte „Momentum“ ein. Schaue im Bild, ob der Weg über das Minimum hinausschießt.",
                    f"Stelle {QUICK} Schritte ein und probiere ein kleineres β."),
             near=Near(unless_own(lambda params, result: (result["lr"] <= 0.0101 and result["momentum"]
                                                     and result["steps"] <= QUICK and result["ratio"] < 0.1)),
                       "Fast: Mit Momentum ist der Verlust schon unter 10 %. Ändere β oder die Zahl der Schritte.",
                       {"lr": 0.01, "momentum": True, "steps": QUICK})),
    ),
    discussion=(
        "Warum setzt die am stärksten gekrümmte Richtung die Grenze für die Lernrate, und die flachste "
        "Richtung die Dauer?",
        "Ein Netz hat Millionen Gewichte. Was heißt dann „die Schüssel ist in einer Richtung stark gekrümmt“?",
    ),
    teacher=(
        "Jeder Schritt multipliziert den Abstand entlang einer Richtung mit 1 − η·λ. Der Betrag muss unter 1 "
        "bleiben, also η < 2/λ. Die flache Richtung braucht dann viele Schritte, weil η klein bleiben muss.",
        "Nahe am Minimum sieht fast jeder Verlust aus wie eine Schüssel. Die Krümmungen in ihren "
        "Hauptrichtungen sind die Eigenwerte der Hesse-Matrix. Die größte begrenzt die Lernrate.",
    ),
    misconceptions=(
        "„Eine größere Lernrate ist immer schneller.“ Falsch: Über 2/λ_max läuft der Weg davon.",
        "„Der Gradient zeigt zum Minimum.“ Falsch: Er zeigt bergauf, senkrecht zu den Höhenlinien. "
        "In einer länglichen Schüssel zeigt er oft am Minimum vorbei.",
    ),
)
