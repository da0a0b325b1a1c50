"""Rotary Position Embedding (RoPE): turn query and key by an angle proportional to their position.

Su et al., RoFormer, §3.1–3.2. One number pair u = (a, b) at position m is turned by m·θ:

    R(φ)(a, b) = (a·cos φ − b·sin φ,  a·sin φ + b·cos φ)      (length is kept)

and then  ⟨R(mθ)q, R(nθ)k⟩ = qᵀ R((n − m)θ) k : the dot product depends only on n − m.
The article's own example (CONCEPTS.md §25): q = k = (1, 0) and an assumed θ = 30° per
position; distance 1 gives cos 30° ≈ 0.866, distance 6 gives −1 and distance 12 gives 1
again. Shifting both positions by the same s turns both arrows and keeps the product.

Here the dot product is computed by really rotating both vectors and multiplying them, not
from the cosine formula, so that the tests can check the identity.

Second view: the original frequencies θᵢ = 10000^(−2i/d) radians for the pairs i = 0 … d/2 − 1.
With q = k = (1, 0) in every pair, the dot product divided by the number of pairs is the mean
of cos((n − m)·θᵢ); it does not come back to 1 after a few steps the way the single
30° pair does. V is never rotated.

The reader may type an own query and key (two numbers each, −1 to 1, so the arrows fit the circle's
frame) and choose a fractional θ (steps of 0,5°). Then the score is ⟨R(mθ)q, R(nθ)k⟩ for those
vectors, the angle between the arrows includes the angle the two had before turning, and the real
frequencies use the same q and k in every pair.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "rope"
TITLE = "Rotary Position Embedding (RoPE)"
GROUP = "Attention und Architektur"
TEASER = "Query und Key werden je nach Position gedreht – übrig bleibt nur der Abstand."

Q0 = (1.0, 0.0)  # query and key before rotation (the article's example)
K0 = (1.0, 0.0)
V0 = (0.6, 0.8)  # a value vector: it is not rotated, wherever its token stands
BASE = 10000
MAX_DISTANCE_SHOWN = 48
DIMS = (8, 16, 32, 64, 128, 256)

PARAMS = (
    Param("m", "Position der Query m", "int", 3, lo=0, hi=24, step=1),
    Param("n", "Position des Keys n", "int", 4, lo=0, hi=24, step=1),
    Param("shift", "Beide verschieben um s", "int", 0, lo=0, hi=24, step=1,
          help="Addiert s zu beiden Positionen: Die Pfeile drehen sich, das Produkt bleibt."),
    Param("theta", "Winkel pro Position θ (Grad)", "float", 30.0, lo=0.5, hi=180.0, step=0.5,
          help="Im Beispiel 30°; echte Modelle nutzen viele Paare mit verschiedenen Winkeln."),
    Param("dim", "Kopfdimension d (echte Frequenzen)", "choice", 128, choices=tuple((d, str(d)) for d in DIMS),
          widget="select", help="d/2 Paare mit θᵢ = 10000^(−2i/d) im zweiten Bild."),
    Param("query", "Eigene Query q (vor der Drehung)", "values", Q0, lo=-1.0, hi=1.0, count=(2, 2),
          help="Zwei Zahlen von −1 bis 1, mit Semikolon getrennt; im Beispiel 1; 0."),
    Param("key", "Eigener Key k (vor der Drehung)", "values", K0, lo=-1.0, hi=1.0, count=(2, 2),
          help="Ebenso für den Key."),
)

PRESETS = (
    Preset("Abstand 1", {"m": 3, "n": 4}, "cos 30° ≈ 0,866"),
    Preset("Abstand 6", {"m": 5, "n": 11}, "Die Pfeile zeigen in entgegengesetzte Richtungen."),
    Preset("Abstand 12", {"m": 10, "n": 22}, "Nach 12 · 30° = 360° wieder gleich ausgerichtet."),
    Preset("Beide verschoben", {"m": 3, "n": 4, "shift": 7}, "Dieselben zwei Tokens 7 Positionen weiter hinten."),
)


def rotate(u, degrees: float) -> tuple[float, float]:
    """R(φ)·u for φ in degrees (reduced mod 360 first, so 180° gives exactly −1)."""
    phi = math.radians(degrees % 360)
    c, s = math.cos(phi), math.sin(phi)
    return u[0] * c - u[1] * s, u[0] * s + u[1] * c


def dot(u, v) -> float:
    return u[0] * v[0] + u[1] * v[1]


def score(m: int, n: int, theta_deg: float, q=Q0, k=K0) -> float:
    """⟨R(mθ)q, R(nθ)k⟩, by rotating both vectors."""
    return dot(rotate(q, m * theta_deg), rotate(k, n * theta_deg))


@cache
def frequencies(dim: int) -> tuple[float, ...]:
    """θᵢ = 10000^(−2i/d) radians, i = 0 … d/2 − 1 (Su et al., §3.2)."""
    return tuple(BASE ** (-2 * i / dim) for i in range(dim // 2))


def mean_score(distance: int, dim: int, q=Q0, k=K0) -> float:
    """Σᵢ ⟨q, R(distance·θᵢ)k⟩ / (d/2): the dot product of the same q and k in every pair, per pair
    (for q = k = (1, 0): the mean of cos(distance·θᵢ))."""
    thetas = frequencies(dim)
    if (q, k) == (Q0, K0):
        return sum(math.cos(distance * t) for t in thetas) / len(thetas)
    same, cross = dot(q, k), q[1] * k[0] - q[0] * k[1]
    return sum(same * math.cos(distance * t) + cross * math.sin(distance * t) for t in thetas) / len(thetas)


@lru_cache(maxsize=64)
def _curves(theta: float, dim: int, q=Q0, k=K0):
    single = tuple(score(0, d, theta, q, k) for d in range(MAX_DISTANCE_SHOWN + 1))
    real = tuple(mean_score(d, dim, q, k) for d in range(MAX_DISTANCE_SHOWN + 1))
    return single, real


def direction(u) -> float:
    """The angle of an arrow in degrees (0 for the zero vector, which has none)."""
    return math.degrees(math.atan2(u[1], u[0]))


def compute(m: int = 3, n: int = 4, shift: int = 0, theta: float = 30.0, dim: int = 128,
            query: tuple = Q0, key: tuple = K0) -> dict:
    q0, k0 = tuple(query), tuple(key)
    pm, pn = m + shift, n + shift
    q, k = rotate(q0, pm * theta), rotate(k0, pn * theta)
    distance = pn - pm
    between = (distance * theta + direction(k0) - direction(q0)) % 360
    shortest = between - 360 if between > 180 else between
    single, real = _curves(theta, dim, q0, k0)
    thetas = frequencies(dim)
    return {
        "m": pm, "n": pn, "shift": shift, "theta": theta, "dim": dim,
        "distance": distance,
        "angle_q": (pm * theta + direction(q0)) % 360,
        "angle_k": (pn * theta + direction(k0)) % 360,
        "angle_between": abs(shortest),
        "angle_signed": shortest,
        "q": list(q), "k": list(k), "v": list(V0),
        "q0": list(q0), "k0": list(k0), "own": (q0, k0) != (Q0, K0),
        "score": dot(q, k),
        "score_unshifted": score(m, n, theta, q0, k0),
        "real_score": mean_score(distance, dim, q0, k0),
        "curve_single": list(single),
        "curve_real": list(real),
        "pairs": len(thetas),
        "theta_first_deg": math.degrees(thetas[0]),
        "theta_last_rad": thetas[-1],
    }


# -- drawing -----------------------------------------------------------------------------





def _deg(value: float) -> str:
    return fmt.de(int(value)) + "°" if float(value).is_integer() else fmt.de(value, 1) + "°"


def _key_sentence(r: dict) -> tuple[str, str]:
    """The sentence under the circle: distance, angle and product, then what they mean here – a whole
    number of turns gives the product of distance 0 again (the real frequencies do not), and at θ = 180°
    this pair only tells even from odd distances; and apart from it that a shift changes nothing, which
    answers the lesson's guess."""
    d, turned = r["distance"], (r["distance"] * r["theta"]) % 360
    real = f"Mit echten Frequenzen (d = {r['dim']}) im Mittel {fmt.de(r['real_score'], 3)}."
    text = (f"Query an Position {r['m']}, Key an Position {r['n']}, θ = {_deg(r['theta'])}: Abstand {fmt.de(d)}, "
            f"die Pfeile stehen {_deg(r['angle_between'])} auseinander, Skalarprodukt {fmt.de(r['score'], 3)}.")
    if r["shift"]:
        return f"{text} {real}", f"Beide um {r['shift']} verschoben ändert daran nichts: Es zählt nur der Abstand."
    if d == 0:
        return text + " Beide stehen an derselben Stelle und sind gleich weit gedreht. " + real, ""
    if r["theta"] == 180:
        return (text + " Bei θ = 180° steht jeder gerade Abstand wie 0, jeder ungerade wie 1: Dieses Paar "
                "unterscheidet nur gerade von ungeraden Abständen. " + real), ""
    at_zero = fmt.de(dot(r["q0"], r["k0"]), 3)
    if turned == 0 and at_zero != fmt.de(r["real_score"], 3):
        return (text + f" Der Key ist um volle Umdrehungen weiter gedreht, das Produkt ist wieder das von Abstand 0. "
                f"Mit echten Frequenzen (d = {r['dim']}) nicht: im Mittel {fmt.de(r['real_score'], 3)} statt "
                f"{at_zero}."), ""
    if turned == 180:
        return text + " Der Key ist eine halbe Umdrehung weiter gedreht als die Query. " + real, ""
    return f"{text} {real}", "Schiebst du beide weiter, bleibt das so: Es zählt nur der Abstand."


