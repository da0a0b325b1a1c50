"""Multi-Query Attention: several query heads read one shared set of keys and values.

The article's own example (CONCEPTS.md §24, Shazeer 2019, §3):

* one shared K/V set: keys k₁ = (1, 0), k₂ = (0, 1) and values v₁ = (1, 0), v₂ = (0, 1);
* two query heads q₁ = (2, 0) and q₂ = (0, 2);
* scaled dot-product attention with head dimension d = 2: score = q·k / √2, then softmax.

Head 1 gives the keys the weights e^√2/(1 + e^√2) ≈ 0.804 and ≈ 0.196, head 2 the reverse.
Because the values are the unit vectors, a head's output has its weights as coordinates:
two different results from the same memory.

The reader may turn each query (direction in degrees, common length); the default is the
article's example. The cache part counts K/V sets: multi-head attention stores one per
query head (H), MQA one. For a feel of the size it also gives the KV cache of the standard
example used on the GQA page (batch 1, 32 layers, 1024 tokens, head dimension 128, 2 bytes):
16 MiB per K/V set.
"""

from __future__ import annotations

import math

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "mqa"
TITLE = "Multi-Query Attention (MQA)"
GROUP = "Attention und Architektur"
TEASER = "Viele Query-Köpfe, ein gemeinsamer Satz Keys und Values – und trotzdem verschiedene Ergebnisse."

KEYS = ((1.0, 0.0), (0.0, 1.0))
VALUES = ((1.0, 0.0), (0.0, 1.0))
DIM = 2  # head dimension d of the example: scores are divided by √d

# The standard KV-cache example (the same as on the GQA page): bytes per K/V set.
BATCH, LAYERS, TOKENS, HEAD_DIM, BYTES = 1, 32, 1024, 128, 2
BYTES_PER_SET = 2 * BATCH * LAYERS * TOKENS * HEAD_DIM * BYTES  # 2: K and V

HEADS_SHOWN = (("both", "beide"), ("1", "Kopf 1"), ("2", "Kopf 2"))

PARAMS = (
    Param("angle1", "Richtung von q₁ (Grad)", "int", 0, lo=0, hi=345, step=15,
          help="0° zeigt auf k₁, 90° auf k₂."),
    Param("angle2", "Richtung von q₂ (Grad)", "int", 90, lo=0, hi=345, step=15,
          help="Drehe beide Queries in dieselbe Richtung – dann gleichen sich die Ergebnisse."),
    Param("length", "Länge der Queries", "float", 2.0, lo=0.0, hi=3.0, step=0.25,
          help="Längere Queries geben schärfere Gewichte, Länge 0 verteilt halb und halb."),
    Param("show", "Im Bild", "choice", "both", choices=HEADS_SHOWN),
    Param("heads", "Query-Köpfe H (für den Cache)", "int", 8, lo=1, hi=64, step=1,
          help="MHA hat für jeden Query-Kopf einen eigenen K/V-Kopf, MQA einen für alle."),
)

PRESETS = (
    Preset("Beispiel", {}, "q₁ = (2; 0), q₂ = (0; 2), gemeinsame k und v."),
    Preset("Nur Kopf 1", {"show": "1"}, "Kopf 1 schaut vor allem auf k₁."),
    Preset("Nur Kopf 2", {"show": "2"}, "Kopf 2 schaut vor allem auf k₂."),
    Preset("Gleiche Frage", {"angle2": 0}, "Beide Queries gleich: dann auch gleiche Ergebnisse."),
    Preset("Dazwischen", {"angle1": 45, "angle2": 45}, "Query genau zwischen den Keys: halb und halb."),
)


def _cos_sin(degrees: int) -> tuple[float, float]:
    rad = math.radians(degrees)
    # round away the 6e-17 of cos 90°, so (0; 2) is exactly (0; 2)
    return round(math.cos(rad), 12) + 0.0, round(math.sin(rad), 12) + 0.0


def query(angle: int, length: float) -> tuple[float, float]:
    c, s = _cos_sin(angle)
    return length * c, length * s


def attend(q, keys=KEYS, values=VALUES, dim: int = DIM) -> dict:
    """Scaled dot-product attention of one query over the shared keys and values."""
    scores = [(q[0] * k[0] + q[1] * k[1]) / math.sqrt(dim) for k in keys]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    weights = [e / total for e in exps]
    output = [sum(w * v[j] for w, v in zip(weights, values)) for j in range(len(values[0]))]
    return {"query": list(q), "scores": scores, "weights": weights, "output": output}


