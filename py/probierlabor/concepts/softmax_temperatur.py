"""Softmax and temperature: logits become probabilities, a temperature makes them steeper or flatter.

softmax(z / T)_i = exp(z_i / T) / Σ_j exp(z_j / T) (Goodfellow, Bengio, Courville: Deep Learning, 6.2.2.3;
the temperature as in Hinton, Vinyals, Dean 2015). A softmax of whole logits is irrational, so the page
computes it in floats, with the largest logit subtracted first: exp never overflows, and the subtraction
is the page's own insight (the same number added to every logit changes nothing). The page rounds what it
shows and says so.

T = 0 is the limit, not a division: all weight on the largest logit, and logits that tie for it share it
equally – exact fractions (1/2, 1/3). T → ∞ makes every token 1/n; equal logits give exactly 1/n at every T,
the one case besides T = 0 where the page writes exact values. The entropy in bits, H = −Σ p log₂ p,
reads how unsure the distribution is; 2^H is the number of equally good tokens that are as unsure.

The logits come from a chosen row or from the reader's own list (2–6 numbers); a bar of the logit panel
is a handle: dragged, it writes its logit into the own list (kit/drag.py ``direct``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from ..kit import drag, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "softmax-temperatur"
TITLE = "Softmax und Temperatur"
GROUP = "Grundlagen"
TEASER = "Aus Logits werden Wahrscheinlichkeiten – und die Temperatur macht sie steiler oder flacher."

LETTERS = "ABCDEF"
COUNT = (2, len(LETTERS))
LOGIT_RANGE = (-20.0, 20.0)
T_MIN, T_MAX = 0.01, 100  # four powers of ten around T = 1
SHIFT = 10  # the row „verschoben“ is the example plus this
EXAMPLE = (2.0, 1.0, 0.5, -1.0)
ROWS = {
    "beispiel": EXAMPLE,
    "verschoben": tuple(z + SHIFT for z in EXAMPLE),
    "gleichstand": (2.0, 2.0, 0.0, -1.0),
    "fuenf": (3.0, 2.5, 1.0, 0.0, -2.0),
}
ROW_CHOICES = (
    ("beispiel", "Beispiel: 2 / 1 / 0,5 / −1"),
    ("verschoben", "alle + 10: 12 / 11 / 10,5 / 9"),
    ("gleichstand", "Gleichstand: 2 / 2 / 0 / −1"),
    ("fuenf", "fünf Tokens: 3 / 2,5 / 1 / 0 / −2"),
)
CURVE_POINTS = 129  # the curves over T: a point every 1/32 of a power of ten
DRAG_STEP = 0.1  # one arrow key (a dragged logit is rounded to it)

OWN = Param("logits", "Eigene Logits", "values", (), lo=LOGIT_RANGE[0], hi=LOGIT_RANGE[1], count=COUNT,
            widget="z. B. 2; 1; 0,5; −1",
            help="2 bis 6 Logits, mit Semikolon getrennt, je eins pro Token (A, B, C …). Auch negative "
                 "Zahlen gehen. Leer: die Auswahl oben. Die Balken im linken Bild lassen sich ziehen.")

PARAMS = (
    # step: a hundredth of a power of ten (2,3 %), one arrow key a change the readout shows; the slider
    # stands on 10^(k/100) rounded to three significant digits, as it reports (0,2, 2, 20, 0,363, 3,16),
    # so presets and task examples use those
    Param("T", "Temperatur T", "float", 1.0, lo=T_MIN, hi=float(T_MAX), step=0.01, log=True,
          help="Teilt jedes Logit vor der Softmax. Unter 1 wird die Verteilung steiler, über 1 flacher."),
    Param("greedy", "T = 0 (Grenzfall Greedy)", "bool", False,
          help="Durch 0 kann man nicht teilen: Angezeigt wird der Grenzwert für sehr kleine T. "
               "Der Regler oben ruht so lange."),
    Param("row", "Logits", "choice", "beispiel", choices=ROW_CHOICES, widget="select",
          help="Die Rohwerte des Modells für vier oder fünf mögliche nächste Tokens."),
    OWN,
)

PRESETS = (
    Preset("Beispiel, T = 1", {}, "Die eigene Verteilung des Modells."),
    Preset("T = 0,2 (steiler)", {"T": 0.2}, "Die Logits werden mit 5 malgenommen: A gewinnt fast alles."),
    Preset("T = 2 (flacher)", {"T": 2.0}, "Die Logits werden halbiert: die Tokens rücken zusammen."),
    Preset("T = 0 (Greedy)", {"greedy": True}, "Alles Gewicht auf dem größten Logit."),
    Preset("Gleichstand bei T = 0", {"row": "gleichstand", "greedy": True}, "Zwei gleich große Logits teilen sich alles."),
    Preset("Alle Logits + 10", {"row": "verschoben"}, "Jedes Logit ist um 10 größer als im Beispiel."),
    Preset("Sehr heiß: T = 20", {"T": 20.0}, "Fast gleich verteilt."),
)


# -- the computation ---------------------------------------------------------------------------

def softmax(logits, T: float) -> list[float]:
    """softmax(z / T) in floats, the largest logit subtracted first (the result is the same, exp cannot overflow)."""
    top = max(logits)
    weights = [math.exp((z - top) / T) for z in logits]
    total = sum(weights)
    return [w / total for w in weights]


def argmax_limit(logits) -> list[Fraction]:
    """The limit T → 0: the largest logit gets everything, tied ones share it exactly."""
    top = max(logits)
    winners = sum(z == top for z in logits)
    return [Fraction(1, winners) if z == top else Fraction(0) for z in logits]


def entropy_bits(probs) -> float:
    """H = −Σ p log₂ p; a token with p = 0 adds nothing (p log p → 0)."""
    return max(0.0, -sum(float(p) * math.log2(p) for p in probs if p > 0))


def temperatures() -> list[float]:
    lo, hi = math.log10(T_MIN), math.log10(T_MAX)
    return [10 ** (lo + (hi - lo) * i / (CURVE_POINTS - 1)) for i in range(CURVE_POINTS)]


def compute(T: float = 1.0, greedy: bool = False, row: str = "beispiel", logits: tuple = ()) -> dict:
    z = [float(v) for v in logits] if logits else list(ROWS[row])
    n = len(z)
    tokens = list(LETTERS[:n])
    same = all(v == z[0] for v in z)
    exact = argmax_limit(z) if greedy or same else None
    probs = [float(p) for p in exact] if exact else softmax(z, T)
    own = softmax(z, 1.0)
    h = math.log2(sum(p > 0 for p in exact)) if exact else entropy_bits(probs)
    top = max(probs)
    order = sorted(range(n), key=lambda i: -z[i])
    return {
        "tokens": tokens,
        "row": "eigen" if logits else row,
        "logits": z,
        "T": 0.0 if greedy else T,
        "greedy": greedy,
        "scaled": None if greedy else [v / T for v in z],
        "probs": probs,
        "probs_exact": [str(p) for p in exact] if exact else None,
        "model_probs": own,
        "uniform": 1 / n,
        "equal": same,  # all logits equal: exactly 1/n at every T
        "n": n,
        "entropy": h,
        "max_entropy": math.log2(n),
        "perplexity": 2 ** h,
        "top_tokens": [t for t, p in zip(tokens, probs) if p == top],
        "top_prob": top,
        "low_prob": min(probs),
        # the order of the probabilities is the order of the logits, at every T > 0
        "order": [tokens[i] for i in order],
        "order_kept": all(probs[a] >= probs[b] for a, b in itertools.pairwise(order)),
        "curves": [[t, softmax(z, t)] for t in temperatures()],
    }



# -- what the page shows --------------------------------------------------------------------------

def _p(value: float, digits: int = 2) -> str:
    """A rounded probability with its „≈“ (a softmax is irrational); 0 and 1 only where they are exact."""
    return fmt.APPROX + fmt.de(value, digits)


def _prob_text(r: dict, i: int, digits: int = 2) -> str:
    if r["probs_exact"]:
        return fmt.exact(Fraction(r["probs_exact"][i]), 3, digits, fraction=True)
    return _p(r["probs"][i], digits)


def _log2(m: int, exact: bool) -> str:
    """log₂ m in Bit as the page shows it: exact only where m is a power of two and the value exact."""
    return fmt.de(math.log2(m), 0) if exact and m & (m - 1) == 0 else fmt.APPROX + fmt.de(math.log2(m), 2)


def _bits(r: dict) -> str:
    """The entropy in Bit: exact for exact probabilities (then log₂ of how many share everything)."""
    if r["probs_exact"]:
        return _log2(sum(Fraction(p) > 0 for p in r["probs_exact"]), True)
    return fmt.APPROX + fmt.de(r["entropy"], 2)


def _equally_good(r: dict) -> str:
    """2^H: a whole number where the probabilities are exact, else rounded with „≈“."""
    if r["probs_exact"]:
        return fmt.de(sum(Fraction(p) > 0 for p in r["probs_exact"]))
    return fmt.APPROX + fmt.de(r["perplexity"], 2, trim=True)


def _certain(r: dict) -> bool:
    """One token gets exactly everything: „zwischen 1 gleich guten Tokens“ would be no choice at all."""
    return bool(r["probs_exact"]) and sum(Fraction(p) > 0 for p in r["probs_exact"]) == 1


def _listed(items: list[str]) -> str:
    return " und ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def _key_sentence(r: dict) -> str:
    """The sentence under the figure: what T does to the logits, who gets how much, how unsure that is."""
    tokens, z = r["tokens"], r["logits"]
    lead = "Eigene Logits: " if r["row"] == "eigen" else ""
    unsure = (f"Entropie {_bits(r)} Bit: gar nicht unsicher, ein Token bekommt alles." if _certain(r) else
              f"Entropie {_bits(r)} Bit: so unsicher wie zwischen {_equally_good(r)} gleich guten Tokens.")
    if r["equal"]:
        both = "Beide" if r["n"] == 2 else f"Alle {r['n']}"
        return (f"{lead}{both} Logits sind gleich ({fmt.de_auto(z[0])}): Bei jedem T bekommt jedes Token genau "
                f"{fmt.ratio(Fraction(1, r['n']))} – gleich verteilt. {unsure}")
    if r["greedy"]:
        winners = r["top_tokens"]
        if len(winners) == 1:
            return (f"{lead}T = 0: {winners[0]} hat das größte Logit ({fmt.de_auto(max(z))}) und bekommt alles, "
                    f"die anderen 0 – das ist Greedy. {unsure}")
        return (f"{lead}T = 0: {_listed(winners)} teilen sich das größte Logit ({fmt.de_auto(max(z))}) und "
                f"bekommen je {fmt.ratio(Fraction(1, len(winners)))}, die anderen 0. {unsure}")
    first, last = r["order"][0], r["order"][-1]
    i, j = tokens.index(first), tokens.index(last)
    T = r["T"]
    if math.isclose(T, 1.0):
        how = "T = 1 lässt die Logits, wie sie sind: Das ist die eigene Verteilung des Modells."
    else:
        how = (f"T = {fmt.de_auto(T)} teilt jedes Logit durch {fmt.de_auto(T)}: "
               + (f"{first} wird von {fmt.de_auto(z[i])} zu {fmt.de_auto(r['scaled'][i])}, die Verteilung "
                  + ("steiler als bei T = 1." if T < 1 else "flacher als bei T = 1.")))
    spread = r["top_prob"] - r["low_prob"]
    if spread < 0.01:
        gets = f"Alle {r['n']} Tokens bekommen fast gleich viel, {_p(r['uniform'])} – fast gleich verteilt."
    elif r["top_prob"] > 0.99:
        gets = f"{first} bekommt fast alles ({_p(r['probs'][i], 3)}) – fast wie Greedy."
    else:
        gets = f"{first} bekommt {_prob_text(r, i)}, {last} {_prob_text(r, j)}; die Reihenfolge bleibt die der Logits."
    return f"{lead}{how} {gets} {unsure}"


def view(r: dict, layout: str = WIDE) -> View:
    w = width(330, layout)
    left = _logit_panel(r, w, layout)
    right = _prob_panel(r, w, layout)
    total_w, total_h, body = svg.panels([left, right], layout)
    label = f"Links die Logits, rechts die Wahrscheinlichkeiten bei T = {fmt.de_auto(r['T'])}"
    figure = svg.figure(total_w, total_h, body, label=label, cls="pl-sm", layout=layout)
    probs = " · ".join(f"{t} {_prob_text(r, i)}" for i, t in enumerate(r["tokens"]))
    readouts = [
        Readout("probs", "Wahrscheinlichkeiten (exakt)" if r["probs_exact"] else "Wahrscheinlichkeiten (gerundet)",
                probs, r["probs"], True),
        Readout("entropy", "Entropie", f"{_bits(r)} Bit (höchstens {_log2(r['n'], True)})", r["entropy"]),
        Readout("perplexity", "So unsicher wie zwischen",
                "1 Token: gar nicht unsicher" if _certain(r) else f"{_equally_good(r)} gleich guten Tokens",
                r["perplexity"], True),
        Readout("T", "Temperatur", "0 (Greedy)" if r["greedy"] else fmt.de_auto(r["T"]), r["T"]),
        Readout("order", "Reihenfolge", " > ".join(r["order"]), r["order"]),
    ]
    return View(figure, readouts, _key_sentence(r), _curves(r, layout))


def _axis(logits) -> tuple[float, float]:
    """The logit axis: from −4 to 4 at least, wider where a logit lies outside, in whole numbers."""
    return min(-4.0, math.floor(min(logits))), max(4.0, math.ceil(max(logits)))


def _step(span: float) -> float:
    return next(s for s in (1, 2, 5, 10) if span / s <= 8)


def _logit_panel(r: dict, w: float, layout: str) -> tuple[float, float, str]:
    lo, hi = _axis(r["logits"])
    n = r["n"]
    plot = svg.Plot(w, 280, (0, n), (lo, hi), label="Logits", margin=(16, 10, 40, 44), layout=layout)
    step = _step(hi - lo)
    ticks = [v for v in range(int(lo), int(hi) + 1) if v % step == 0]
    plot.grid(xticks=[], yticks=ticks, xlabel="Logits (ziehen oder tippen)", ylabel="Logit")
    plot.hline(0, "pl-sm-zero")
    room = plot.px(1) - plot.px(0)
    for i, (token, z) in enumerate(zip(r["tokens"], r["logits"])):
        x0, x1 = plot.px(i + 0.2), plot.px(i + 0.8)
        y0, yz = plot.py(0), plot.py(z)
        attrs = drag.attrs(OWN.name, i, z, at=(plot.py(lo), plot.py(hi), lo, hi), lo=lo, hi=hi, step=DRAG_STEP,
                           label=f"Logit von {token}", valuetext=f"{token}: {fmt.de_auto(z)}", direct=True)
        plot.hits.append(drag.hit((x0 + x1) / 2, drag.target_width(room), plot.top, plot.bottom, OWN.name, i))
        plot.body.append(f'<rect class="pl-sm-logit pl-bar-handle" x="{x0:.1f}" y="{min(y0, yz):.1f}" '
                         f'width="{x1 - x0:.1f}" height="{max(abs(y0 - yz), 1.5):.1f}"{drag.markup(attrs)}/>')
        above = z >= 0
        plot.text(i + 0.5, z, fmt.de_auto(z), "pl-sm-value", "middle", dy=-5 if above else 15)
        plot.text(i + 0.5, lo, token, "pl-axis", "middle", dy=18)
    return w, 280, plot.inner()


def _prob_panel(r: dict, w: float, layout: str) -> tuple[float, float, str]:
    n = r["n"]
    # up to 1,3: the legend's two rows sit above a bar of height 1 and its number
    plot = svg.Plot(w, 280, (0, n), (0, 1.3), label="Wahrscheinlichkeiten", margin=(16, 10, 40, 58), layout=layout)
    plot.grid(xticks=[], yticks=[0, 0.25, 0.5, 0.75, 1], xlabel="Wahrscheinlichkeiten", ylabel="Wahrscheinlichkeit",
              yfmt=lambda v: fmt.de(v, 2))
    plot.hline(r["uniform"], "pl-sm-uniform")
    for i, token in enumerate(r["tokens"]):
        p, own = r["probs"][i], r["model_probs"][i]
        x0, x1 = plot.px(i + 0.2), plot.px(i + 0.8)
        plot.body.append(svg.rect(x0, plot.py(own), x1 - x0, plot.py(0) - plot.py(own), "pl-sm-own"))
        plot.body.append(svg.rect(x0 + 4, plot.py(p), x1 - x0 - 8, plot.py(0) - plot.py(p), "pl-sm-prob"))
        shown = fmt.exact(Fraction(r["probs_exact"][i])) if r["probs_exact"] else fmt.de(p, 2)
        plot.text(i + 0.5, max(p, own), shown, "pl-sm-value", "middle", dy=-5)
        plot.text(i + 0.5, 0, token, "pl-axis", "middle", dy=18)
    plot.front.append(svg.key_row([("pl-sm-prob", f"T = {fmt.de_auto(r['T'])}"), ("pl-sm-own", "T = 1 (Modell)")],
                                  plot.left + 6, plot.top + 14))
    plot.front.append(svg.key_row([("pl-sm-uniform", f"gleich verteilt: 1/{n}")], plot.left + 6, plot.top + 32,
                                  lines=("pl-sm-uniform",)))
    return w, 280, plot.inner()


def _curves(r: dict, layout: str) -> str:
    """Each token's probability over T (log axis): the lines never cross, left they go to 0 or 1, right to 1/n."""
    lo, hi = math.log10(T_MIN), math.log10(T_MAX)
    plot = svg.Plot(width(480, layout), 250, (lo, hi), (0, 1), label="Wahrscheinlichkeit jedes Tokens über T",
                    margin=(14, 30, 44, 50), layout=layout)
    ticks = [math.log10(t) for t in (0.01, 0.1, 1, 10, 100)]
    plot.grid(xticks=ticks, yticks=[0, 0.5, 1], xlabel="Temperatur T (log)", ylabel="Wahrscheinlichkeit",
              xfmt=lambda v: fmt.de_auto(10 ** v), yfmt=lambda v: fmt.de(v, 1))
    plot.hline(r["uniform"], "pl-sm-uniform")
    for i, token in enumerate(r["tokens"]):
        plot.polyline([(math.log10(t), ps[i]) for t, ps in r["curves"]], f"pl-sm-curve pl-sm-curve-{token}")
    # the names at the right end, where all lines meet near 1/n: stacked 12 px apart, in the order of the logits
    stack = len(r["tokens"]) * 12
    y = min(plot.bottom - stack + 12, max(plot.top + 12, plot.py(r["uniform"]) - stack / 2 + 10))
    for k, token in enumerate(r["order"]):
        plot.front.append(svg.text(plot.right + 6, y + 12 * k, token, f"pl-label pl-sm-curve-text-{token}"))
    if r["greedy"]:
        plot.text(lo, 1, "T = 0 liegt links außerhalb", "pl-sm-note", dx=6, dy=14)
    else:
        x = math.log10(r["T"])
        plot.line(x, 0, x, 1, "pl-sm-now")
        plot.text(x, 1, f"T = {fmt.de_auto(r['T'])}", "pl-sm-note", "middle", dy=-3)
    return plot.render()


