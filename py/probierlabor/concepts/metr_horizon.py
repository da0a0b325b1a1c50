"""METR horizon (50 % variant): read a time off a success curve, and see how unstable that is.

The success curve (CONCEPTS.md §3; R: METR's methodology, P: the parameterisation):

    p(t) = σ(s · (log₂ h − log₂ t)),   t = human working time in minutes,

a logistic curve over the doubling number of the task length. ``s`` is how much the log-odds of
success drop per doubling of the task length (the steepness); ``h`` is where the curve crosses 50 %.
The reader fixes the chance at two hours, c = p(120 min); then log₂ h = log₂ 120 + logit(c)/s, and
the horizon at a threshold q is

    h_q = h · 2^(−logit(q)/s).

With c = 50 % the 50 % horizon is two hours by definition. A small change to c = 45 % moves it to
120 · 2^(logit 0.45 / s): 104.4 / 90.9 / 68.8 min for s = 1 / 0.5 / 0.25; the 80 % horizon of the
unchanged curves is 45.9 / 17.6 / 2.6 min.

Optionally the page throws dice: tasks with log-uniform lengths from 1 min to 16 h, each solved
with the curve's chance (``random.Random(seed)``), and fits a logistic regression to these 0/1
outcomes (Newton's method, a weak ridge penalty κ = 0.01 so that perfectly separated dice still
give a finite fit). Its horizon shows how much a finite task set wobbles.
"""

from __future__ import annotations

import math
import random

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "metr-horizon"
TITLE = "METR-Horizont"
GROUP = "Lernen und Bewerten"
TEASER = "Bei welcher Aufgabenlänge schafft ein Agent die Hälfte? Je flacher die Kurve, desto wackliger die Antwort."

ANCHOR_MIN = 120.0  # two hours: where the reader sets the chance
T_MIN, T_MAX = 1.0, 960.0  # the chart: 1 min … 16 h
X_MIN, X_MAX = math.log2(T_MIN), math.log2(T_MAX)
RIDGE = 0.01
MAX_DOUBLINGS = 60.0  # beyond 2^60 min a horizon is no time any more

PARAMS = (
    Param("s", "Steilheit s", "float", 1.0, lo=0.1, hi=3.0, step=0.05,
          help="Um wie viel die Log-Odds je Verdopplung der Aufgabenlänge fallen. Klein heißt flach."),
    Param("c", "Wahrscheinlichkeit bei 2 Stunden (in %)", "int", 50, lo=30, hi=70, step=1,
          help="Verschiebt die ganze Kurve, bis sie bei 2 h diesen Wert hat. 50 heißt: Horizont 2 h."),
    # ?q= is the theme's search; links shared while this was called q still carry it
    Param("quote", "Schwelle", "choice", 50, choices=((50, "50 %"), (80, "80 %")), alias="q",
          help="Wo die Kurve abgelesen wird: 50-%- oder 80-%-Horizont."),
    Param("tasks", "Gewürfelte Aufgaben", "choice", 0, choices=((0, "keine"), (40, "40"), (160, "160")),
          help="Aufgaben mit zufälliger Länge; jede gelingt so wahrscheinlich, wie die Kurve sagt. Dann neu angepasst."),
    Param("seed", "Neu würfeln", "seed", 1, help="Andere Würfe, gleiche Kurve."),
)

PRESETS = (
    Preset("Von vorn", {}, "50 % bei 2 h: der Horizont ist 2 h."),
    Preset("Steil, 45 %", {"s": 1.0, "c": 45}, "Kleine Änderung, steile Kurve."),
    Preset("Mittel, 45 %", {"s": 0.5, "c": 45}, "Kleine Änderung, mittlere Kurve."),
    Preset("Flach, 45 %", {"s": 0.25, "c": 45}, "Kleine Änderung, flache Kurve."),
    Preset("Flach, 80 %", {"s": 0.25, "quote": 80}, "80-%-Horizont einer flachen Kurve."),
    Preset("Flach, gewürfelt", {"s": 0.25, "tasks": 40, "seed": 7}, "40 gewürfelte Aufgaben, neu angepasst."),
)


