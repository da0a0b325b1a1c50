"""Continuous batching vs a fixed group: two slots, three requests, exact round-by-round schedule.

The example (CONCEPTS.md §13; Orca §3 „Iteration-level scheduling“):

* two slots; A ready at 0 needs 6 rounds, B ready at 0 needs 2, C ready at 1 needs 2;
* rounds are [t, t+1) of equal length; a request admitted at t works in rounds t, t+1, … and
  ends at t + rounds (semantics P, consistent with every stated figure);
* continuous: at every round boundary each free slot takes the earliest-ready waiting request
  (ties in the order A, B, C), so the batch changes between iterations;
* fixed group: a new group is admitted only when every member of the current group has finished;
* „ready“ means ready for the shown rounds: prefill and transfers are outside the model.

B's rounds are the article's slider (1–7, P); A's rounds and C's arrival and length are extra
controls (P). Both strategies do the same work; only the order in time differs.

Own case: 1–4 slots and up to six own requests A–F (rounds 1–8, arrival rounds 0–8; a missing
arrival is 0). The figure, the waits and the table then follow the watched request: C where there is
one, else the last; the table varies B (or the only request).
"""

from __future__ import annotations

import math

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, fewer_ticks
from ..kit.layout import width as figure_width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "continuous-batching"
TITLE = "Continuous Batching"
GROUP = "Die Inferenz-Engine"
TEASER = "Ein freier Platz im Batch wird sofort neu besetzt – statt auf den langsamsten der Gruppe zu warten."

SLOTS = 2
NAMES = ("A", "B", "C", "D", "E", "F")
ARTICLE = NAMES[:3]
WATCHED = "C"
LONGEST = 8  # rounds of one own request, and its latest arrival
STRATEGIES = (("continuous", "Continuous Batching"), ("fixed", "Feste Gruppe"))

PARAMS = (
    Param("b_rounds", "Runden für B", "int", 2, lo=1, hi=7, step=1,
          help="Wie viele Runden die Anfrage B braucht (im Beispiel 2)."),
    Param("a_rounds", "Runden für A", "int", 6, lo=1, hi=8, step=1,
          help="Wie viele Runden die lange Anfrage A braucht (im Beispiel 6)."),
    Param("c_ready", "C bereit ab Runde", "int", 1, lo=0, hi=6, step=1,
          help="Wann die dritte Anfrage C eintrifft (im Beispiel 1)."),
    Param("c_rounds", "Runden für C", "int", 2, lo=1, hi=6, step=1,
          help="Wie viele Runden C braucht (im Beispiel 2)."),
    Param("slots", "Plätze im Batch", "int", SLOTS, lo=1, hi=4, step=1,
          help="Wie viele Anfragen gleichzeitig rechnen (im Beispiel 2)."),
    Param("lengths", "Eigene Anfragen: Runden", "values", (), lo=1, hi=LONGEST, count=(1, len(NAMES)),
          whole=True, repeats=True, widget="z. B. 6; 2; 2; 4",
          help="Bis zu 6 Anfragen A bis F, je 1 bis 8 Runden. Dann gelten die Regler für A, B und C nicht."),
    Param("arrivals", "Eigene Anfragen: bereit ab Runde", "values", (), lo=0, hi=LONGEST, count=(1, len(NAMES)),
          whole=True, repeats=True, widget="z. B. 0; 0; 1; 3",
          help="Je Anfrage die Runde, ab der sie wartet (fehlt eine, gilt 0)."),
)

PRESETS = (
    Preset("Beispiel: B braucht 2 Runden", {}, "C muss bei Continuous Batching nicht auf A warten."),
    Preset("B braucht 6 Runden", {"b_rounds": 6}, "Kein Platz wird früher frei: beide Zeitpläne gleich."),
    Preset("B braucht 7 Runden", {"b_rounds": 7}, "Jetzt wartet C in der festen Gruppe sogar auf B."),
)


