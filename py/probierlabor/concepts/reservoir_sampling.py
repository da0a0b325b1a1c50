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
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import lru_cache
from html import escape
from statistics import median

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Prediction, Task

SLUG = "reservoir-sampling"
TITLE = "Reservoir Sampling"
GROUP = "Lernen und Bewerten"
TEASER = "Vier Plätze, ein Strom unbekannter Länge: Jede Nachricht bekommt dieselbe Chance – jede Kategorie nicht."

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
    """Chance that item t gets into memory when it arrives."""
    return Fraction(1) if t <= k else Fraction(k, t)


def stay_chance(t: int, k: int = K_ARTICLE) -> Fraction:
    """Chance that an item already in memory survives the arrival of item t: 1 − (k/t)·(1/k)."""
    return Fraction(1) if t <= k else 1 - entry_chance(t, k) * Fraction(1, k)


def inclusion(i: int, t: int, k: int = K_ARTICLE) -> Fraction:
    """Chance that item i is in memory after t items, as the product of entering and surviving."""
    p = entry_chance(i, k)
    for s in range(i + 1, t + 1):
        p *= stay_chance(s, k)
    return p


def exact(strategy: str, k: int) -> dict:
    """Exact bar heights and the exact distribution of how many returns stay."""
    if strategy == "reservoir":
        bars = [inclusion(i, N, k) for i in range(1, N + 1)]
        total = math.comb(N, k)
        others = N - len(RETURNS)
        counts = [math.comb(len(RETURNS), m) * math.comb(others, k - m) if k >= m else 0
                  for m in range(len(RETURNS) + 1)]
        return {"bars": bars, "kept_num": counts, "den": total}
    kept = set(range(1, k + 1)) if strategy == "first" else set(range(N - k + 1, N + 1))
    bars = [Fraction(1) if i in kept else Fraction(0) for i in range(1, N + 1)]
    m = sum(1 for r in RETURNS if r in kept)
    return {"bars": bars, "kept_num": [1 if j == m else 0 for j in range(len(RETURNS) + 1)], "den": 1}


# -- the simulation ----------------------------------------------------------------

def one_pass(rng: random.Random, k: int) -> list[int]:
    """Algorithm R over positions 1…N; returns the positions in memory."""
    slot = list(range(1, k + 1))
    for t in range(k + 1, N + 1):
        j = rng.randrange(t)
        if j < k:
            slot[j] = t
    return slot


