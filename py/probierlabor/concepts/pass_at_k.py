"""pass@k: n collected attempts with c successes, every group of k attempts counted exactly.

The article's example (CONCEPTS.md §12): four runs, one success. pass@1 is 1/4; of the six
possible pairs three contain the success, so pass@2 is 1/2.

The estimator of Chen et al. (2021) for one task is

    pass@k = 1 − C(n − c, k) / C(n, k),

the share of all k-subsets of the n collected attempts that contain at least one success
(C(n − c, k) subsets consist of failures only). Everything here is an exact ``Fraction``;
``math.comb`` makes it instant for any n, while the drawing shows at most ``DRAW_MAX``
subsets (evenly spread over the lexicographic list when there are more) and says so.

n (attempts *collected* to estimate) and k (attempts *allowed* in the measured setting)
are different numbers: for k > n there is no k-subset, and pass@k cannot be estimated
from these n attempts. That case is a result („nicht schätzbar“), not an error.
"""

from __future__ import annotations

import random
import textwrap
from fractions import Fraction
from functools import partial
from html import escape
from itertools import combinations
from math import comb

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE
from ..kit.layout import width as figure_width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "pass-at-k"
TITLE = "pass@k"
GROUP = "Lernen und Bewerten"
TEASER = "Mindestens einer von k Versuchen besteht: abgezählt an allen Gruppen aus k Versuchen."

N_MAX = 20
DRAW_MAX = 36  # subsets drawn at most; all of them are counted
DEFAULT_SEED = 7  # where the successes sit; pass@k does not depend on it

PARAMS = (
    Param("n", "Gesammelte Versuche n", "int", 4, lo=1, hi=N_MAX, step=1,
          help="So viele Versuche wurden für die Schätzung erzeugt und geprüft."),
    Param("c", "Davon bestanden c", "int", 1, lo=0, hi=N_MAX, step=1,
          help="Wie viele der gesammelten Versuche die Prüfung bestehen (höchstens n)."),
    Param("k", "Erlaubte Versuche k", "int", 2, lo=1, hi=N_MAX, step=1,
          help="Das Budget der gemessenen Situation: so viele Versuche hätte man pro Aufgabe."),
    Param("seed", "Erfolge neu verteilen", "seed", DEFAULT_SEED,
          help="Andere Versuche bestehen – ändert das pass@k?"),
)

PRESETS = (
    Preset("Von vorn", {}, "Vier Läufe, ein Erfolg, k = 2."),
    Preset("pass@1", {"k": 1}, "Vier Läufe, ein Erfolg, ein erlaubter Versuch."),
    Preset("pass@2", {"k": 2}, "Vier Läufe, ein Erfolg: drei von sechs Paaren."),
    Preset("Alle vier", {"k": 4}, "k = n: zählt nur, ob irgendeiner der vier gelang."),
    Preset("Budget größer als Stichprobe", {"k": 10},
           "Zehn erlaubte Versuche lassen sich aus vier gesammelten nicht schätzen."),
    Preset("20 Versuche", {"n": 20, "c": 3, "k": 5}, "Viele Gruppen: gezeichnet wird eine Auswahl."),
)


# -- the mathematics ----------------------------------------------------------------

def estimate(n: int, c: int, k: int) -> Fraction | None:
    """Chen et al.'s unbiased estimator; None when k > n (no k-subset exists)."""
    if not (0 <= c <= n) or k < 1:
        raise ValueError("Es muss 0 ≤ c ≤ n und k ≥ 1 gelten.")
    if k > n:
        return None
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def naive(n: int, c: int, k: int) -> Fraction:
    """The plug-in 1 − (1 − c/n)^k: biased low (Jensen), shown only for contrast."""
    return 1 - (1 - Fraction(c, n)) ** k


def subsets_with_success(n: int, successes, k: int) -> tuple[int, int]:
    """(subsets containing a success, all subsets), counted by enumeration. For tests and small n."""
    wins = set(successes)
    total = hit = 0
    for group in combinations(range(n), k):
        total += 1
        hit += any(i in wins for i in group)
    return hit, total


