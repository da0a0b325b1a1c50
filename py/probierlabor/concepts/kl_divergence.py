"""KL divergence of two distributions over two events, in both directions.

The article's example (CONCEPTS.md §26): p = [0.9, 0.1], q = [0.5, 0.5];
D(p‖q) = 0.9·ln 1.8 + 0.1·ln 0.2 ≈ 0.368 and D(q‖p) ≈ 0.511 nats.

D(r‖a) = Σ rᵢ·ln(rᵢ/aᵢ) with the reference r and the approximation a, and the edge cases of
SciPy's ``rel_entr``: a term with rᵢ = 0 is 0; a term with rᵢ > 0 and aᵢ = 0 is +∞. An infinite
divergence is a result, not an error: it is carried as ``None`` (JSON has no ∞) with the
flag ``…_infinite`` and shown as „∞“.

The reader edits one probability per distribution; the other is 1 minus it, computed as an
exact ``Fraction`` from the decimal the reader chose, so both always sum to exactly 1.

PyTorch's ``nn.KLDivLoss`` takes ``input`` = log-probabilities of the model (the
approximation) and ``target`` = probabilities of the reference, and computes the pointwise
terms target·(ln target − input), i.e. D(target‖model). ``batchmean`` divides the sum by
the number of examples (rows), ``mean`` by the number of elements (rows × classes).

Own distributions (2–8 typed chances each, kit/distribution.py) take the place of a slider's two
events; the events are A, B, … in the order typed. A distribution with fewer events than the other
gives the missing ones the probability 0 (a two-event slider too), which the summary says. The
curve of both directions needs a single slider to move and is drawn for two events only; the
PyTorch batch's second example is then the uniform distribution over all events.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from ..kit import distribution, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import Cell, table

SLUG = "kl-divergence"
TITLE = "KL-Divergenz"
GROUP = "Lernen und Bewerten"
TEASER = "Wie weit liegt eine Verteilung von einer anderen entfernt – und warum die Richtung zählt."


# not "p" and "q": the theme reads ?q= as a search query
OWN = {
    "p": distribution.own("p_eigen", "Eigene Verteilung p", help="Statt des Reglers für p: 2 bis 8 Wahrscheinlichkeiten, "
                          "mit Semikolon getrennt; sie werden durch ihre Summe geteilt, falls nötig. Leer: der Regler. "
                          "Die Balken einer eigenen Verteilung lassen sich im Bild ziehen.", alias="q_dist"),
    "q": distribution.own("q_eigen", "Eigene Verteilung q", help="Ebenso für q. Fehlen q Ereignisse, die p hat, "
                          "bekommen sie bei q die Wahrscheinlichkeit 0 (und umgekehrt).", alias="p_dist"),
}

PARAMS = (
    # p is the reference and q the approximation, as on speculative-decoding. Links that were shared while
    # the letters stood the other way round name the reference q1 and the approximation p1: read as aliases,
    # such a link (q1 = 0,9) still sets the reference, and no shared link changes its meaning.
    Param("p_a", "p: Wahrscheinlichkeit von A", "float", 0.9, lo=0.0, hi=1.0, step=0.01, alias="q1",
          help="Die Verteilung p; B bekommt den Rest 1 − p(A)."),
    Param("q_a", "q: Wahrscheinlichkeit von A", "float", 0.5, lo=0.0, hi=1.0, step=0.01, alias="p1",
          help="Die Verteilung q; B bekommt den Rest 1 − q(A)."),
    Param("swap", "Richtung tauschen: q ist die Referenz", "bool", False,
          help="Aus: p ist die Referenz, q die Näherung, also D(p‖q). An: D(q‖p)."),
    *OWN.values(),
)

PRESETS = (
    Preset("Von vorn", {}, "p = (0,9; 0,1) ist die Referenz, q = (0,5; 0,5) die Näherung."),
    Preset("Richtung getauscht", {"swap": True}, "Dieselben Zahlen, die Rollen vertauscht."),
    Preset("Gleiche Verteilungen", {"p_a": 0.7, "q_a": 0.7}, "Stimmen beide überein, ist KL genau 0."),
    Preset("Null in der Näherung", {"q_a": 1.0},
           "q gibt B die Wahrscheinlichkeit 0, obwohl p ihm 0,1 gibt."),
)


# -- the mathematics ----------------------------------------------------------------

def as_fraction(x) -> Fraction:
    """The decimal the reader chose, exactly (0.9 → 9/10, not the binary float)."""
    return x if isinstance(x, Fraction) else Fraction(repr(float(x)))


def two(x) -> tuple[Fraction, Fraction]:
    x = as_fraction(x)
    return x, 1 - x


def second(n: int) -> tuple[Fraction, ...]:
    """The second example of the small PyTorch batch: model and target agree exactly (its KL is 0)."""
    return (Fraction(1, n),) * n


def padded(dist: tuple, n: int) -> tuple:
    return tuple(dist) + (Fraction(0),) * (n - len(dist))


def term(r, a) -> float:
    """rᵢ·ln(rᵢ/aᵢ) with SciPy's edge cases: 0 for rᵢ = 0, +∞ for aᵢ = 0 < rᵢ."""
    if r == 0:
        return 0.0
    if a == 0:
        return math.inf
    return float(r) * ln_ratio(r, a)


