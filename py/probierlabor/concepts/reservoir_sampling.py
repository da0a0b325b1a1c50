"""Reservoir sampling (Algorithm R) on a stream of 20 customer messages, run many times.

The example (CONCEPTS.md §6, seed 003 L111–138):

* the stream has 20 messages; 18 are about Lieferung, the 9th and the 15th are Rücksendungen;
* the memory (the reservoir) has k places, 4 in the article;
* Algorithm R (Vitter 1985, §2, after Alan Waterman): items 1…k enter without a draw; item t > k draws
  ``j = randrange(t)`` and, if j < k, replaces slot j. So item t enters with chance k/t, and after t items
  each of them is in memory with chance k/t;
* one „Start“ runs the stream ``runs`` times (2000 in the article) with ``random.Random(seed)`` and counts,
  per position, how often it is in memory at the end, and how often no return message is.

Exact values (fractions): every bar k/20; no return kept C(18, k)/C(20, k) = 3060/4845 for k = 4.
The measured values differ from start to start by the binomial spread √(p(1 − p)/runs): 0.89 percentage
points per bar and 1.08 for the 63 % figure at 2000 runs (CONCEPTS.md D1), not „a fraction of a percent“.
The comparison strategies „die ersten vier“ and „die letzten vier“ are deterministic.

The reader may choose an own stream length n (5 to 40) and own positions of the Rücksendungen (1 to 6
different positions, Param kind ``values``). Positions behind the end of the stream do not count, and
a memory larger than the stream keeps everything; the summary says both. The exact values then are
k/n per bar and C(R, m)·C(n − R, k − m)/C(n, k) for m of the R returns kept.
"""

from __future__ import annotations

import functools
import math
import random
from fractions import Fraction
from functools import lru_cache
from html import escape
from statistics import median

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task, unless_own

SLUG = "reservoir-sampling"
TITLE = "Reservoir Sampling"
GROUP = "Lernen und Bewerten"
TEASER = "Vier Plätze, ein Strom unbekannter Länge: Jede Nachricht ist gleich wahrscheinlich dabei – jede Kategorie nicht."

N = 20                     # messages in the stream
RETURNS = (9, 15)          # positions (1-based) of the two Rücksendungen
K_ARTICLE = 4
RUNS_ARTICLE = 2000
DEFAULT_SEED = 2024