def cache(heads: int) -> dict:
    """K/V sets and bytes of the standard example for MHA (one set per head) and MQA (one set)."""
    return {"mha_sets": heads, "mqa_sets": 1,
            "mha_bytes": heads * BYTES_PER_SET, "mqa_bytes": BYTES_PER_SET,
            "mha_mib": heads * BYTES_PER_SET / fmt.MIB, "mqa_mib": BYTES_PER_SET / fmt.MIB,
            "factor": heads}


def compute(angle1: int = 0, angle2: int = 90, length: float = 2.0, show: str = "both", heads: int = 8) -> dict:
    h1 = attend(query(angle1, length))
    h2 = attend(query(angle2, length))
    return {"angle1": angle1, "angle2": angle2, "length": length, "show": show,
            "heads_out": [h1, h2],
            "same_output": max(abs(a - b) for a, b in zip(h1["output"], h2["output"])) < 1e-12,
            "cache": cache(heads)}


# -- drawing ----------------------------------------------------------------------------

def _pair(v, digits=3) -> str:
    return f"({fmt.de(v[0], digits)}; {fmt.de(v[1], digits)})"






def _key_sentence(r: dict) -> str:
    """The sentence under the figure: what each head makes of the one shared memory – two different
    results, or equal ones (same query, length 0, or different queries whose scores differ alike) – and
    what that memory saves against MHA."""
    c = r["cache"]
    h1, h2 = r["heads_out"]
    if not r["same_output"]:
        text = (f"Beide Köpfe lesen dieselben Keys, gewichten sie aber verschieden: Kopf 1 mit {_pair(h1['weights'])}, "
                f"Kopf 2 mit {_pair(h2['weights'])}. Aus einem Speicher entstehen so zwei Ergebnisse, "
                f"{_pair(h1['output'])} und {_pair(h2['output'])}.")
    elif r["length"] == 0:
        text = (f"Mit Länge 0 sind alle Scores 0: Beide Köpfe gewichten halb und halb, {_pair(h1['weights'])}, "
                f"und liefern dasselbe Ergebnis {_pair(h1['output'])}.")
    elif r["angle1"] == r["angle2"]:
        text = (f"Beide Queries sind gleich, also gewichten beide Köpfe gleich, {_pair(h1['weights'])}, und liefern "
                f"dasselbe Ergebnis {_pair(h1['output'])}: Unterschiede kommen bei MQA nur aus den Queries.")
    else:
        text = (f"Die Queries zeigen in verschiedene Richtungen, trotzdem gewichten beide Köpfe gleich, "
                f"{_pair(h1['weights'])}, und liefern dasselbe Ergebnis {_pair(h1['output'])}: Softmax zählt nur, "
                f"wie weit die Scores auseinanderliegen.")
    if c["mha_sets"] == 1:
        text += " Mit einem Query-Kopf speichern MHA und MQA gleich viel: einen K/V-Kopf."
    else:
        text += f" MHA speichert für {c['mha_sets']} Query-Köpfe {c['mha_sets']} K/V-Köpfe, MQA nur einen."
    return text + f" Im Bild: {dict(HEADS_SHOWN)[r['show']]}."