def ln_ratio(r, a) -> float:
    """ln(r/a), accurate near 1 (log1p) and without overflow for extreme ratios."""
    x = r / a
    if isinstance(x, Fraction) and abs(x - 1) < Fraction(1, 2):
        return math.log1p(float(x - 1))
    return distribution.ln(x)


def kl(ref, approx) -> float:
    """D(ref‖approx) in nats (math.inf where approx misses an event of ref)."""
    terms = [term(r, a) for r, a in zip(ref, approx)]
    # ≥ 0 exactly (Gibbs); a rounding residue of −1e-17 is not a negative divergence
    return math.inf if math.inf in terms else max(0.0, math.fsum(terms))


def cross_entropy(ref, approx) -> float:
    """H(ref, approx) = −Σ refᵢ·ln approxᵢ (terms with refᵢ = 0 are 0)."""
    if any(r > 0 and a == 0 for r, a in zip(ref, approx)):
        return math.inf
    return -math.fsum(float(r) * distribution.ln(a) for r, a in zip(ref, approx) if r > 0)


def entropy(dist) -> float:
    return -math.fsum(float(r) * distribution.ln(r) for r in dist if r > 0)


def kl_div_loss(inputs, targets, reduction: str) -> float:
    """What torch.nn.KLDivLoss(reduction=…)(input, target) returns, log_target=False.

    inputs: rows of log-probabilities (floats, −∞ allowed); targets: rows of probabilities.
    Pointwise target·(ln target − input), 0 where target = 0 (PyTorch uses xlogy)."""
    terms = []
    for row_in, row_t in zip(inputs, targets):
        for x, t in zip(row_in, row_t):
            if t == 0:
                terms.append(0.0)
            elif x == -math.inf:
                terms.append(math.inf)
            else:
                terms.append(float(t) * (distribution.ln(t) - x))
    total = math.inf if math.inf in terms else math.fsum(terms)
    if reduction == "sum":
        return total
    if reduction == "batchmean":
        return total / len(targets)
    if reduction == "mean":
        return total / len(terms)
    raise ValueError(reduction)


def _log(x: Fraction) -> float:
    return distribution.ln(x) if x > 0 else -math.inf


def _json(x: float):
    return x if math.isfinite(x) else None


# -- the experiment -------------------------------------------------------------------

