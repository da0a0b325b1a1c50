"""Overfitting: an ice-cream stand's notebook, fitted by polynomials of degree 1–9.

The data are simulated, and the generator below is the whole truth about them:

* true rule  f(T) = 220 − 0.83·(T − 30)² scoops: more ice cream when warmer, less in the greatest heat;
* notebook days are spread evenly with jitter over 15–35 °C: day i of n lies at
  T = 15 + (20/n)·(i + U), U uniform in [0, 1) — one day per 2 °C band for n = 10;
* every entry adds Gaussian chance noise with σ = 15 scoops (Box–Muller on ``random.Random``,
  whose stream is the same on every Python version, unlike numpy's distributions);
* the 400 new days have T uniform in [15, 35] and the same noise;
* the fit works on x = (T − 25)/10 ∈ [−1, 1] and minimises Σr² + λ·Σ_{j≥1} c_j²,
  the intercept unpenalised (CONCEPTS.md §2, generator G1).

The seeds were chosen by ``tools/overfitting_seed_search.py`` so that one fixed notebook
comes close to the article's figures; the page prose quotes what this code computes.
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from statistics import median

from ..kit import fmt, polyfit, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "overfitting"
TITLE = "Overfitting"
GROUP = "Lernen und Bewerten"
TEASER = "Eine Kurve, die jeden Punkt trifft, liegt an neuen Tagen weit daneben."

T_MIN, T_MAX = 15.0, 35.0
SIGMA = 15.0
PEAK_T, PEAK_SCOOPS, CURVATURE = 30.0, 220.0, 0.83
N_NEW_DAYS = 400
N_OTHERS = 24
Y_MIN, Y_MAX = -60.0, 360.0  # the drawing window; dragged points stay inside it

SEED_NOTEBOOK = {10: 8580478, 80: 78298}  # chosen by tools/overfitting_seed_search.py
SEED_NEW_DAYS = 4128  # likewise; noise floor 15.0
SEED_OTHERS = 1000  # notebook k of the 24 others uses SEED_OTHERS + k

LAMBDAS = (0.0, 0.0001, 0.001, 0.01, 0.1, 1.0)

PARAMS = (
    Param("degree", "Grad der Kurve", "int", 1, lo=1, hi=9, step=1,
          help="Grad d: die Kurve hat d + 1 anpassbare Zahlen."),
    Param("days", "Tage im Heft", "choice", 10, choices=((10, "10 Tage"), (80, "80 Tage"))),
    Param("lam", "Strafe λ", "choice", 0.0,
          choices=tuple((v, "0" if v == 0 else fmt.de_auto(v)) for v in LAMBDAS),
          help="Strafe für große Koeffizienten (Ridge)."),
    Param("others", "24 andere Hefte", "bool", False,
          help="24 weitere Hefte vom selben Eisstand, jedes mit demselben Grad angepasst."),
    Param("moves", "Verschobene Punkte", "moves", (), lo=Y_MIN, hi=Y_MAX, max_index=79,
          help="Ziehe einen Punkt im Bild nach oben oder unten."),
)

# Named by what they show (the page's table and text use the same names); „Von vorn“ is the straight line.
PRESETS = (
    Preset("Von vorn", {}, "Das Heft mit 10 Tagen, eine gerade Linie."),
    Preset("Grad 9 trifft jeden Punkt", {"degree": 9}, "10 Zahlen für 10 Tage: durch jeden Punkt."),
    Preset("Grad 3", {"degree": 3}, "Mäßig flexibel."),
    Preset("Grad 9 mit 80 Tagen", {"degree": 9, "days": 80}, "Mehr Daten."),
    Preset("Grad 9 mit Strafe", {"degree": 9, "lam": 0.01}, "Strafe λ = 0,01 für große Koeffizienten."),
)


# -- the simulated stand ------------------------------------------------------

def true_scoops(t: float) -> float:
    return PEAK_SCOOPS - CURVATURE * (t - PEAK_T) ** 2


def to_x(t: float) -> float:
    return (t - 25.0) / 10.0


def _gauss(rng: random.Random) -> float:
    u1, u2 = rng.random(), rng.random()
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)


def notebook(n: int, seed: int) -> tuple[list[float], list[float]]:
    """n days, one per band of 20/n °C, jittered inside the band."""
    rng = random.Random(seed)
    width = (T_MAX - T_MIN) / n
    temps = [T_MIN + width * (i + rng.random()) for i in range(n)]
    scoops = [true_scoops(t) + SIGMA * _gauss(rng) for t in temps]
    return temps, scoops


def new_days(n: int = N_NEW_DAYS, seed: int = SEED_NEW_DAYS) -> tuple[list[float], list[float]]:
    rng = random.Random(seed)
    temps = [T_MIN + (T_MAX - T_MIN) * rng.random() for _ in range(n)]
    scoops = [true_scoops(t) + SIGMA * _gauss(rng) for t in temps]
    return temps, scoops


@cache
def _new_days_x() -> tuple[tuple[float, ...], tuple[float, ...], float]:
    temps, scoops = new_days()
    floor = math.sqrt(sum((y - true_scoops(t)) ** 2 for t, y in zip(temps, scoops)) / len(temps))
    return tuple(map(to_x, temps)), tuple(scoops), floor


@cache
def _new_days_moments():
    """Mean squared error on the new days as a quadratic form, so that a refit (every slider step,
    every drag frame) costs about 100 multiplications instead of 400 curve evaluations:
    MSE(c) = cᵀGc − 2cᵀb + ȳ², with G = XᵀX/N, b = Xᵀy/N over powers x⁰…x⁹ of the new days."""
    xs, ys, _ = _new_days_x()
    rows = polyfit.design(xs, 9)
    n = len(rows)
    gram = [[sum(r[i] * r[j] for r in rows) / n for j in range(10)] for i in range(10)]
    cross = [sum(r[i] * y for r, y in zip(rows, ys)) / n for i in range(10)]
    return gram, cross, sum(y * y for y in ys) / n


def new_days_rmse(coef) -> float:
    gram, cross, yy = _new_days_moments()
    k = len(coef)
    quad = sum(coef[i] * sum(gram[i][j] * coef[j] for j in range(k)) for i in range(k))
    return math.sqrt(max(0.0, quad - 2 * sum(c * b for c, b in zip(coef, cross)) + yy))


@cache
def _other_notebooks(n: int) -> tuple[tuple[tuple[float, ...], tuple[float, ...]], ...]:
    books = []
    for k in range(N_OTHERS):
        temps, scoops = notebook(n, SEED_OTHERS + k)
        books.append((tuple(map(to_x, temps)), tuple(scoops)))
    return tuple(books)


# -- fitting and errors -------------------------------------------------------

def errors(xs, ys, degree: int, lam: float) -> tuple[list[float], float, float]:
    """(coefficients, RMSE in the notebook, RMSE on the 400 new days)."""
    coef = polyfit.fit(xs, ys, degree, lam)
    return coef, polyfit.rmse(coef, xs, ys), new_days_rmse(coef)


@lru_cache(maxsize=256)
def _by_degree(xs: tuple, ys: tuple, lam: float) -> tuple[tuple[tuple[float, ...], float, float], ...]:
    """(coefficients, RMSE in the notebook, on the new days) for degrees 1–9, as ``errors`` gives them.
    The error-versus-degree chart does not change when only the degree moves: cached. A dragged point
    changes it on every move: one QR for all degrees (polyfit.fits), not nine."""
    fits = polyfit.fits(xs, ys, 9, lam)[1:]
    return tuple((tuple(coef), polyfit.rmse(coef, xs, ys), new_days_rmse(coef)) for coef in fits)


@lru_cache(maxsize=64)
def _others(n: int, degree: int, lam: float):
    fits = []
    for xs, ys in _other_notebooks(n):
        coef, train, test = errors(xs, ys, degree, lam)
        fits.append((tuple(coef), train, test))
    return tuple(fits)


def compute(degree: int = 1, days: int = 10, lam: float = 0.0, others: bool = False, moves=()) -> dict:
    temps, scoops = notebook(days, SEED_NOTEBOOK[days])
    moved = []
    for index, value in moves:
        if index < days:
            scoops[index] = float(value)
            moved.append(index)
    xs, ys = tuple(map(to_x, temps)), tuple(scoops)
    by_degree = _by_degree(xs, ys, lam)
    coef, train, test = by_degree[degree - 1]
    _, _, floor = _new_days_x()
    result = {
        "degree": degree,
        "days": days,
        "lam": lam,
        "coefficients": degree + 1,
        "temps": list(temps),
        "scoops": list(scoops),
        "moved": moved,
        "coef": list(coef),
        "train_rmse": train,
        "test_rmse": test,
        "noise_floor": floor,
        "by_degree": [{"degree": d, "train_rmse": tr, "test_rmse": te}
                      for d, (_, tr, te) in enumerate(by_degree, start=1)],
    }
    if others:
        fits = _others(days, degree, lam)
        result["others"] = {
            "coef": [list(c) for c, _, _ in fits],
            "median_train_rmse": median(tr for _, tr, _ in fits),
            "median_test_rmse": median(te for _, _, te in fits),
        }
    return result


# -- what the page shows -----------------------------------------------------

# A finger needs about 44 px: each point has an invisible circle that wide to grab it by (a narrow
# figure is drawn at about its own size on a phone).
HIT_RADIUS = 22

# On a narrow figure the legend stands in two rows above the plot: a box inside it would cover a
# third of the smaller plot, where a degree-9 curve swings. The plot keeps the wide figure's height.
LEGEND_ROW, LEGEND_TOP = 18, 18


# Where the curves are drawn.
_CURVE_T = tuple(T_MIN + (T_MAX - T_MIN) * i / 120 for i in range(121))
_CURVE_X = tuple(map(to_x, _CURVE_T))
_TRUTH = tuple((t, true_scoops(t)) for t in _CURVE_T)


def _curve(coef) -> list[tuple[float, float]]:
    return [(t, polyfit.evaluate(coef, x)) for t, x in zip(_CURVE_T, _CURVE_X)]


def _scoops_plot(layout: str) -> svg.Plot:
    above = 2 * LEGEND_ROW + 4 if layout == NARROW else 0
    margin = (16 + above, 22, 46, 52) if layout == NARROW else (16, 16, 46, 60)
    return svg.Plot(width(480, layout), 330 + above, (T_MIN, T_MAX), (Y_MIN, Y_MAX),
                    label="Eisverkauf nach Temperatur", margin=margin, layout=layout)


@cache
def _unchanging(layout: str) -> tuple[tuple[str, ...], str]:
    """The axes and the true rule's curve: the same in every view of a layout, so drawn once, not on
    every drag move."""
    plot = _scoops_plot(layout)
    plot.grid(xticks=range(15, 36, 5), yticks=range(0, 361, 100),
              xlabel="Temperatur (°C)", ylabel="Kugeln pro Tag", xfmt=lambda v: f"{fmt.tick(v)} °C")
    plot.polyline(_TRUTH, "pl-truth")
    return tuple(plot.back), plot.body[-1]


# New days up to this multiple of the pure chance's error count as „nah am Zufall“: degree 2 and 3
# (16,8 against 15,0) are, degree 4 (18,9) is not – the page's „um Grad 2 und 3 am kleinsten“.
NEAR_CHANCE = 1.2


def _key_sentence(r: dict) -> str:
    """The sentence under the plot: both errors of the curve and what they say – too simple when even
    the notebook lies beyond chance, chance learnt by heart when new days lie far beyond it."""
    train, test, floor = (fmt.de(r[k], 1) for k in ("train_rmse", "test_rmse", "noise_floor"))
    text = (f"Die Kurve vom Grad {r['degree']}" + (f" mit Strafe λ = {fmt.de_auto(r['lam'])}" if r["lam"] else "")
            + f" liegt bei {r['days']} Tagen im Heft {train} Kugeln daneben, an {N_NEW_DAYS} neuen Tagen {test}. ")
    if r["train_rmse"] > r["noise_floor"]:
        text += f"Schon im Heft ist das mehr als der Zufall allein ({floor}): Die Kurve ist zu schlicht."
    elif r["test_rmse"] > NEAR_CHANCE * r["noise_floor"]:
        text += f"Das ist deutlich mehr als der Zufall allein ({floor}): Die Kurve hat Zufall aus dem Heft mitgelernt."
    else:
        text += f"Das ist nah am Zufall allein ({floor}); viel besser kann keine Regel werden."
    if "others" in r:
        text += f" Typisch über 24 andere Hefte: {fmt.de(r['others']['median_test_rmse'], 1)} Kugeln an neuen Tagen."
    return text


def view(r: dict, layout: str = WIDE) -> View:
    narrow = layout == NARROW
    plot = _scoops_plot(layout)
    axes, truth = _unchanging(layout)
    plot.back.extend(axes)
    if "others" in r:
        for coef in r["others"]["coef"]:
            plot.polyline(_curve(coef), "pl-other")
    plot.body.append(truth)
    plot.polyline(_curve(r["coef"]), "pl-fit")
    radius = 6 if r["days"] <= 10 else 4
    moved = set(r["moved"])
    for i, (t, y) in enumerate(zip(r["temps"], r["scoops"])):
        plot.point(t, y, radius, "pl-point pl-moved" if i in moved else "pl-point",
                   {"data-drag": i, "tabindex": 0, "role": "slider",
                    "aria-label": f"Tag {i + 1}: {fmt.de(t, 1)} °C",
                    "aria-valuenow": f"{y:.0f}", "aria-valuetext": f"{fmt.de(y, 0)} Kugeln"},
                   hit=HIT_RADIUS)
    fit, truth = ("pl-fit", f"Kurve vom Grad {r['degree']}"), ("pl-truth", "wahre Regel (unbekannt)")
    other = [("pl-other", "24 andere Hefte")] if "others" in r else []
    if narrow:
        lines = ("pl-fit", "pl-truth", "pl-other")
        plot.front.append(svg.key_row([fit, *other], 14, LEGEND_TOP, w=24, gap=6, lines=lines))
        plot.front.append(svg.key_row([truth], 14, LEGEND_TOP + LEGEND_ROW, w=24, gap=6, lines=lines))
    else:
        plot.legend([fit, truth, *other])

    readouts = [
        Readout("train_rmse", "Fehler im Heft", fmt.de(r["train_rmse"], 1) + " Kugeln", r["train_rmse"], True),
        Readout("test_rmse", f"Fehler an {N_NEW_DAYS} neuen Tagen", fmt.de(r["test_rmse"], 1) + " Kugeln",
                r["test_rmse"], True),
        Readout("noise_floor", "Zufall allein (wahre Regel)", fmt.de(r["noise_floor"], 1) + " Kugeln",
                r["noise_floor"]),
        Readout("coefficients", "Angepasste Zahlen", str(r["coefficients"]), r["coefficients"]),
    ]
    if "others" in r:
        o = r["others"]
        readouts.append(Readout("median_test_rmse", "Typisch an neuen Tagen (Median, 24 Hefte)",
                                fmt.de(o["median_test_rmse"], 1) + " Kugeln", o["median_test_rmse"]))

    summary = _key_sentence(r)
    return View(plot.render(), readouts, summary, _degree_chart(r, layout))


def _degree_chart(r: dict, layout: str = WIDE) -> str:
    """Error against degree, the shape of Goodfellow et al., Abb. 5.3 (log scale: the tail is huge)."""
    rows = r["by_degree"]
    top = max(max(row["test_rmse"] for row in rows), 100.0)
    lo, hi = 1.0, 10 ** math.ceil(math.log10(top))
    plot = svg.Plot(320, 220, (0.5, 9.5), (math.log10(lo), math.log10(hi)), label="Fehler nach Grad",
                    margin=(14, 14, 40, 52), layout=layout)
    ticks = [10 ** k for k in range(int(math.log10(hi)) + 1)]
    plot.grid(xticks=range(1, 10), yticks=[math.log10(t) for t in ticks], xlabel="Grad",
              ylabel="Fehler (log)", yfmt=lambda v: fmt.de(round(10 ** v)), xfmt=fmt.tick)
    plot.hline(math.log10(r["noise_floor"]), "pl-floor")
    clip = lambda v: math.log10(max(v, lo))  # noqa: E731 - a degree-9 fit has training error 0
    plot.polyline([(row["degree"], clip(row["train_rmse"])) for row in rows], "pl-train")
    plot.polyline([(row["degree"], clip(row["test_rmse"])) for row in rows], "pl-test")
    plot.point(r["degree"], clip(r["test_rmse"]), 5, "pl-test-dot")
    plot.point(r["degree"], clip(r["train_rmse"]), 5, "pl-train-dot")
    plot.legend([("pl-train", "im Heft"), ("pl-test", "an neuen Tagen"), ("pl-floor", "Zufall allein")], corner="tl")
    return plot.render()


def typical(degree: int, days: int = 10, lam: float = 0.0, books: int = 201, first_seed: int = 50_000) -> dict:
    """Medians over many other notebooks of the same stand: what is *typical*, as opposed to
    the one default notebook the experiment shows (the degree-9 error is heavy-tailed)."""
    trains, tests = [], []
    for k in range(books):
        temps, scoops = notebook(days, first_seed + k)
        _, train, test = errors(tuple(map(to_x, temps)), tuple(scoops), degree, lam)
        trains.append(train)
        tests.append(test)
    return {"books": books, "train_rmse": median(trains), "test_rmse": median(tests)}


# -- the lesson ---------------------------------------------------------------------------

def _among_the_best(result) -> bool:
    """The chosen degree's error on new days is the smallest as the page shows it (one decimal): 2 and 3
    both read 16,8 in the first notebook, and the page says the error is smallest around 2 and 3."""
    best = min(row["test_rmse"] for row in result["by_degree"])
    return fmt.de(result["test_rmse"], 1) == fmt.de(best, 1)


def _plain_notebook(params) -> bool:
    """The first notebook of 10 days, unpenalised and undragged: the one the page's figures describe."""
    return params["days"] == 10 and params["lam"] == 0.0 and not params["moves"]