def view(r: dict, layout: str = WIDE) -> View:
    # wide: the numbers in a panel right of the plot; narrow: the same panel under it
    narrow = layout == NARROW
    lim = 3.2
    plot = svg.Plot(290 if narrow else 500, 330, (-lim, lim), (-lim, lim),
                    label="Zwei Query-Köpfe über einem gemeinsamen K/V-Kopf",
                    margin=(14, 16 if narrow else 226, 40, 40), layout=layout)
    ticks = [-3, -2, -1, 0, 1, 2, 3]
    plot.grid(xticks=ticks, yticks=ticks, xlabel="erste Zahl", ylabel="zweite Zahl",
              xfmt=lambda v: fmt.de(v), yfmt=lambda v: fmt.de(v))
    visible = {"both": (0, 1), "1": (0,), "2": (1,)}[r["show"]]
    # every output is a mix of v₁ and v₂: it lies on the segment between them
    plot.line(1, 0, 0, 1, "pl-mqa-hull")
    for i in visible:
        q = r["heads_out"][i]["query"]
        plot.body.append(svg.arrow(plot.px(0), plot.py(0), plot.px(q[0]), plot.py(q[1]), f"pl-mqa-q{i + 1}"))
        if math.hypot(*q) > 0.2:
            plot.text(q[0], q[1], f"q{'₁₂'[i]}", f"pl-label pl-mqa-q{i + 1}-label", "middle",
                      dy=-10 if q[1] >= 0 else 18)
    # the shared keys on top: a query along a key shows beyond its tip
    for j, (k, name) in enumerate(zip(KEYS, ("k₁ = v₁", "k₂ = v₂"))):
        plot.body.append(svg.arrow(plot.px(0), plot.py(0), plot.px(k[0]), plot.py(k[1]), "pl-mqa-key"))
        plot.text(k[0], k[1], name, "pl-label pl-mqa-key-label", "start" if j == 0 else "end",
                  dy=20 if j == 0 else -8)
    for i in visible:
        o = r["heads_out"][i]["output"]
        plot.point(o[0], o[1], 6, f"pl-mqa-out pl-mqa-out{i + 1}",
                   title=f"Ergebnis von Kopf {i + 1}: {_pair(o)}")

    # the right panel: per head its scores, weights and output; then the legend
    x0, bar = (40 if narrow else 300), 180
    out = [svg.text(x0, 24, "Gewichte auf k₁ | k₂", "pl-axis")]
    for i in (0, 1):
        h = r["heads_out"][i]
        y = 50 + 108 * i
        dim = "" if i in visible else " pl-mqa-dim"
        w1 = h["weights"][0]
        out.append(f'<g class="pl-mqa-head{dim}">')
        out.append(svg.text(x0, y, f"Kopf {i + 1}: q{'₁₂'[i]} = {_pair(h['query'], 2)}", f"pl-label pl-mqa-q{i + 1}-label"))
        out.append(f'<rect class="pl-mqa-w1" x="{x0}" y="{y + 8}" width="{bar * w1:.1f}" height="22"/>')
        out.append(f'<rect class="pl-mqa-w2" x="{x0 + bar * w1:.1f}" y="{y + 8}" '
                   f'width="{bar * (1 - w1):.1f}" height="22"/>')
        out.append(svg.text(x0, y + 46, f"{fmt.de(w1, 3)} | {fmt.de(1 - w1, 3)}", "pl-label pl-value"))
        out.append(svg.text(x0, y + 64, f"Scores: {fmt.de(h['scores'][0], 3)} | {fmt.de(h['scores'][1], 3)}",
                         "pl-label"))
        out.append(svg.text(x0, y + 82, f"Ergebnis: {_pair(h['output'])}", "pl-label"))
        out.append("</g>")
    entries = [("pl-mqa-key", "k = v, von allen geteilt"), ("pl-mqa-hull", "alle möglichen Ergebnisse")]
    for k, (cls, text) in enumerate(entries):
        y = 270 + 18 * k
        out.append(f'<line class="{cls}" x1="{x0}" y1="{y}" x2="{x0 + 22}" y2="{y}"/>')
        out.append(svg.text(x0 + 28, y + 4, text, "pl-legend"))
    y = 270 + 18 * len(entries)
    out.append(f'<circle class="pl-mqa-out pl-mqa-out1" cx="{x0 + 6}" cy="{y}" r="5"/>'
               f'<circle class="pl-mqa-out pl-mqa-out2" cx="{x0 + 18}" cy="{y}" r="5"/>')
    out.append(svg.text(x0 + 28, y + 4, "Ergebnis von Kopf 1 | 2", "pl-legend"))
    if narrow:
        w, h, body = svg.panels([(plot.w, plot.h, plot.inner()), (plot.w, 318, "".join(out))], layout, gap=0)
        figure = svg.figure(w, h, body, label=plot.label, layout=layout)
    else:
        plot.front.append("".join(out))
        figure = plot.render()

    c = r["cache"]
    h1, h2 = r["heads_out"]
    readouts = [
        Readout("weights1", "Gewichte Kopf 1 (k₁; k₂)", _pair(h1["weights"]), h1["weights"], True),
        Readout("weights2", "Gewichte Kopf 2 (k₁; k₂)", _pair(h2["weights"]), h2["weights"], True),
        Readout("output1", "Ergebnis Kopf 1", _pair(h1["output"]), h1["output"]),
        Readout("output2", "Ergebnis Kopf 2", _pair(h2["output"]), h2["output"]),
        Readout("sets", "K/V-Köpfe im Cache: MHA → MQA", f"{c['mha_sets']} → 1", c["mha_sets"], True),
        Readout("factor", "Cache bei MQA", _smaller(c["factor"]), c["factor"]),
    ]
    summary = _key_sentence(r)
    return View(figure, readouts, summary, _cache_figure(c, layout) + _table(r))


