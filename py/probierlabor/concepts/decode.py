"""Decode: the article's toy model stepping through generation with a KV cache.

The model (CONCEPTS.md §17, seed 000, fully specified): three tokens A = (1, 0), B = (0, 1),
C = (−1, −1); Q = K = V = these vectors; one attention with scale 1/√2; no positions, layers,
training or end token. The output h = (h₀, h₁) gives the logits [h₁, h₀, −h₀ − h₁] for A, B, C,
and greedy decoding takes the largest (on a tie the first, A before B before C).

Prefill processes the prompt A B: h ≈ (0.330, 0.670), so A is chosen. The cache then holds the
two prompt positions only; the chosen A is processed in the next pass. The continuation
alternates A, B, A, B, … (D2: the article speaks of a "repeated answer"; it is the prompt's
pattern repeating, not one token).

Each pass is computed twice: with the cache (one new K/V per pass) and by recomputing the
whole prefix from scratch (n new K/V); both give the same h. Proposal (P): other prompts.
"""

from __future__ import annotations

import math
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "decode"
TITLE = "Decode"
GROUP = "Die Inferenz-Engine"
TEASER = "Token für Token weiterschreiben: verarbeiten, cachen, wählen – und das Gewählte erst im nächsten Durchlauf."

VECTORS = {"A": (1.0, 0.0), "B": (0.0, 1.0), "C": (-1.0, -1.0)}
NAMES = ("A", "B", "C")
SCALE = 1 / math.sqrt(2)
MAX_STEPS = 12

PROMPTS = (("AB", "A B"), ("BA", "B A"), ("A", "A"), ("C", "C"), ("ABC", "A B C"), ("CAB", "C A B"))

PARAMS = (
    Param("steps", "Durchläufe nach dem Prefill", "int", 0, lo=0, hi=MAX_STEPS, step=1,
          help="Jeder Durchlauf verarbeitet das zuletzt gewählte Token und wählt das nächste."),
    Param("prompt", "Prompt", "choice", "AB", choices=PROMPTS, widget="select",
          help="Das Beispiel nimmt A B; die anderen sind zum Weiterprobieren."),
)

PRESETS = (
    Preset("Nur Prefill", {}, "Der Prompt A B ist verarbeitet, A ist gewählt, aber noch nicht im Cache."),
    Preset("Nächster Durchlauf", {"steps": 1}, "Jetzt wird A verarbeitet; gewählt wird B."),
    Preset("Drei Durchläufe", {"steps": 3}, "A, B, A, B …: die Folge wechselt ab."),
    Preset("Zwölf Durchläufe", {"steps": MAX_STEPS}, "Wie wachsen die K/V-Berechnungen mit und ohne Cache?"),
    Preset("Prompt C", {"prompt": "C", "steps": 3}, "C zieht sich selbst an."),
)


def attend(query, keys, values):
    """Softmax attention of one query over the given keys; returns (weights, h)."""
    scores = [SCALE * (query[0] * k[0] + query[1] * k[1]) for k in keys]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    weights = [e / total for e in exps]
    h = (sum(w * v[0] for w, v in zip(weights, values)), sum(w * v[1] for w, v in zip(weights, values)))
    return weights, h


def logits_of(h) -> list[float]:
    return [h[1], h[0], -h[0] - h[1]]


def greedy(logits) -> str:
    best = max(logits)
    return NAMES[logits.index(best)]  # on a tie the first: A before B before C


def kv_of(token: str):
    """This toy model's K and V of a token: its vector (Q = K = V)."""
    return VECTORS[token], VECTORS[token]


def full_recompute(context: list[str]):
    """Without a cache: compute K/V for every position of the prefix anew, then attend from the last."""
    keys, values = [], []
    for token in context:
        k, v = kv_of(token)
        keys.append(k)
        values.append(v)
    return attend(VECTORS[context[-1]], keys, values), len(context)


def run(prompt: str, steps: int) -> list[dict]:
    """Prefill plus ``steps`` decode passes, each computed with the cache and by full recomputation."""
    cache_k, cache_v = [], []
    context: list[str] = []
    passes = []
    to_process = list(prompt)
    for n in range(steps + 1):
        for token in to_process:  # only these positions get new K/V in this pass
            k, v = kv_of(token)
            cache_k.append(k)
            cache_v.append(v)
            context.append(token)
        weights, h = attend(VECTORS[context[-1]], cache_k, cache_v)
        (_, h_full), full_new = full_recompute(context)
        logits = logits_of(h)
        chosen = greedy(logits)
        passes.append({
            "pass": n,
            "processed": list(to_process),
            "context": list(context),
            "counter": len(cache_k),  # positions whose K/V have been computed; the chosen token is not among them
            "weights": weights,
            "h": list(h),
            "h_full": list(h_full),
            "diff": max(abs(a - b) for a, b in zip(h, h_full)),
            "logits": logits,
            "chosen": chosen,
            "tie": sorted(logits)[-1] == sorted(logits)[-2],
            "new_cache": len(to_process),
            "new_full": full_new,
        })
        to_process = [chosen]
    return passes