LESSON = Lesson(
    prediction=Prediction(
        question="Die Kurve vom Grad 9 trifft alle 10 Punkte im Heft. Wie groß ist ihr Fehler an 400 neuen Tagen?",
        choices=("fast 0 Kugeln, wie im Heft", "etwa 15 Kugeln, so viel wie der Zufall allein",
                 "größer als bei der geraden Linie"),
        answer=2,
        shown=lambda params, result: params["degree"] == 9 and _plain_notebook(params),
        explain="Grad 9 liegt an neuen Tagen 237,7 Kugeln daneben, die Gerade nur 28,7. "
                "Die Kurve hat den Zufall im Heft mitgelernt.",
        example={"degree": 9},
        why_not=("Im Heft trifft die Kurve jeden Punkt, weil sie genau an diese 10 Tage angepasst wurde. "
                 "Neue Tage kennt sie nicht: Dort zählt nur, ob sie die Regel getroffen hat.",
                 "So weit streut der Zufall um die wahre Regel. Grad 9 folgt aber jedem Ausreißer im Heft "
                 "und schwingt zwischen den Punkten weit aus. An neuen Tagen liegt sie deshalb viel weiter daneben.",
                 ""),
    ),
    tasks=(
        Task("best_degree", "Finde den Grad, bei dem der Fehler an neuen Tagen am kleinsten ist.",
             solved=lambda params, result: _among_the_best(result),
             explain="Ein Grad, der zur Form der wahren Regel passt, gewinnt. Weniger Freiheit verfehlt die Form, "
                     "mehr Freiheit folgt dem Zufall.",
             example={"degree": 2},
             hints=("Schaue auf den Fehler an neuen Tagen, nicht auf den Fehler im Heft.",
                    "Der kleinste Fehler liegt bei einem kleinen Grad, aber nicht bei der Geraden."),
             near=Near(lambda params, result: not _among_the_best(result) and result["test_rmse"] < 1.2 * min(
                           row["test_rmse"] for row in result["by_degree"]),
                       "Fast: Der Fehler an neuen Tagen ist nur wenig größer als der kleinste. "
                       "Probiere die Grade daneben.",
                       {"degree": 4})),
        Task("tame_nine", "Lass den Grad bei 9 und drücke den Fehler an neuen Tagen unter 20 Kugeln. "
                          "Verschiebe dabei keine Punkte.",
             solved=lambda params, result: (result["degree"] == 9 and not params["moves"]
                                            and result["test_rmse"] < 20),
             explain="Mit 80 Tagen kann die Kurve nicht mehr jedem Zufall folgen. "
                     "Eine Strafe λ für große Zahlen bremst sie ebenfalls.",
             example={"degree": 9, "days": 80},
             hints=("Es gibt zwei Wege: mehr Tage im Heft oder eine Strafe für große Zahlen in der Kurve.",
                    "Stelle „Tage im Heft“ auf 80 Tage.")),
        Task("not_bad_luck", "Schalte die 24 anderen Hefte ein. Hatte Grad 9 nur mit diesem Heft Pech?",
             solved=lambda params, result: (result["degree"] == 9 and _plain_notebook(params)
                                            and result.get("others", {}).get("median_test_rmse", 0) > 100),
             explain="Auch typisch über 24 andere Hefte liegt Grad 9 weit über 200 Kugeln daneben. "
                     "Das ist kein Pech, sondern die Regel: zu viel Freiheit für zu wenige Tage.",
             example={"degree": 9, "others": True},
             hints=("Der Schalter „24 andere Hefte“ zeigt, wie Grad 9 in vielen anderen Heften abschneidet.",)),
    ),
    discussion=(
        "Woran merkst du, dass eine Kurve den Zufall auswendig gelernt hat, wenn du nur das Heft kennst?",
        "Warum hilft es, mehr Tage aufzuschreiben, obwohl jeder Tag genauso zufällig ist wie vorher?",
    ),
    teacher=(
        "Am Heft allein merkt man es nicht: Der Fehler im Heft sinkt mit jedem Grad. "
        "Man braucht Tage, die beim Anpassen nicht benutzt wurden, und vergleicht dort.",
        "Der Zufall eines Tages geht in die eine oder andere Richtung. Bei vielen Tagen gleicht er sich aus, "
        "und 10 Zahlen reichen nicht mehr, um jedem einzelnen Ausreißer zu folgen.",
    ),
    misconceptions=(
        "„Je kleiner der Fehler im Heft, desto besser die Kurve.“ Falsch: Bei Grad 9 ist er fast 0, "
        "an neuen Tagen aber am größten.",
        "„Eine flexible Kurve ist immer schlecht.“ Falsch: Mit 80 Tagen ist Grad 9 fast so gut wie Grad 2.",
    ),
)