def _smaller(factor: int) -> str:
    return "gleich groß" if factor == 1 else f"{fmt.de(factor)}-mal kleiner"


def _cache_figure(c: dict, layout: str) -> str:
    w, h = width(360, layout), 170
    left, right = 64, w - 12
    heads = c["mha_sets"]
    box = min(26.0, (right - left) / heads)
    parts = [svg.text(8, 18, f"KV-Cache bei H = {heads}", "pl-axis")]
    for row, (label, sets, mib) in enumerate((("MHA", heads, c["mha_mib"]), ("MQA", 1, c["mqa_mib"]))):
        y = 38 + 62 * row
        parts.append(svg.text(8, y + 20, label, "pl-label pl-value"))
        for k in range(sets):
            parts.append(f'<rect class="pl-mqa-set" x="{left + k * box:.1f}" y="{y}" width="{max(box - 2, 1):.1f}" '
                         f'height="28"/>')
        parts.append(svg.text(left, y + 46, f"{fmt.de(sets)} K/V-{'Kopf' if sets == 1 else 'Köpfe'} · "
                           f"{fmt.de(mib, 0)} MiB im Standardbeispiel", "pl-tick"))
    return svg.figure(w, h, parts, label=f"KV-Cache: {heads} K/V-Köpfe bei MHA, einer bei MQA", layout=layout)


def _table(r: dict) -> str:
    rows = [(f"Kopf {i + 1}", f'{fmt.de(h["scores"][0], 3)} | {fmt.de(h["scores"][1], 3)}',
             _pair(h["weights"]), _pair(h["output"])) for i, h in enumerate(r["heads_out"])]
    return table(("", "q·k / √2", "Gewichte", "Ergebnis"), rows,
                 caption="Gleiche Keys und Values, verschiedene Queries", row_heads=True, numeric=True, wide=True)


# -- the lesson ----------------------------------------------------------------------------

SHARP = 0.9  # weight on one key that counts as „fast nur dieser Key“
NEAR_SHARP = 0.85  # „fast“ for the task sharp
NEAR_SAME = 0.1  # „fast“ for same_other: head 2's weight on k₁ this close to head 1's


def _weight_on_k1(result, head: int) -> float:
    return result["heads_out"][head]["weights"][0]