def schedule(requests, strategy: str, slots: int = SLOTS) -> dict:
    """requests: (name, ready, rounds) in priority order. Returns name → (slot, start, end)."""
    waiting = sorted(requests, key=lambda r: (r[1], NAMES.index(r[0]) if r[0] in NAMES else 99))
    free_at = [0] * slots  # when each slot becomes free
    out: dict[str, tuple[int, int, int]] = {}
    t = 0
    while waiting:
        ready = [r for r in waiting if r[1] <= t]
        if strategy == "continuous":
            free = [s for s in range(slots) if free_at[s] <= t]
        else:  # a fixed group starts only when the whole previous group has finished
            free = list(range(slots)) if max(free_at) <= t else []
        for slot, req in zip(free, ready):
            name, _, rounds = req
            out[name] = (slot, t, t + rounds)
            free_at[slot] = t + rounds
            waiting.remove(req)
        t += 1
    return out


def requests(a_rounds: int, b_rounds: int, c_ready: int, c_rounds: int, lengths=(), arrivals=()):
    """The article's A, B, C from the sliders, or the reader's own requests (a missing arrival is 0)."""
    if lengths:
        return tuple((name, arrivals[i] if i < len(arrivals) else 0, rounds)
                     for i, (name, rounds) in enumerate(zip(NAMES, lengths)))
    return (("A", 0, a_rounds), ("B", 0, b_rounds), ("C", c_ready, c_rounds))


def _varied(reqs, b: int):
    """The same requests with B (or the only one) taking b rounds: a row of the table."""
    vary = NAMES[min(1, len(reqs) - 1)]
    return tuple((n, r, b if n == vary else rounds) for n, r, rounds in reqs)


def _starts_ends(plan: dict, names) -> list:
    return [plan[n][1:] for n in names]


def compute(b_rounds: int = 2, a_rounds: int = 6, c_ready: int = 1, c_rounds: int = 2, slots: int = SLOTS,
            lengths: tuple = (), arrivals: tuple = ()) -> dict:
    reqs = requests(a_rounds, b_rounds, c_ready, c_rounds, lengths, arrivals)
    ready = {name: r for name, r, _ in reqs}
    watched = WATCHED if WATCHED in ready else reqs[-1][0]
    out: dict = {"b_rounds": b_rounds, "a_rounds": a_rounds, "c_ready": c_ready, "c_rounds": c_rounds,
                 "slots": slots, "own": bool(lengths), "requests": [list(r) for r in reqs],
                 "watched": watched, "watched_ready": ready[watched],
                 "unused_arrivals": max(0, len(arrivals) - len(lengths)) if lengths else len(arrivals)}
    for strategy, _ in STRATEGIES:
        s = schedule(reqs, strategy, slots)
        end = max(e for _, _, e in s.values())
        out[strategy] = {
            "runs": {n: {"slot": slot, "start": a, "end": b} for n, (slot, a, b) in s.items()},
            "c_wait": s[watched][1] - ready[watched],
            "mean_finish": sum(b - ready[n] for n, (_, _, b) in s.items()) / len(s),
            "makespan": end,
            "idle": slots * end - sum(r for _, _, r in reqs),
        }
    out["same"] = out["continuous"]["runs"] == out["fixed"]["runs"]
    names = [n for n, _, _ in reqs]
    out["table"] = [{"b": b, **{k: _starts_ends(schedule(_varied(reqs, b), k, slots), names) for k, _ in STRATEGIES}}
                    for b in range(1, 8)]
    return out


def _gantt(parts, y0, title, runs, horizon, x0, scale, c_ready, label_px=64, slots=SLOTS, watched=WATCHED):
    parts.append(svg.text(x0, y0 - 8, title, "pl-label pl-cb-head"))
    for slot in range(slots):
        y = y0 + slot * 34
        parts.append(svg.text(x0 - 8, y + 19, f"Platz {slot + 1}", "pl-label pl-cb-small", "end"))
        parts.append(f'<rect class="pl-cb-lane" x="{x0}" y="{y}" width="{horizon * scale}" height="28"/>')
    for name, run in runs.items():
        y = y0 + run["slot"] * 34
        x, w = x0 + run["start"] * scale, (run["end"] - run["start"]) * scale
        parts.append(f'<rect class="pl-cb-req pl-cb-{name.lower()}" x="{x + 1:.1f}" y="{y + 1}" width="{w - 2:.1f}" '
                     f'height="26" rx="4"><title>{name}: {run["start"]} bis {run["end"]}</title></rect>')
        parts.append(svg.text(x + w / 2, y + 19, f"{name} {run['start']}→{run['end']}" if w >= label_px else name,
                              "pl-label pl-cb-reqlabel", "middle"))
    c = runs[watched]
    if c["start"] > c_ready:  # C's wait, drawn as a dashed bracket in its slot
        y = y0 + c["slot"] * 34 + 31
        parts.append(f'<line class="pl-cb-wait" x1="{x0 + c_ready * scale:.1f}" y1="{y}" '
                     f'x2="{x0 + c["start"] * scale:.1f}" y2="{y}"/>')


