"""Speculative decoding: the exact balance of one position (Leviathan et al., §2, Algorithm 1).

A cheap draft model proposes a token x drawn from its distribution q; the target model,
whose distribution is p, accepts it with probability min(1, p(x)/q(x)). After a rejection
a correction is drawn from max(0, p − q), renormalised. Then the token that comes out has
exactly the distribution p (Leviathan et al., §2.3 and proof A.1):

    accepted mass   min(p, q)                          (unconditional, per token)
    rejected mass   1 − Σ min(p, q) = Σ max(0, p − q)
    result          min(p, q) + rejected · correction  = p   (correction ∝ max(0, p − q))

The article's own example (CONCEPTS.md §20): tokens A, B, C, p = [0.2, 0.5, 0.3],
q = [0.6, 0.3, 0.1]: accepted [0.2, 0.3, 0.1], rejected 0.4, residual split equally
between B and C, result p; correcting from plain p instead gives [0.28, 0.50, 0.22].

Everything is exact (fractions.Fraction), computed by ``engine.acceptance``, the rule the engine's
verifier uses too (the browser gets that module beside this package). The reader sets p(A), p(B), q(A), q(B); the third
entry is the rest, and a pair that would exceed 1 is cut back, with a note in the figure.

The draws are real: ``trials`` runs of the algorithm with ``random.Random(seed)``. Each
run takes one number to pick the draft token from q, one to decide acceptance and, only
after a rejection, one more to pick the correction. The histogram of the tokens that come
out approaches p with the correct rule and misses it with the wrong one.
"""

from __future__ import annotations

import math
import random
import textwrap
from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from html import escape

from engine.acceptance import balance

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "speculative-decoding"
TITLE = "Speculative Decoding"
GROUP = "Decodieren und Sampling"
TEASER = "Ein kleines Modell rät vor, das große prüft – und mit der richtigen Korrektur kommt genau seine Verteilung heraus."

TOKENS = ("A", "B", "C")
CORRECTIONS = (("residual", "aus max(0, p − q)"), ("plain", "aus p (falsch)"))
TRIALS = (100, 1000, 10000)

_HELP_P = "p(C) ist der Rest: 1 − p(A) − p(B)."
_HELP_Q = "q(C) ist der Rest: 1 − q(A) − q(B)."

PARAMS = (
    Param("pa", "Ziel p(A)", "float", 0.2, lo=0.0, hi=1.0, step=0.05, help=_HELP_P),
    Param("pb", "Ziel p(B)", "float", 0.5, lo=0.0, hi=1.0, step=0.05, help=_HELP_P),
    Param("qa", "Entwurf q(A)", "float", 0.6, lo=0.0, hi=1.0, step=0.05, help=_HELP_Q),
    Param("qb", "Entwurf q(B)", "float", 0.3, lo=0.0, hi=1.0, step=0.05, help=_HELP_Q),
    Param("correction", "Korrektur nach einer Ablehnung", "choice", "residual", choices=CORRECTIONS,
          help="Woraus das Ersatz-Token gezogen wird, wenn das Zielmodell den Vorschlag ablehnt."),
    Param("trials", "Durchläufe", "choice", 1000,
          choices=tuple((n, fmt.de(n)) for n in TRIALS),
          help="Wie oft der Algorithmus für diese eine Position wirklich ausgeführt wird."),
    Param("seed", "Neu ziehen", "seed", 1, help="Neue Zufallszahlen für die Durchläufe."),
)

PRESETS = (
    Preset("Beispiel", {}, "p = (0,2; 0,5; 0,3), q = (0,6; 0,3; 0,1), richtige Korrektur."),
    Preset("Falsche Korrektur", {"correction": "plain"}, "Ersatz aus p statt aus max(0, p − q)."),
    Preset("Gleiche Verteilungen", {"qa": 0.2, "qb": 0.5}, "q = p: nichts wird abgelehnt."),
    Preset("Schlechter Entwurf", {"qa": 0.05, "qb": 0.05}, "q legt fast alles auf C."),
    Preset("Viele Durchläufe", {"trials": 10000}, "10 000 Durchläufe mit der richtigen Korrektur."),
    Preset("Viele Durchläufe, falsch", {"trials": 10000, "correction": "plain"},
           "10 000 Durchläufe mit der falschen Korrektur."),
)


# -- exact arithmetic ------------------------------------------------------------------