# -- the curve ------------------------------------------------------------------------

def logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def centre(s: float, c: float) -> float:
    """log₂ of the 50 % crossing when the curve has chance c at two hours."""
    return math.log2(ANCHOR_MIN) + logit(c) / s


def chance(t_min: float, s: float, c: float) -> float:
    return sigmoid(s * (centre(s, c) - math.log2(t_min)))


def horizon_log2(s: float, c: float, q: float) -> float:
    return centre(s, c) - logit(q) / s


def horizon(s: float, c: float, q: float) -> float:
    """Minutes at which the curve with steepness s and chance c at 2 h crosses q."""
    return 2.0 ** horizon_log2(s, c, q)


# -- dice and refit ---------------------------------------------------------------------

def throw(n: int, s: float, c: float, seed: int) -> list[tuple[float, int]]:
    """n tasks: (log₂ minutes, 1 if solved). Lengths log-uniform over 1 min … 16 h."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        x = X_MIN + (X_MAX - X_MIN) * rng.random()
        solved = 1 if rng.random() < sigmoid(s * (centre(s, c) - x)) else 0
        out.append((x, solved))
    return out


def refit(tasks: list[tuple[float, int]], ridge: float = RIDGE, steps: int = 50) -> tuple[float, float, int]:
    """Logistic regression p = σ(a + b·(x − log₂ 120)) by Newton's method with penalty (ridge/2)(a² + b²).
    Returns (a, b, iterations). The penalised objective is strictly convex, so Newton converges."""
    a = b = 0.0
    x0 = math.log2(ANCHOR_MIN)
    for it in range(1, steps + 1):
        ga, gb = ridge * a, ridge * b
        haa, hab, hbb = ridge, 0.0, ridge
        for x, y in tasks:
            u = x - x0
            p = sigmoid(a + b * u)
            w = p * (1.0 - p)
            ga += p - y
            gb += (p - y) * u
            haa += w
            hab += w * u
            hbb += w * u * u
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        # damped step: halve while the objective does not fall (rarely needed)
        if max(abs(da), abs(db)) < 1e-10:
            return a - da, b - db, it
        f0 = _objective(tasks, a, b, ridge)
        step = 1.0
        while step > 1e-6 and _objective(tasks, a - step * da, b - step * db, ridge) > f0 + 1e-12 * (1 + f0):
            step /= 2
        a, b = a - step * da, b - step * db
        if max(abs(step * da), abs(step * db)) < 1e-10:
            return a, b, it
    return a, b, steps


def _objective(tasks, a, b, ridge) -> float:
    x0 = math.log2(ANCHOR_MIN)
    total = ridge * (a * a + b * b) / 2
    for x, y in tasks:
        z = a + b * (x - x0)
        # −log σ(z) for y = 1, −log(1 − σ(z)) for y = 0, computed without overflow
        zz = -z if y else z
        total += zz + math.log1p(math.exp(-zz)) if zz > 0 else math.log1p(math.exp(zz))
    return total


def fitted_horizon_log2(a: float, b: float, q: float) -> float | None:
    """log₂ minutes where the fitted curve crosses q; None if the fit does not fall with length
    or the crossing lies beyond any sensible time."""
    if b >= -1e-9:
        return None
    x = math.log2(ANCHOR_MIN) + (logit(q) - a) / b
    return x if abs(x) <= MAX_DOUBLINGS else None


def wobble(s: float, tasks: int = 40, throws: int = 101, first_seed: int = 1000, c: int = 50, q: int = 50) -> dict:
    """Quartiles of the fitted horizon over many independent task sets from the same curve
    (for the prose; a crossing beyond any sensible time counts as infinitely long)."""
    found = []
    for k in range(throws):
        a, b, _ = refit(throw(tasks, s, c / 100, first_seed + k))
        x = fitted_horizon_log2(a, b, q / 100)
        found.append(math.inf if x is None else 2.0 ** x)
    found.sort()
    return {"throws": throws, "tasks": tasks, "q1": found[throws // 4], "median": found[throws // 2],
            "q3": found[(3 * throws) // 4], "true": horizon(s, c / 100, q / 100)}


# -- the experiment ---------------------------------------------------------------------

def compute(s: float = 1.0, c: int = 50, quote: int = 50, tasks: int = 0, seed: int = 1) -> dict:
    cc, qq = c / 100.0, quote / 100.0
    result = {
        "s": s,
        "c": c,
        "q": quote,
        "horizon_min": horizon(s, cc, qq),
        "horizon_50_min": horizon(s, cc, 0.5),
        "horizon_80_min": horizon(s, cc, 0.8),
        "base_min": horizon(s, 0.5, qq),  # the same curve before the small change (50 % at 2 h)
        "ratio": horizon(s, cc, qq) / horizon(s, 0.5, qq),
        "span": 2.0 ** (2 * logit(0.8) / s),  # lengths from 80 % down to 20 % chance differ by this factor
        "tasks": tasks,
    }
    if tasks:
        data = throw(tasks, s, cc, seed)
        a, b, its = refit(data)
        x_fit = fitted_horizon_log2(a, b, qq)
        result.update({
            "data": [[x, y] for x, y in data],
            "solved": sum(y for _, y in data),
            "fit": {"a": a, "b": b, "iterations": its},
            "fit_horizon_min": None if x_fit is None else 2.0 ** x_fit,
            "fit_chance_2h": sigmoid(a),
        })
    return result


# -- display ------------------------------------------------------------------------------

def duration(minutes: float | None, dative: bool = False) -> str:
    """German duration: seconds below a minute, minutes (one decimal) below 1000 min, then hours,
    days and years with three significant digits."""
    if minutes is None:
        return "nicht bestimmbar"
    if minutes * 60 < 0.1:
        return "unter 0,1 s"
    if minutes < 1:
        return fmt.de_auto(minutes * 60) + " s"
    if minutes < 1000:
        return fmt.de(minutes, 1) + " min"
    hours = minutes / 60
    if hours < 100:
        return fmt.de(hours, 1) + " h"
    days = hours / 24
    if days < 1000:
        return fmt.de_auto(days) + (" Tagen" if dative else " Tage")
    return fmt.de_auto(days / 365.25) + (" Jahren" if dative else " Jahre")


def span_de(span: float) -> str:
    return fmt.de(span, 1) if span < 10 else fmt.de(span, 0)


TICKS = ((1, "1 min"), (4, "4 min"), (15, "15 min"), (60, "1 h"), (240, "4 h"), (960, "16 h"))


def _ratio_text(ratio: float) -> str:
    return fmt.pct(ratio, 0) if 0.01 <= ratio <= 100 else "Faktor " + fmt.de_auto(ratio)


def _key_sentence(r: dict) -> str:
    """The sentence under the curve: where it crosses the threshold and, once the probability at 2 h
    moved, how far that moved the horizon – the farther, the flatter the curve."""
    s, q, c = fmt.de_auto(r["s"]), r["q"], r["c"]
    horizon = duration(r["horizon_min"], True)
    if c != 50:
        text = (f"Bei Steilheit {s} und {c} % bei 2 h kreuzt die Kurve {q} % bei {horizon} statt bei "
                f"{duration(r['base_min'], True)}. Der Horizont {'schrumpft' if r['ratio'] < 1 else 'wächst'} "
                f"auf {fmt.pct(r['ratio'], 0) if 0.01 <= r['ratio'] <= 100 else 'das ' + fmt.de_auto(r['ratio']) + '-Fache'}"
                " – je flacher die Kurve, desto weiter wandert er.")
    elif q == 50:
        text = f"Bei Steilheit {s} hat die Kurve bei 2 h genau 50 %: Der 50-%-Horizont liegt bei {horizon}."
    else:
        text = (f"Bei Steilheit {s} kreuzt die Kurve {q} % schon bei {horizon}, 50 % erst bei 120,0 min: "
                "Ein Horizont gilt nur mit seiner Schwelle.")
    if "data" in r:
        text += (f" Aus {r['tasks']} gewürfelten Aufgaben ({r['solved']} gelöst) geschätzt: "
                 f"{duration(r['fit_horizon_min'])}"
                 + (" – der Unterschied kommt allein aus dem Zufall der Aufgaben." if r["fit_horizon_min"] else "."))
    return text


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width under a key of one entry a row, the axis's name in two
    # lines, a crossing's label on the side where it fits
    narrow = layout == NARROW
    s, cc, qq = r["s"], r["c"] / 100, r["q"] / 100
    key_rows = 1 + (r["c"] != 50) + ("data" in r) if narrow else 1  # the key's entries, see below
    plot = svg.Plot(width(480, layout), 350 + (18 * key_rows if narrow else 0), (X_MIN, X_MAX), (0, 1),
                    label="Erfolgswahrscheinlichkeit nach Aufgabenlänge", layout=layout,
                    margin=(34 + 18 * (key_rows - 1), 16, 64 if narrow else 46, 56))
    plot.grid(xticks=[math.log2(t) for t, _ in TICKS], yticks=[0, 0.2, 0.5, 0.8, 1.0],
              xlabel=("Bearbeitungszeit eines Menschen", "(log. Skala)"), ylabel="Erfolgswahrscheinlichkeit",
              xfmt=lambda v: {round(math.log2(t), 6): label for t, label in TICKS}[round(v, 6)],
              yfmt=lambda v: fmt.de(round(100 * v)) + " %")
    xs = [X_MIN + (X_MAX - X_MIN) * i / 160 for i in range(161)]
    if "data" in r:
        for i, (x, y) in enumerate(r["data"]):
            jitter = ((i * 7919) % 11 - 5) * 0.006
            plot.point(x, (0.975 if y else 0.025) + jitter, 3, "pl-mh-task" + (" pl-mh-solved" if y else ""))
        a, b = r["fit"]["a"], r["fit"]["b"]
        plot.polyline([(x, sigmoid(a + b * (x - math.log2(ANCHOR_MIN)))) for x in xs], "pl-mh-fit")
    changed = r["c"] != 50
    if changed:
        plot.polyline([(x, sigmoid(s * (centre(s, 0.5) - x))) for x in xs], "pl-mh-base")
    plot.polyline([(x, sigmoid(s * (centre(s, cc) - x))) for x in xs], "pl-mh-curve")
    plot.hline(qq, "pl-mh-threshold")
    plot.text(X_MIN + (X_MAX - X_MIN) * 0.012, qq, f"Schwelle {r['q']} %", "pl-label pl-mh-threshold-label",
              "start", dy=-6)

    nudge = (X_MAX - X_MIN) * 0.012

    def crossing(minutes, cls, label, level, side):
        """Mark where a curve meets the threshold; ``side`` is where its label goes (−1 left, +1 right)."""
        if minutes is None:
            return
        x = math.log2(minutes)
        if x < X_MIN or x > X_MAX:
            edge = X_MIN + nudge if x < X_MIN else X_MAX - nudge
            plot.text(edge, level, ("◀ " if x < X_MIN else "") + label + (" ▶" if x > X_MAX else ""),
                      f"pl-label {cls}-label", "start" if x < X_MIN else "end")
            return
        plot.line(x, 0, x, qq, cls)
        plot.point(x, qq, 5, f"{cls}-dot")
        if narrow:  # about 7 px a character
            room = (plot.right - plot.px(x), plot.px(x) - plot.left)
            side = side if room[side < 0] > 7 * len(label) + 6 else (-1 if room[1] > room[0] else 1)
        elif x + side * 8 * nudge > X_MAX:
            side = -1
        elif x + side * 8 * nudge < X_MIN:
            side = 1
        plot.text(x + side * nudge, level, label, f"pl-label {cls}-label", "start" if side > 0 else "end")

    now = r["horizon_min"]
    if changed:
        crossing(r["base_min"], "pl-mh-base-cross", f"vorher {duration(r['base_min'])}", 0.08,
                 1 if r["base_min"] >= now else -1)
    crossing(now, "pl-mh-cross", duration(now), 0.08, -1 if not changed or r["base_min"] >= now else 1)
    if "data" in r:
        crossing(r["fit_horizon_min"], "pl-mh-fit-cross", f"geschätzt {duration(r['fit_horizon_min'])}", 0.17,
                 1 if (r["fit_horizon_min"] or 0) >= now else -1)
    plot.point(math.log2(ANCHOR_MIN), cc, 4, "pl-mh-anchor", title=f"Wahrscheinlichkeit bei 2 h: {r['c']} %")
    entries = [("pl-mh-curve", f"Kurve: {r['c']} % bei 2 h")]
    if changed:
        entries.append(("pl-mh-base", "vorher: 50 % bei 2 h"))
    if "data" in r:
        entries.append(("pl-mh-fit", f"angepasst an {r['tasks']} Würfe"))
    x, y = plot.left, 14
    for cls, text in entries:  # the key sits above the plot, where it hides no data
        plot.front.append(f'<line class="{cls}" x1="{x}" y1="{y}" x2="{x + 22}" y2="{y}"/>'
                          f'<text class="pl-legend" x="{x + 27}" y="{y + 4}">{text}</text>')
        if narrow:
            y += 18
        else:
            x += 34 + 6.4 * len(text)

    readouts = [
        Readout("horizon", "Horizont an der Schwelle", duration(r["horizon_min"]), r["horizon_min"], True),
        Readout("base", "Vor der Änderung (50 % bei 2 h)", duration(r["base_min"]), r["base_min"]),
        Readout("ratio", "Verschoben auf", _ratio_text(r["ratio"]), r["ratio"], True),
        Readout("span", "Längen von 80 % bis 20 % Erfolg", "Faktor " + span_de(r["span"]), r["span"]),
        Readout("fit", "Aus gewürfelten Aufgaben geschätzt",
                duration(r["fit_horizon_min"]) if "data" in r else "nicht gewürfelt",
                r.get("fit_horizon_min"), "data" in r),
    ]
    summary = _key_sentence(r)
    return View(plot.render(), readouts, summary, _sensitivity(r, layout))


def _sensitivity(r: dict, layout: str) -> str:
    """Horizon against the chance at 2 h, for the current steepness and three reference values."""
    qq = r["q"] / 100
    lo_c, hi_c = 0.30, 0.70
    plot = svg.Plot(320, 250, (30, 70), (X_MIN, X_MAX), label="Wie weit der Schnittpunkt wandert",
                    margin=(14, 20, 42, 72), layout=layout)
    plot.grid(xticks=range(30, 71, 10), yticks=[math.log2(t) for t, _ in TICKS],
              xlabel="Wahrscheinlichkeit bei 2 h", ylabel="Horizont",
              xfmt=lambda v: f"{fmt.tick(v)} %", yfmt=lambda v: {round(math.log2(t), 6): label
                                                           for t, label in TICKS}[round(v, 6)])
    cs = [lo_c + (hi_c - lo_c) * i / 80 for i in range(81)]
    refs = [x for x in (1.0, 0.5, 0.25) if abs(x - r["s"]) > 1e-9]
    for s_ref in refs:
        plot.polyline([(100 * c, horizon_log2(s_ref, c, qq)) for c in cs], "pl-mh-ref")
        end = horizon_log2(s_ref, hi_c, qq)
        if X_MIN <= end <= X_MAX:
            plot.text(69, end, f"s = {fmt.de_auto(s_ref)}", "pl-tick", "end", dy=-5)
    plot.polyline([(100 * c, horizon_log2(r["s"], c, qq)) for c in cs], "pl-mh-sens")
    y = horizon_log2(r["s"], r["c"] / 100, qq)
    if X_MIN <= y <= X_MAX:
        plot.point(r["c"], y, 5, "pl-mh-cross-dot")
    plot.line(50, X_MIN, 50, X_MAX, "pl-mh-threshold")
    plot.legend([("pl-mh-sens", f"s = {fmt.de_auto(r['s'])}"), ("pl-mh-ref", "andere s")], corner="tl")
    return plot.render()


# -- the lesson ---------------------------------------------------------------------------

FLAT = 0.3  # the slope up to which wobbly_dice counts: a flat curve, where few tasks mislead

def _far_off(result) -> bool:
    """The refit from the dice misses the curve's own 50-% horizon by more than a factor of two."""
    fitted = result.get("fit_horizon_min")
    return fitted is not None and not 0.5 <= fitted / result["horizon_min"] <= 2.0