def compute(p_a: float = 0.9, q_a: float = 0.5, swap: bool = False, p_eigen: tuple = (), q_eigen: tuple = ()) -> dict:
    own_p, own_q = p_eigen, q_eigen
    p = distribution.shares(own_p) if own_p else two(p_a)
    q = distribution.shares(own_q) if own_q else two(q_a)
    n = max(len(p), len(q))
    added = {"p": n - len(p), "q": n - len(q)}
    p, q = padded(p, n), padded(q, n)
    ref, approx = (q, p) if swap else (p, q)
    d_pq, d_qp = kl(p, q), kl(q, p)
    d, h_cross, h_ref = kl(ref, approx), cross_entropy(ref, approx), entropy(ref)
    terms = [term(r, a) for r, a in zip(ref, approx)]
    one = ([[_log(a) for a in approx]], [list(ref)])
    batch = ([[_log(a) for a in approx], [_log(a) for a in second(n)]], [list(ref), list(second(n))])
    torch = {red: {"single": _json(kl_div_loss(*one, red)), "batch": _json(kl_div_loss(*batch, red))}
             for red in ("sum", "batchmean", "mean")}
    # the classic slip: passing probabilities instead of log-probabilities as `input`
    wrong = kl_div_loss([[float(a) for a in approx]], [list(ref)], "batchmean")
    return {
        "events": list(distribution.names(n)),
        "own": {"p": bool(own_p), "q": bool(own_q)},
        "padded": added,
        "p": [float(x) for x in p],
        "q": [float(x) for x in q],
        "p_exact": [str(x) for x in p],
        "q_exact": [str(x) for x in q],
        "swap": swap,
        "direction": "qp" if swap else "pq",
        "d_pq": _json(d_pq),
        "d_pq_infinite": math.isinf(d_pq),
        "d_qp": _json(d_qp),
        "d_qp_infinite": math.isinf(d_qp),
        "d": _json(d),
        "d_infinite": math.isinf(d),
        "terms": [_json(t) for t in terms],
        "terms_infinite": [math.isinf(t) for t in terms],
        "cross_entropy": _json(h_cross),
        "entropy": h_ref,
        "equal": p == q,
        "torch": torch,
        "torch_wrong_input": wrong,
    }


def show(x: float | None, digits: int = 3) -> str:
    """A divergence for reading: ∞ for None."""
    return "∞" if x is None else fmt.de(x, digits)


def names(r: dict) -> tuple[str, str]:
    """(reference, approximation) as letters."""
    return ("q", "p") if r["swap"] else ("p", "q")


def _key_sentence(r: dict, ref: str, listed) -> str:
    """The sentence under the bars: both directions and what they say here – zero for equal distributions,
    infinity where the approximation rules out what the reference expects, equal values only for special
    pairs, otherwise the direction matters; the reference picks which of the two the page computes."""
    pq, qp = show(r["d_pq"]), show(r["d_qp"])
    text = f"p = ({listed(r['p'])}), q = ({listed(r['q'])}): D(p‖q) = {pq}, D(q‖p) = {qp} (in Nat)."
    ruled_out = lambda a, b: [e for e, x, y in zip(r["events"], a, b) if x > 0 and y == 0]  # noqa: E731
    if r["p"] == r["q"]:
        text += " Beide Verteilungen sind gleich, darum ist KL in beiden Richtungen 0."
    elif r["d_pq"] is None or r["d_qp"] is None:
        for a, b, d in (("p", "q", r["d_pq"]), ("q", "p", r["d_qp"])):
            if d is None:
                events = ", ".join(ruled_out(r[a], r[b]))
                text += f" D({a}‖{b}) ist unendlich: {b} gibt {events} die Wahrscheinlichkeit 0, obwohl {a} damit rechnet."
        if (r["d_pq"] is None) != (r["d_qp"] is None):
            text += " Die andere Richtung bleibt endlich."
    elif pq == qp:
        text += " Hier sind beide Richtungen gleich groß, obwohl die Verteilungen verschieden sind – ein Sonderfall."
    else:
        text += " Dieselben zwei Verteilungen, zwei verschiedene Werte: Die Richtung zählt."
    return text + f" Referenz ist {ref}, gerechnet wird also D({ref}‖{'q' if ref == 'p' else 'p'})."