def distribution(first, second) -> tuple[tuple[Fraction, Fraction, Fraction], bool]:
    """(x(A), x(B), x(C)) with x(C) the rest; True if x(B) had to be cut back to 1 − x(A)."""
    a, b = fmt.as_fraction(first), fmt.as_fraction(second)
    a = min(max(a, Fraction(0)), Fraction(1))
    b = min(max(b, Fraction(0)), Fraction(1))
    cut = a + b > 1
    if cut:
        b = 1 - a
    return (a, b, 1 - a - b), cut


# -- the real draws --------------------------------------------------------------------

def _cumulative(weights) -> list[float]:
    out, run = [], Fraction(0)
    for w in weights:
        run += w
        out.append(float(run))
    out[-1] = 1.0 if run > 0 else 0.0
    return out


def simulate(p, q, correction: str, trials: int, seed: int, b: dict | None = None) -> dict:
    """Run the algorithm ``trials`` times for one position; counts of the tokens that come out. ``b``:
    ``balance(p, q, correction)`` where the caller has it already."""
    rng = random.Random(seed)
    b = b or balance(p, q, correction)
    accept = [0.0 if a is None else float(a) for a in b["accept_prob"]]
    # The last bound as +∞ (it is 1, or 0 where every weight is 0): a draw below 1 then never lands past
    # the last token, the same token as clamping the index, without a clamp in the loop that runs a
    # thousand times on every slider step.
    draft_cum = [*_cumulative(q)[:-1], math.inf]
    corr_cum = [*_cumulative(b["correction"])[:-1], math.inf] if b["correction"] else None
    counts = [0] * len(p)
    accepted = 0
    rnd = rng.random
    for _ in range(trials):
        x = bisect_right(draft_cum, rnd())
        if rnd() < accept[x]:
            accepted += 1
            counts[x] += 1
        elif corr_cum is not None:
            counts[bisect_right(corr_cum, rnd())] += 1
    return {"counts": counts, "accepted": accepted}


# -- compute and view ------------------------------------------------------------------

def compute(pa: float = 0.2, pb: float = 0.5, qa: float = 0.6, qb: float = 0.3, correction: str = "residual",
            trials: int = 1000, seed: int = 1) -> dict:
    p, p_cut = distribution(pa, pb)
    q, q_cut = distribution(qa, qb)
    b = balance(p, q, correction)
    draws = simulate(p, q, correction, trials, seed, b)
    freq = [c / trials for c in draws["counts"]]
    notes = []
    if p_cut:
        notes.append(f"p(A) + p(B) > 1: p(B) auf {fmt.exact(p[1], 3)} gekürzt, p(C) = 0.")
    if q_cut:
        notes.append(f"q(A) + q(B) > 1: q(B) auf {fmt.exact(q[1], 3)} gekürzt, q(C) = 0.")
    exact = {key: [None if v is None else float(v) for v in b[key]] if b[key] is not None else None
             for key in ("accepted", "accept_prob", "correction", "added", "final")}
    exact["residual"] = [float(v) for v in b["excess"]]  # the page's "Rest": max(0, p − q), not normalised
    return {
        "correction_mode": correction,
        "p": [float(v) for v in p],
        "q": [float(v) for v in q],
        "p_exact": [str(v) for v in p],
        "q_exact": [str(v) for v in q],
        **exact,
        "accepted_exact": [str(v) for v in b["accepted"]],
        "accept_prob_exact": [None if v is None else str(v) for v in b["accept_prob"]],
        "final_exact": [str(v) for v in b["final"]],
        "rate": float(b["rate"]),
        "rate_pct": float(b["rate"] * 100),
        "rate_exact": str(b["rate"]),
        "rejected": float(b["rejected"]),
        "rejected_exact": str(b["rejected"]),
        "distance": float(b["distance"]),
        "distance_exact": str(b["distance"]),
        "trials": trials,
        "seed": seed,
        "counts": draws["counts"],
        "freq": freq,
        "accepted_draws": draws["accepted"],
        "rate_measured": draws["accepted"] / trials,
        "max_deviation": max(abs(f - float(x)) for f, x in zip(freq, p)),
        "notes": notes,
    }


# The view reads the result's exact numbers back from their text, a handful on every slider step:
# remembered, each is parsed once.
_read = lru_cache(maxsize=256)(Fraction)