def unrank(n: int, k: int, index: int) -> tuple[int, ...]:
    """The index-th k-subset of range(n) in the lexicographic order of itertools.combinations."""
    out, start = [], 0
    for slot in range(k):
        for first in range(start, n):
            block = comb(n - first - 1, k - slot - 1)  # subsets that begin with `first` here
            if index < block:
                out.append(first)
                start = first + 1
                break
            index -= block
    return tuple(out)


def successes_at(n: int, c: int, seed: int) -> list[int]:
    """Which of the n attempts passed (0-based, sorted): c positions drawn with the seed."""
    return sorted(random.Random(seed).sample(range(n), c))


EXAMPLE_TASKS = ((4, 1), (4, 0), (4, 2))  # the page's benchmark of three tasks: (n, c) each


def over_tasks(k: int, counts=EXAMPLE_TASKS) -> dict:
    """pass@k averaged over tasks, each given as (n, c): the benchmark's number."""
    values = [estimate(n, c, k) for n, c in counts]
    mean = sum(values, Fraction(0)) / len(values)
    return {"mean": mean, "values": values, **{f"task_{i}": v for i, v in enumerate(values)}}


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


# -- the experiment -------------------------------------------------------------------

def compute(n: int = 4, c: int = 1, k: int = 2, seed: int = DEFAULT_SEED) -> dict:
    c_used = min(c, n)
    wins = successes_at(n, c_used, seed)
    total = comb(n, k)  # 0 when k > n
    hit = total - comb(n - c_used, k)
    est = estimate(n, c_used, k)
    shown = []
    if total:
        indices = range(total) if total <= DRAW_MAX else sorted({i * total // DRAW_MAX for i in range(DRAW_MAX)})
        winset = set(wins)
        for i in indices:
            group = unrank(n, k, i)
            shown.append({"members": list(group), "hit": any(g in winset for g in group)})
    curve = [estimate(n, c_used, j) for j in range(1, n + 1)]
    return {
        "n": n,
        "c": c,
        "c_used": c_used,
        "c_clamped": c > n,
        "k": k,
        "estimable": est is not None,
        "successes": wins,
        "subsets_total": total,
        "subsets_hit": hit,
        "pass_k": None if est is None else float(est),
        "pass_k_exact": _frac(est),
        "naive": float(naive(n, c_used, k)),
        "naive_exact": str(naive(n, c_used, k)),
        "pass_n": float(estimate(n, c_used, n)),
        "shown": shown,
        "capped": len(shown) < total,
        "curve": [float(v) for v in curve],
        "curve_exact": [str(v) for v in curve],
        "naive_curve": [float(naive(n, c_used, j)) for j in range(1, n + 1)],
    }


# pass@k counts subsets: the fraction stays beside its decimal (1/2 = 0,5; 7/16 ≈ 0,438).
exact_text = partial(fmt.exact, most=3, fraction=True, equals=True)


def _of(k: int) -> str:
    return "aus 1 Versuch" if k == 1 else f"aus {k} Versuchen"


def _reading(r: dict, est: str) -> str:
    """What the groups say about the budget k: the plain success rate at k = 1, a larger share for
    more attempts, and the cases where the number says less than it seems (one group, no failure left)."""
    n, c, k = r["n"], r["c_used"], r["k"]
    if not r["estimable"]:
        return f"Erlaubt sind aber k = {k} Versuche, mehr als gesammelt: pass@{k} lässt sich daraus nicht schätzen."
    groups = f"{fmt.de(r['subsets_hit'])} von {fmt.de(r['subsets_total'])} Gruppen {_of(k)} enthalten einen Erfolg"
    if c == 0:
        return f"Keine der {fmt.de(r['subsets_total'])} Gruppen {_of(k)} enthält einen Erfolg: pass@{k} = 0."
    if k == 1:
        return f"{groups}: pass@1 = {est}, genau die Erfolgsquote eines einzelnen Versuchs."
    if k == n:
        return (f"Bei k = {k} gibt es nur eine Gruppe, alle gesammelten Versuche: pass@{k} = 1 sagt nur, "
                "dass unter ihnen ein Erfolg war.")
    if n - c < k:
        return (f"Alle {fmt.de(r['subsets_total'])} Gruppen {_of(k)} enthalten einen Erfolg, denn es gibt weniger "
                f"Fehlversuche als k = {k}: pass@{k} = 1.")
    return f"{groups}: pass@{k} = {est}, mehr als pass@1 = {exact_text(Fraction(c, n))} für einen einzelnen Versuch."


def view(r: dict, layout: str = WIDE) -> View:
    figure = _figure(r, layout)
    n, c, k = r["n"], r["c_used"], r["k"]
    if r["estimable"]:
        est = exact_text(r["pass_k_exact"])
        groups = f"{fmt.de(r['subsets_hit'])} von {fmt.de(r['subsets_total'])}"
    else:
        est = "nicht schätzbar"
        groups = "keine (k > n)"
    readouts = [
        # labels are fixed text (the page swaps only the values), so k and n go into the values
        Readout("pass_k", "pass@k, geschätzt", f"pass@{k}: {est}", r["pass_k"], True),
        Readout("groups", "Gruppen aus k Versuchen mit Erfolg", groups, r["subsets_hit"], True),
        Readout("naive", "Naiv: 1 − (1 − c/n)^k (verzerrt)", exact_text(r["naive_exact"]), r["naive"]),
        Readout("pass_n", "„Einer der n gesammelten gelang“", f"pass@{n} = {fmt.de_auto(r['pass_n'], 3)}",
                r["pass_n"]),
    ]
    where = ", ".join(str(i + 1) for i in r["successes"])
    lead = (f"{c} von {n} gesammelten Versuchen bestanden" + (f" (Nr. {where})" if where else "")
            + (f" (eingestellt waren {r['c']}, es gibt aber nur {n})" if r["c_clamped"] else ""))
    summary = f"{lead}. " + _reading(r, est)
    # the curve gives pass@j for every j, the one the lesson's guess asks about too
    return View(figure, readouts, summary, _curve(r, layout), extra_answers=True)


# -- figures ------------------------------------------------------------------------

W = 480


def _figure(r: dict, layout: str) -> str:
    # a narrow figure: the attempts at phone width, long lines broken, the legend in two rows
    narrow = layout == NARROW
    fw = figure_width(W, layout)
    n, k = r["n"], r["k"]
    wins = set(r["successes"])
    parts: list[str] = []
    # the n collected attempts
    gap = 4
    tile = min(44.0, (fw - 24 - gap * (n - 1)) / n)
    x0 = (fw - (n * tile + (n - 1) * gap)) / 2
    head = (f"Gesammelte Versuche: n = {n},", f"davon bestanden c = {r['c_used']}")
    top = 48 if narrow else 30  # where the attempts start
    if narrow:
        parts += [f'<text class="pl-axis" x="12" y="{20 + 18 * j}">{text}</text>' for j, text in enumerate(head)]
    else:
        parts.append(f'<text class="pl-axis" x="12" y="20">{" ".join(head)}</text>')
    for i in range(n):
        x = x0 + i * (tile + gap)
        ok = i in wins
        parts.append(f'<rect class="pl-pk-tile {"pl-pk-ok" if ok else "pl-pk-fail"}" x="{x:.1f}" y="{top}" '
                     f'width="{tile:.1f}" height="{tile:.1f}" rx="4"><title>Versuch {i + 1}: '
                     f'{"bestanden" if ok else "nicht bestanden"}</title></rect>')
        if tile >= 18:
            parts.append(f'<text class="pl-pk-mark" x="{x + tile / 2:.1f}" y="{top + tile / 2 + 5:.1f}" '
                         f'text-anchor="middle">{"✓" if ok else "✗"}</text>')
        parts.append(f'<text class="pl-tick" x="{x + tile / 2:.1f}" y="{top + tile + 14:.1f}" '
                     f'text-anchor="middle">{i + 1 if tile >= 16 or (i + 1) % 5 == 0 or i == 0 else ""}</text>')
    y = top + tile + 40
    if not r["estimable"]:
        lines = [f"Erlaubt sind k = {k} Versuche, gesammelt wurden nur n = {n}.",
                 f"Keine Gruppe {_of(k)} lässt sich bilden:",
                 f"pass@{k} ist aus diesen Daten nicht schätzbar.",
                 f"Dafür braucht man mindestens {k} gesammelte Versuche je Aufgabe."]
        # a narrow figure breaks a long line in two; the verdict (the third) keeps its colour
        shown = [(j, part) for j, line in enumerate(lines) for part in (textwrap.wrap(line, 42) if narrow else [line])]
        for row, (j, line) in enumerate(shown):
            parts.append(f'<text class="pl-label{" pl-pk-warn" if j == 2 else ""}" x="{fw / 2}" '
                         f'y="{y + 8 + 22 * row}" text-anchor="middle">{escape(line)}</text>')
        height = y + 8 + 22 * len(shown)
    else:
        shown = r["shown"]
        head = (f"Alle {fmt.de(r['subsets_total'])} Gruppen aus k = {k}: "
                f"{fmt.de(r['subsets_hit'])} mit Erfolg")
        parts.append(f'<text class="pl-axis" x="12" y="{y - 8:.0f}">{escape(head)}</text>')
        cell = max(5.0, min(24.0, 120.0 / n))
        pad = 1.5 if n <= 10 else 1.0
        row_w = n * cell + (n - 1) * pad + 10
        cols = max(1, min(6, int((fw - 20 + 8) // (row_w + 8)), len(shown)))
        row_h = cell + 12
        width_used = cols * row_w + (cols - 1) * 8
        left = (fw - width_used) / 2
        # Up to 36 groups of 20 cells: each cell's x repeats in every row of its column, and its kind and
        # size in many cells, so they are written once (a cell's own formatting was most of the page's render).
        # A cell outside its group (most cells) has no class, its look comes from the group's
        # (pass_at_k.css), and numbers drop a trailing ".0": the same picture in about half the markup
        # that the browser parses and checks at every slider step.
        gxs = [left + col * (row_w + 8) for col in range(cols)]
        cell_x = [[_num(gx + 5 + i * (cell + pad)) for i in range(n)] for gx in gxs]
        size = f'width="{_num(cell)}" height="{_num(cell)}" rx="{_num(min(3, cell / 4))}"/>'
        frame_size = f'width="{row_w:.1f}" height="{cell + 8:.1f}" rx="3"/>'
        off = "" if cell >= 10 else " pl-pk-tiny"
        kinds = [' class="pl-pk-ok"' if i in wins else ' class="pl-pk-fail"' for i in range(n)]
        for j, group in enumerate(shown):
            col, row = j % cols, j // cols
            gx, gy = gxs[col], y + row * row_h
            members = set(group["members"])
            cls = "pl-pk-group pl-pk-hit" if group["hit"] else "pl-pk-group pl-pk-miss"
            label = "mit Erfolg" if group["hit"] else "ohne Erfolg"
            names = ", ".join(str(m + 1) for m in group["members"])
            parts.append(f'<g class="{cls}{off}"><title>Versuche {names}: {label}</title>'
                         f'<rect class="pl-pk-frame" x="{gx:.1f}" y="{gy:.1f}" {frame_size}')
            xs, tail = cell_x[col], f'" y="{_num(gy + 4)}" {size}'
            parts += [f'<rect{kinds[i] if i in members else ""} x="{xs[i]}{tail}' for i in range(n)]
            parts.append("</g>")
        rows = -(-len(shown) // cols)
        height = y + rows * row_h + 6
        if r["capped"]:
            note = (f"Gezeichnet: {len(shown)} von {fmt.de(r['subsets_total'])} Gruppen, gleichmäßig aus der Liste "
                    f"gewählt; gezählt sind alle.")
            for line in textwrap.wrap(note, 50) if narrow else [note]:
                parts.append(f'<text class="pl-pk-note" x="{fw / 2}" y="{height + 10:.0f}" text-anchor="middle">'
                             f"{escape(line)}</text>")
                height += 20
    legend_y = height + 12
    legend = [("pl-pk-ok", "bestanden"), ("pl-pk-fail", "nicht bestanden"), ("pl-pk-off", "nicht in der Gruppe")]
    lx = 12
    for j, (cls, text) in enumerate(legend):
        if narrow and j == 2:  # the third entry in a row of its own
            lx, legend_y = 12, legend_y + 20
        parts.append(svg.key(lx, legend_y, f"pl-pk-cell {cls}", text, rx=1.5))
        lx += 30 + len(text) * 6.8
    height = legend_y + 10
    label = (f"{r['c_used']} von {n} Versuchen bestanden; Gruppen {_of(k)}"
             + ("" if r["estimable"] else ", nicht bildbar"))
    return svg.figure(fw, height, parts, label=label, cls="pl-pk", layout=layout)


def _num(v: float) -> str:
    """v to one decimal, as the figure always wrote it, without a trailing ".0"."""
    return f"{v:.1f}".removesuffix(".0")


def _curve(r: dict, layout: str) -> str:
    """pass@j for every budget j = 1 … n (bars) against the naive plug-in (line)."""
    n = r["n"]
    plot = svg.Plot(320, 230, (0.4, n + 0.6), (0, 1.42), label="pass@j für jedes Budget j",
                    margin=(14, 14, 42, 48), layout=layout)
    step = 1 if n <= 10 else 2 if n <= 20 else 5
    plot.grid(xticks=range(1, n + 1, step), yticks=[0, 0.25, 0.5, 0.75, 1],
              xlabel="erlaubte Versuche j", ylabel="pass@j", xfmt=fmt.tick,
              yfmt=lambda v: fmt.de_auto(v) if v else "0")
    half = min(0.38, 0.38 * 10 / max(n, 10) + 0.05)
    for j, value in enumerate(r["curve"], start=1):
        cls = "pl-pk-bar pl-pk-current" if j == r["k"] else "pl-pk-bar"
        x1, x2 = plot.px(j - half), plot.px(j + half)
        top, bottom = plot.py(value), plot.py(0)
        plot.body.append(f'<rect class="{cls}" x="{x1:.1f}" y="{top:.1f}" width="{x2 - x1:.1f}" '
                         f'height="{bottom - top:.1f}"><title>pass@{j}: {escape(exact_text(r["curve_exact"][j - 1]))}'
                         f"</title></rect>")
    plot.polyline([(j, v) for j, v in enumerate(r["naive_curve"], start=1)], "pl-pk-naive")
    for j, v in enumerate(r["naive_curve"], start=1):
        plot.point(j, v, 2.5, "pl-pk-naive-dot")
    plot.legend([("pl-pk-bar-key", "Schätzung (Teilmengen)"), ("pl-pk-naive", "naiv 1 − (1 − c/n)^j")], corner="tl")
    return plot.render()


# -- the lesson ---------------------------------------------------------------------------

def _smallest_sure_k(params, result) -> bool:
    """k is the first budget at which every group holds a success: one more than the failures."""
    n, c = result["n"], result["c_used"]
    return 0 < c < n and result["k"] == n - c + 1 and result["pass_k_exact"] == "1"


def _naive_far_below(params, result) -> bool:
    return result["estimable"] and Fraction(result["pass_k_exact"]) - Fraction(result["naive_exact"]) > Fraction(1, 10)


def _one_step_from_the_smallest_sure_k(params, result) -> bool:
    """k is one below the answer (exactly one group without a success) or one above it, within n."""
    n, c, k = result["n"], result["c_used"], result["k"]
    return 0 < c < n and k <= n and abs(k - (n - c + 1)) == 1


LESSON = Lesson(
    prediction=Prediction(
        question="Vier Läufe, ein Erfolg: Bei k = 2 ist pass@k = 1/2. Was kommt bei k = 3 heraus?",
        choices=("1/2, wie bei k = 2", "etwa 0,58", "3/4", "1"),
        answer=2,
        shown=lambda params, result: (result["n"], result["c_used"], result["k"]) == (4, 1, 3),
        explain="Von den vier Gruppen aus drei Versuchen fehlt der Erfolg nur in einer. "
                "Die etwa 0,58 liefert die naive Formel, die zu tief liegt.",
        example={"k": 3},
        why_not=("Ein einzelner Erfolg bleibt ein Erfolg, das stimmt. Aber eine Gruppe aus drei Versuchen "
                 "enthält ihn öfter als ein Paar. Bei k = 3 fehlt er nur noch in einer von vier Gruppen.",
                 "So viel liefert die naive Formel 1 − (1 − 1/4)³. Sie zieht, als könnte derselbe Versuch "
                 "mehrmals drankommen. Eine Gruppe enthält aber drei verschiedene Versuche.",
                 "",
                 "Dann müsste jede Gruppe den Erfolg enthalten. Drei aus vier Versuchen lassen aber einen weg, "
                 "und in einer der vier Gruppen ist das genau der Erfolg."),
    ),
    tasks=(
        Task("sure", "Finde das kleinste k, bei dem pass@k genau 1 wird, obwohl nicht alle Versuche bestehen.",
             solved=_smallest_sure_k,
             explain="Ist k größer als die Zahl der Fehlversuche, muss jede Gruppe einen Erfolg enthalten.",
             example={"k": 4},
             hints=("Schaue auf die Gruppen im Bild: Welche bleiben ohne Erfolg?",
                    "Zähle die Fehlversuche. Eine Gruppe ohne Erfolg kann nur aus ihnen bestehen.",
                    "Erhöhe „Erlaubte Versuche k“ Schritt für Schritt und beobachte die Gruppen ohne Erfolg."),
             near=Near(_one_step_from_the_smallest_sure_k,
                       "Fast: Du liegst bei k nur einen Schritt daneben. Prüfe, ob pass@k schon 1 ist "
                       "und ob ein kleineres k auch reicht.",
                       {"k": 3})),
        Task("unknown", "Wähle ein Budget k, über das deine gesammelten Versuche nichts sagen.",
             solved=lambda params, result: not result["estimable"],
             explain="Aus n Versuchen gibt es keine Gruppe mit mehr als n Versuchen. "
                     "Für dieses k musst du mehr Versuche sammeln.",
             example={"k": 5},
             hints=("Schau, wie viele Versuche in einer Gruppe höchstens stecken können.",
                    "Eine Gruppe aus k Versuchen lässt sich nur aus gesammelten Versuchen bilden.",
                    "Vergleiche „Erlaubte Versuche k“ mit „Gesammelte Versuche n“ und schiebe k nach oben."),
             near=Near(lambda params, result: result["k"] == result["n"],
                       "Fast: Bei k = n gibt es noch genau eine Gruppe, nämlich alle gesammelten Versuche.",
                       {"n": 2})),
        # with two successes: at one, the prediction's own example (k = 3) already shows such a gap
        Task("naive_gap", "Stelle zwei Erfolge ein. Finde einen Zustand, in dem die naive Formel um mehr als 0,1 "
                          "unter der Schätzung liegt.",
             solved=lambda params, result: result["c"] == 2 and _naive_far_below(params, result),
             explain="Die naive Formel tut so, als könnte derselbe Versuch mehrmals gezogen werden. "
                     "Eine Gruppe enthält aber verschiedene Versuche, darum liegt sie zu tief.",
             example={"c": 2, "k": 3},
             hints=("Vergleiche im Diagramm die Balken der Schätzung mit der Linie der naiven Formel.",
                    "Die Lücke ist nicht bei jedem k gleich groß. Sie wächst, wo die Balken schnell auf 1 zulaufen.",
                    "Stelle „Davon bestanden c“ auf 2 und ändere dann „Erlaubte Versuche k“."),
             near=Near(lambda params, result: (result["c"] == 2 and result["estimable"]
                                               and Fraction(result["pass_k_exact"]) - Fraction(result["naive_exact"])
                                               > Fraction(1, 20) and not _naive_far_below(params, result)),
                       "Fast: Die naive Formel liegt schon deutlich unter der Schätzung, aber noch nicht um mehr als 0,1.",
                       {"c": 2})),
    ),
    discussion=(
        "Ein Modell löst mit zehn erlaubten Versuchen fast jede Aufgabe. Ist es damit ein guter Helfer beim Programmieren?",
        "Warum sammelt man für die Schätzung oft viel mehr Versuche, als das Budget k erlaubt?",
    ),
    teacher=(
        "Nur wenn jemand erkennt, welcher der zehn Versuche stimmt, etwa durch Tests. "
        "Ohne Prüfer zählt eher pass@1, und das kann viel kleiner sein.",
        "Mit mehr Versuchen gibt es viel mehr Gruppen, und die Schätzung schwankt weniger. "
        "Außerdem braucht man mindestens k Versuche, sonst lässt sich pass@k gar nicht schätzen.",
    ),
    misconceptions=(
        "„pass@k ist die Erfolgsquote c/n.“ – Das gilt nur für k = 1; mit mehr erlaubten Versuchen steigt die Quote.",
        "„Wer n Versuche sammelt und einer besteht, hat die Aufgabe gelöst.“ – Das ist pass@n, "
        "nicht pass@1; beide Zahlen müssen getrennt genannt werden.",
    ),
)
