"""Top-k sampling: filter to the k best tokens, renormalise exactly, then really draw.

The article's example (CONCEPTS.md §28): A 0.5, B 0.3, the others 0.2 together; at k = 2
A and B remain, divided by 0.8: 0.625 and 0.375. The split of the remaining 0.2 was lost with
the article's table (D6); this page uses the catalogue's proposal C 0.12, D 0.08 (no ties, as the
article's table had none). Three more rows of our own show what a fixed k does on a steep and on
a flat distribution, and what happens on a tie at the boundary.

Filter rule as in Hugging Face Transformers' ``TopKLogitsWarper``: a token is removed if its score
is *strictly below* the k-th largest score (``scores < topk(scores, k)[0][..., -1]``), so every token
that ties with the k-th is kept and more than k tokens can survive. Removed tokens get the logit
−∞, which after the softmax is the same as dividing the kept probabilities by their sum.

Draws: ``random.Random(seed)``; draw i takes u = random() and the first kept token whose
cumulative renormalised chance exceeds u (``bisect_right``). The exact chances are fractions;
only the comparison with u is in floating point.

An own distribution (2–8 chances the reader types, kit/distribution.py) takes the place of the chosen
row; its tokens are A, B, … in the order typed, its decimals exact fractions. A k larger than the
number of tokens keeps them all.
"""

from __future__ import annotations

import itertools
import math
import random
from bisect import bisect_right
from fractions import Fraction

from ..kit import distribution, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "top-k-sampling"
TITLE = "Top-k-Sampling"
GROUP = "Decodieren und Sampling"
TEASER = "Nur die k besten Tokens dürfen gezogen werden – unterschiedlich wahrscheinlich."

TOKENS = ("A", "B", "C", "D")
F = Fraction
ROWS = {
    "artikel": (F("0.5"), F("0.3"), F("0.12"), F("0.08")),
    "steil": (F("0.9"), F("0.05"), F("0.03"), F("0.02")),
    "flach": (F("0.28"), F("0.26"), F("0.24"), F("0.22")),
    "gleichstand": (F("0.35"), F("0.35"), F("0.15"), F("0.15")),
}
ROW_CHOICES = (
    ("artikel", "Beispiel: 0,5 / 0,3 / 0,12 / 0,08"),
    ("steil", "steil: 0,9 / 0,05 / 0,03 / 0,02"),
    ("flach", "flach: 0,28 / 0,26 / 0,24 / 0,22"),
    ("gleichstand", "Gleichstand: 0,35 / 0,35 / 0,15 / 0,15"),
)
DRAWS = (10, 100, 1000, 10000)

OWN = distribution.own(help="Statt der gewählten Verteilung: 2 bis 8 Wahrscheinlichkeiten, mit Semikolon getrennt. Ergeben "
                       "sie nicht 1, wird durch ihre Summe geteilt. Leer: die Auswahl oben. Die Balken "
                       "einer eigenen Verteilung lassen sich im Bild ziehen.")

PARAMS = (
    Param("k", "k (Zahl der Kandidaten)", "int", 2, lo=1, hi=len(distribution.LETTERS), step=1,
          help="Tokens unterhalb des k-ten Werts fallen weg; Gleichstände an der Grenze bleiben."),
    Param("row", "Verteilung", "choice", "artikel", choices=ROW_CHOICES, widget="select",
          help="Die Wahrscheinlichkeiten des Modells für das nächste Token."),
    Param("n", "Züge", "choice", 1000, choices=tuple((n, fmt.de(n)) for n in DRAWS),
          help="Wie oft aus der gefilterten Verteilung gezogen wird."),
    Param("seed", "Neu ziehen", "seed", 1, help="Neue Zufallszahlen; der Link merkt sich die Ziehung."),
    OWN,
)