def compute(steps: int = 0, prompt: str = "AB") -> dict:
    passes = run(prompt, steps)
    now = passes[-1]
    generated = [p["chosen"] for p in passes]
    return {
        "prompt": list(prompt),
        "steps": steps,
        "passes": passes,
        "context": now["context"],
        "counter": now["counter"],
        "weights": now["weights"],
        "h": now["h"],
        "logits": now["logits"],
        "chosen": now["chosen"],
        "tie": now["tie"],
        "generated": generated,
        "kv_cache_total": sum(p["new_cache"] for p in passes),
        "kv_full_total": sum(p["new_full"] for p in passes),
        "kv_cache_step": now["new_cache"],
        "kv_full_step": now["new_full"],
        "max_diff": max(p["diff"] for p in passes),
    }


# -- text ---------------------------------------------------------------------------------

def vec(h, digits: int = 3) -> str:
    return f"({fmt.de(h[0], digits)}; {fmt.de(h[1], digits)})"


def seq(tokens) -> str:
    return " ".join(tokens)


# -- view ---------------------------------------------------------------------------------

def _lines(x: float, y: float, halves: tuple[str, str], cls: str, narrow: bool, joint: str = " ") -> list[str]:
    """A sentence in two halves: on one line (joined by ``joint``), or on a narrow figure on two."""
    if not narrow:
        return [svg.text(x, y, joint.join(halves), cls)]
    return [svg.text(x, y, halves[0] + joint.rstrip(), cls), svg.text(x, y + 18, halves[1], cls)]


def _key_sentence(r: dict, ctx: list[str]) -> str:
    """The sentence under the pass: what it processed and chose (the counter lags the text by the chosen
    token), then what the cache saved against recomputing the whole prefix – with the same h."""
    cache, full = r["kv_cache_total"], r["kv_full_total"]
    step = "Das Prefill" if r["steps"] == 0 else f"Durchlauf {r['steps']}"
    text = (f"{step} verarbeitet {seq(ctx)}: K/V-Zähler {r['counter']}, h = {vec(r['h'])}, gewählt {r['chosen']}. "
            f"{r['chosen']} kommt erst im nächsten Durchlauf in den Cache. "
            f"Folge: {seq(r['prompt'])} | {seq(r['generated'])}.")
    if cache == full:
        return text + f" Bisher {fmt.de(cache)} K/V-Berechnungen, mit und ohne Cache gleich viele."
    same = "mit demselben h" + ("" if r["max_diff"] <= 1e-12 else " bis auf Rundungsfehler")
    return (text + f" Mit Cache bisher {fmt.de(cache)} K/V-Berechnungen, bei voller Neuberechnung {fmt.de(full)}: "
            f"Der Cache spart {fmt.de(full - cache)}, {same}.")