def view(r: dict, layout: str = WIDE) -> View:
    ref, approx = names(r)
    readouts = [
        # labels are fixed text (the page swaps only the values); the roles go into the values
        Readout("d_pq", "D(p‖q) in Nat", show(r["d_pq"]), r["d_pq"], True),
        Readout("d_qp", "D(q‖p) in Nat", show(r["d_qp"]), r["d_qp"], True),
        Readout("cross_entropy", "Kreuzentropie H(Referenz, Näherung)",
                f"H({ref}, {approx}) = {show(r['cross_entropy'])}", r["cross_entropy"]),
        Readout("entropy", "Entropie H(Referenz)", f"H({ref}) = {show(r['entropy'])}", r["entropy"]),
    ]
    listed = lambda values: "; ".join(fmt.de_auto(v) for v in values)  # noqa: E731
    summary = _key_sentence(r, ref, listed)
    for name, count in r["padded"].items():
        if count:
            missing = ", ".join(r["events"][-count:])
            summary += f" {name} hat weniger Ereignisse; {missing} {'bekommt' if count == 1 else 'bekommen'} bei {name} die Wahrscheinlichkeit 0."
    curve = _curve(r, layout) if len(r["events"]) == 2 else ""  # one slider moves only two events
    return View(_figure(r, layout), readouts, summary, curve + _torch_table(r))


# -- figures ------------------------------------------------------------------------