PRESETS = (
    Preset("Beispiel: k = 2", {}, "A und B bleiben: 0,625 und 0,375."),
    Preset("k = 1 (wie Greedy)", {"k": 1}, "Nur A bleibt – jeder Zug ist A."),
    Preset("k = 3", {"k": 3}),
    Preset("Flache Verteilung", {"row": "flach"}, "Zwei Kandidaten decken nur gut die Hälfte ab."),
    Preset("Gleichstand an der Grenze", {"row": "gleichstand", "k": 1},
           "k = 1, aber zwei Tokens teilen sich den höchsten Wert."),
)


def top_k(probs, k: int) -> list[bool]:
    """Which tokens survive: all whose value is not strictly below the k-th largest (Transformers' rule)."""
    k = max(1, min(k, len(probs)))
    kth = sorted(probs, reverse=True)[k - 1]
    return [p >= kth for p in probs]


def renormalise(probs, kept) -> list[Fraction]:
    mass = sum(p for p, keep in zip(probs, kept) if keep)
    return [p / mass if keep else Fraction(0) for p, keep in zip(probs, kept)]


def draw(chances, n: int, seed: int) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """n draws from the exact chances; the counts and running counts at checkpoints for the chart."""
    cum, total = [], Fraction(0)
    for c in chances:
        total += c
        cum.append(float(total))
    cum[-1] = 1.0 if total == 1 else cum[-1]
    last = max(i for i, c in enumerate(chances) if c > 0)
    rng = random.Random(seed)
    counts = [0] * len(chances)
    marks = sorted({max(1, round(n ** (j / 40))) for j in range(41)})
    running, m = [], 0
    for i in range(1, n + 1):
        idx = min(bisect_right(cum, rng.random()), last)
        counts[idx] += 1
        if i == marks[m]:
            running.append((i, counts[:]))
            m += 1
    return counts, running


def compute(k: int = 2, row: str = "artikel", n: int = 1000, seed: int = 1, dist: tuple = ()) -> dict:
    probs = distribution.shares(dist) if dist else ROWS[row]
    tokens = distribution.names(len(probs))
    kept = top_k(probs, k)
    chances = renormalise(probs, kept)
    mass = sum(p for p, keep in zip(probs, kept) if keep)
    counts, running = draw(chances, n, seed)
    shares = [c / n for c in counts]
    kth = sorted(probs, reverse=True)[min(k, len(probs)) - 1]
    common = math.lcm(*(c.denominator for c in chances))
    return {
        "k": k,
        "row": "eigen" if dist else row,
        "tokens": list(tokens),
        "n": n,
        "seed": seed,
        "probs": [float(p) for p in probs],
        "probs_exact": [str(p) for p in probs],
        "kept": kept,
        "kept_tokens": [t for t, keep in zip(tokens, kept) if keep],
        "n_kept": sum(kept),
        "kth_value": float(kth),
        "tie_extra": max(0, sum(kept) - k),
        "mass": float(mass),
        "mass_exact": str(mass),
        "chances": [float(c) for c in chances],
        "chances_exact": [str(c) for c in chances],
        "chances_den": common,
        "chances_num": [int(c * common) for c in chances],
        "counts": counts,
        "shares": shares,
        "max_dev": max(abs(s - float(c)) for s, c in zip(shares, chances)),
        "cut_mass": float(1 - mass),
        # standard deviation of the drawn share of the top token: √(c(1 − c)/n)
        "sd_top": math.sqrt(float(chances[0] * (1 - chances[0])) / n),
        "running": [[i, c] for i, c in running],
    }


# -- what the page shows -----------------------------------------------------------------