def view(r: dict, layout: str = WIDE) -> View:
    # wide: the numbers in a panel right of the circle; narrow: the same panel under it
    narrow = layout == NARROW
    lim = 1.5
    # a narrow figure names two different unturned arrows in a second line under the circle
    second = 16 if narrow and r["q0"] != r["k0"] else 0
    plot = svg.Plot(280 if narrow else 500, 300 + second, (-lim, lim), (-lim, lim), label="Query und Key als gedrehte Pfeile",
                    margin=(10, 10 if narrow else 230, 30 + second, 10), layout=layout)
    cx, cy = plot.px(0), plot.py(0)
    radius = plot.px(1) - cx
    plot.back.append(f'<rect class="pl-frame" x="{plot.left}" y="{plot.top}" width="{plot.right - plot.left}" '
                     f'height="{plot.bottom - plot.top}"/>')
    plot.back.append(f'<line class="pl-grid" x1="{plot.left}" y1="{cy:.1f}" x2="{plot.right}" y2="{cy:.1f}"/>'
                     f'<line class="pl-grid" x1="{cx:.1f}" y1="{plot.top}" x2="{cx:.1f}" y2="{plot.bottom}"/>')
    plot.back.append(f'<circle class="pl-rope-circle" cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}"/>')
    # the angle between the arrows, along the shorter way
    start, turn = r["angle_q"], r["angle_signed"]
    if abs(turn) > 0.5:
        arc_r = radius * 0.42
        a0, a1 = math.radians(start), math.radians(start + turn)
        x0, y0 = cx + arc_r * math.cos(a0), cy - arc_r * math.sin(a0)
        x1, y1 = cx + arc_r * math.cos(a1), cy - arc_r * math.sin(a1)
        sweep = 0 if turn > 0 else 1
        large = 1 if abs(turn) > 180 else 0
        plot.body.append(f'<path class="pl-rope-arc" d="M {x0:.1f} {y0:.1f} A {arc_r:.1f} {arc_r:.1f} 0 '
                         f'{large} {sweep} {x1:.1f} {y1:.1f}"/>')
        mid = math.radians(start + turn / 2)
        plot.front.append(svg.text(cx + arc_r * 1.45 * math.cos(mid), cy - arc_r * 1.45 * math.sin(mid) + 4,
                                _deg(r["angle_between"]), "pl-label pl-rope-angle", "middle"))
    for x, y in {tuple(r["q0"]), tuple(r["k0"])}:
        if (x, y) != (0, 0):
            plot.body.append(svg.arrow(cx, cy, plot.px(x), plot.py(y), "pl-rope-before", head=8))
    close = r["angle_between"] < 24  # labels would overlap: write them one above the other
    for key in ("k", "q"):  # q on top: at distance 0 or 12 both coincide
        x, y = r[key]
        plot.body.append(svg.arrow(cx, cy, plot.px(x), plot.py(y), f"pl-rope-{key}"))
    for key in ("q", "k"):
        x, y = r[key] if not close else r["q"]
        pos = r["m"] if key == "q" else r["n"]
        dy = 5 if not close else (-3 if key == "q" else 13)
        plot.front.append(svg.text(plot.px(1.22 * x), plot.py(1.22 * y) + dy, f"{key} ({pos})",
                                f"pl-label pl-rope-{key}-label", "middle"))

    # right panel: the numbers, then the value vector that does not turn
    x0 = 10 if narrow else 292
    out = [svg.text(x0, 24, f"θ = {_deg(r['theta'])} pro Position", "pl-axis")]
    out.append(svg.text(x0, 44, "Drehung = Position · θ (mod 360°)", "pl-tick"))
    out.append(svg.text(x0, 64, f"q an Position m = {r['m']}: {_deg(r['angle_q'])}", "pl-label pl-rope-q-label"))
    out.append(svg.text(x0, 84, f"k an Position n = {r['n']}: {_deg(r['angle_k'])}", "pl-label pl-rope-k-label"))
    out.append(svg.text(x0, 108, f"Abstand n − m = {fmt.de(r['distance'])}", "pl-label"))
    out.append(svg.text(x0, 128, f"Winkel dazwischen {_deg(r['angle_between'])}", "pl-label"))
    out.append(svg.text(x0, 158, f"q · k = {fmt.de(r['score'], 3)}", "pl-rope-big"))
    vy, vr = 240, 34
    out.append(f'<rect class="pl-rope-vbox" x="{x0}" y="{vy - 48}" width="196" height="96" rx="6"/>')
    out.append(svg.arrow(x0 + 40, vy + 20, x0 + 40 + vr * V0[0], vy + 20 - vr * V0[1], "pl-rope-v", head=8))
    out.append(svg.text(x0 + 82, vy - 20, "v (Value)", "pl-label pl-value"))
    out.append(svg.text(x0 + 82, vy, "wird nicht gedreht:", "pl-tick"))
    out.append(svg.text(x0 + 82, vy + 18, "an jeder Position", "pl-tick"))
    out.append(svg.text(x0 + 82, vy + 36, "derselbe Pfeil", "pl-tick"))
    before = (_pair(r["q0"]) if r["q0"] == r["k0"] else f"q {_pair(r['q0'])}, k {_pair(r['k0'])}")
    grey = ["grau: q und k vor der Drehung,", before] if second else [f"grau: q und k vor der Drehung, {before}"]
    legend = "".join(f'<text class="pl-tick" x="{plot.left + 6}" y="{plot.bottom + 20 + second * n}">{text}</text>'
                     for n, text in enumerate(grey))
    if narrow:
        plot.front.append(legend)
        w, h, body = svg.panels([(plot.w, plot.h, plot.inner()), (plot.w, 292, "".join(out))], layout, gap=0)
        figure = svg.figure(w, h, body, label=plot.label, layout=layout)
    else:
        plot.front.append("".join(out))
        plot.front.append(legend)
        figure = plot.render()

    readouts = [
        Readout("positions", "Positionen (m; n)", f"({r['m']}; {r['n']})", [r["m"], r["n"]]),
        Readout("distance", "Abstand n − m", fmt.de(r["distance"]), r["distance"], True),
        Readout("angles", "Drehung q | k", f"{_deg(r['angle_q'])} | {_deg(r['angle_k'])}",
                [r["angle_q"], r["angle_k"]]),
        Readout("angle_between", "Winkel zwischen q und k", _deg(r["angle_between"]), r["angle_between"]),
        Readout("score", "Skalarprodukt q · k", fmt.de(r["score"], 3), r["score"], True),
        Readout("real_score", "Echte Frequenzen (Mittel der Paare)", fmt.de(r["real_score"], 3), r["real_score"]),
    ]
    summary, answer = _key_sentence(r)
    return View(figure, readouts, summary, _distance_chart(r, layout) + _table(r), answer=answer)