def _verdict(r: dict, cont_span: str, fixed_span: str) -> str:
    """What the two schedules mean for the watched request: whether it takes a slot as soon as one is
    free or waits for the whole fixed group, and what that does to the mean time until done."""
    w, cont, fixed = r["watched"], r["continuous"], r["fixed"]
    if r["same"]:
        return (f"{w} läuft in beiden Zeitplänen {cont_span}. Kein Platz wird früher frei, "
                "darum bringt Continuous Batching hier nichts.")
    starts = cont["runs"][w]["start"], fixed["runs"][w]["start"]
    if starts[0] < starts[1]:
        text = (f"Bei Continuous Batching beginnt {w}, sobald ein Platz frei ist, und läuft {cont_span}; in der "
                f"festen Gruppe wartet {w} auf die ganze Gruppe und läuft erst {fixed_span}.")
    else:
        text = (f"{w} läuft bei Continuous Batching {cont_span}, in der festen Gruppe {fixed_span}; "
                "die Zeitpläne der anderen unterscheiden sich.")
    return text + (f" Im Mittel ist eine Anfrage nach {fmt.de_auto(cont['mean_finish'])} statt "
                   f"{fmt.de_auto(fixed['mean_finish'])} Runden fertig.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure has rounds about half as wide: a request's label "B 0→2" still fits into 44 px,
    # and the axis names every second round where they would crowd
    narrow = layout == NARROW
    horizon = max(r["continuous"]["makespan"], r["fixed"]["makespan"], 8)
    x0, width = 70, figure_width(480, layout)
    scale = (width - x0 - 14) / horizon
    label_px = 44 if narrow else 64
    slots, watched, arrival = r["slots"], r["watched"], r["watched_ready"]
    lanes = slots * 34  # 2 slots: the panels at 26 and 130, the axis at 226, as before own inputs
    parts: list[str] = []
    _gantt(parts, 26, "Continuous Batching", r["continuous"]["runs"], horizon, x0, scale, arrival, label_px,
           slots, watched)
    _gantt(parts, 62 + lanes, "Feste Gruppe", r["fixed"]["runs"], horizon, x0, scale, arrival, label_px,
           slots, watched)
    axis_y = 90 + 2 * lanes
    every = max(1, math.ceil(24 / scale))  # many own rounds: no numbers on top of each other
    for t in fewer_ticks(range(0, horizon + 1, every), layout, horizon * scale, least_px=24):
        x = x0 + t * scale
        parts.append(f'<line class="pl-cb-tick" x1="{x:.1f}" y1="20" x2="{x:.1f}" y2="{axis_y - 6}"/>')
        parts.append(svg.text(x, axis_y + 8, str(t), "pl-label pl-cb-small", "middle"))
    cx = x0 + arrival * scale
    parts.append(f'<line class="pl-cb-arrival" x1="{cx:.1f}" y1="20" x2="{cx:.1f}" y2="{axis_y - 4}"/>')
    parts.append(svg.text(cx + 4, axis_y - 10, f"{watched} bereit", "pl-label pl-cb-small pl-cb-arrival-text"))
    parts.append(svg.text((x0 + width) / 2, axis_y + 28, "Runde (Zeit)", "pl-axis", "middle"))
    height = axis_y + 36
    figure = svg.figure(width, height, parts, cls="pl-cb", layout=layout,
                        label=f"Belegung {_SLOTS_WORDS[slots]} über die Runden, oben Continuous Batching, "
                              "unten feste Gruppe")

    cont, fixed = r["continuous"], r["fixed"]
    def span(s, n):
        run = s["runs"][n]
        return f"{run['start']}→{run['end']}"
    w = watched
    readouts = [
        Readout("c_cont", f"{w} bei Continuous Batching", span(cont, w), cont["runs"][w], True),
        Readout("c_fixed", f"{w} in der festen Gruppe", span(fixed, w), fixed["runs"][w], True),
        Readout("c_wait", f"Wartezeit von {w} (kontinuierlich / fest)",
                f"{cont['c_wait']} / {fixed['c_wait']} Runden", [cont["c_wait"], fixed["c_wait"]]),
        Readout("mean", "Mittlere Zeit bis fertig (kontinuierlich / fest)",
                f"{fmt.de_auto(cont['mean_finish'])} / {fmt.de_auto(fixed['mean_finish'])} Runden",
                [cont["mean_finish"], fixed["mean_finish"]]),
        Readout("same", "Gleicher Zeitplan?", "ja" if r["same"] else "nein", r["same"], True),
    ]
    names = [n for n, _, _ in r["requests"]]
    vary = names[min(1, len(names) - 1)]
    rounds = {n: rounds for n, _, rounds in r["requests"]}[vary]
    at = names.index(w)
    rows = [[row["b"]] + [f"{a}→{b}" for k in ("continuous", "fixed") for a, b in [row[k][at]]]
            + ["ja" if row["continuous"] == row["fixed"] else "nein"] for row in r["table"]]
    extra = table((vary, f"{w} kontinuierlich", f"{w} feste Gruppe", "gleich?"), rows,
                  caption=f"{w} für jede Länge von {vary} (übrige Werte wie eingestellt)", row_heads=True,
                  numeric=True, highlight=[i for i, row in enumerate(r["table"]) if row["b"] == rounds])
    if r["own"]:
        told = ", ".join(f"{n}: {_rounds(rounds)} ab Runde {ready}" for n, ready, rounds in r["requests"])
        start = (f"Eigene Anfragen auf {_ON_SLOTS[slots]} ({told}). "
                 + ("" if not r["unused_arrivals"] else
                    f"{r['unused_arrivals']} Ankunftsrunde{'n' if r['unused_arrivals'] > 1 else ''} ohne Anfrage "
                    "bleib" + ("en" if r["unused_arrivals"] > 1 else "t") + " unbenutzt. "))
    else:
        start = (f"B braucht {r['b_rounds']} Runden, C ist ab Runde {r['c_ready']} bereit"
                 + ("" if slots == SLOTS else f", auf {_ON_SLOTS[slots]}") + ": ")
        if r["unused_arrivals"]:
            start = "Ankunftsrunden gelten nur mit eigenen Anfragen. " + start
    summary = start + _verdict(r, span(cont, w), span(fixed, w))
    # the table has C for every length of B, the one the lesson's guess asks about too
    return View(figure, readouts, summary, extra, extra_answers=True)


_SLOTS_WORDS = {1: "des einen Platzes", 2: "der zwei Plätze", 3: "der drei Plätze", 4: "der vier Plätze"}
def _rounds(n: int) -> str:
    return "1 Runde" if n == 1 else f"{n} Runden"


_ON_SLOTS = {1: "einem Platz", 2: "zwei Plätzen", 3: "drei Plätzen", 4: "vier Plätzen"}


# -- the lesson ---------------------------------------------------------------------------

def _c_end(result, strategy: str) -> int:
    return result[strategy]["runs"]["C"]["end"]


def _gain(result) -> int:
    """How many rounds earlier C is done with continuous batching than in the fixed group."""
    return _c_end(result, "fixed") - _c_end(result, "continuous")


def _untouched(params, *names) -> bool:
    """The named sliders as in the article, and the article's own requests and slots (the tasks speak of them)."""
    defaults = {p.name: p.default for p in PARAMS}
    return all(params[n] == defaults[n] for n in (*names, "slots", "lengths"))


LESSON = Lesson(
    prediction=Prediction(
        question="B braucht jetzt genauso viele Runden wie A. Mit welchem Zeitplan ist C früher fertig?",
        choices=("mit Continuous Batching", "mit der festen Gruppe", "mit beiden gleich früh"),
        answer=2,
        shown=lambda params, result: params["b_rounds"] == params["a_rounds"] and _untouched(params),
        explain="A und B machen ihre Plätze zur selben Zeit frei. Es gibt keine Lücke, "
                "die Continuous Batching füllen könnte.",
        example={"b_rounds": 6},
        why_not=("Im Beispiel mit 2 Runden für B gewinnt Continuous Batching, das liegt nahe. Hier werden A und B aber "
                 "in derselben Runde fertig. Kein Platz wird früher frei, und C startet in beiden Zeitplänen in Runde 6.",
                 "Die feste Gruppe wirkt geordneter, weil der Batch nie wechselt. Schneller wird C dadurch nicht: "
                 "Es läuft in beiden Zeitplänen von Runde 6 bis 8.",
                 ""),
    ),
    tasks=(
        Task("late_c", "Lass A bei 6 und B bei 2 Runden. Ändere nur, wann C kommt, bis beide Zeitpläne gleich sind.",
             solved=lambda params, result: _untouched(params, "a_rounds", "b_rounds") and result["same"],
             explain="Kommt C erst, wenn auch A fertig ist, wartet niemand auf einen freien Platz. Continuous "
                     "Batching hilft nur, wenn eine Anfrage wartet, während ein Platz leer steht.",
             example={"c_ready": 6},
             hints=("Vergleiche „C bei Continuous Batching“ mit „C in der festen Gruppe“.",
                    "Continuous Batching gewinnt nur, wenn C wartet, während ein Platz leer steht. "
                    "Ab wann gibt es diese Lücke nicht mehr?",
                    "Schiebe „C bereit ab Runde“ nach rechts."),
             near=Near(lambda params, result: _untouched(params, "a_rounds", "b_rounds") and _gain(result) == 1,
                       "Fast: Mit Continuous Batching ist C nur noch eine Runde früher fertig.",
                       {"c_ready": 5})),
        Task("big_gain", "Finde eine Einstellung, bei der C mit Continuous Batching mindestens 6 Runden früher "
                         "fertig ist als in der festen Gruppe.",
             solved=lambda params, result: (_untouched(params)
                                            and _gain(result) >= 6),
             explain="Je länger A dauert und je früher B fertig ist, desto länger stünde der Platz von B leer. "
                     "Genau diese Lücke nutzt Continuous Batching.",
             example={"a_rounds": 8},
             hints=("Der Gewinn ist der Abstand zwischen den Enden von C in beiden Zeitplänen.",
                    "In der festen Gruppe wartet C, bis A fertig ist. Mit Continuous Batching wartet C nur auf B.",
                    "Verändere „Runden für A“ und „Runden für B“ so, dass die beiden weit auseinanderliegen."),
             near=Near(lambda params, result: _untouched(params) and _gain(result) == 5,
                       "Fast: C ist schon 5 Runden früher fertig. Es fehlt noch eine Runde.",
                       {"a_rounds": 7})),
    ),
    discussion=(
        "Bei welchen Anfragen bringt Continuous Batching viel, bei welchen fast nichts?",
        "Beide Zeitpläne rechnen gleich viele Runden. Warum ist der eine trotzdem besser?",
    ),
    teacher=(
        "Viel bringt es, wenn Anfragen sehr verschieden lang sind und laufend neue ankommen. Sind alle "
        "gleich lang oder kommen neue erst, wenn alle fertig sind, gibt es keine Lücken zu füllen.",
        "Die Arbeit ist gleich, aber die freien Plätze werden früher wieder genutzt. Dadurch warten "
        "Anfragen kürzer, und die mittlere Zeit bis zur fertigen Antwort sinkt.",
    ),
    misconceptions=(
        "„Continuous Batching rechnet jede Anfrage schneller.“ Jede Anfrage braucht gleich viele Runden. "
        "Gewonnen wird Durchsatz: Frei gewordene Plätze werden sofort belegt. Eine wartende Anfrage kann "
        "dadurch früher starten, muss aber nicht.",
        "„Eine feste Gruppe ist immer langsamer.“ Bei gleich langen Anfragen sind beide Zeitpläne gleich.",
    ),
)