def _listed(items: list[str]) -> str:
    return " und ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def _key_sentence(r: dict, tokens: list[str], chances: list[Fraction]) -> str:
    """The sentence under the bars: what k keeps, what the division by the kept mass makes of it
    (the ratio stays; k = 1 is greedy; a k as large as the list changes nothing) and what was drawn."""
    kept, n = r["kept_tokens"], fmt.de(r["n"])
    after = _listed([f"{t} {fmt.exact(chances[tokens.index(t)], 6, 3)}" for t in kept])
    drawn = ", ".join(f"{t} {fmt.de(r['counts'][tokens.index(t)])}-mal" for t in kept)
    lead = "Eigene Verteilung: " if r["row"] == "eigen" else ""
    tie = " wegen Gleichstands an der Grenze" if r["tie_extra"] else ""
    if len(kept) == len(tokens):
        return (f"{lead}k = {r['k']} behält{tie} alle {len(tokens)} Tokens, nichts wird gestrichen: Die "
                f"Wahrscheinlichkeiten bleiben {after}. Gezogen in {n} Zügen: {drawn}.")
    if len(kept) == 1:
        return (f"{lead}k = {r['k']} behält nur {kept[0]} ({fmt.exact(Fraction(r['mass_exact']))}). Danach hat {kept[0]} "
                f"die Wahrscheinlichkeit 1, und jeder der {n} Züge ergibt {kept[0]} – wie bei Greedy.")
    tie += f" {len(kept)} Tokens statt {r['k']}:" if tie else ""
    return (f"{lead}k = {r['k']} behält{tie} {_listed(kept)}, zusammen {fmt.exact(Fraction(r['mass_exact']))}. "
            f"Geteilt durch diese Summe werden daraus {after}; ihr Verhältnis bleibt. "
            f"Gezogen in {n} Zügen: {drawn}.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width, each token's probability before under its "vorher"
    # (with many tokens, the numbers under and above the bars in two staggered rows)
    narrow = layout == NARROW
    probs = [Fraction(p) for p in r["probs_exact"]]
    chances = [Fraction(c) for c in r["chances_exact"]]
    tokens = r["tokens"]
    crowded = len(tokens) > 4  # up to eight bars of an own distribution: shorter labels under each
    plot = svg.Plot(width(440, layout), 300 + (14 if narrow else 0), (0, len(tokens)), (0, 1.08),
                    label=f"Top-k mit k = {r['k']}: vorher, exakt danach, gezogen",
                    margin=(16, 12, 58 if narrow else 44, 46), layout=layout)
    plot.grid(xticks=[], yticks=[0, 0.25, 0.5, 0.75, 1], xlabel="", ylabel="Wahrscheinlichkeit",
              yfmt=lambda v: fmt.de(v, 2))
    bars = []
    own = r["row"] == "eigen"
    for i, token in enumerate(tokens):
        left = i + 0.12
        # the model's probability before filtering: a dashed outline behind both bars; the reader's
        # own distribution can be dragged there
        if own:
            target, handle = distribution.bar(
                OWN, i, r["probs"][i], x=plot.px(left), width=plot.px(i + 0.88) - plot.px(left), top=plot.py(1),
                bottom=plot.py(0), cls="pl-dec-before", room=plot.px(1) - plot.px(0))
            plot.hits.append(target)
            bars.append(handle)
        else:
            bars.append(_rect(plot, left, i + 0.88, 0, float(probs[i]), "pl-dec-before"))
        if r["kept"][i]:
            bars.append(_rect(plot, i + 0.2, i + 0.49, 0, float(chances[i]), "pl-dec-exact"))
            bars.append(_rect(plot, i + 0.51, i + 0.8, 0, r["shares"][i], "pl-dec-drawn"))
            plot.text(i + 0.345, float(chances[i]) + 0.015, fmt.exact(chances[i], 3, 3).replace(fmt.APPROX, ""),
                      "pl-dec-value", "middle", dy=-2 - (14 * (i % 2) if narrow and crowded else 0))
            plot.text(i + 0.5, -0.02, token, "pl-axis", "middle", dy=16)
        else:
            plot.text(i + 0.5, -0.02, token, "pl-axis pl-dec-out-text", "middle", dy=16)
            plot.text(i + 0.5, float(probs[i]) + 0.03, "weg" if crowded else "gestrichen", "pl-dec-out-text", "middle")
        if crowded:  # a narrow figure staggers the numbers in two rows: neighbours would touch
            plot.text(i + 0.5, -0.02, fmt.exact(probs[i]), "pl-dec-out-text", "middle", dy=32 + (14 * (i % 2) if narrow else 0))
        elif narrow:
            plot.text(i + 0.5, -0.02, "vorher", "pl-dec-out-text", "middle", dy=32)
            plot.text(i + 0.5, -0.02, fmt.exact(probs[i]), "pl-dec-out-text", "middle", dy=46)
        else:
            plot.text(i + 0.5, -0.02, f"vorher {fmt.exact(probs[i])}", "pl-dec-out-text", "middle", dy=32)
    plot.body.extend(bars)
    plot.front.append(svg.swatch_legend([("pl-dec-before", "vorher (Modell)"), ("pl-dec-exact", "nach Top-k, exakt"),
                                     ("pl-dec-drawn", f"gezogen ({fmt.de(r['n'])}-mal)")],
                                    plot.right - 170, plot.top + 8, 172))
    figure = plot.render()

    kept_text = ", ".join(r["kept_tokens"])
    fr = fmt.over_common([c for c, keep in zip(chances, r["kept"]) if keep])
    readouts = [
        Readout("kept", "Behalten", kept_text + (f" (Gleichstand: {r['n_kept']} statt {r['k']})" if r["tie_extra"] else ""),
                r["kept_tokens"], True),
        Readout("mass", "Summe vor dem Umrechnen", fmt.exact(Fraction(r["mass_exact"])), r["mass"]),
        Readout("chances", "Wahrscheinlichkeiten danach (exakt)", " · ".join(f"{t} {f}" for t, f in zip(r["kept_tokens"], fr)),
                r["chances"], True),
        Readout("top_drawn", f"A gezogen (von {fmt.de(r['n'])})", f"{fmt.de(r['counts'][0])}-mal = {fmt.de(r['shares'][0], 3)}",
                r["shares"][0]),
        Readout("max_dev", "Größte Abweichung gezogen − exakt", fmt.de(r["max_dev"], 3), r["max_dev"]),
    ]
    summary = _key_sentence(r, tokens, chances)
    return View(figure, readouts, summary, _convergence(r, layout) + _table(r))


def _rect(plot, x0, x1, y0, y1, cls) -> str:
    left, right = plot.px(x0), plot.px(x1)
    top, bottom = plot.py(max(y0, y1)), plot.py(min(y0, y1))
    return svg.rect(left, top, right - left, bottom - top, cls)


def _convergence(r: dict, layout: str) -> str:
    """Running share of each kept token against the number of draws (log axis), exact chance dashed."""
    n = r["n"]
    hi = max(1.0, math.log10(n))
    plot = svg.Plot(320, 230, (0, hi), (0, 1), label="Anteil der Züge nach und nach", margin=(12, 28, 44, 46),
                    layout=layout)
    ticks = list(range(int(hi) + 1))
    plot.grid(xticks=ticks, yticks=[0, 0.5, 1], xlabel="Zahl der Züge (log)", ylabel="Anteil",
              xfmt=lambda v: fmt.de(10 ** int(v)), yfmt=lambda v: fmt.de(v, 1))
    ends = []
    for j, token in enumerate(r["tokens"]):
        if not r["kept"][j]:
            continue
        exact = r["chances"][j]
        plot.line(0, exact, hi, exact, f"pl-dec-run-{token} pl-dec-exact-line")
        pts = [(math.log10(i), counts[j] / i) for i, counts in r["running"]]
        plot.polyline(pts, f"pl-dec-run-{token}")
        ends.append([plot.py(pts[-1][1]) + 4, token])
    # token names at the right end, pushed apart where the lines end close together
    ends.sort()
    for a, b in itertools.pairwise(ends):
        b[0] = max(b[0], a[0] + 12)
    if ends and ends[-1][0] > plot.bottom + 4:  # pushed below the frame: shift the stack back up
        ends[-1][0] = plot.bottom + 4
        for a, b in zip(reversed(ends[:-1]), reversed(ends[1:])):
            a[0] = min(a[0], b[0] - 12)
    for y, token in ends:
        plot.front.append(f'<text class="pl-label pl-dec-run-text-{token}" x="{plot.right + 4:.1f}" '
                          f'y="{y:.1f}">{token}</text>')
    return plot.render()


def _eq(fraction: str, decimal: str) -> str:
    return f"{fraction} ≈ {decimal[len(fmt.APPROX):]}" if decimal.startswith(fmt.APPROX) else f"{fraction} = {decimal}"


def _table(r: dict) -> str:
    probs = [Fraction(p) for p in r["probs_exact"]]
    chances = [Fraction(c) for c in r["chances_exact"]]
    fr = fmt.over_common([c for c, keep in zip(chances, r["kept"]) if keep])
    it = iter(fr)
    rows, classes = [], []
    for i, token in enumerate(r["tokens"]):
        keep = r["kept"][i]
        rows.append([token, fmt.exact(probs[i]),
                     _eq(next(it), fmt.exact(chances[i], 6, 3)) if keep else "gestrichen",
                     fmt.de(r["counts"][i]), fmt.de(r["shares"][i], 3)])
        classes.append("" if keep else "pl-dec-out")
    return table(["Token", "vorher", "nach Top-k", "gezogen", "Anteil"], rows,
                 caption=f"k = {r['k']}, {fmt.de(r['n'])} Züge", row_classes=classes, numeric=True)


# -- the lesson ----------------------------------------------------------------------------

MOST = F("0.9")  # „most of the probability“ in the tasks


def _kept_mass(row: str, k: int) -> Fraction:
    return sum(p for p, keep in zip(ROWS[row], top_k(ROWS[row], k)) if keep)


def _smallest_k_for_most(params, result) -> bool:
    row, k = result["row"], result["k"]
    return row == "flach" and _kept_mass(row, k) >= MOST and (k == 1 or _kept_mass(row, k - 1) < MOST)


def _share(row: str) -> str:
    return " / ".join(fmt.de(p, 2, trim=True) for p in ROWS[row])


LESSON = Lesson(
    prediction=Prediction(
        question=f"Du wählst die flache Verteilung ({_share('flach')}) und lässt k = 2. "
                 "Wie viel der Wahrscheinlichkeit bleibt vor dem Umrechnen übrig?",
        choices=("mehr als 0,9", "etwa 0,8", "gut die Hälfte"),
        answer=2,
        shown=lambda params, result: result["row"] == "flach" and result["k"] == 2,
        explain=f"A und B haben zusammen nur {fmt.de(_kept_mass('flach', 2), 2, trim=True)}. "
                "Bei einer flachen Verteilung deckt ein festes k wenig ab.",
        example={"row": "flach"},
        why_not=("Das gilt, wenn ein Token fast alles trägt, wie bei der steilen Verteilung. "
                 f"In der flachen Verteilung hat aber kein Token mehr als {fmt.de(max(ROWS['flach']), 2)}.",
                 f"So viel behält k = 2 bei der Beispielverteilung ({_share('artikel')}). "
                 "Die flache Verteilung teilt die Wahrscheinlichkeit fast gleich auf vier Tokens auf.",
                 ""),
    ),
    tasks=(
        Task("flat_most", f"Wähle die flache Verteilung. Finde das kleinste k, bei dem mindestens "
                          f"{fmt.de(MOST, 1)} der Wahrscheinlichkeit übrig bleibt.",
             solved=_smallest_k_for_most,
             explain="Hier braucht es alle vier Tokens. Bei der steilen Verteilung reicht schon eins: "
                     "Ein festes k passt nicht zu beiden.",
             example={"row": "flach", "k": 4},
             hints=("Schaue auf „Summe vor dem Umrechnen“.",
                    "In der flachen Verteilung trägt jedes Token nur gut ein Viertel. Wie viele brauchst du?",
                    "Wähle unter „Verteilung“ die flache und erhöhe „k (Zahl der Kandidaten)“ Schritt für Schritt."),
             near=Near(lambda params, result: (result["row"] == "flach"
                                               and MOST * F("0.8") <= Fraction(result["mass_exact"]) < MOST),
                       f"Fast: Die behaltene Wahrscheinlichkeit liegt knapp unter {fmt.de(MOST, 1)}.",
                       {"row": "flach", "k": 3})),
        Task("steep_one", f"Finde die Verteilung, bei der schon k = 1 mindestens {fmt.de(MOST, 1)} "
                          "der Wahrscheinlichkeit behält.",
             solved=lambda params, result: (result["k"] == 1 and Fraction(result["mass_exact"]) >= MOST
                                            and result["row"] != "eigen"),  # one of the rows offered
             explain="Bei der steilen Verteilung ist das Modell sich sicher: A trägt allein fast alles. "
                     "Mehr Kandidaten bringen dort kaum etwas.",
             example={"row": "steil", "k": 1},
             hints=("Bei k = 1 bleibt nur das wahrscheinlichste Token. Wie groß muss es allein sein?",
                    "So viel trägt ein Token nur, wenn das Modell sich fast sicher ist.",
                    "Stelle „k (Zahl der Kandidaten)“ auf 1 und probiere die Einträge unter „Verteilung“ durch."),
             near=Near(lambda params, result: result["row"] == "steil" and result["k"] > 1,
                       "Fast: Das ist die richtige Verteilung. Prüfe, ob auch weniger Kandidaten reichen.",
                       {"row": "steil"})),
        Task("tie_extra", "Finde einen Zustand, in dem mehr Tokens übrig bleiben, als k sagt.",
             solved=lambda params, result: result["tie_extra"] > 0,
             explain="Ein Token, das genau so wahrscheinlich ist wie das k-te, fliegt nicht raus. "
                     "Bei einem Gleichstand an der Grenze bleiben deshalb mehr als k.",
             example={"row": "gleichstand", "k": 3},
             hints=("Schaue auf „Behalten“: Dort steht es, wenn mehr als k Tokens bleiben.",
                    "Was passiert mit einem Token, das genau so wahrscheinlich ist wie das k-te?",
                    "Wähle eine Verteilung mit zwei gleich großen Werten und stelle k so, dass die Grenze zwischen sie fällt."),
             near=Near(lambda params, result: result["row"] == "gleichstand" and not result["tie_extra"],
                       "Fast: Diese Verteilung hat Gleichstände. Die Grenze bei k muss aber mitten durch einen fallen.",
                       {"row": "gleichstand"})),
    ),
    discussion=(
        "Top-p behält so viele Tokens, bis ihre Summe p erreicht. Wann ist das besser als ein festes k?",
        "Warum zieht man überhaupt zufällig, statt immer das beste Token zu nehmen?",
    ),
    teacher=(
        "Wenn die Verteilungen mal steil und mal flach sind: Top-p nimmt bei einer klaren Spitze wenige "
        "und bei Unsicherheit mehr Tokens. Ein festes k schneidet mal zu viel und mal zu wenig ab.",
        "Immer das beste Token liefert eintönige, oft sich wiederholende Texte. "
        "Zufall bringt Vielfalt, und Top-k verhindert, dass dabei sehr unwahrscheinliche Tokens gezogen werden.",
    ),
    misconceptions=(
        "„Die übrigen k Tokens werden gleich wahrscheinlich.“ – Nein, sie behalten ihr Verhältnis "
        "und werden nur durch ihre Summe geteilt.",
        "„Es bleiben immer genau k Tokens.“ – Nein, bei einem Gleichstand an der Grenze bleiben mehr.",
    ),
)