def _pair(u) -> str:
    return f"({fmt.de_auto(u[0])}; {fmt.de_auto(u[1])})"


def _distance_chart(r: dict, layout: str) -> str:
    narrow = layout == NARROW
    top = max(1.0, math.ceil(math.hypot(*r["q0"]) * math.hypot(*r["k0"]) * 2) / 2)  # |q|·|k| up to 2
    plot = svg.Plot(width(360, layout), 260 + (17 if narrow else 0), (0, MAX_DISTANCE_SHOWN), (-1.08 * top, 1.08 * top),
                    label="Skalarprodukt nach Abstand", margin=(46 + (17 if narrow else 0), 10, 42, 46), layout=layout)
    ticks = [-1, -0.5, 0, 0.5, 1] if top == 1 else [-top, -top / 2, 0, top / 2, top]
    plot.grid(xticks=range(0, MAX_DISTANCE_SHOWN + 1, 12), yticks=ticks, xlabel="Abstand n − m",
              ylabel="q · k", xfmt=lambda v: fmt.de(v), yfmt=lambda v: fmt.de(v, 1).replace(",0", ""))
    plot.polyline(list(enumerate(r["curve_single"])), "pl-rope-single")
    plot.polyline(list(enumerate(r["curve_real"])), "pl-rope-real")
    d = abs(r["distance"])
    plot.line(d, -1.08 * top, d, 1.08 * top, "pl-rope-now")
    # own vectors at a negative distance turn the other way: the curve (distances ≥ 0) no longer holds the point
    single = r["score"] if r["own"] and r["distance"] < 0 else r["curve_single"][d]
    plot.point(d, single, 5, "pl-rope-single-dot", title=f"ein Paar: {fmt.de(r['score'], 3)}")
    plot.point(d, r["curve_real"][d], 5, "pl-rope-real-dot", title=f"echte Frequenzen: {fmt.de(r['real_score'], 3)}")
    keys = [("pl-rope-single", f"ein Paar, θ = {_deg(r['theta'])}"), ("pl-rope-real", "echte Frequenzen, Mittel "
             f"über d/2 = {r['pairs']} Paare")]
    if narrow:  # the long key in two lines, from the left edge
        keys[1:] = [("pl-rope-real", "echte Frequenzen,"), ("", f"Mittel über d/2 = {r['pairs']} Paare")]
    for k, (cls, text) in enumerate(keys):
        x = 8 if narrow else plot.left
        plot.front.append(svg.key(x, 16 + 17 * k, cls, text, w=22, gap=6, line=True) if cls else
                          svg.text(x + 28, 16 + 17 * k, text, "pl-legend"))
    return plot.render()