def _figure(r: dict, layout: str) -> str:
    """Left: the two distributions side by side. Right: each event's contribution to D(ref‖approx).
    A narrow figure keeps the two panels side by side, narrower, the right one's heading in two lines."""
    narrow = layout == NARROW
    ref_name, approx_name = names(r)
    ref = r["q"] if r["swap"] else r["p"]
    approx = r["p"] if r["swap"] else r["q"]
    W, H = (340, 316) if narrow else (440, 316)
    top, bottom = 56, 246
    parts = ['<text class="pl-axis" x="12" y="20">Verteilungen</text>']
    if narrow:
        parts += ['<text class="pl-axis" x="176" y="20">Beitrag jedes</text>',
                  '<text class="pl-axis" x="176" y="38">Ereignisses</text>']
    else:
        parts.append('<text class="pl-axis" x="236" y="20">Beitrag jedes Ereignisses</text>')

    # left panel: probabilities 0 … 1
    lx0, lx1 = (34, 156) if narrow else (40, 200)
    py = lambda v: bottom - v * (bottom - top)  # noqa: E731
    for v in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line class="pl-grid" x1="{lx0}" y1="{py(v):.1f}" x2="{lx1}" y2="{py(v):.1f}"/>'
                     f'<text class="pl-tick" x="{lx0 - 6}" y="{py(v) + 4:.1f}" text-anchor="end">'
                     f'{fmt.de_auto(v) if v else "0"}</text>')
    events = r["events"]
    few = len(events) <= 3  # room for the numbers above the bars; with more they are in the bars' titles
    group = (lx1 - lx0) / len(events)
    bar = min(26 if narrow else 32, group / 2 - 3)
    # an own distribution's bars can be dragged (its events, not the ones it lacks); their targets
    # lie under all bars, each at most as wide as its bar's distance to the next bar dragged
    typed = {name: len(events) - r["padded"][name] if r["own"][name] else 0 for name in ("p", "q")}
    room = min(bar + 4, group - bar - 4) if typed["p"] and typed["q"] else group
    targets, first = [], len(parts)
    for i, event in enumerate(events):
        cx = lx0 + group * (i + 0.5)
        for j, (name, value, cls) in enumerate(((ref_name, ref[i], "pl-kl-ref"), (approx_name, approx[i], "pl-kl-approx"))):
            x = cx - bar - 2 + j * (bar + 4)
            title = f"{name}({event}) = {fmt.de_auto(value)}"
            if i < typed[name]:
                target, handle = distribution.bar(OWN[name], i, value, x=x, width=bar, top=top, bottom=bottom,
                                                  cls=cls, room=room, title=title)
                targets.append(target)
                parts.append(handle)
            else:
                parts.append(f'<rect class="{cls}" x="{x:.1f}" y="{py(value):.1f}" width="{bar:g}" '
                             f'height="{bottom - py(value):.1f}"><title>{title}</title></rect>')
            if few:  # a narrow figure with three events lifts q's numbers a row: neighbours would touch
                lift = 13 * j if narrow and len(events) == 3 else 0
                parts.append(f'<text class="pl-kl-value" x="{x + bar / 2:.1f}" y="{py(value) - 5 - lift:.1f}" '
                             f'text-anchor="middle">{fmt.de(value, 2)}</text>')
        parts.append(f'<text class="pl-tick" x="{cx:.1f}" y="{bottom + 18}" text-anchor="middle">{event}</text>')
    parts[first:first] = targets
    parts.append(f'<line class="pl-frame" x1="{lx0}" y1="{bottom}" x2="{lx1}" y2="{bottom}"/>')
    # legend under the left panel
    ly = H - 26
    for j, (name, cls, text) in enumerate(((ref_name, "pl-kl-ref", "Referenz"), (approx_name, "pl-kl-approx", "Näherung"))):
        x = 12 + j * 100
        parts.append(svg.key(x, ly, cls, f"{name}: {text}"))

    # right panel: contributions ref_i·ln(ref_i/approx_i); they can be negative, the sum cannot
    rx0, rx1 = (206, 334) if narrow else (268, 432)
    finite = [t for t in r["terms"] if t is not None] + ([r["d"]] if r["d"] is not None else [])
    span = max([0.0] + [abs(t) for t in finite])
    hi = next((v for v in (0.5, 1, 2, 3, 5, 10, 20, 50) if v >= span), math.ceil(span / 100) * 100)
    lo = -hi
    ry = lambda v: bottom - (v - lo) / (hi - lo) * (bottom - top)  # noqa: E731
    for v in (lo, lo / 2, 0, hi / 2, hi):
        parts.append(f'<line class="pl-grid" x1="{rx0}" y1="{ry(v):.1f}" x2="{rx1}" y2="{ry(v):.1f}"/>'
                     f'<text class="pl-tick" x="{rx0 - 6}" y="{ry(v) + 4:.1f}" text-anchor="end">'
                     f'{fmt.de_auto(v) if v else "0"}</text>')
    parts.append(f'<line class="pl-frame" x1="{rx0}" y1="{ry(0):.1f}" x2="{rx1}" y2="{ry(0):.1f}"/>')
    slot = (rx1 - rx0) / (len(events) + 1)
    items = [(event, term, infinite, "pl-kl-term")
             for event, term, infinite in zip(events, r["terms"], r["terms_infinite"])]
    items.append(("Summe" if few else "Σ", r["d"], r["d_infinite"], "pl-kl-sum"))
    for i, (label, value, infinite, cls) in enumerate(items):
        cx = rx0 + slot * (i + 0.5)
        w = min(36, slot - 6)
        if infinite:
            y1, y2, text = ry(hi), ry(0), "∞"
            cls += " pl-kl-inf"
        else:
            y1, y2 = sorted((ry(value), ry(0)))
            text = fmt.de(value, 3)
        parts.append(f'<rect class="{cls}" x="{cx - w / 2:.1f}" y="{y1:.1f}" width="{w:g}" height="{max(y2 - y1, 0.5):.1f}">'
                     f"<title>{escape(label)}: {escape(text)}</title></rect>")
        below = (not infinite) and value < 0
        ty = (y2 + 14) if below else (y1 - 5)
        if few or i == len(events):
            # many narrow slots: the sum's number ends at its bar, inside the figure
            tx, anchor = (cx + w / 2, "end") if narrow and not few else (cx, "middle")
            parts.append(f'<text class="pl-kl-value" x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">{escape(text)}</text>')
        parts.append(f'<text class="pl-tick" x="{cx:.1f}" y="{bottom + 18}" text-anchor="middle">{escape(label)}</text>')
    formula = f"{ref_name}ᵢ · ln({ref_name}ᵢ / {approx_name}ᵢ)"
    # a narrow figure ends the formula at the panel's edge, clear of the key on its left
    fx, anchor = (rx1, "end") if narrow else (f"{(rx0 + rx1) / 2:.0f}", "middle")
    parts.append(f'<text class="pl-legend" x="{fx}" y="{ly}" text-anchor="{anchor}">'
                 f"{escape(formula)}</text>")
    label = (f"Verteilungen {ref_name} und {approx_name} und die Beiträge zu D({ref_name}‖{approx_name}) = "
             f"{show(r['d'])}")
    return svg.figure(W, H, parts, label=label, cls="pl-kl", layout=layout)