def view(r: dict, layout: str = WIDE) -> View:
    # a narrow figure breaks its long lines in two: ``line`` is the height each such break adds
    narrow = layout == NARROW
    line = 18 if narrow else 0
    w = width(500, layout)
    left, right = 16, w - 16
    ctx = r["context"]
    n = len(ctx) + 1
    slot = min(44.0, (right - left) / n)
    box = slot - 4
    y_w, bar_h = 30 + line, 44  # attention weights above the boxes
    y_box = y_w + bar_h + 8
    h_total = 456 + 5 * line
    parts = []
    title = (f"Durchlauf {r['steps']}" + (" (Prefill)" if r["steps"] == 0 else ""),
             f"Attention-Gewichte der Query von {ctx[-1]}")
    parts += _lines(left, 16, title, "pl-axis", narrow, ": ")
    for i, (tok, weight) in enumerate(zip(ctx, r["weights"])):
        x = left + i * slot
        bh = bar_h * weight
        parts.append(f'<rect class="pl-dc-weight" x="{x + 4:.1f}" y="{y_w + bar_h - bh:.1f}" width="{box - 8:.1f}" '
                     f'height="{max(bh, 0.5):.1f}"><title>Gewicht {escape(fmt.de(weight, 4))}</title></rect>')
        if slot >= 40:
            parts.append(svg.text(x + box / 2, y_w + bar_h - bh - 3, fmt.de(weight, 2), "pl-tick pl-dc-small", "middle"))
        new = i >= len(ctx) - r["kv_cache_step"]
        cls = "pl-dc-new" if new else "pl-dc-cached"
        if i == len(ctx) - 1:
            cls += " pl-dc-query"
        parts.append(f'<rect class="pl-dc-tok {cls}" x="{x:.1f}" y="{y_box}" width="{box:.1f}" height="32" rx="4">'
                     f'<title>Position {i + 1}: {tok}, K/V {"in diesem Durchlauf berechnet" if new else "aus dem Cache"}'
                     f'</title></rect>')
        parts.append(svg.text(x + box / 2, y_box + 22, tok, "pl-label pl-dc-toklabel", "middle"))
    x = left + len(ctx) * slot
    parts.append(f'<rect class="pl-dc-tok pl-dc-chosen" x="{x:.1f}" y="{y_box}" width="{box:.1f}" height="32" rx="4">'
                 f'<title>gewählt, noch nicht verarbeitet</title></rect>')
    parts.append(svg.text(x + box / 2, y_box + 22, r["chosen"], "pl-label pl-dc-toklabel", "middle"))
    parts += _lines(left, y_box + 52, (f"K/V-Zähler: {r['counter']} Positionen", "mit berechnetem K/V."),
                    "pl-label", narrow)
    parts += _lines(left, y_box + 70 + line, (f"Das gewählte {r['chosen']} (gestrichelt) hat noch kein K/V",
                                              "erst im nächsten Durchlauf."), "pl-tick", narrow, " – ")

    # h and the logits
    y_h = y_box + 100 + 2 * line
    parts.append(svg.text(left, y_h, f"h = {vec(r['h'])}", "pl-axis"))
    logits = "Logits [h₁, h₀, −h₀ − h₁] für A, B, C"
    parts.append(svg.text(left, y_h + line, logits, "pl-label") if narrow else
                 svg.text(left + 170, y_h, logits, "pl-label"))
    y_h += line
    zero, unit = (left + 90, 40) if narrow else (left + 130, 60)  # logits lie in [−1.5, 2]
    for k, (name, value) in enumerate(zip(NAMES, r["logits"])):
        y = y_h + 14 + k * 26
        chosen = name == r["chosen"]
        parts.append(svg.text(left + 4, y + 15, name, "pl-label pl-value" if chosen else "pl-label"))
        x0, x1 = sorted((zero, zero + unit * value))
        parts.append(f'<rect class="pl-dc-logit{" pl-dc-best" if chosen else ""}" x="{x0:.1f}" y="{y + 2}" '
                     f'width="{max(x1 - x0, 1):.1f}" height="18"/>')
        parts.append(svg.text(max(x1, zero) + 6, y + 15, fmt.de(value, 3) + ("  ← gewählt" if chosen else ""),
                              "pl-label pl-value" if chosen else "pl-label"))
    parts.append(f'<line class="pl-dc-zero" x1="{zero}" y1="{y_h + 10}" x2="{zero}" y2="{y_h + 92}"/>')
    if r["tie"]:
        parts += _lines(left, y_h + 106, ("Gleichstand:", "gewählt wird das erste der gleich großen Logits."),
                        "pl-tick pl-dc-note", narrow)

    # K/V computations so far: with the cache vs recomputing everything
    y_c = y_h + 132 + line
    parts.append(svg.text(left, y_c, "K/V-Berechnungen bisher", "pl-axis"))
    cx0, cx1, cy0, cy1 = left + 40, right - 10, y_c + 100, y_c + 14
    ymax = max(r["kv_full_total"], 4)
    full_cum, cache_cum, a, b = [], [], 0, 0
    for p in r["passes"]:
        a += p["new_cache"]
        b += p["new_full"]
        cache_cum.append(a)
        full_cum.append(b)

    def pt(i, v):
        return cx0 + (cx1 - cx0) * i / MAX_STEPS, cy0 - (cy0 - cy1) * v / ymax

    parts.append(f'<line class="pl-dc-zero" x1="{cx0}" y1="{cy0}" x2="{cx1}" y2="{cy0}"/>')
    for i in (0, 4, 8, 12):
        parts.append(svg.text(pt(i, 0)[0], cy0 + 16, str(i), "pl-tick", "middle"))
    parts.append(svg.text(cx0 - 6, cy1 + 10, fmt.de(ymax), "pl-tick", "end"))
    parts.append(svg.text(cx0 - 6, cy0 + 4, "0", "pl-tick", "end"))
    for cls, data in (("pl-dc-full", full_cum), ("pl-dc-cache", cache_cum)):
        coords = " ".join(f"{pt(i, v)[0]:.1f},{pt(i, v)[1]:.1f}" for i, v in enumerate(data))
        parts.append(f'<polyline class="{cls}" points="{coords}"/>')
        for i, v in enumerate(data):
            x, y = pt(i, v)
            parts.append(f'<circle class="{cls}-dot" cx="{x:.1f}" cy="{y:.1f}" r="3.5"/>')
    parts.append(svg.text(cx1, cy0 + 32, "Durchlauf", "pl-tick", "end"))
    lx = cx0 + 10
    parts.append(f'<line class="pl-dc-full" x1="{lx}" y1="{cy1 + 6}" x2="{lx + 22}" y2="{cy1 + 6}"/>')
    parts.append(svg.text(lx + 28, cy1 + 10, f"alles neu: {fmt.de(r['kv_full_total'])}", "pl-legend"))
    parts.append(f'<line class="pl-dc-cache" x1="{lx}" y1="{cy1 + 26}" x2="{lx + 22}" y2="{cy1 + 26}"/>')
    parts.append(svg.text(lx + 28, cy1 + 30, f"mit Cache: {fmt.de(r['kv_cache_total'])}", "pl-legend"))
    figure = svg.figure(w, h_total, parts, cls="pl-dc", layout=layout,
                        label=f'Decode-Durchlauf {r["steps"]}: Kontext {seq(ctx)}, gewählt {r["chosen"]}')

    same = "ja" if r["max_diff"] <= 1e-12 else f"nein (Abweichung {r['max_diff']:.1e})"
    readouts = [
        Readout("h", "h", vec(r["h"]), r["h"], True),
        Readout("chosen", "gewählt (noch nicht verarbeitet)", r["chosen"], r["chosen"], True),
        Readout("counter", "K/V-Zähler", f"{fmt.de(r['counter'])} Positionen", r["counter"], True),
        Readout("sequence", "Folge bisher", f"{seq(r['prompt'])} | {seq(r['generated'])}", r["generated"]),
        Readout("kv", "K/V-Berechnungen: Cache / alles neu",
                f"{fmt.de(r['kv_cache_total'])} / {fmt.de(r['kv_full_total'])}", [r["kv_cache_total"], r["kv_full_total"]]),
        Readout("same", "gleiches h wie Neuberechnung?", same, r["max_diff"]),
    ]
    summary = _key_sentence(r, ctx)
    return View(figure, readouts, summary, _table(r))