# -- the lesson ----------------------------------------------------------------------------------

# The tasks ask for a band, not a side: „T = 0,2“ (A ≈ 0,99), „T = 2“ (≈ 3,54 gleich gute Tokens) and
# „T = 20“ (≈ 3,99) lie outside, so no preset solves one. Both are read off as the readouts round them.
SURE = (0.9, 0.95)  # A's probability
UNSURE = (3.7, 3.9)  # equally good tokens, of four
TIE = 3  # tokens that share everything at T = 0: no row has three equal logits, the reader types them


def _within(value: float, band: tuple[float, float]) -> bool:
    return band[0] <= round(value, 2) <= band[1]


def _example_state(result) -> bool:
    return result["row"] == "beispiel" and not result["greedy"]


def _shifted(result) -> bool:
    """Own logits that are the example's plus one and the same number c ≠ 0."""
    z = result["logits"]
    if result["row"] != "eigen" or len(z) != len(EXAMPLE):
        return False
    shifts = [a - b for a, b in zip(z, EXAMPLE)]
    return abs(shifts[0]) > 1e-9 and all(math.isclose(s, shifts[0], abs_tol=1e-9) for s in shifts)


LESSON = Lesson(
    prediction=Prediction(
        question="Du addierst zu jedem Logit des Beispiels 10: aus 2, 1, 0,5 und −1 wird 12, 11, 10,5 und 9. "
                 "Was passiert mit den Wahrscheinlichkeiten?",
        choices=("A bekommt noch mehr", "Nichts, sie bleiben gleich", "Sie werden fast gleich"),
        answer=1,
        shown=lambda params, result: result["row"] == "verschoben" and not result["greedy"],
        explain="Jedes e^z wird mit demselben Faktor e^10 malgenommen. Beim Teilen durch die Summe kürzt er sich weg.",
        example={"row": "verschoben"},
        why_not=("Größere Zahlen klingen nach mehr. Es zählen aber nur die Abstände zwischen den Logits, "
                 "und die bleiben gleich.",
                 "",
                 "Das passiert, wenn du die Logits durch eine große Zahl teilst (hohe Temperatur). "
                 "Addieren ändert die Abstände nicht."),
    ),
    tasks=(
        Task("sure", f"Stelle die Temperatur beim Beispiel so ein, dass A zwischen {fmt.de(SURE[0], 1)} und "
                     f"{fmt.de(SURE[1], 2)} bekommt. T = 0 gilt nicht.",
             solved=lambda params, result: _example_state(result) and _within(result["probs"][0], SURE),
             explain="Eine kleine Temperatur macht die Abstände der Logits größer. Dann zieht das größte davon, "
                     "und je kälter, desto mehr.",
             example={"T": 0.363},
             hints=("Schaue auf die Wahrscheinlichkeit von A unter dem Bild.",
                    "Soll die Verteilung steiler oder flacher werden?",
                    "Schiebe den Regler „Temperatur T“ nach links, unter 1, und dann in kleinen Schritten."),
             near=Near(lambda params, result: _example_state(result) and 0.8 <= round(result["probs"][0], 2) < SURE[0],
                       "Fast: A liegt schon über 0,8. Noch ein Stück kälter.", {"T": 0.501})),
        Task("unsure", f"Mache das Beispiel mit der Temperatur so unsicher wie eine Wahl unter {fmt.de(UNSURE[0], 1)} "
                       f"bis {fmt.de(UNSURE[1], 1)} gleich guten Tokens.",
             solved=lambda params, result: _example_state(result) and _within(result["perplexity"], UNSURE),
             explain="Eine hohe Temperatur drückt alle Logits zur 0. Dann werden die vier Tokens fast gleich "
                     "wahrscheinlich, und die Unsicherheit nähert sich der einer Wahl unter vier.",
             example={"T": 3.16},
             hints=("Schaue auf „So unsicher wie zwischen“.",
                    "Mehr als vier gleich gute Tokens gibt es hier nicht. Wann sind alle vier fast gleich?",
                    "Schiebe den Regler „Temperatur T“ nach rechts, über 2, und dann in kleinen Schritten."),
             near=Near(lambda params, result: _example_state(result) and 3.0 <= round(result["perplexity"], 2) < UNSURE[0],
                       "Fast: schon über 3 gleich gute Tokens. Noch etwas heißer.", {"T": 1.58})),
        Task("tie", "Finde Logits, bei denen bei T = 0 drei Tokens je genau ein Drittel bekommen.",
             solved=lambda params, result: result["greedy"] and len(result["top_tokens"]) == TIE,
             explain="Greedy hat bei einem Gleichstand keinen Sieger. Im Grenzwert teilen sich die gleich großen "
                     "Logits alles zu gleichen Teilen.",
             example={"logits": (2.0, 2.0, 2.0, -1.0), "greedy": True},
             hints=("Bei T = 0 bekommt das größte Logit alles. Was, wenn es mehrere größte gibt?",
                    "Tippe eigene Logits in das Feld, drei davon gleich groß und am größten.",
                    "Schalte dann „T = 0 (Grenzfall Greedy)“ ein: Erst im Grenzfall bekommen sie genau ein Drittel."),
             near=Near(lambda params, result: result["greedy"] and len(result["top_tokens"]) == TIE - 1,
                       "Fast: Zwei Tokens teilen sich schon alles. Es sollen drei sein.",
                       {"row": "gleichstand", "greedy": True})),
        Task("shift", "Tippe eigene Logits: die vier des Beispiels, jedes um dieselbe Zahl größer oder kleiner.",
             solved=lambda params, result: _shifted(result),
             explain="Die Wahrscheinlichkeiten bleiben gleich. Nur die Abstände der Logits zählen.",
             example={"logits": (3.0, 2.0, 1.5, 0.0)},
             hints=("Das Beispiel ist 2; 1; 0,5; −1.",
                    "Addiere zu jeder Zahl zum Beispiel 1.",
                    "Tippe die vier neuen Zahlen in „Eigene Logits“, mit Semikolon getrennt."),
             near=None),
    ),
    discussion=(
        "Ein Chatbot soll Fakten nennen, ein anderer Gedichte schreiben. Welche Temperatur gibst du welchem?",
        "Warum ändert die Temperatur nie, welches Token am wahrscheinlichsten ist?",
    ),
    teacher=(
        "Für Fakten eine kleine Temperatur: Das Modell bleibt bei seinen sichersten Tokens. Für Gedichte eine "
        "größere: Seltene Wörter kommen öfter dran, mit dem Risiko von Unsinn.",
        "Teilen durch eine positive Zahl erhält die Reihenfolge der Logits, und e^x wächst mit x. "
        "Deshalb bleibt die Reihenfolge bei jedem T > 0; nur die Abstände ändern sich.",
    ),
    misconceptions=(
        "„Die Temperatur macht das Modell klüger oder dümmer.“ – Nein, sie ändert nur, wie spitz die "
        "Verteilung ist. Das Wissen steckt in den Logits.",
        "„Ein Logit von 12 heißt eine große Wahrscheinlichkeit.“ – Nur die Abstände zählen: 12, 11, 10,5, 9 "
        "gibt dasselbe wie 2, 1, 0,5, −1.",
    ),
)