STRATEGIES = (("reservoir", "Reservoir Sampling"), ("first", "die ersten k behalten"), ("last", "die letzten k behalten"))
WORDS = ("null", "eine", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn")
RUN_CHOICES = ((200, "200"), (500, "500"), (2000, "2000"))

PARAMS = (
    Param("k", "Plätze im Speicher k", "int", K_ARTICLE, lo=1, hi=10, step=1,
          help="Wie viele Nachrichten der Speicher fasst (im Beispiel 4)."),
    Param("strategy", "Verfahren", "choice", "reservoir", choices=STRATEGIES,
          help="„Die ersten“ und „die letzten“ behalten immer dieselben Positionen; k ist die Zahl der Plätze."),
    Param("runs", "Durchläufe je Start", "choice", RUNS_ARTICLE, choices=RUN_CHOICES,
          help="Wie oft der Strom bei einem Start durchläuft (im Beispiel 2000)."),
    Param("seed", "Start", "seed", DEFAULT_SEED,
          help="Neue, echte Auslosungen."),
    Param("n", "Länge des Stroms", "int", N, lo=5, hi=40, step=1,
          help="Wie viele Nachrichten nacheinander kommen (im Beispiel 20)."),
    Param("returns", "Positionen der Rücksendungen", "values", RETURNS, lo=1, hi=40, count=(1, 6), whole=True,
          help="1 bis 6 Positionen, mit Semikolon getrennt (im Beispiel 9; 15). "
               "Positionen hinter dem Ende des Stroms zählen nicht."),
)

PRESETS = (
    Preset("Reservoir", {"strategy": "reservoir"}, "Algorithm R mit vier Plätzen, 2000 Durchläufe."),
    Preset("Die ersten vier", {"strategy": "first"}, "Nur der Anfang des Stroms bleibt."),
    Preset("Die letzten vier", {"strategy": "last"}, "Nur das Ende des Stroms bleibt."),
    Preset("Nur 200 Durchläufe", {"strategy": "reservoir", "runs": 200},
           "Weniger Durchläufe: Die Balken schwanken stärker."),
    Preset("Acht Plätze", {"strategy": "reservoir", "k": 8}, "Ein größerer Speicher verliert seltener beide Rücksendungen."),
)


# -- exact values ----------------------------------------------------------------

def entry_chance(t: int, k: int = K_ARTICLE) -> Fraction:
    """Probability that item t gets into memory when it arrives."""
    return Fraction(1) if t <= k else Fraction(k, t)


def stay_chance(t: int, k: int = K_ARTICLE) -> Fraction:
    """Probability that an item already in memory survives the arrival of item t: 1 − (k/t)·(1/k)."""
    return Fraction(1) if t <= k else 1 - entry_chance(t, k) * Fraction(1, k)


def inclusion(i: int, t: int, k: int = K_ARTICLE) -> Fraction:
    """Probability that item i is in memory after t items, as the product of entering and surviving."""
    p = entry_chance(i, k)
    for s in range(i + 1, t + 1):
        p *= stay_chance(s, k)
    return p


def inclusions(n: int, k: int = K_ARTICLE) -> list[Fraction]:
    """inclusion(i, n, k) for i = 1…n in one pass from the end: the survival products share their
    tails, so the page's bars cost n products instead of n²/2 (a long own stream on the slider path)."""
    survive, out = Fraction(1), []
    for i in range(n, 0, -1):
        out.append(entry_chance(i, k) * survive)
        survive *= stay_chance(i, k)
    return out[::-1]


def exact(strategy: str, k: int, n: int = N, returns=RETURNS) -> dict:
    """Exact bar heights and the exact distribution of how many returns stay (k ≤ n)."""
    if strategy == "reservoir":
        bars = inclusions(n, k)
        total = math.comb(n, k)
        others = n - len(returns)
        counts = [math.comb(len(returns), m) * math.comb(others, k - m) if k >= m else 0
                  for m in range(len(returns) + 1)]
        return {"bars": bars, "kept_num": counts, "den": total}
    kept = set(range(1, k + 1)) if strategy == "first" else set(range(n - k + 1, n + 1))
    bars = [Fraction(1) if i in kept else Fraction(0) for i in range(1, n + 1)]
    m = sum(1 for r in returns if r in kept)
    return {"bars": bars, "kept_num": [1 if j == m else 0 for j in range(len(returns) + 1)], "den": 1}


# -- the simulation ----------------------------------------------------------------

def one_pass(rng: random.Random, k: int, n: int = N) -> list[int]:
    """Algorithm R over positions 1…n; returns the positions in memory."""
    slot = list(range(1, k + 1))
    for t in range(k + 1, n + 1):
        j = rng.randrange(t)
        if j < k:
            slot[j] = t
    return slot


@lru_cache(maxsize=128)
def simulate(k: int, runs: int, seed: int, n: int = N,
             returns: tuple[int, ...] = RETURNS) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(count per position, count of runs keeping 0, 1, … returns, last run's memory); k ≤ n."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    # randrange(t) is getrandbits(t.bit_length()), drawn again while ≥ t (CPython's _randbelow);
    # written out here, it gives the very same numbers as one_pass, a good deal faster in the browser.
    steps = [(t, t.bit_length()) for t in range(k + 1, n + 1)]
    counts = [0] * (n + 1)
    kept = [0] * (len(returns) + 1)
    pair = len(returns) == 2  # the article's case, counted without a loop: this runs in the browser
    a, b = returns if pair else (0, 0)
    slot: list[int] = []
    for _ in range(runs):
        slot = list(range(1, k + 1))
        for t, length in steps:  # one_pass, inlined
            j = bits(length)
            while j >= t:
                j = bits(length)
            if j < k:
                slot[j] = t
        for s in slot:
            counts[s] += 1
        kept[(a in slot) + (b in slot) if pair else sum([r in slot for r in returns])] += 1
    return tuple(counts[1:]), tuple(kept), tuple(sorted(slot))


def compute(k: int = K_ARTICLE, strategy: str = "reservoir", runs: int = RUNS_ARTICLE, seed: int = DEFAULT_SEED,
            n: int = N, returns: tuple = RETURNS) -> dict:
    asked = k
    k = min(k, n)  # a memory larger than the stream keeps everything
    inside = tuple(sorted(r for r in returns if r <= n))
    ex = exact(strategy, k, n, inside)
    if strategy == "reservoir":
        counts, kept, last = simulate(k, runs, seed, n, inside)
    else:
        counts = tuple(runs * int(b) for b in ex["bars"])
        kept = tuple(runs * n for n in ex["kept_num"])
        last = tuple(i + 1 for i, b in enumerate(ex["bars"]) if b)
    bars = [c / runs for c in counts]
    p_bar = Fraction(k, n)
    p_none = Fraction(ex["kept_num"][0], ex["den"])
    random_ = strategy == "reservoir"
    sd_bar = math.sqrt(float(p_bar * (1 - p_bar)) / runs) if random_ else 0.0
    sd_none = math.sqrt(float(p_none * (1 - p_none)) / runs) if random_ else 0.0
    deviations = [abs(b - float(e)) for b, e in zip(bars, ex["bars"])]
    return {
        "k": k,
        "k_asked": asked,
        "n": n,
        "returns": list(inside),
        "returns_outside": sorted(r for r in returns if r > n),
        "own": n != N or tuple(sorted(returns)) != RETURNS,
        "strategy": strategy,
        "runs": runs,
        "seed": seed,
        "bars": bars,
        "exact_bars": [float(e) for e in ex["bars"]],
        "exact_bar": float(p_bar) if random_ else None,
        "kept_counts": list(kept),
        "kept_share": [c / runs for c in kept],
        "none": kept[0] / runs,
        "exact_none": float(p_none),
        "exact_none_num": ex["kept_num"][0],
        "exact_den": ex["den"],
        "exact_kept": [n / ex["den"] for n in ex["kept_num"]],
        "exact_kept_num": list(ex["kept_num"]),
        "sd_bar": sd_bar,
        "sd_bar_pp": 100 * sd_bar,
        "sd_none_pp": 100 * sd_none,
        "max_dev_pp": 100 * max(deviations),
        "median_dev_pp": 100 * median(deviations),
        "none_dev_pp": 100 * abs(kept[0] / runs - float(p_none)),
        "last_memory": list(last),
        # the same shares in percent, for the page prose
        "none_pct": 100 * kept[0] / runs,
        "exact_none_pct": 100 * float(p_none),
        "exact_bar_pct": 100 * float(p_bar),
        "exact_kept_pct": [100 * n / ex["den"] for n in ex["kept_num"]],
        "bars_pct": [100 * b for b in bars],
    }


@lru_cache(maxsize=8)
def spread_study(starts: int = 100, k: int = K_ARTICLE, runs: int = RUNS_ARTICLE, first_seed: int = 1) -> dict:
    """What many starts show (CONCEPTS.md D1): the real run-to-run spread, measured, not just the formula."""
    bar_values, none_values, max_devs, median_devs = [], [], [], []
    for s in range(first_seed, first_seed + starts):
        r = compute(k, "reservoir", runs, s)
        bar_values.extend(r["bars"])
        none_values.append(r["none"])
        max_devs.append(r["max_dev_pp"])
        median_devs.append(r["median_dev_pp"])
    p = k / N

    def sd(values, centre):
        return 100 * math.sqrt(sum((v - centre) ** 2 for v in values) / len(values))

    return {
        "starts": starts,
        "sd_bar_pp": sd(bar_values, p),
        "sd_none_pp": sd(none_values, math.comb(N - 2, k) / math.comb(N, k)),
        "median_max_dev_pp": median(max_devs),
        "median_median_dev_pp": median(median_devs),
        "share_starts_over_1pp": sum(1 for m in max_devs if m > 1.0) / starts,
    }


# -- what the page shows ------------------------------------------------------------

def _pp(value: float) -> str:
    return fmt.de(value, 2 if value < 1 else 1) + fmt.THIN_NBSP + "Prozentpunkte"


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: the plot at phone width, the positions' numbers in staggered rows (each one the
    # wide figure names), the key in two rows
    narrow = layout == NARROW
    line = 14 if narrow else 0
    k, strategy, random_ = r["k"], r["strategy"], r["strategy"] == "reservoir"
    n, returns = r["n"], r["returns"]
    top = 100 if not random_ else min(100, 10 * math.ceil((100 * k / n + 12) / 10))
    step = 20 if top == 100 else (10 if top > 40 else 5)
    label = dict(STRATEGIES)[strategy]
    rows = _number_rows(n, width(480, layout) - 72) if narrow else 1
    plot = svg.Plot(width(480, layout), 300 + line * rows, (0.4, n + 0.6), (0, top), layout=layout,
                    margin=(34 + line, 12, 46 + line * (rows - 1), 60),
                    label=f"Wie oft jede Position am Ende im Speicher war ({label})")
    plot.grid(xticks=[], yticks=range(0, top + 1, step), xlabel="Position im Strom",
              ylabel="im Speicher (% der Durchläufe)", yfmt=lambda v: f"{fmt.tick(v)} %")
    for i in range(1, n + 1):  # the returns must be findable: every number, or every fifth on a long stream
        if n > 20 and i % 5 and i not in returns and i != 1:
            continue
        cls = "pl-tick pl-rs-return-tick" if i in returns else "pl-tick"
        plot.back.append(f'<text class="{cls}" x="{plot.px(i):.1f}" y="{plot.bottom + 16 + line * ((i - 1) % rows)}" '
                         f'text-anchor="middle">{i}</text>')
    if random_ and r["sd_bar_pp"] > 0:
        mid, band = 100 * r["exact_bar"], 2 * r["sd_bar_pp"]
        y1, y2 = plot.py(min(top, mid + band)), plot.py(max(0, mid - band))
        plot.body.append(f'<rect class="pl-rs-band" x="{plot.left}" y="{y1:.1f}" '
                         f'width="{plot.right - plot.left}" height="{y2 - y1:.1f}"/>')
    half = 0.36
    for i, share in enumerate(r["bars"], start=1):
        cls = "pl-rs-bar pl-rs-return" if i in returns else "pl-rs-bar pl-rs-deliv"
        x0, x1 = plot.px(i - half), plot.px(i + half)
        y = plot.py(100 * share)
        kind = "Rücksendung" if i in returns else "Lieferung"
        plot.body.append(f'<rect class="{cls}" x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" '
                         f'height="{max(0.0, plot.bottom - y):.1f}"><title>{i}. Nachricht ({kind}): '
                         f'{escape(fmt.pct(share))}</title></rect>')
    if random_:
        plot.hline(100 * r["exact_bar"], "pl-rs-expected")
    # a legend row above the plot, where no bar can reach
    entries = [("pl-rs-deliv pl-rs-swatch", "Lieferung"), ("pl-rs-return pl-rs-swatch", "Rücksendung")]
    if random_:
        entries += [("pl-rs-expected", f"exakt {k}/{n}"), ("pl-rs-band pl-rs-swatch", "±2 SD")]
    for row, start in enumerate(range(0, len(entries), 2) if narrow else [0]):
        shown = entries[start:start + 2] if narrow else entries
        plot.front.append(svg.key_row(shown, plot.left, 21 + 18 * row, lines=["pl-rs-expected"]))

    none_exact = f"{r['exact_none_num']}/{r['exact_den']}" if random_ else ""
    readouts = [
        Readout("none", "Keine Rücksendung behalten (gemessen)", fmt.pct(r["none"]), r["none"], True),
        Readout("exact_none", "… exakt",
                (f"{none_exact} ≈ " if random_ else "") + fmt.pct(r["exact_none"]), r["exact_none"], True),
        Readout("bar", "Je Position exakt",
                f"{k}/{n} = {fmt.pct(r['exact_bar'])}" if random_ else f"{k} Positionen 100 %, sonst 0 %",
                r["exact_bar"]),
        Readout("max_dev", "Größte Abweichung eines Balkens", _pp(r["max_dev_pp"]), r["max_dev_pp"]),
        Readout("sd", "Schwankung von Start zu Start (1 SD)",
                (f"Balken ± {fmt.de(r['sd_bar_pp'], 2)}, ohne Rücksendung ± {fmt.de(r['sd_none_pp'], 2)} Prozentpunkte"
                 if random_ else "keine (kein Zufall)"), r["sd_bar_pp"]),
    ]
    summary = _fair_sentence(r, k, none_exact) if random_ else _fixed_sentence(r, strategy, k, returns)
    summary += _own_stream(r)
    return View(plot.render(), readouts, summary, _kept_chart(r, layout))


NUMBER_GAP = 17  # px between two numbers in one row: a two-digit number at 12 px is about 14 px wide


def _number_rows(n: int, inner: float) -> int:
    """How many staggered rows the positions' numbers need on a narrow plot ``inner`` pixels wide:
    two, or three on a long stream, where neighbours two positions apart would still touch."""
    return max(2, math.ceil(NUMBER_GAP / (inner / (n + 0.2))))


def _fair_sentence(r: dict, k: int, none_exact: str) -> str:
    """The sentence under the bars for Algorithm R: every message equally often, and yet how often
    the rare category is lost."""
    n, runs, returns = r["n"], fmt.de(r["runs"]), r["returns"]
    if r["exact_bar"] == 1:
        return f"Mit {k} Plätzen bleibt jede der {n} Nachrichten in allen {runs} Durchläufen im Speicher, auch jede Rücksendung."
    text = (f"Mit {k} Plätzen landet jede Position in {fmt.pct(r['exact_bar'])} der Durchläufe im Speicher; "
            f"gemessen in {runs} Durchläufen weicht kein Balken mehr als {_pp(r['max_dev_pp'])} ab. "
            "Keine Nachricht wird bevorzugt.")
    if not returns:  # _own_stream says so
        return text
    if r["exact_none"] == 0:
        return (text + f" Nur {n - len(returns)} Nachrichten sind keine Rücksendung, weniger als Plätze: "
                "Mindestens eine Rücksendung bleibt immer.")
    measured = f"in {fmt.pct(r['none'])} der Durchläufe (exakt {none_exact} ≈ {fmt.pct(r['exact_none'])})"
    if r["exact_none"] > 0.5:
        return text + f" Trotzdem bleibt meistens keine Rücksendung übrig: {measured}."
    return text + f" Keine Rücksendung übrig blieb {measured}."


def _fixed_sentence(r: dict, strategy: str, k: int, returns: list[int]) -> str:
    """The sentence under the bars for keeping the first or the last k: always the same positions."""
    kept = [i for i, b in enumerate(r["bars"], start=1) if b]
    where = "ersten" if strategy == "first" else "letzten"
    returns = [i for i in returns if i in kept]
    text = ((f"Die {where} {WORDS[k]} behalten" if k > 1 else f"Nur die {where[:-1]} behalten") + ": Im Speicher "
            + (f"steht immer die Position {kept[0]}" if k == 1 else f"stehen immer die Positionen {kept[0]} bis {kept[-1]}")
            + (", alle anderen nie" if len(kept) < r["n"] else ""))
    if not returns:
        return text + "; keine Rücksendung bleibt je im Speicher."
    if len(returns) == 1:
        return text + f"; die Rücksendung an Position {returns[0]} bleibt immer im Speicher."
    return text + f"; die Rücksendungen an Position {' und '.join(map(str, returns))} bleiben immer im Speicher."


def _own_stream(r: dict) -> str:
    """What the summary adds for an own stream: its shape, and what of the input could not count."""
    if not r["own"]:
        return ""
    where = ", ".join(map(str, r["returns"])) or "keiner Position"
    text = f" Der Strom hat {r['n']} Nachrichten, Rücksendungen an {where}."
    if r["returns_outside"]:
        text += (f" Hinter dem Ende liegen und zählen nicht: {', '.join(map(str, r['returns_outside']))}.")
    if r["k_asked"] > r["n"]:
        text += f" Der Speicher hat {r['k_asked']} Plätze, mehr als Nachrichten: Alle bleiben."
    return text


def _kept_chart(r: dict, layout: str) -> str:
    """How many of the returns stayed: measured share against the exact chance."""
    most = len(r["kept_share"]) - 1
    plot = svg.Plot(320, 220, (-0.6, most + 0.6), (0, 100), margin=(14, 12, 46, 52), layout=layout,
                    label="Wie viele der " + ("beiden " if most == 2 else "") + "Rücksendungen im Speicher blieben")
    plot.grid(xticks=[], yticks=range(0, 101, 25), xlabel="behaltene Rücksendungen",
              ylabel="% der Durchläufe", yfmt=lambda v: f"{fmt.tick(v)} %")
    for m in range(most + 1):
        plot.back.append(f'<text class="pl-tick" x="{plot.px(m):.1f}" y="{plot.bottom + 16}" '
                         f'text-anchor="middle">{m}</text>')
        share, ex = r["kept_share"][m], r["exact_kept"][m]
        x0, x1 = plot.px(m - 0.3), plot.px(m + 0.3)
        y = plot.py(100 * share)
        plot.body.append(f'<rect class="pl-rs-bar pl-rs-kept" x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" '
                         f'height="{max(0.0, plot.bottom - y):.1f}"><title>{m} behalten: gemessen '
                         f'{escape(fmt.pct(share))}, exakt {escape(fmt.pct(ex))}</title></rect>')
        ye = plot.py(100 * ex)
        plot.front.append(f'<line class="pl-rs-expected" x1="{x0 - 6:.1f}" y1="{ye:.1f}" x2="{x1 + 6:.1f}" y2="{ye:.1f}"/>')
        plot.text(m, 100 * max(share, ex), fmt.pct(share, 0), "pl-label pl-value", "middle", dy=-6)
    plot.legend([("pl-rs-expected", "exakt")], corner="tr")
    return plot.render()


# -- the lesson ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _none_kept(k: int) -> Fraction:
    """Exact chance that Algorithm R with k places ends without any Rücksendung (the lesson asks it for
    three neighbouring k on every render)."""
    ex = exact("reservoir", k)
    return Fraction(ex["kept_num"][0], ex["den"])


def _is_smallest_keeping_a_return(k: int) -> bool:
    return _none_kept(k) < Fraction(1, 2) <= _none_kept(k - 1)


def _smallest_k_keeping_a_return(params, result) -> bool:
    return not result["own"] and result["strategy"] == "reservoir" and _is_smallest_keeping_a_return(result["k"])


def _one_place_off(params, result) -> bool:
    """One place more or fewer would be the smallest store that usually keeps a return."""
    k = result["k"]
    return (not result["own"] and result["strategy"] == "reservoir"
            and any(_is_smallest_keeping_a_return(k + step) for step in (-1, 1)))


LESSON = Lesson(
    prediction=Prediction(
        question="Mit vier Plätzen bleibt in etwa 63 % der Durchläufe keine Rücksendung im Speicher. "
                 "Wie oft ist das mit acht Plätzen so?",
        choices=("immer noch über 60 %", "etwa in einem Drittel der Durchläufe", "fast nie, unter 5 %"),
        answer=1,
        shown=unless_own(lambda params, result: result["strategy"] == "reservoir" and result["k"] == 8),
        explain="Jede Rücksendung bleibt jetzt mit 8/20 = 40 % im Speicher. Keine von beiden bleibt in "
                "rund 35 % der Durchläufe: doppelter Platz, aber längst keine Sicherheit.",
        example={"k": 8},
        why_not=("Eine seltene Nachricht bleibt selten, da scheint mehr Platz kaum zu helfen. Doch jede Rücksendung "
                 "bleibt jetzt in 40 % der Durchläufe im Speicher statt in 20 %.",
                 "",
                 "Doppelter Platz klingt nach doppelter Sicherheit. Aber auch 8 Plätze fassen nur 8 der 20 Nachrichten. "
                 "Beide Rücksendungen fallen noch in rund 35 % der Durchläufe heraus."),
    ),
    tasks=(
        Task("keep_a_return", "Finde die kleinste Zahl von Plätzen, bei der meist eine Rücksendung im Speicher bleibt. "
                              "Gemeint ist: in mehr als der Hälfte der Durchläufe, exakt gerechnet.",
             solved=_smallest_k_keeping_a_return,
             explain="Erst bei 6 Plätzen gehen beide Rücksendungen nur noch in etwa 47,9 % der Durchläufe verloren. "
                     "Eine seltene Kategorie braucht viel Platz, damit sie sicher bleibt.",
             example={"k": 6},
             hints=("Schaue auf „Keine Rücksendung behalten“. Es zählt der exakte Wert, nicht der gemessene.",
                    "Erhöhe „Plätze im Speicher k“ um je einen Platz, bis dieser Anteil unter 50 % fällt."),
             near=Near(_one_place_off,
                       "Fast: Du bist nur einen Platz von der gesuchten Zahl entfernt. Prüfe die Nachbarn.",
                       {"k": 5})),
        Task("biased_but_lucky", "Finde ein anderes Verfahren, das mit 6 Plätzen immer eine Rücksendung behält. "
                                 "Ist es fair zu allen Positionen?",
             solved=unless_own(lambda params, result: (result["strategy"] != "reservoir" and result["k"] == 6
                                                     and result["exact_none"] == 0)),
             explain="Die letzten sechs enthalten Position 15 immer. Die Positionen 1 bis 14 sind dafür nie "
                     "dabei: Das Ergebnis hängt nur davon ab, wo die Rücksendung steht.",
             example={"strategy": "last", "k": 6},
             hints=("Die beiden anderen Verfahren behalten immer dieselben Positionen. "
                    "Schaue, an welchen Positionen die Rücksendungen stehen.",
                    "Stelle „Plätze im Speicher k“ auf 6 und probiere beide anderen Verfahren aus."),
             near=Near(unless_own(lambda params, result: (result["strategy"] != "reservoir" and result["k"] != 6
                                                        and result["exact_none"] == 0)),
                       "Fast: Dieses Verfahren behält immer eine Rücksendung, aber nicht mit genau 6 Plätzen.",
                       {"strategy": "last", "k": 7})),
        Task("few_runs", "Wähle weniger Durchläufe, bis ein Balken mehr als 5 Prozentpunkte vom exakten Wert "
                         "abweicht.",
             solved=unless_own(lambda params, result: (result["strategy"] == "reservoir" and result["runs"] < RUNS_ARTICLE
                                                     and result["max_dev_pp"] > 5)),
             explain="Mit wenigen Durchläufen schwanken die Balken stark. Das ist Zufall der Auslosung: "
                     "Exakt liegt jede Position bei k/20.",
             example={"runs": 200},
             hints=("Vergleiche die Balken mit dem exakten Wert k/20. Mit 2000 Durchläufen liegen sie nah daran.",
                    "Verkleinere „Durchläufe je Start“. Je weniger Durchläufe, desto stärker schwanken die Balken."),
             near=Near(unless_own(lambda params, result: (result["strategy"] == "reservoir"
                                                        and result["runs"] < RUNS_ARTICLE
                                                        and 4 <= result["max_dev_pp"] <= 5)),
                       "Fast: Der größte Ausreißer liegt schon über 4 Prozentpunkten. "
                       "Wähle einen anderen „Start“ oder noch weniger Durchläufe.",
                       {"runs": 500, "seed": 3})),
    ),
    discussion=(
        "Warum reicht es nicht, einfach die ersten oder die letzten Nachrichten zu behalten?",
        "Jede Nachricht ist gleich wahrscheinlich dabei. Warum gehen seltene Kategorien trotzdem oft verloren, "
        "und was könnte man dagegen tun?",
    ),
    teacher=(
        "Dann hängt der Speicher davon ab, wann etwas im Strom kam. Bei einem Strom unbekannter Länge "
        "wären frühe oder späte Themen immer über- oder unterrepräsentiert.",
        "Zwei Rücksendungen unter 20 Nachrichten sind selten. Bei vier Plätzen wird jede nur mit 20 % behalten. "
        "Helfen würden mehr Plätze oder ein eigener kleiner Speicher je Kategorie.",
    ),
    misconceptions=(
        "„Die späten Nachrichten sind seltener dabei, weil sie nur mit 4/t eintreten.“ Falsch: "
        "Frühe Nachrichten werden dafür öfter verdrängt. Am Ende liegt jede Position bei k/20.",
        "„Eine Abweichung der Balken heißt, das Verfahren ist unfair.“ Falsch: Bei endlich vielen Durchläufen "
        "schwanken die Balken um den exakten Wert.",
    ),
)