@lru_cache(maxsize=256)
def _near(v: float) -> Fraction:
    """A float of the result as the fraction it stands for (the residual, the correction)."""
    return Fraction(str(v)).limit_denominator(10**9)


def _triple(values, digits=None) -> str:
    """Exact values (Fractions or their strings) with as few decimals as they need, or floats with ``digits``."""
    if digits is None:
        return "(" + "; ".join(fmt.exact(v, 3) for v in values) + ")"
    return "(" + "; ".join(fmt.de(v, digits) for v in values) + ")"


BAR_W = 0.19
OFFSETS = {"q": 0.06, "p": 0.28, "result": 0.50, "drawn": 0.72}


def _bar(plot: svg.Plot, x0: float, y0: float, y1: float, cls: str, title: str = ""):
    left, right = plot.px(x0), plot.px(x0 + BAR_W)
    top, bottom = plot.py(y1), plot.py(y0)
    inner = f"<title>{escape(title)}</title>" if title else ""
    plot.body.append(f'<rect class="{cls}" x="{left:.1f}" y="{top:.1f}" width="{right - left:.1f}" '
                     f'height="{max(bottom - top, 0):.1f}">{inner}</rect>')


def _legend(entries, x0: float, y0: float, per_row: int = 3, width: float = 150) -> str:
    out = []
    for k, (cls, text) in enumerate(entries):
        x, y = x0 + width * (k % per_row), y0 + 18 * (k // per_row)
        out.append(svg.key(x, y + 4, cls, text, w=16, h=12, gap=6, line=cls == "pl-sd-target"))
    return "".join(out)


def _key_sentence(r: dict, rate: str, notes: list[str]) -> str:
    """The sentence under the bars: how often the draft is accepted, which correction fills the rejected
    mass, and whether the result is the target p – with the residual always, with p only by luck or when
    nothing is ever rejected."""
    result, target = _triple(r["final_exact"]), _triple(r["p_exact"])
    if r["rate"] == 1:
        text = (f"Entwurf und Ziel sind gleich: Jeder Vorschlag wird angenommen ({rate}), eine Korrektur ist nie "
                f"nötig. Heraus kommt genau das Ziel p = {target}.")
    elif r["correction_mode"] == "residual":
        text = (f"Der Entwurf wird in {rate} der Fälle angenommen; die Korrektur {dict(CORRECTIONS)['residual']} füllt genau, "
                f"was dabei fehlt. Heraus kommt {result} – genau das Ziel p.")
    elif r["distance"] == 0:
        text = (f"Der Entwurf wird in {rate} der Fälle angenommen; die Korrektur zieht dann aus p statt aus dem "
                f"Rest. Heraus kommt trotzdem {result} = p: Hier ist der Rest zufällig wie p verteilt.")
    else:
        text = (f"Der Entwurf wird in {rate} der Fälle angenommen; die Korrektur zieht dann aus p statt aus dem "
                f"Rest. Heraus kommt {result} statt {target} – um "
                f"{fmt.exact(_read(r['distance_exact']), fraction=True)} daneben.")
    text += f" {fmt.de(r['trials'])} echte Durchläufe ergeben {_triple(r['freq'], 3)}."
    return text + ("" if not notes else " " + " ".join(notes))


def view(r: dict, layout: str = WIDE) -> View:
    # A narrow figure: the legend in three rows of two, the notes wrapped, and the labels of neighbouring
    # bars alternately higher and lower (``stagger``), since two of them no longer fit side by side.
    narrow = layout == NARROW
    notes = [line for note in r["notes"] for line in textwrap.wrap(note, 44)] if narrow else r["notes"]
    more, stagger = (18, 14) if narrow else (0, 0)
    top = 52 + 18 * len(notes) + more
    plot = svg.Plot(width(500, layout), 330 + 18 * len(notes) + more + stagger, (0, 3), (0, 1.04),
                    label="Entwurf, Ziel, Ergebnis und gezogene Anteile für die Tokens A, B, C",
                    margin=(top, 8 if narrow else 10, 56 + stagger, 54 if narrow else 58), layout=layout)
    plot.grid(xticks=[], yticks=[0, 0.25, 0.5, 0.75, 1], xlabel="", ylabel="Wahrscheinlichkeit",
              yfmt=lambda v: fmt.de(v, 2, trim=True))
    wrong = r["correction_mode"] == "plain"
    corr_cls = "pl-sd-corr" + (" pl-sd-wrong" if wrong else "")
    for i, token in enumerate(TOKENS):
        x = {key: i + off for key, off in OFFSETS.items()}
        q, p = r["q"][i], r["p"][i]
        acc, add, fin, drawn = r["accepted"][i], r["added"][i], r["final"][i], r["freq"][i]
        _bar(plot, x["q"], 0, q, "pl-sd-q", f"Entwurf q({token}) = {fmt.exact(_read(r['q_exact'][i]), 3)}")
        _bar(plot, x["p"], 0, p, "pl-sd-p", f"Ziel p({token}) = {fmt.exact(_read(r['p_exact'][i]), 3)}")
        _bar(plot, x["result"], 0, acc, "pl-sd-acc",
             f"angenommen: {fmt.exact(_read(r['accepted_exact'][i]), fraction=True)}")
        _bar(plot, x["result"], acc, acc + add, corr_cls, f"Korrektur: {fmt.de(add, 3)}")
        _bar(plot, x["drawn"], 0, drawn, "pl-sd-drawn",
             f"gezogen: {fmt.de(drawn, 3)} ({fmt.de(r['counts'][i])} von {fmt.de(r['trials'])})")
        # the height of p across result and draws: do they reach it?
        plot.body.append(f'<line class="pl-sd-target" x1="{plot.px(x["p"] - 0.02):.1f}" y1="{plot.py(p):.1f}" '
                         f'x2="{plot.px(x["drawn"] + BAR_W + 0.02):.1f}" y2="{plot.py(p):.1f}"/>')
        for k, (key, value) in enumerate((("q", q), ("p", p), ("result", fin), ("drawn", drawn))):
            plot.text(x[key] + BAR_W / 2, value, fmt.de(value, 2, trim=True), "pl-tick pl-sd-value", "middle",
                      dy=-5 - stagger * (k % 2))
        for k, (key, text) in enumerate((("q", "q"), ("p", "p"), ("result", "Erg."), ("drawn", "gez."))):
            plot.text(x[key] + BAR_W / 2, 0, text, "pl-tick", "middle", dy=16 + stagger * (k % 2))
        plot.text(i + 0.5, 0, f"Token {token}", "pl-axis", "middle", dy=36 + stagger)
    entries = [("pl-sd-q", "Entwurf q"), ("pl-sd-p", "Ziel p"), ("pl-sd-target", "Höhe von p"),
               ("pl-sd-acc", "Erg.: angenommen"), (corr_cls, "Erg.: Korrektur"), ("pl-sd-drawn", "gez.: echte Läufe")]
    if narrow:  # pairs that belong together side by side
        plot.front.append(_legend([entries[i] for i in (0, 1, 3, 4, 2, 5)], 16, 14, per_row=2, width=160))
    else:
        plot.front.append(_legend(entries, 60, 14, width=145))
    x_note = 16 if narrow else 60
    for k, note in enumerate(notes):
        plot.front.append(f'<text class="pl-label pl-sd-note" x="{x_note}" y="{58 + more + 18 * k}">'
                          f'{escape(note)}</text>')

    rate = fmt.exact(_read(r["rate_exact"]) * 100, 1, 1) + fmt.THIN_NBSP + "%"
    readouts = [
        Readout("rate", "Annahmerate Σ min(p, q)", rate, r["rate"], True),
        Readout("rejected", "Abgelehnte Masse", fmt.exact(_read(r["rejected_exact"]), 3), r["rejected"]),
        Readout("final", "Ergebnis (A; B; C)", _triple(r["final_exact"]), r["final"], True),
        Readout("distance", "Abstand des Ergebnisses zu p", fmt.exact(_read(r["distance_exact"]), fraction=True),
                r["distance"], True),
        Readout("freq", "Gezogen (Anteile A; B; C)", _triple(r["freq"], 3), r["freq"]),
        Readout("rate_measured", "Angenommen (gezählt)", fmt.pct(r["rate_measured"]), r["rate_measured"]),
    ]
    summary = _key_sentence(r, rate, notes)
    return View(plot.render(), readouts, summary, _table(r))


def _table(r: dict) -> str:
    rows = [
        ("Entwurf q(x)", [_read(v) for v in r["q_exact"]]),
        ("Ziel p(x)", [_read(v) for v in r["p_exact"]]),
        ("Annahme, falls vorgeschlagen: min(1, p/q)",
         [None if v is None else _read(v) for v in r["accept_prob_exact"]]),
        ("angenommen: min(p, q)", [_read(v) for v in r["accepted_exact"]]),
        ("Rest max(0, p − q)", [_near(v) for v in r["residual"]]),
        ("Korrektur-Verteilung " + ("(aus p)" if r["correction_mode"] == "plain" else "(Rest, normiert)"),
         [None] * 3 if r["correction"] is None else
         [_near(v) for v in r["correction"]]),
        ("Ergebnis = angenommen + " + fmt.exact(_read(r["rejected_exact"]), 3) + " × Korrektur",
         [_read(v) for v in r["final_exact"]]),
    ]
    cells = [[label] + [fmt.exact(v, fraction=True) for v in values] for label, values in rows]
    cells.append([f"gezogen ({fmt.de(r['trials'])} Durchläufe)"] + [fmt.de(f, 3) for f in r["freq"]])
    notes = "".join(f'<p class="pl-attn-note">{escape(n)}</p>' for n in r["notes"])
    return notes + table(["Token", *TOKENS], cells, caption="Die Bilanz einer Position, exakt gerechnet",
                         highlight=len(cells) - 1, row_heads=True, numeric=True, wide=True)


# -- the lesson ------------------------------------------------------------------------

HIGH_RATE = Fraction(9, 10)
NEAR_RATE = Fraction(4, 5)  # „fast“ for close_draft


_DEFAULT = {p.name: p.default for p in PARAMS}
_EXAMPLE_P = [str(x) for x in distribution(_DEFAULT["pa"], _DEFAULT["pb"])[0]]
_EXAMPLE_Q = [str(x) for x in distribution(_DEFAULT["qa"], _DEFAULT["qb"])[0]]


def _example_p_and_q(result) -> bool:
    return result["p_exact"] == _EXAMPLE_P and result["q_exact"] == _EXAMPLE_Q


def _close_draft(params, result) -> bool:
    return Fraction(result["rate_exact"]) >= HIGH_RATE and result["q_exact"] != result["p_exact"]


_PLAIN = dict(CORRECTIONS)["plain"]  # the wrong correction's label, as the page shows it


def _plain_would_be_lucky(params, result) -> bool:
    """The right correction is on, and the wrong one would hit p exactly with these p and q."""
    p, q = (list(map(Fraction, result[key])) for key in ("p_exact", "q_exact"))
    return (result["correction_mode"] == "residual" and p != q and not result["notes"]
            and balance(p, q, "plain")["distance"] == 0)


LESSON = Lesson(
    prediction=Prediction(
        question="Nach einer Ablehnung ziehst du einfach aus p statt aus dem Rest max(0, p − q). "
                 "Kommt trotzdem genau p heraus?",
        choices=("Ja, genau p", "Nein, A kommt zu oft", "Nein, A kommt zu selten"),
        answer=1,
        shown=lambda params, result: result["correction_mode"] == "plain" and _example_p_and_q(result),
        explain="A hat schon über die angenommenen Vorschläge genug bekommen. "
                "Die Korrektur aus p gibt A noch einmal etwas dazu.",
        example={"correction": "plain"},
        why_not=("Aus p zu ziehen klingt sicher, denn p ist ja das Ziel. Die angenommenen Vorschläge haben aber "
                 "schon einen Teil von p geliefert. Die Korrektur legt noch einmal p obendrauf.",
                 "",
                 "Der Entwurf schlägt A viel zu oft vor, und viele dieser Vorschläge werden abgelehnt. "
                 "Angenommen wird A aber genau so oft, wie p es erlaubt. Die Korrektur gibt A dann noch etwas dazu."),
    ),
    tasks=(
        Task("close_draft", f"Ändere den Entwurf q so, dass mindestens {fmt.de(HIGH_RATE, 1)} der Vorschläge "
                            "angenommen werden, ohne q gleich p zu setzen.",
             solved=_close_draft,
             explain="Die Annahmerate ist die Summe von min(p, q). "
                     "Je näher der Entwurf am Ziel liegt, desto seltener muss das große Modell korrigieren.",
             example={"qa": 0.25, "qb": 0.45},
             hints=("Schaue auf die Annahmerate Σ min(p, q).",
                    "Bei jedem Token zählt nur, was p und q beide haben. Wo q zu viel hat, geht der Überschuss verloren.",
                    "Schiebe „Entwurf q(A)“ und „Entwurf q(B)“ in kleinen Schritten näher an „Ziel p(A)“ und „Ziel p(B)“."),
             near=Near(lambda params, result: (NEAR_RATE <= Fraction(result["rate_exact"]) < HIGH_RATE
                                               and not result["notes"]),
                       f"Fast: Schon mindestens {fmt.de(NEAR_RATE, 1)} der Vorschläge werden angenommen. Schiebe q noch etwas näher an p.",
                       {"qa": 0.35, "qb": 0.4})),
        Task("all_rejected", "Finde Ziel und Entwurf, bei denen kein einziger Vorschlag angenommen wird.",
             solved=lambda params, result: result["rate_exact"] == "0" and not result["notes"],
             explain="Der Entwurf schlägt nur Tokens vor, die das Ziel nie wählt. "
                     "Trotzdem kommt genau p heraus, nur ganz ohne Zeitgewinn.",
             example={"pa": 0.0, "pb": 0.0, "qa": 0.5, "qb": 0.5},
             hints=("Angenommen wird nur bei Tokens, die p und q beide für möglich halten.",
                    "Das Ziel und der Entwurf dürfen sich also bei keinem Token überschneiden.",
                    "Setze zuerst „Ziel p(A)“ und „Ziel p(B)“ auf 0. Wohin muss der Entwurf dann?"),
             near=Near(lambda params, result: (0 < Fraction(result["rate_exact"]) <= Fraction(1, 10)
                                               and not result["notes"]),
                       "Fast: Nur noch wenige Vorschläge werden angenommen. "
                       "Auf 0 kommt die Rate erst, wenn sich p und q nirgends überschneiden.",
                       {"pa": 0.0, "pb": 0.0, "qa": 0.45, "qb": 0.45})),
        Task("plain_lucky", "Finde einen Fall, in dem auch die falsche Korrektur aus p genau p liefert, "
                            "obwohl q nicht gleich p ist.",
             solved=lambda params, result: (result["correction_mode"] == "plain" and result["distance_exact"] == "0"
                                            and result["q_exact"] != result["p_exact"] and not result["notes"]),
             explain="Das klappt nur, wenn min(p, q) überall derselbe Bruchteil von p ist. Hier legt q seinen Rest "
                     "auf ein Token, das p nie wählt. Im Allgemeinen verfälscht die falsche Korrektur p.",
             example={"correction": "plain", "pa": 0.5, "pb": 0.5, "qa": 0.25, "qb": 0.25},
             hints=(f"Stelle „Korrektur nach einer Ablehnung“ auf „{_PLAIN}“ und schaue auf „Abstand des Ergebnisses zu p“.",
                    "Angenommen wird bei jedem Token min(p, q). Wann legt die Korrektur aus p genau das Fehlende dazu?",
                    "Probiere ein Ziel, das nur A und B kennt, und einen Entwurf, der A und B im selben Verhältnis, "
                    "aber schwächer vorschlägt."),
             near=Near(_plain_would_be_lucky,
                       f"Fast: Mit diesen Verteilungen ginge es. Stelle die Korrektur jetzt auf „{_PLAIN}“.",
                       {"pa": 0.5, "pb": 0.5, "qa": 0.25, "qb": 0.25})),
    ),
    discussion=(
        "Warum lohnt sich das Verfahren nur, wenn das kleine Modell oft richtig rät?",
        "Ein Fehler in der Korrektur fällt in einzelnen Texten nicht auf. Wie könnte man ihn trotzdem entdecken?",
    ),
    teacher=(
        "Das große Modell prüft mehrere Vorschläge in einem Durchlauf. Ab der ersten Ablehnung ist der Rest "
        "verloren; Zeit spart man nur, wenn viele Vorschläge hintereinander angenommen werden.",
        "Man zählt viele Durchläufe und vergleicht die Häufigkeiten mit p, wie im Histogramm. "
        "Nur mit der richtigen Korrektur schwanken sie um p.",
    ),
    misconceptions=(
        "„Das kleine Modell verschlechtert die Qualität.“ – Nein, mit der richtigen Korrektur kommt "
        "genau die Verteilung des großen Modells heraus.",
        "„Nach einer Ablehnung lässt man einfach das große Modell neu ziehen.“ – Nein, dann kommen "
        "die Tokens zu oft heraus, die der Entwurf zu oft vorschlägt.",
    ),
)