CURVE_TOP = 3.0


def _curve(r: dict, layout: str) -> str:
    """Both directions as the approximation's share of A moves, the reference fixed."""
    ref_name, approx_name = names(r)
    ref = two(Fraction(r["q_exact"][0] if r["swap"] else r["p_exact"][0]))
    now = Fraction(r["p_exact"][0] if r["swap"] else r["q_exact"][0])
    plot = svg.Plot(320, 248, (0, 1), (0, CURVE_TOP), label=f"KL in beiden Richtungen, {ref_name} fest",
                    margin=(22, 14, 42, 44), layout=layout)
    plot.grid(xticks=[0, 0.25, 0.5, 0.75, 1], yticks=[0, 1, 2, 3], xlabel=f"{approx_name}(A)",
              ylabel="Nat", xfmt=lambda v: fmt.de_auto(v) if v else "0", yfmt=lambda v: fmt.de(int(v)))
    grid = [i / 200 for i in range(201)]
    fref = tuple(float(x) for x in ref)

    def curve(func, cls):
        run = []
        for x in grid:
            value = func((x, 1.0 - x) if x < 1 else (1.0, 0.0))
            if math.isfinite(value) and value <= CURVE_TOP * 1.5:
                run.append((float(x), value))
            else:
                if len(run) > 1:
                    plot.polyline(run, cls)
                run = []
        if len(run) > 1:
            plot.polyline(run, cls)

    curve(lambda a: kl(fref, a), "pl-kl-forward")
    curve(lambda a: kl(a, fref), "pl-kl-backward")
    here = two(now)
    for value, cls in ((kl(ref, here), "pl-kl-forward-dot"), (kl(here, ref), "pl-kl-backward-dot")):
        y = min(value, CURVE_TOP) if math.isfinite(value) else CURVE_TOP
        plot.point(float(now), y, 5, cls, title=show(_json(value)))
        if not math.isfinite(value):
            right = float(now) > 0.5  # an infinite value: its label sits above the frame
            plot.text(float(now) + (-0.03 if right else 0.03), CURVE_TOP, "∞", "pl-label pl-value",
                      "end" if right else "start", dy=-6)
    plot.line(float(now), 0, float(now), CURVE_TOP, "pl-kl-now")
    plot.legend([("pl-kl-forward", f"D({ref_name}‖{approx_name})"), ("pl-kl-backward", f"D({approx_name}‖{ref_name})")],
                corner="tr" if float(ref[0]) >= 0.5 else "tl")  # the minimum lies under the legend
    return plot.render()


def _torch_table(r: dict) -> str:
    ref_name, approx_name = names(r)
    t = r["torch"]
    rows = [
        ("sum", "alle Terme addiert"),
        ("batchmean", "Summe ÷ Beispiele"),
        ("mean", "Summe ÷ Elemente"),
    ]
    body = [(Cell(f"<code>{red}</code>", html=True), what, show(t[red]["single"]), show(t[red]["batch"]))
            for red, what in rows]
    wrong = fmt.de(r["torch_wrong_input"], 3)
    n = len(r["events"])
    uniform = "; ".join([fmt.de_auto(1 / n)] * n) if n <= 4 else f"je 1/{n}"
    return (
        '<div class="pl-kl-torch">'
        f'<p class="pl-kl-code"><code>nn.KLDivLoss(reduction=…)(input=log {approx_name}, target={ref_name})</code> '
        f"rechnet D({ref_name}‖{approx_name}).</p>"
        + table(("reduction", "Rechnung", f"1 × {n}", f"2 × {n}"), body, row_heads=True, wide=True, cls="pl-kl-table") +
        f'<p class="pl-kl-foot">1 × {n}: nur dieses Beispiel. 2 × {n}: dazu ein zweites, bei dem Modell und Ziel '
        f"genau ({uniform}) sind. Falsch: <code>input={approx_name}</code> ohne log ergibt {escape(wrong)}.</p>"
        "</div>"
    )


