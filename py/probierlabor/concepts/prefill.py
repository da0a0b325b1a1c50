"""Prefill: four known positions, all at once or in chunks, with causal masking.

The article's own example (CONCEPTS.md §19): one attention head of dimension 1, every query
and every key is 1, the values are [2, 4, 8, 10]. All allowed scores are equal, so each
position's output is the plain mean of the values it may see (itself and the earlier ones):
[2, 3, 14/3, 6]. Processing the prompt in chunks of two gives the same outputs, because the
second chunk reads the K/V of positions 1–2 from the cache. Everything is exact (Fractions).

Proposal (P) beyond the article: chunk sizes 1 to 8, a step control over the chunks, editable
values, and a switch that forgets the cache between chunks – then position 3 no longer sees
positions 1–2 and the outputs change. That is the mistake chunked prefill must not make.

Own positions (kit/own_positions.py): 2–8 typed values and scores. A score is the key's q·k with the one
query all positions share; equal scores give the plain means (exact), others a softmax-weighted mean
over the visible positions (floats, shifted by their maximum).
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from ..kit import distribution, fmt, own_positions, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "prefill"
TITLE = "Prefill"
GROUP = "Die Inferenz-Engine"
TEASER = "Den bekannten Prompt vorab verarbeiten – auf einmal oder in Abschnitten, mit demselben Ergebnis."

N = 4
MOST = own_positions.COUNT[1]
VALUES = (2, 4, 8, 10)

PARAMS = (
    Param("chunk", "Abschnittsgröße (Positionen je Durchlauf)", "int", 2, lo=1, hi=MOST, step=1,
          help="4 heißt bei vier Positionen: alle auf einmal."),
    Param("step", "Verarbeitete Abschnitte", "int", MOST, lo=1, hi=MOST, step=1,
          help="Schritt für Schritt durch die Abschnitte; mehr als es gibt zählt als „alle“."),
    Param("cache", "Cache früherer Abschnitte nutzen", "bool", True,
          help="Aus: Jeder Abschnitt sieht nur sich selbst (so darf man es nicht machen)."),
    *(Param(f"v{i + 1}", f"Wert v{i + 1}", "int", VALUES[i], lo=-99, hi=99, step=1, widget="number")
      for i in range(N)),
    own_positions.own("values", "Eigene Values", -99.0, 99.0, "2; 4; 8; 10; 6", "Values"),
    own_positions.own("scores", "Eigene Scores", -20.0, 20.0, "0; 0; 1; 0; 2", "Scores (q·k je Position)"),
)

PRESETS = (
    Preset("Alle vier auf einmal", {"chunk": 4}, "Ein einziger Durchlauf über den ganzen Prompt."),
    Preset("Abschnitte zu zwei", {"chunk": 2}, "Zwei Durchläufe; der zweite liest den Cache."),
    Preset("Nur Abschnitt 1", {"chunk": 2, "step": 1}, "Nach dem ersten Abschnitt stehen 2 Positionen im Cache."),
    Preset("Einzeln", {"chunk": 1}, "Vier Durchläufe zu je einer Position."),
    Preset("Ohne Cache (falsch)", {"chunk": 2, "cache": False}, "Position 3 sieht die ersten beiden nicht mehr."),
)


def chunks_of(n: int, size: int) -> list[list[int]]:
    """Positions 0 … n−1 split into consecutive chunks."""
    return [list(range(start, min(start + size, n))) for start in range(0, n, size)]


def mean_over(values, scores=None):
    """What one position reads from the positions it sees, ``mean(visible)``: the plain mean (exact) when the
    scores are all equal, else the softmax-weighted mean (shifted by the largest visible score)."""
    def mean(visible):
        if scores is None:
            return Fraction(sum(values[j] for j in visible), len(visible))
        top = max(scores[j] for j in visible)
        weights = [math.exp(scores[j] - top) for j in visible]
        return sum(w * values[j] for w, j in zip(weights, visible)) / sum(weights)
    return mean


def causal_means(values, scores=None) -> list:
    """All positions at once: position i averages values 0 … i."""
    mean = mean_over(values, scores)
    return [mean(list(range(i + 1))) for i in range(len(values))]


def prefill(values, size: int, cache: bool = True, scores=None):
    """Process the prompt chunk by chunk.

    Returns, per chunk, the positions, the positions whose K/V are computed new, those read
    from the cache, and for every position the list of positions it reads and its output.
    Without the cache a chunk only sees its own positions (and still the causal mask).
    """
    stored: list[int] = []  # positions whose K/V sit in the cache
    out = []
    for chunk in chunks_of(len(values), size):
        from_cache = list(stored) if cache else []
        reads = {}
        outputs = {}
        mean = mean_over(values, scores)
        for i in chunk:
            visible = [j for j in from_cache + chunk if j <= i]  # the causal mask: never a later position
            reads[i] = visible
            outputs[i] = mean(visible)
        stored.extend(chunk)  # the new K/V are written after the chunk
        out.append({"positions": chunk, "new": list(chunk), "cached": from_cache, "reads": reads,
                    "outputs": outputs})
    return out


def compute(chunk: int = 2, step: int = MOST, cache: bool = True, v1: int = 2, v2: int = 4, v3: int = 8,
            v4: int = 10, values: tuple = (), scores: tuple = ()) -> dict:
    used = own_positions.lists(scores, values, [0] * MOST, [v1, v2, v3, v4])  # no score fields: all equal
    # typed decimals stay exact (0,1 is 1/10), so equal scores still give exact means
    values = [v if isinstance(v, int) else distribution.exact([v])[0] for v in used["values"]]
    values = [int(v) if v == int(v) else v for v in values]
    weighted = len(set(used["scores"])) > 1
    weights = [float(s) for s in used["scores"]] if weighted else None
    n = len(values)
    runs = prefill(values, chunk, cache, weights)
    done = min(step, len(runs))
    full = causal_means(values, weights)
    outputs: list = [None] * n
    reads: list[list[int] | None] = [None] * n
    chunk_of = [0] * n
    for k, run in enumerate(runs):
        for i in run["positions"]:
            chunk_of[i] = k
            if k < done:
                outputs[i] = run["outputs"][i]
                reads[i] = run["reads"][i]
    finished = done == len(runs)
    wrong = [i for i in range(n) if outputs[i] is not None and not _same(outputs[i], full[i])]
    equal = finished and not wrong
    return {
        "values": [float(v) if isinstance(v, Fraction) else v for v in values],
        "scores": [float(s) for s in used["scores"]],
        "own": used["own"],
        "filled": used["filled"],
        "weighted": weighted,
        "chunk": chunk,
        "cache": cache,
        "n_chunks": len(runs),
        "done": done,
        "finished": finished,
        "chunk_of": chunk_of,
        "outputs": [None if o is None else float(o) for o in outputs],
        "outputs_exact": [None if o is None else _frac(o) for o in outputs],
        "out_num": [o.numerator if isinstance(o, Fraction) else None for o in outputs],
        "out_den": [o.denominator if isinstance(o, Fraction) else None for o in outputs],
        "full": [float(f) for f in full],
        "full_exact": [_frac(f) for f in full],
        "reads": reads,
        "chunks": [{"positions": r["positions"], "new": r["new"], "cached": r["cached"]} for r in runs],
        # without the cache each chunk starts from nothing: only its own K/V are there afterwards
        "cached_after": sum(len(r["positions"]) for r in runs[:done]) if cache else len(runs[done - 1]["positions"]),
        "equal": equal,
        "wrong": wrong,
    }


def _same(a, b) -> bool:
    """Exact for fractions; weighted means agree to rounding (the cache path sums in the same order anyway)."""
    return a == b if isinstance(a, Fraction) else math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def _frac(f) -> str:
    if not isinstance(f, Fraction):
        return APPROX
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


APPROX = "≈"  # a weighted mean has no short fraction: shown rounded


def _show(f_text: str | None, value: float | None) -> str:
    """'3' or '14/3 ≈ 4,67' (German), '≈ 4,67' for a weighted mean, '–' when not computed yet."""
    if f_text is None:
        return "–"
    if f_text == APPROX:
        return f"≈ {fmt.de(value)}"
    if "/" not in f_text:
        return fmt.de(int(f_text)) if abs(value) < 1e15 else fmt.de_auto(value)
    num, den = f_text.split("/")
    return f"{fmt.de(int(num))}/{den} ≈ {fmt.de(value)}"


def positions_text(ps) -> str:
    return ", ".join(str(p + 1) for p in ps) if ps else "keine"


# -- view ---------------------------------------------------------------------------------

def _key_sentence(r: dict, count: int, values_text: str, full_text: str) -> str:
    """The sentence under the grid: what this split gives and what it means – with the cache the same
    outputs as all at once (the split changes nothing mathematically), half-way the outputs still
    missing, without the cache wrong outputs from the first position that cannot see earlier chunks."""
    if r["n_chunks"] == 1:
        how = f"Prefill aller {own_positions.WORDS[count]} Positionen auf einmal"
    else:
        size = "je" if count % r["chunk"] == 0 else "höchstens"
        how = f"Prefill in {fmt.de(r['n_chunks'])} Abschnitten zu {size} {fmt.de(r['chunk'])}"
    lead = (f"Eigene {own_positions.WORDS[count]} Positionen" + (", nach Scores gewichtet" if r["weighted"] else "")
            + ". " if r["own"] else "")
    cache = "" if r["cache"] or r["n_chunks"] == 1 else ", ohne Cache"
    if not r["finished"]:
        text = (f"{how}{cache}, nach {fmt.de(r['done'])} von {fmt.de(r['n_chunks'])}: Ausgaben {values_text}, "
                f"im Cache {fmt.count(r['cached_after'], 'Position', 'Positionen')}. Alle auf einmal ergäbe "
                f"{full_text}" + (f"; schon jetzt falsch ab Position {r['wrong'][0] + 1}." if r["wrong"] else "."))
    elif r["n_chunks"] == 1:
        text = (f"{how}: Ausgaben {values_text}. Jede Position liest sich und alle davor – daran misst sich "
                f"jede Aufteilung.")
    elif r["equal"] and r["cache"]:
        text = (f"{how}: Ausgaben {values_text}, genau wie alle auf einmal. Jeder spätere Abschnitt liest die "
                f"früheren Positionen aus dem Cache, darum ändert die Aufteilung am Ergebnis nichts.")
    elif r["equal"]:
        text = (f"{how}{cache}: Ausgaben {values_text}, hier zufällig wie alle auf einmal – obwohl spätere "
                f"Abschnitte die früheren nicht sehen.")
    else:
        first = r["wrong"][0] + 1
        text = (f"{how}{cache}: Ausgaben {values_text} statt {full_text}. Falsch ab Position {first}: Ohne Cache "
                f"sieht sie die Positionen der früheren Abschnitte nicht.")
    return lead + text + own_positions.filled_text(r["filled"])


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure: narrower cells with "v =" written once, the correct output under its row's cells
    # instead of under the output, the legend in one column
    narrow = layout == NARROW
    count = len(r["values"])
    if narrow:
        w = width(440, layout)
        # more positions share the phone's width: the cells shrink, the outputs keep 84 px on the right
        # (a mean of up to eight values: "−35/8 ≈ −4,38")
        x0, cell, gap = 80, min(36, (w - 80 - 8 - 84) / count), 4
    else:
        x0, cell, gap = 100, 46, 4
        w = max(440, x0 + count * cell + 12 + 120)  # more positions: the outputs keep their column on the right
    top = 60 + (16 if r["weighted"] else 0)  # room for the scores under the values
    row_h = 56 if narrow else 40
    h = top + count * row_h + (16 + 4 * 24 + 8 if narrow else 78)
    parts = [svg.text(x0 + count * cell / 2, 14, "liest K/V von Position", "pl-axis", "middle")]
    xo = x0 + count * cell + (8 if narrow else 12)
    parts.append(svg.text(xo, 34, "Ausgabe", "pl-axis"))
    for j in range(count):
        cx = x0 + j * cell + cell / 2
        parts.append(svg.text(cx, 34, str(j + 1), "pl-axis", "middle"))
        v = r["values"][j]
        parts.append(svg.text(cx, 52, ("" if narrow else "v = ") + (fmt.de(v) if v == int(v) else fmt.de_auto(v)),
                              "pl-tick", "middle"))
        if r["weighted"]:
            parts.append(svg.text(cx, 68, ("" if narrow else "s = ") + fmt.de_auto(r['scores'][j]), "pl-tick",
                                  "middle"))
    if narrow:
        parts.append(svg.text(x0 - 6, 52, "v =", "pl-tick", "end"))
        if r["weighted"]:
            parts.append(svg.text(x0 - 6, 68, "s =", "pl-tick", "end"))
    for i in range(count):
        y = top + i * row_h
        k = r["chunk_of"][i]
        processed = r["reads"][i] is not None
        label_cls = "pl-label" if processed else "pl-label pl-pf-faint"
        parts.append(svg.text(8, y + 17, f"Position {i + 1}", label_cls))
        parts.append(svg.text(8, y + 32, f"Abschnitt {k + 1}", "pl-tick"))
        chunk_positions = r["chunks"][k]["positions"]
        for j in range(count):
            x = x0 + j * cell + gap / 2
            if j > i:
                cls, title = "pl-pf-mask", f"Position {j + 1} liegt in der Zukunft: maskiert"
            elif not processed:
                cls, title = "pl-pf-todo", "noch nicht verarbeitet"
            elif j in chunk_positions:
                cls, title = "pl-pf-new", f"K/V von Position {j + 1} in diesem Abschnitt neu berechnet"
            elif j in r["reads"][i]:
                cls, title = "pl-pf-cache", f"K/V von Position {j + 1} aus dem Cache gelesen"
            else:
                cls, title = "pl-pf-miss", f"Position {j + 1} wäre sichtbar, fehlt aber (kein Cache)"
            parts.append(f'<rect class="pl-pf-cell {cls}" x="{x:.1f}" y="{y + 4}" width="{cell - gap}" '
                         f'height="32" rx="4"><title>{escape(title)}</title></rect>')
            mark = {"pl-pf-mask": "×", "pl-pf-miss": "?"}.get(cls)
            if mark:
                parts.append(svg.text(x + (cell - gap) / 2, y + 25, mark, "pl-label pl-pf-mark", "middle"))
        shown = _show(r["outputs_exact"][i], r["outputs"][i])
        out_cls = "pl-label pl-value" + (" pl-pf-wrong" if i in r["wrong"] else "")
        parts.append(svg.text(xo, y + 25, shown, out_cls if processed else "pl-label pl-pf-faint"))
        if i in r["wrong"]:
            parts.append(svg.text(*((x0 + 2, y + 52) if narrow else (xo, y + 38)),
                                  f"richtig: {_show(r['full_exact'][i], r['full'][i])}",
                                  "pl-tick pl-pf-wrong"))
    # chunk boundaries
    for run in r["chunks"][1:]:
        y = top + run["positions"][0] * row_h
        parts.append(f'<line class="pl-pf-split" x1="4" y1="{y}" x2="{w - 4}" y2="{y}"/>')
    # legend
    ly = top + count * row_h + 16
    entries = (("pl-pf-new", "in diesem Abschnitt neu"), ("pl-pf-cache", "aus dem Cache gelesen"),
               ("pl-pf-mask", "Zukunft, maskiert"), ("pl-pf-miss", "fehlt ohne Cache"))
    for n, (cls, text) in enumerate(entries):
        lx = 8 + (0 if narrow else (n % 2) * 216)
        yy = ly + (n if narrow else n // 2) * 24
        parts.append(svg.key(lx, yy + 13, f"pl-pf-cell {cls}", text, w=22, h=16, rx=3, gap=8))
    figure = svg.figure(w, h, parts, cls="pl-pf", layout=layout, label="Welche Positionen jede Ausgabe liest, Abschnitt für Abschnitt")

    values_text = "; ".join(_show(t, v) for t, v in zip(r["outputs_exact"], r["outputs"]))
    full_text = "; ".join(_show(t, v) for t, v in zip(r["full_exact"], r["full"]))
    if not r["finished"]:
        verdict = "noch nicht fertig"
    elif r["equal"]:
        verdict = "ja"
    else:
        verdict = "nein"
    reads3 = r["reads"][2] if count > 2 else None
    readouts = [
        Readout("outputs", "Ausgaben", values_text, r["outputs"], True),
        Readout("full", "alle auf einmal", full_text, r["full"]),
        Readout("equal", "gleiches Ergebnis?", verdict, r["equal"], True),
        Readout("reads3", "Position 3 liest", "–" if reads3 is None else positions_text(reads3), reads3),
        Readout("progress", "Abschnitte", f"{fmt.de(r['done'])} von {fmt.de(r['n_chunks'])}", r["done"]),
        Readout("cached", "K/V im Cache danach", f"{fmt.de(r['cached_after'])} Positionen", r["cached_after"]),
    ]
    summary = _key_sentence(r, count, values_text, full_text)
    return View(figure, readouts, summary, _table(r))


def _table(r: dict) -> str:
    rows = []
    for k, run in enumerate(r["chunks"]):
        done = k < r["done"]
        outs = "; ".join(_show(r["outputs_exact"][i], r["outputs"][i]) for i in run["positions"]) if done else "–"
        reads = " | ".join(f"{i + 1}: {positions_text(r['reads'][i])}" for i in run["positions"]) if done else "–"
        rows.append((k + 1, positions_text(run["positions"]), positions_text(run["cached"]), reads, outs))
    head = ("Abschnitt", "neu berechnet", "aus dem Cache", "Position: liest", "Ausgaben")
    return table(head, rows, caption="Abschnitt für Abschnitt", highlight=r["done"] - 1,
                 row_heads=True, numeric=True, wide=True)


# -- the lesson ---------------------------------------------------------------------------

def _own_values(result) -> bool:
    """The article's values and equal scores (the name is older than the reader's own lists)."""
    return result["values"] == list(VALUES) and not result["weighted"]


LESSON = Lesson(
    prediction=Prediction(
        question="Abschnitte zu zwei, aber der Cache wird zwischen den Abschnitten vergessen. "
                 "Welche Positionen bekommen ein falsches Ergebnis?",
        choices=("keine", "nur Position 3", "die Positionen 3 und 4", "alle vier"),
        answer=2,
        shown=lambda params, result: (not params["cache"] and params["chunk"] == 2 and result["finished"]
                                      and _own_values(result)),
        explain="Der zweite Abschnitt sieht die Positionen 1 und 2 nicht mehr. Position 3 mittelt nur sich selbst, "
                "Position 4 nur die Positionen 3 und 4.",
        example={"cache": False},
        why_not=("Jeder Abschnitt rechnet ja für sich richtig, das klingt harmlos. Den Positionen 3 und 4 fehlen aber "
                 "dann die Positionen 1 und 2: Sie ergeben 8 und 9 statt 14/3 und 6.",
                 "Position 3 ist die erste des neuen Abschnitts, ihr fehlt am meisten. Doch auch Position 4 sieht "
                 "die ersten beiden nicht mehr und mittelt nur 8 und 10.",
                 "",
                 "Ohne Cache geht etwas verloren, das stimmt. Die Positionen 1 und 2 liegen aber im ersten Abschnitt. "
                 "Vor ihnen gibt es nichts zu vergessen, sie bleiben bei 2 und 3."),
    ),
    tasks=(
        Task("one_pass", "Schalte den Cache aus und finde eine Abschnittsgröße, bei der trotzdem alle vier "
                         "Ausgaben stimmen.",
             solved=lambda params, result: not params["cache"] and result["equal"] and _own_values(result),
             explain="Bei Abschnittsgröße 4 gibt es nur einen Durchlauf. Es gibt keinen früheren Abschnitt, "
                     "dessen K/V der Cache liefern müsste.",
             example={"cache": False, "chunk": 4},
             hints=("Ohne Cache sieht jeder Abschnitt nur seine eigenen Positionen.",
                    "Eine Ausgabe wird nur falsch, wenn ihre früheren Positionen in einem anderen Abschnitt liegen.",
                    "Verändere „Abschnittsgröße (Positionen je Durchlauf)“, bis kein Abschnitt einen Vorgänger hat."),
             near=Near(lambda params, result: (not params["cache"] and _own_values(result) and result["finished"]
                                               and len(result["wrong"]) == 1),
                       "Fast: Nur noch eine Ausgabe stimmt nicht. Ihr Abschnitt braucht noch Positionen davor.",
                       {"cache": False, "chunk": 3})),
        Task("early_result", "Gehe mit Abschnitten zu einer Position so weit, dass Position 3 fertig ist "
                             "und Position 4 noch nicht.",
             solved=lambda params, result: (params["cache"] and params["chunk"] == 1 and len(result["outputs"]) == N
                                            and result["outputs"][2] is not None and result["outputs"][3] is None),
             explain="Position 3 liest die K/V von 1 und 2 aus dem Cache und rechnet nur ihre eigenen neu. "
                     "Ihr Ergebnis steht schon fest, denn spätere Positionen darf sie ohnehin nicht sehen.",
             example={"chunk": 1, "step": 3},
             hints=("Mit „Verarbeitete Abschnitte“ gehst du Abschnitt für Abschnitt durch den Prompt.",
                    "Bei Abschnitten zu einer Position macht jeder Durchlauf genau eine Position fertig.",
                    "Stelle „Abschnittsgröße (Positionen je Durchlauf)“ auf 1 und zähle die Abschnitte bis Position 3."),
             near=Near(lambda params, result: (params["cache"] and params["chunk"] == 1
                                               and result["done"] in (2, 4)),
                       "Fast: Du bist einen Abschnitt daneben. Position 3 soll fertig sein, Position 4 noch offen.",
                       {"chunk": 1, "step": 2})),
        Task("lucky_values", "Lass den Cache aus und die Abschnitte bei zwei. Ändere die Values so, dass "
                             "trotzdem alle Ausgaben stimmen.",
             solved=lambda params, result: not params["cache"] and params["chunk"] == 2 and result["equal"],
             explain="Das klappt nur, wenn v3 der Mittelwert von v1 und v2 ist und v4 gleich v3. "
                     "In einem echten Modell passiert so ein Zufall praktisch nie.",
             example={"cache": False, "v3": 3, "v4": 3},
             hints=("Ohne Cache mittelt Position 3 nur sich selbst und Position 4 nur die Positionen 3 und 4.",
                    "Jede Ausgabe im zweiten Abschnitt muss ohne die Positionen 1 und 2 auf dasselbe Mittel kommen wie mit ihnen.",
                    "Lass v1 und v2 stehen und ändere „Wert v3“ und „Wert v4“."),
             near=Near(lambda params, result: (not params["cache"] and params["chunk"] == 2 and result["finished"]
                                               and len(result["wrong"]) == 1),
                       "Fast: Eine der beiden Ausgaben im zweiten Abschnitt stimmt schon. Jetzt muss die andere passen.",
                       {"cache": False, "v3": 3})),
    ),
    discussion=(
        "Warum darf ein Modell den Prompt auf einmal verarbeiten, die Antwort aber nur Token für Token?",
        "Wozu teilt man einen langen Prompt überhaupt in Abschnitte, wenn das Ergebnis gleich bleibt?",
    ),
    teacher=(
        "Den Prompt kennt das Modell schon ganz, also kann es alle Positionen parallel rechnen. "
        "Jedes Token der Antwort hängt dagegen vom vorigen ab, das erst gewählt werden muss.",
        "Ein sehr langer Prompt würde den Rechner sonst lange blockieren. Zwischen zwei Abschnitten kann der "
        "Server schon Antworttokens für andere Anfragen erzeugen.",
    ),
    misconceptions=(
        "„In Abschnitten zu rechnen ist eine Näherung.“ Mit Cache kommt exakt dasselbe heraus wie auf einmal.",
        "„Der Cache ist nur ein Extra für mehr Tempo.“ Ohne ihn sehen spätere Abschnitte die früheren nicht, "
        "und die Ergebnisse werden falsch.",
    ),
)