LESSON = Lesson(
    prediction=Prediction(
        question="Die Wahrscheinlichkeit bei 2 Stunden sinkt von 50 % auf 45 %. Bei welcher Kurve rückt der 50-%-Horizont "
                 "am weitesten nach vorn?",
        choices=("bei der steilen Kurve (s = 1)", "bei der flachen Kurve (s = 0,25)", "bei beiden gleich weit"),
        answer=1,
        shown=lambda params, result: params["c"] == 45 and params["quote"] == 50 and params["s"] == 0.25,
        explain="Die flache Kurve fällt je Verdopplung der Länge nur wenig. 5 Prozentpunkte entsprechen bei ihr "
                "fast einer ganzen Verdopplung: 68,8 min statt 104,4 min bei der steilen.",
        example={"s": 0.25, "c": 45},
        why_not=("Die steile Kurve sieht empfindlich aus. Sie fällt aber je Verdopplung der Länge so stark, "
                 "dass 5 Prozentpunkte nur ein kurzes Stück sind. Ihr Horizont rückt nur auf 104,4 min.",
                 "",
                 "Die Änderung ist bei beiden gleich: 5 Prozentpunkte. Wie weit der Schnittpunkt wandert, "
                 "hängt aber davon ab, wie schnell die Kurve fällt: 104,4 min gegen 68,8 min."),
    ),
    tasks=(
        Task("halved", "Lass die Wahrscheinlichkeit bei 2 Stunden mindestens bei 45 %. "
                       "Finde eine Steilheit, bei der sich der 50-%-Horizont trotzdem mindestens halbiert.",
             solved=lambda params, result: (result["q"] == 50 and result["c"] >= 45
                                            and result["ratio"] <= 0.5),
             explain="Bei so flachen Kurven sind 5 Prozentpunkte schon eine ganze Verdopplung der Länge oder mehr. "
                     "Bei s = 0,2 fällt der Horizont von 120 auf 59,9 min.",
             example={"s": 0.2, "c": 45},
             hints=("Je flacher die Kurve, desto weiter wandert der Schnittpunkt bei gleicher Änderung.",
                    "Lass die Wahrscheinlichkeit bei 2 Stunden auf 45 % und verkleinere die „Steilheit s“ "
                    "Schritt für Schritt."),
             near=Near(lambda params, result: (result["q"] == 50 and result["c"] >= 45
                                               and 0.5 < result["ratio"] <= 0.6),
                       "Fast: Der Horizont ist schon deutlich kürzer, aber noch nicht halb so lang. "
                       "Die Kurve darf noch etwas flacher sein.",
                       {"s": 0.25, "c": 45})),
        Task("eighty_short", "Stelle die Schwelle auf 80 % und lass den 50-%-Horizont bei 2 Stunden. Finde eine "
                             "Kurve, deren 80-%-Horizont kürzer als 5 Minuten ist.",
             solved=lambda params, result: (result["q"] == 80 and result["c"] == 50
                                            and result["horizon_min"] < 5),
             explain="Bei einer flachen Kurve liegen 50 % und 80 % viele Verdopplungen auseinander. "
                     "Bei s = 0,25 sind es 2 Stunden gegen 2,6 Minuten.",
             example={"s": 0.25, "quote": 80},
             hints=("Stelle die „Schwelle“ auf 80 % und lass die Wahrscheinlichkeit bei 2 Stunden auf 50 %.",
                    "Je flacher die Kurve, desto mehr Verdopplungen liegen zwischen 50 % und 80 %.",
                    "Verkleinere die „Steilheit s“, bis der 80-%-Horizont unter 5 Minuten fällt."),
             near=Near(lambda params, result: (result["q"] == 80 and result["c"] == 50
                                               and 5 <= result["horizon_min"] < 10),
                       "Fast: Der 80-%-Horizont liegt schon unter 10 Minuten. Noch ein wenig flacher.",
                       {"s": 0.35, "quote": 80})),
        # a flat curve, said in the text: at the default s = 1 two seeds in forty get there (s = 0,25: half)
        Task("wobbly_dice", f"Stelle eine flache Kurve ein (s höchstens {fmt.de(FLAT, 2)}) und würfle 40 Aufgaben "
                            "bei 50 % an der 2-Stunden-Marke. Finde einen Wurf, dessen Schätzung mehr als doppelt "
                            "oder weniger als halb so lang ist wie 2 Stunden.",
             solved=lambda params, result: (result["q"] == 50 and result["c"] == 50 and result["tasks"] > 0
                                            and params["s"] <= FLAT and _far_off(result)),
             explain="Aus wenigen Aufgaben lässt sich eine flache Kurve kaum festlegen. "
                     "Die Schätzung kann um ein Vielfaches neben der wahren Kurve liegen.",
             example={"s": 0.25, "tasks": 40, "seed": 7},
             hints=("Stelle eine flache Kurve ein, lass 50 % an der 2-Stunden-Marke und wähle 40 gewürfelte Aufgaben.",
                    "Jeder Wurf gibt eine andere Schätzung. Drücke auf „Neu würfeln“, bis eine weit danebenliegt."),
             near=Near(lambda params, result: (result["q"] == 50 and result["c"] == 50 and result["tasks"] > 0
                                               and params["s"] <= FLAT and not _far_off(result)
                                               and not 2 / 3 <= result["fit_horizon_min"] / result["horizon_min"] <= 1.5),
                       "Fast: Diese Schätzung liegt schon ein gutes Stück neben 2 Stunden, aber noch nicht um "
                       "das Doppelte. Würfle neu.",
                       {"s": 0.25, "tasks": 40, "seed": 1})),
    ),
    discussion=(
        "Zwei Agenten haben denselben 50-%-Horizont von 2 Stunden. Warum kann einer davon trotzdem viel "
        "verlässlicher sein?",
        "Eine Firma meldet, der Horizont ihres Agenten habe sich verdoppelt. Was würdest du nachfragen?",
    ),
    teacher=(
        "Der Horizont sagt nur, wo die Kurve 50 % kreuzt. Eine steile Kurve schafft kürzere Aufgaben fast sicher, "
        "eine flache scheitert auch an kurzen oft. Das zeigt der 80-%-Horizont.",
        "Wie steil ist die Kurve, und wie viele Aufgaben wurden gemessen? Bei einer flachen Kurve verschiebt schon "
        "eine kleine Änderung der Trefferquote den Horizont stark.",
    ),
    misconceptions=(
        "„Horizont 2 Stunden heißt: Aufgaben bis 2 Stunden klappen.“ Falsch: Bei 2 Stunden klappt nur die Hälfte, "
        "kürzere klappen öfter, aber nicht sicher.",
        "„Der Horizont ist eine feste Eigenschaft des Agenten.“ Falsch: Er hängt an der Schwelle, "
        "an der Aufgabenauswahl und an der Zahl der Messungen.",
    ),
)