# -- the lesson ----------------------------------------------------------------------------

SAME = 1e-12  # both directions are float sums of two terms; equal ones agree to rounding
SMALL = 0.2
VERY_NEGATIVE = 0.3  # below −0,3 needs both sliders moved: p·ln(p/q) ≥ p·ln p ≥ −1/e
NEAR_NEGATIVE = 0.2  # „fast“ for negative_a
NEAR_MIRROR = 0.1  # „fast“ for mirror: the two directions differ by at most a tenth of the larger


def _both_ways_close(params, result) -> bool:
    a, b = result["d_pq"], result["d_qp"]
    return (not result["equal"] and a is not None and b is not None and abs(a - b) >= SAME
            and abs(a - b) <= NEAR_MIRROR * max(a, b))


def _both_ways_equal(params, result) -> bool:
    # with own distributions too: there a swap of two entries is another right answer
    a, b = result["d_pq"], result["d_qp"]
    return not result["equal"] and a is not None and b is not None and abs(a - b) < SAME


def _one_way_infinite(params, result) -> bool:
    # D(q‖p) infinite, not either one: the prediction's own example (q gives B 0) makes D(p‖q) infinite
    return result["d_qp"] is None and result["d_pq"] is not None and result["d_pq"] < SMALL


_DEFAULT_P1 = next(q.default for q in PARAMS if q.name == "p_a")
_EXAMPLE = compute()