LESSON = Lesson(
    prediction=Prediction(
        question="Du stellst die Länge der Queries auf 0. Welche Gewichte gibt Kopf 1 dann k₁ und k₂?",
        choices=("1 und 0", "etwa 0,8 und 0,2", "0,5 und 0,5"),
        answer=2,
        shown=lambda params, result: result["length"] == 0,
        explain="Eine Query der Länge 0 gibt jedem Key den Score 0. "
                "Gleiche Scores werden bei Softmax zu gleichen Gewichten.",
        example={"length": 0.0},
        why_not=("q₁ zeigt in Richtung k₁, da liegt es nahe, dass nur k₁ zählt. "
                 "Eine Query der Länge 0 zeigt aber nirgendwohin: Jeder Score ist 0.",
                 "So verteilt Kopf 1 bei Länge 2, und die Richtung bleibt ja gleich. "
                 "Die Scores wachsen aber mit der Länge. Bei Länge 0 sind alle gleich, und Softmax teilt gleichmäßig auf.",
                 ""),
    ),
    tasks=(
        Task("same_other", "Finde für q₂ eine andere Richtung als die von q₁, bei der beide Köpfe trotzdem "
                           "dasselbe Ergebnis liefern.",
             solved=lambda params, result: (result["same_output"] and result["angle1"] != result["angle2"]
                                            and result["length"] > 0),
             explain="Softmax achtet nur darauf, wie weit die Scores auseinanderliegen. "
                     "Zwei Queries mit gleichem Abstand der Scores ergeben dieselben Gewichte.",
             example={"angle2": 270},
             hints=("Vergleiche die Gewichte von Kopf 1 und Kopf 2.",
                    "Softmax achtet nur darauf, wie weit die beiden Scores auseinanderliegen, nicht auf ihre Höhe.",
                    "Drehe „Richtung von q₂ (Grad)“ und suche eine Richtung, in der die beiden Scores so weit "
                    "auseinanderliegen wie bei q₁."),
             near=Near(lambda params, result: (not result["same_output"] and result["angle1"] != result["angle2"]
                                               and result["length"] > 0
                                               and abs(_weight_on_k1(result, 1) - _weight_on_k1(result, 0)) <= NEAR_SAME),
                       "Fast: Die Gewichte von Kopf 2 liegen schon nahe bei denen von Kopf 1. Gleich sind sie aber noch nicht.",
                       {"angle2": 285})),
        Task("sharp", f"Bring Kopf 1 dazu, mehr als {fmt.de(SHARP, 1)} seines Gewichts auf k₁ zu legen.",
             solved=lambda params, result: _weight_on_k1(result, 0) > SHARP,
             explain="Die Länge allein reicht nicht. Am schärfsten wird es bei 315°: "
                     "Dort zeigt q₁ zu k₁ hin und zugleich von k₂ weg.",
             example={"angle1": 315, "length": 3.0},
             hints=("Schaue auf „Gewichte Kopf 1“.",
                    "Eine längere Query macht die Scores größer. Überlege, welche Richtung ihren Abstand am größten macht.",
                    "Stelle „Länge der Queries“ hoch und drehe dann „Richtung von q₁ (Grad)“."),
             near=Near(lambda params, result: NEAR_SHARP < _weight_on_k1(result, 0) <= SHARP,
                       f"Fast: Kopf 1 legt schon mehr als {fmt.de(NEAR_SHARP, 2)} seines Gewichts auf k₁.",
                       {"length": 3.0})),
        Task("one_gib", f"Stelle H so ein, dass Multi-Head Attention im Beispiel {fmt.size(fmt.GIB, 'GiB')} "
                        "KV-Cache braucht.",
             solved=lambda params, result: result["cache"]["mha_bytes"] == fmt.GIB,
             explain=f"Dann speichert MHA {fmt.GIB // BYTES_PER_SET} K/V-Köpfe, MQA nur einen: "
                     f"{fmt.size(BYTES_PER_SET, 'MiB')} statt {fmt.size(fmt.GIB, 'GiB')}.",
             example={"heads": fmt.GIB // BYTES_PER_SET},
             hints=("MHA speichert für jeden Query-Kopf einen eigenen K/V-Kopf.",
                    f"Ein K/V-Kopf kostet im Beispiel {fmt.size(BYTES_PER_SET, 'MiB')}. "
                    f"Wie viele davon ergeben {fmt.size(fmt.GIB, 'GiB')}?",
                    "Erhöhe „Query-Köpfe H (für den Cache)“, bis der Cache von MHA genau passt."),
             near=Near(lambda params, result: 7 * fmt.GIB // 8 <= result["cache"]["mha_bytes"] < fmt.GIB,
                       f"Fast: Der Cache von MHA liegt schon knapp unter {fmt.size(fmt.GIB, 'GiB')}.",
                       {"heads": 60})),
    ),
    discussion=(
        "Warum spart MQA gerade beim Erzeugen langer Texte so viel?",
        "Was verliert ein Modell, wenn alle Köpfe dieselben Keys und Values teilen?",
    ),
    teacher=(
        "Der KV-Cache wächst mit jedem Token, und bei jedem neuen Token wird er ganz gelesen. "
        "Ein K/V-Kopf statt H heißt H-mal weniger Speicher und weniger Lesen.",
        "Die Köpfe können sich nur noch in ihren Fragen unterscheiden, nicht in dem, was gespeichert ist. "
        "Das kostet etwas Qualität; GQA ist darum ein Mittelweg.",
    ),
    misconceptions=(
        "„Mit gemeinsamen Keys und Values rechnen alle Köpfe dasselbe.“ – Nein, verschiedene Queries "
        "geben denselben Keys verschiedene Gewichte.",
        "„MQA spart die Queries ein.“ – Nein, jeder Kopf behält seine eigene Query; gespart wird der KV-Cache.",
    ),
)