def _table(r: dict) -> str:
    rows = []
    for p in r["passes"]:
        weights = "; ".join(fmt.de(x, 4) for x in p["weights"]) if len(p["weights"]) <= 5 else "…"
        logits = "; ".join(fmt.de(x, 3) for x in p["logits"])
        rows.append(("Prefill" if p["pass"] == 0 else str(p["pass"]), seq(p["processed"]), str(p["counter"]), weights,
                     vec(p["h"], 4), logits, p["chosen"], f"{p['new_cache']} / {p['new_full']}"))
    head = ("Durchlauf", "verarbeitet", "K/V-Zähler", "Gewichte", "h", "Logits A; B; C", "gewählt",
            "neue K/V mit / ohne Cache")
    current = [i for i, p in enumerate(r["passes"]) if p["pass"] == r["steps"]]
    return table(head, rows, caption="Alle Durchläufe", highlight=current, row_heads=True, numeric=True, wide=True)


# -- the lesson ---------------------------------------------------------------------------

_AFTER_A = compute(steps=1)["logits"]  # the logits once A is the query: A, B, C

LESSON = Lesson(
    prediction=Prediction(
        question="Nach dem Prompt A B wählt das Modell A. Was wählt es im nächsten Durchlauf?",
        choices=("wieder A", "B", "C"),
        answer=1,
        shown=lambda params, result: params["prompt"] == "AB" and params["steps"] >= 1,
        explain="Die Query A achtet vor allem auf die beiden A im Kontext. In diesem Modell bekommt B dadurch das "
                "größte Logit: Es wiederholt das Muster des Prompts.",
        example={"steps": 1},
        why_not=("A hat eben gewonnen, da liegt es nahe, dass es wieder gewinnt. Jetzt ist aber A selbst die Query. "
                 f"Dann bekommt B das größte Logit: ≈ {fmt.de(_AFTER_A[1], 3)} gegen ≈ {fmt.de(_AFTER_A[0], 3)} für A.",
                 "",
                 "C kam im Prompt nicht vor und wirkt deshalb wie eine Abwechslung. Sein Logit ist aber −1, "
                 "weit unter A und B."),
    ),
    tasks=(
        Task("five_times", "Stelle so viele Durchläufe ein, dass ohne Cache mindestens fünfmal so viele K/V "
                           "berechnet werden wie mit Cache.",
             solved=lambda params, result: result["kv_full_total"] >= 5 * result["kv_cache_total"],
             explain="Mit Cache kommt pro Durchlauf ein K/V dazu, ohne Cache der ganze Kontext. "
                     "Deshalb wächst der Abstand mit jedem weiteren Token.",
             example={"steps": 8},
             hints=("Vergleiche die beiden Zahlen bei „K/V-Berechnungen: Cache / alles neu“.",
                    "Mit Cache kommt pro Durchlauf ein K/V dazu, ohne Cache der ganze Kontext. "
                    "Das Verhältnis wächst also mit jedem Durchlauf.",
                    "Erhöhe „Durchläufe nach dem Prefill“ Schritt für Schritt und teile die zweite Zahl durch die erste."),
             near=Near(lambda params, result: result["kv_full_total"] >= 4 * result["kv_cache_total"],
                       "Fast: Ohne Cache sind es schon mehr als viermal so viele K/V. Es fehlt nicht mehr viel.",
                       {"steps": 6})),
        Task("counter_lags", "Stelle einen Zustand ein, in dem Prompt und gewählte Tokens zusammen 6 Tokens lang "
                             "sind. Wie viele K/V zählt der Cache?",
             solved=lambda params, result: len(result["prompt"]) + len(result["generated"]) == 6,
             explain="Der Cache zählt nur 5. Das zuletzt gewählte Token ist noch nicht verarbeitet; "
                     "seine K/V entstehen erst im nächsten Durchlauf.",
             example={"steps": 3},
             hints=("„Folge bisher“ zeigt den Prompt und die gewählten Tokens. Zähle beide Teile zusammen.",
                    "Jeder Durchlauf hängt ein gewähltes Token an.",
                    "Verändere „Durchläufe nach dem Prefill“, bis die Folge 6 Tokens lang ist. Lies dann den K/V-Zähler ab."),
             near=Near(lambda params, result: abs(len(result["prompt"]) + len(result["generated"]) - 6) == 1,
                       "Fast: Die Folge ist ein Token zu kurz oder zu lang. Ändere die Durchläufe um eins.",
                       {"steps": 2})),
        Task("only_c", "Finde einen Prompt mit A und B darin, nach dem das Modell nur noch C schreibt.",
             solved=lambda params, result: ("A" in result["prompt"] and "B" in result["prompt"]
                                             and params["steps"] >= 1 and set(result["generated"]) == {"C"}),
             explain="Steht C am Ende, ist C die Query, und C passt am besten zu sich selbst. "
                     "Das Modell wählt C und bleibt dann dabei.",
             example={"prompt": "ABC", "steps": 2},
             hints=("Das letzte Token des Prompts ist die erste Query. Es entscheidet, wohin die Folge kippt.",
                    "Jedes Token passt in diesem Modell am besten zu sich selbst, auch C.",
                    "Probiere bei „Prompt“ die Prompts mit A und B durch und achte darauf, wo C steht."),
             near=Near(lambda params, result: set(result["generated"]) == {"C"},
                       "Fast: Das Modell schreibt schon nur C. Der Prompt braucht aber A und B, "
                       "und mindestens ein Durchlauf muss laufen.",
                       {"prompt": "C", "steps": 2})),
    ),
    discussion=(
        "Warum kann Decode nicht wie Prefill viele Positionen auf einmal rechnen?",
        "Der Cache spart Rechenarbeit. Was muss das Modell in jedem Durchlauf trotzdem noch tun?",
    ),
    teacher=(
        "Das nächste Token steht erst fest, wenn der vorige Durchlauf fertig ist. Jeder Durchlauf braucht "
        "das gerade gewählte Token als Eingabe.",
        "Die Query muss weiterhin mit allen gespeicherten Keys verglichen werden, und alle Values werden "
        "gemischt. Gespart wird nur das erneute Berechnen der alten K/V.",
    ),
    misconceptions=(
        "„Das gewählte Token liegt sofort im Cache.“ Seine K/V entstehen erst im nächsten Durchlauf, "
        "deshalb hinkt der Zähler um eins hinterher.",
        "„Mit Cache kommt etwas anderes heraus.“ Cache und Neuberechnung liefern dasselbe h; "
        "nur der Aufwand unterscheidet sich.",
    ),
)