def _table(r: dict) -> str:
    thetas = frequencies(r["dim"])
    idx = sorted({0, 1, 2, len(thetas) // 2, len(thetas) - 1})
    rows = []
    for i in idx:
        t = thetas[i]
        turn = math.degrees(r["distance"] * t)
        rows.append((i, _sci(t), f"{fmt.de(math.degrees(t), 3)}°", f"{fmt.de(turn, 1)}°",
                     fmt.de(math.cos(r["distance"] * t), 3)))
    head = ("i", "θᵢ (rad)", "θᵢ (Grad)", f'Drehung bei Abstand {fmt.de(r["distance"])}', "cos")
    return table(head, rows, caption=f'Einige der {len(thetas)} Paare bei d = {r["dim"]}: θᵢ = 10000^(−2i/d)',
                 row_heads=True, numeric=True, wide=True)


def _sci(x: float) -> str:
    """0,0001 as 1,00 · 10⁻⁴ (German, superscript exponent)."""
    if x >= 0.01:
        return fmt.de(x, 3)
    exp = math.floor(math.log10(x))
    mant = x / 10 ** exp
    sup = str(exp).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{fmt.de(mant, 2)} · 10{sup}"


# -- the lesson ----------------------------------------------------------------------------

EPS = 1e-9  # the rotations are floats: an exact 1 or −1 comes out within rounding
DEFAULTS = {p.name: p.default for p in PARAMS}
FEW_PAIRS_DIM = DIMS[0]
COMES_BACK = 0.9
NEAR_BACK = 0.75  # „fast“ for few_pairs
NEAR_OPPOSITE = -0.9  # „fast“ for neighbours_opposite


def _almost_a_full_turn(params, result) -> bool:
    """The key has turned within one step θ (and at most 45°) of a whole turn, not just one step from the start."""
    turn = abs(result["distance"]) * params["theta"]
    return turn >= 360 - params["theta"] and min(turn % 360, 360 - turn % 360) <= min(params["theta"], 45)


def _same_pair(params) -> bool:
    return all(params[k] == DEFAULTS[k] for k in ("m", "n", "theta"))


def _article(check):
    """The lesson speaks of q = k = (1, 0); own vectors neither solve nor answer it."""
    return lambda params, result: not result["own"] and check(params, result)


LESSON = Lesson(
    prediction=Prediction(
        question=f"Query an Position {DEFAULTS['m']}, Key an Position {DEFAULTS['n']}: Das Produkt ist etwa "
                 f"{fmt.de(compute()['score'], 3)}. Du schiebst beide um dieselbe Zahl von Positionen nach hinten. "
                 "Was passiert mit dem Produkt?",
        choices=("Es wird kleiner", "Es bleibt gleich", "Es wird größer"),
        answer=1,
        shown=_article(lambda params, result: params["shift"] > 0 and _same_pair(params)),
        explain="Beide Pfeile drehen sich um denselben zusätzlichen Winkel. "
                "Der Winkel zwischen ihnen bleibt, und nur er bestimmt das Produkt.",
        example={"shift": 7},
        why_not=("Weiter hinten sind beide Pfeile stärker gedreht, das klingt nach weniger Ähnlichkeit. "
                 "Beide drehen sich aber um denselben Winkel, und nur der Winkel zwischen ihnen zählt.",
                 "",
                 "Man könnte meinen, die zusätzliche Drehung bringe die Pfeile näher zusammen. "
                 "Sie dreht aber beide gleich weit. Der Abstand der Positionen bleibt, also auch das Produkt."),
    ),
    tasks=(
        Task("full_turn", "Finde zwei verschiedene Positionen, bei denen das Produkt wieder genau 1 ist.",
             solved=_article(lambda params, result: result["distance"] != 0 and abs(result["score"] - 1) < EPS),
             explain="Nach einer vollen Umdrehung zeigt der Key wieder wie die Query. Ein einzelnes Paar kann "
                     "diesen Abstand nicht von Abstand 0 unterscheiden.",
             example={"n": 15},
             hints=("Schaue auf den Winkel zwischen q und k.",
                    "Das Produkt ist 1, wenn beide Pfeile wieder gleich zeigen. "
                    "Wann hat sich der Key einmal ganz herumgedreht?",
                    "Lass θ, wie es ist, und schiebe „Position des Keys n“ weiter von der Query weg."),
             near=Near(_article(lambda params, result: (_almost_a_full_turn(params, result)
                                                        and abs(result["score"] - 1) >= EPS)),
                       "Fast: Der Key hat sich beinahe einmal ganz herumgedreht.",
                       {"n": 14})),
        Task("neighbours_opposite", "Stelle θ so ein, dass schon direkte Nachbarn in entgegengesetzte Richtungen zeigen.",
             solved=_article(lambda params, result: abs(result["distance"]) == 1 and abs(result["score"] + 1) < EPS),
             explain="Bei 180° pro Position ist der Abstand 2 schon wieder eine volle Umdrehung. "
                     "Ein Paar mit diesem Winkel unterscheidet nur noch gerade von ungeraden Abständen: "
                     "1, 3 und 5 sehen gleich aus, 0, 2 und 4 auch.",
             example={"theta": 180},
             hints=("Entgegengesetzt heißt: Das Produkt ist −1.",
                    "Bei direkten Nachbarn liegt genau ein Winkel θ zwischen den Pfeilen. Welcher Winkel dreht einen Pfeil ganz um?",
                    "Lass die Positionen Nachbarn bleiben und erhöhe „Winkel pro Position θ (Grad)“."),
             near=Near(_article(lambda params, result: (abs(result["distance"]) == 1
                                                        and result["score"] <= NEAR_OPPOSITE
                                                        and abs(result["score"] + 1) >= EPS)),
                       "Fast: Die Nachbarn zeigen schon beinahe in entgegengesetzte Richtungen.",
                       {"theta": 170})),
        Task("few_pairs", f"Wähle d = {FEW_PAIRS_DIM}. Finde einen Abstand größer als 1, bei dem das Mittel der "
                          f"echten Frequenzen wieder über {fmt.de(COMES_BACK, 1)} liegt.",
             solved=_article(lambda params, result: (result["dim"] == FEW_PAIRS_DIM and abs(result["distance"]) > 1
                                                     and result["real_score"] > COMES_BACK)),
             explain="Mit nur wenigen Paaren stehen die Pfeile manchmal fast alle zugleich wieder wie am Anfang. "
                     "Je mehr Paare mit verschiedenen Winkeln, desto seltener passiert das.",
             example={"dim": FEW_PAIRS_DIM, "n": 9},
             hints=("Schaue auf „Echte Frequenzen (Mittel der Paare)“.",
                    f"Mit d = {FEW_PAIRS_DIM} gibt es nur {FEW_PAIRS_DIM // 2} Paare. "
                    "Bei manchen Abständen stehen sie fast alle zugleich wieder wie am Anfang.",
                    f"Wähle d = {FEW_PAIRS_DIM} und schiebe „Position des Keys n“ Schritt für Schritt weiter weg."),
             near=Near(_article(lambda params, result: (result["dim"] == FEW_PAIRS_DIM and abs(result["distance"]) > 1
                                                        and NEAR_BACK <= result["real_score"] <= COMES_BACK)),
                       f"Fast: Das Mittel liegt schon über {fmt.de(NEAR_BACK, 2)}. Probiere die Abstände daneben.",
                       {"dim": FEW_PAIRS_DIM, "n": 8})),
    ),
    discussion=(
        "Warum ist es für ein Sprachmodell nützlich, dass nur der Abstand zweier Tokens zählt und nicht ihre Position?",
        "Warum dreht RoPE nur Query und Key, aber nicht den Value?",
    ),
    teacher=(
        "Ein Satz bedeutet dasselbe, ob er am Anfang oder mitten im Text steht. So lernt das Modell Regeln "
        "wie „das Wort direkt davor“, die überall gelten.",
        "Die Position soll beeinflussen, wie stark zwei Tokens zueinander passen; das entscheidet der "
        "Vergleich von Query und Key. Der Value ist der Inhalt, der danach weitergegeben wird.",
    ),
    misconceptions=(
        "„RoPE addiert eine Positionsnummer zu den Zahlen.“ – Nein, es dreht die Pfeile; ihre Länge bleibt gleich.",
        "„Je weiter zwei Tokens auseinander sind, desto kleiner ist das Produkt.“ – Nein, bei einem Paar "
        "kehrt es nach einer vollen Drehung zurück. Auch mit vielen Paaren fällt es nicht gleichmäßig.",
    ),
)