LESSON = Lesson(
    prediction=Prediction(
        question=f"p gibt B die Wahrscheinlichkeit {fmt.de(1 - _DEFAULT_P1, 1)}. Jetzt gibt q dem Ereignis B die "
                 "Wahrscheinlichkeit 0. Wie groß wird D(p‖q)?",
        choices=("etwa 0,1", "etwa 2,3", "unendlich groß"),
        answer=2,
        shown=lambda params, result: (result["q_exact"][1] == "0" and params["p_a"] == _DEFAULT_P1
                                      and not any(result["own"].values())),
        explain=f"Im Beitrag von B steht ln({fmt.de(1 - _DEFAULT_P1, 1)} / 0). Wer ein Ereignis ausschließt, das die Referenz erwartet, "
                "liegt unendlich weit daneben.",
        example={"q_a": 1.0},
        why_not=(f"B hat bei p nur {fmt.de(1 - _DEFAULT_P1, 1)}, da wirkt sein Beitrag klein. "
                 f"Im Beitrag steht aber ln({fmt.de(1 - _DEFAULT_P1, 1)} / 0), und der wächst über jede Grenze.",
                 f"So groß ist die Überraschung über ein Ereignis mit {fmt.de(1 - _DEFAULT_P1, 1)}, also "
                 f"ln(1 / {fmt.de(1 - _DEFAULT_P1, 1)}). Hier steht im Logarithmus aber eine Division durch 0: "
                 "Der Beitrag von B hat keine Grenze.",
                 ""),
    ),
    tasks=(
        Task("mirror", "Finde zwei verschiedene Verteilungen, bei denen D(p‖q) und D(q‖p) gleich groß sind.",
             solved=_both_ways_equal,
             explain="Mit zwei Ereignissen klappt das nur, wenn q das Spiegelbild von p ist, etwa (0,1; 0,9) "
                     "gegen (0,9; 0,1). Mit mehr Ereignissen reicht es auch, zwei Werte zu vertauschen. "
                     "Sonst hängt das Ergebnis fast immer von der Richtung ab.",
             example={"q_a": 0.1},
             hints=("Vergleiche D(p‖q) mit D(q‖p).",
                    "Überlege, welche Verteilung von p genauso weit entfernt ist wie p von ihr. Denke an Spiegelbilder.",
                    "Lass p, wie es ist, und schiebe „q: Wahrscheinlichkeit von A“ weit auf die andere Seite."),
             near=Near(_both_ways_close,
                       "Fast: Beide Richtungen liegen schon nah beieinander. Gleich sind sie aber noch nicht.",
                       {"q_a": 0.12})),
        Task("one_way", f"Finde Einstellungen, bei denen D(q‖p) unendlich ist und D(p‖q) kleiner als "
                        f"{fmt.de(SMALL, 1)}.",
             solved=_one_way_infinite,
             explain="Gibt p einem Ereignis 0, dem q etwas zutraut, wird D(q‖p) unendlich. In D(p‖q) zählt "
                     "dieses Ereignis dagegen gar nicht, weil p es nie erwartet.",
             example={"p_a": 1.0, "q_a": 0.95},
             hints=("Unendlich wird KL, wenn die Verteilung im Nenner einem Ereignis 0 gibt, das die andere erwartet.",
                    "Für D(q‖p) muss also p einem Ereignis 0 geben. Für ein kleines D(p‖q) muss q nahe an p liegen.",
                    "Schiebe „p: Wahrscheinlichkeit von A“ ganz an den Rand und bringe „q: Wahrscheinlichkeit von A“ "
                    "nahe heran."),
             near=Near(lambda params, result: result["d_qp"] is None and result["d_pq"] is not None,
                       f"Fast: D(q‖p) ist schon unendlich. Jetzt muss D(p‖q) noch unter {fmt.de(SMALL, 1)} fallen.",
                       {"p_a": 1.0})),
        # below −0,3, not just below 0: the prediction's own example (q gives A 1) makes it −0,09 unasked
        Task("negative_a", f"Mache den Beitrag von A kleiner als {fmt.de(-VERY_NEGATIVE, 1)}. Fällt dann auch die "
                           f"Summe unter 0?",
             solved=lambda params, result: result["terms"][0] is not None and result["terms"][0] < -VERY_NEGATIVE,
             explain="Ein Beitrag ist negativ, wenn die Näherung dem Ereignis mehr zutraut als die Referenz. "
                     "Der andere Beitrag gleicht das immer aus: Die Summe bleibt mindestens 0.",
             example={"p_a": 0.4, "q_a": 0.9},
             hints=("Schaue auf den Beitrag von A: p(A) · ln(p(A) / q(A)).",
                    "Negativ wird er, wenn q dem Ereignis A mehr zutraut als p. "
                    "Ist p(A) sehr groß oder sehr klein, bleibt er aber nahe 0.",
                    "Senke „p: Wahrscheinlichkeit von A“ unter die Hälfte und schiebe „q: Wahrscheinlichkeit von A“ "
                    "weit nach oben."),
             near=Near(lambda params, result: (result["terms"][0] is not None
                                               and -VERY_NEGATIVE <= result["terms"][0] < -NEAR_NEGATIVE),
                       f"Fast: Der Beitrag von A ist schon kleiner als {fmt.de(-NEAR_NEGATIVE, 1)}.",
                       {"p_a": 0.4, "q_a": 0.7})),
    ),
    discussion=(
        "Ein Schüler sagt: „KL ist der Abstand zwischen zwei Verteilungen.“ Was stimmt daran, was nicht?",
        "Ein kleines Modell lernt von einem großen (Wissensdestillation). Welche Verteilung sollte die Referenz sein, "
        "und was passiert, wenn das kleine Modell einem Token die Wahrscheinlichkeit 0 gibt?",
    ),
    teacher=(
        "Richtig ist: KL ist nie negativ und nur bei gleichen Verteilungen 0. Falsch ist: Anders als ein Abstand "
        "hängt KL von der Richtung ab.",
        "Oft ist das große Modell (der Lehrer) die Referenz und das kleine die Näherung. Schließt das kleine "
        "ein Token aus, das das große erwartet, wird die KL-Divergenz unendlich groß.",
    ),
    misconceptions=(
        f"„D(p‖q) und D(q‖p) sind gleich.“ – Nein, nur in Sonderfällen; im Beispiel {show(_EXAMPLE['d_pq'])} "
        f"gegen {show(_EXAMPLE['d_qp'])}.",
        "„Ein negativer Beitrag macht die Summe negativ.“ – Nein, die Summe ist immer mindestens 0.",
    ),
)