@lru_cache(maxsize=128)
def simulate(k: int, runs: int, seed: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(count per position, count of runs keeping 0/1/2 returns, last run's memory)."""
    rng = random.Random(seed)
    bits = rng.getrandbits
    # randrange(t) is getrandbits(t.bit_length()), drawn again while ≥ t (CPython's _randbelow);
    # written out here, it gives the very same numbers as one_pass, a good deal faster in the browser.
    steps = [(t, t.bit_length()) for t in range(k + 1, N + 1)]
    counts = [0] * (N + 1)
    kept = [0, 0, 0]
    a, b = RETURNS
    slot: list[int] = []
    for _ in range(runs):
        slot = list(range(1, k + 1))
        for t, width in steps:  # one_pass, inlined
            j = bits(width)
            while j >= t:
                j = bits(width)
            if j < k:
                slot[j] = t
        for s in slot:
            counts[s] += 1
        kept[(a in slot) + (b in slot)] += 1
    return tuple(counts[1:]), tuple(kept), tuple(sorted(slot))


def compute(k: int = K_ARTICLE, strategy: str = "reservoir", runs: int = RUNS_ARTICLE, seed: int = DEFAULT_SEED) -> dict:
    ex = exact(strategy, k)
    if strategy == "reservoir":
        counts, kept, last = simulate(k, runs, seed)
    else:
        counts = tuple(runs * int(b) for b in ex["bars"])
        kept = tuple(runs * n for n in ex["kept_num"])
        last = tuple(i + 1 for i, b in enumerate(ex["bars"]) if b)
    bars = [c / runs for c in counts]
    p_bar = Fraction(k, N)
    p_none = Fraction(ex["kept_num"][0], ex["den"])
    random_ = strategy == "reservoir"
    sd_bar = math.sqrt(float(p_bar * (1 - p_bar)) / runs) if random_ else 0.0
    sd_none = math.sqrt(float(p_none * (1 - p_none)) / runs) if random_ else 0.0
    deviations = [abs(b - float(e)) for b, e in zip(bars, ex["bars"])]
    return {
        "k": k,
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
    # a narrow figure: the plot at phone width, the positions' numbers in two staggered rows (every one
    # stays named), the key in two rows
    narrow = layout == NARROW
    line = 14 if narrow else 0
    k, strategy, random_ = r["k"], r["strategy"], r["strategy"] == "reservoir"
    top = 100 if not random_ else min(100, 10 * math.ceil((100 * k / N + 12) / 10))
    step = 20 if top == 100 else (10 if top > 40 else 5)
    label = dict(STRATEGIES)[strategy]
    plot = svg.Plot(width(480, layout), 300 + 2 * line, (0.4, N + 0.6), (0, top), layout=layout,
                    margin=(34 + line, 12, 46 + line, 60), label=f"Wie oft jede Position am Ende im Speicher war ({label})")
    plot.grid(xticks=[], yticks=range(0, top + 1, step), xlabel="Position im Strom",
              ylabel="im Speicher (% der Durchläufe)", yfmt=lambda v: f"{fmt.tick(v)} %")
    for i in range(1, N + 1):  # every position gets its number: the returns must be findable
        cls = "pl-tick pl-rs-return-tick" if i in RETURNS else "pl-tick"
        plot.back.append(f'<text class="{cls}" x="{plot.px(i):.1f}" y="{plot.bottom + 16 + line * (1 - i % 2)}" '
                         f'text-anchor="middle">{i}</text>')
    if random_ and r["sd_bar_pp"] > 0:
        mid, band = 100 * r["exact_bar"], 2 * r["sd_bar_pp"]
        y1, y2 = plot.py(min(top, mid + band)), plot.py(max(0, mid - band))
        plot.body.append(f'<rect class="pl-rs-band" x="{plot.left}" y="{y1:.1f}" '
                         f'width="{plot.right - plot.left}" height="{y2 - y1:.1f}"/>')
    half = 0.36
    for i, share in enumerate(r["bars"], start=1):
        cls = "pl-rs-bar pl-rs-return" if i in RETURNS else "pl-rs-bar pl-rs-deliv"
        x0, x1 = plot.px(i - half), plot.px(i + half)
        y = plot.py(100 * share)
        kind = "Rücksendung" if i in RETURNS else "Lieferung"
        plot.body.append(f'<rect class="{cls}" x="{x0:.1f}" y="{y:.1f}" width="{x1 - x0:.1f}" '
                         f'height="{max(0.0, plot.bottom - y):.1f}"><title>{i}. Nachricht ({kind}): '
                         f'{escape(fmt.pct(share))}</title></rect>')
    if random_:
        plot.hline(100 * r["exact_bar"], "pl-rs-expected")
    # a legend row above the plot, where no bar can reach
    entries = [("pl-rs-deliv pl-rs-swatch", "Lieferung"), ("pl-rs-return pl-rs-swatch", "Rücksendung")]
    if random_:
        entries += [("pl-rs-expected", f"exakt {k}/{N}"), ("pl-rs-band pl-rs-swatch", "±2 SD")]
    for row, start in enumerate(range(0, len(entries), 2) if narrow else [0]):
        shown = entries[start:start + 2] if narrow else entries
        plot.front.append(svg.key_row(shown, plot.left, 21 + 18 * row, lines=["pl-rs-expected"]))

    none_exact = f"{r['exact_none_num']}/{r['exact_den']}" if random_ else ""
    readouts = [
        Readout("none", "Keine Rücksendung behalten (gemessen)", fmt.pct(r["none"]), r["none"], True),
        Readout("exact_none", "… exakt",
                (f"{none_exact} ≈ " if random_ else "") + fmt.pct(r["exact_none"]), r["exact_none"], True),
        Readout("bar", "Je Position exakt",
                f"{k}/{N} = {fmt.pct(r['exact_bar'])}" if random_ else f"{k} Positionen 100 %, sonst 0 %",
                r["exact_bar"]),
        Readout("max_dev", "Größte Abweichung eines Balkens", _pp(r["max_dev_pp"]), r["max_dev_pp"]),
        Readout("sd", "Schwankung von Start zu Start (1 SD)",
                (f"Balken ± {fmt.de(r['sd_bar_pp'], 2)}, ohne Rücksendung ± {fmt.de(r['sd_none_pp'], 2)} Prozentpunkte"
                 if random_ else "keine (kein Zufall)"), r["sd_bar_pp"]),
    ]
    if random_:
        summary = (
            f"{label} mit {k} Plätzen, {fmt.de(r['runs'])} Durchläufe: Jede Position liegt im Mittel bei "
            f"{fmt.pct(r['exact_bar'])}, die größte Abweichung beträgt {_pp(r['max_dev_pp'])}. "
            f"In {fmt.pct(r['none'])} der Durchläufe blieb keine Rücksendung im Speicher "
            f"(exakt {none_exact} ≈ {fmt.pct(r['exact_none'])})."
        )
    else:
        kept = [i for i, b in enumerate(r["bars"], start=1) if b]
        where = "ersten" if strategy == "first" else "letzten"
        returns = [i for i in RETURNS if i in kept]
        summary = (
            (f"Die {where} {WORDS[k]} behalten" if k > 1 else f"Nur die {where[:-1]} behalten") + ": Im Speicher "
            + (f"steht immer die Position {kept[0]}" if k == 1 else f"stehen immer die Positionen {kept[0]} bis {kept[-1]}")
            + ("; keine Rücksendung bleibt je im Speicher." if not returns else
               f"; die Rücksendung an Position {' und '.join(map(str, returns))} bleibt immer im Speicher.")
        )
    return View(plot.render(), readouts, summary, _kept_chart(r, layout))


def _kept_chart(r: dict, layout: str) -> str:
    """How many of the two returns stayed: measured share against the exact chance."""
    plot = svg.Plot(320, 220, (-0.6, 2.6), (0, 100), margin=(14, 12, 46, 52), layout=layout,
                    label="Wie viele der beiden Rücksendungen im Speicher blieben")
    plot.grid(xticks=[], yticks=range(0, 101, 25), xlabel="behaltene Rücksendungen",
              ylabel="% der Durchläufe", yfmt=lambda v: f"{fmt.tick(v)} %")
    for m in range(3):
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

def _none_kept(k: int) -> Fraction:
    """Exact chance that Algorithm R with k places ends without any Rücksendung."""
    ex = exact("reservoir", k)
    return Fraction(ex["kept_num"][0], ex["den"])


def _smallest_k_keeping_a_return(params, result) -> bool:
    k = result["k"]
    return result["strategy"] == "reservoir" and _none_kept(k) < Fraction(1, 2) <= _none_kept(k - 1)


LESSON = Lesson(
    prediction=Prediction(
        question="Mit vier Plätzen bleibt in etwa 63 % der Durchläufe keine Rücksendung im Speicher. "
                 "Wie oft ist das mit acht Plätzen so?",
        choices=("immer noch über 60 %", "etwa in einem Drittel der Durchläufe", "fast nie, unter 5 %"),
        answer=1,
        shown=lambda params, result: result["strategy"] == "reservoir" and result["k"] == 8,
        explain="Jede Rücksendung bleibt jetzt mit 8/20 = 40 % im Speicher. Keine von beiden bleibt in "
                "rund 35 % der Durchläufe: doppelter Platz, aber längst keine Sicherheit.",
        example={"k": 8},
    ),
    tasks=(
        Task("keep_a_return", "Finde die kleinste Zahl von Plätzen, bei der meist eine Rücksendung im Speicher bleibt. "
                              "Gemeint ist: in mehr als der Hälfte der Durchläufe, exakt gerechnet.",
             solved=_smallest_k_keeping_a_return,
             explain="Erst bei 6 Plätzen gehen beide Rücksendungen nur noch in etwa 47,9 % der Durchläufe verloren. "
                     "Eine seltene Kategorie braucht viel Platz, damit sie sicher bleibt.",
             example={"k": 6}),
        Task("biased_but_lucky", "Finde ein anderes Verfahren, das mit 6 Plätzen immer eine Rücksendung behält. "
                                 "Ist es fair zu allen Positionen?",
             solved=lambda params, result: (result["strategy"] != "reservoir" and result["k"] == 6
                                            and result["exact_none"] == 0),
             explain="Die letzten sechs enthalten Position 15 immer. Dafür haben die Positionen 1 bis 14 gar "
                     "keine Chance: Das Ergebnis hängt nur davon ab, wo die Rücksendung steht.",
             example={"strategy": "last", "k": 6}),
        Task("few_runs", "Wähle weniger Durchläufe, bis ein Balken mehr als 5 Prozentpunkte vom exakten Wert "
                         "abweicht.",
             solved=lambda params, result: (result["strategy"] == "reservoir" and result["runs"] < RUNS_ARTICLE
                                            and result["max_dev_pp"] > 5),
             explain="Mit wenigen Durchläufen schwanken die Balken stark. Das ist Zufall der Auslosung: "
                     "Exakt liegt jede Position bei k/20.",
             example={"runs": 200}),
    ),
    discussion=(
        "Warum reicht es nicht, einfach die ersten oder die letzten Nachrichten zu behalten?",
        "Jede Nachricht hat dieselbe Chance. Warum gehen seltene Kategorien trotzdem oft verloren, "
        "und was könnte man dagegen tun?",
    ),
    teacher=(
        "Dann hängt der Speicher davon ab, wann etwas im Strom kam. Bei einem Strom unbekannter Länge "
        "wären frühe oder späte Themen immer über- oder unterrepräsentiert.",
        "Zwei Rücksendungen unter 20 Nachrichten sind selten. Bei vier Plätzen wird jede nur mit 20 % behalten. "
        "Helfen würden mehr Plätze oder ein eigener kleiner Speicher je Kategorie.",
    ),
    misconceptions=(
        "„Die späten Nachrichten haben schlechtere Chancen, weil sie mit 4/t eintreten.“ Falsch: "
        "Frühe Nachrichten werden dafür öfter verdrängt. Am Ende liegt jede Position bei k/20.",
        "„Eine Abweichung der Balken heißt, das Verfahren ist unfair.“ Falsch: Bei endlich vielen Durchläufen "
        "schwanken die Balken um den exakten Wert.",
    ),
)
