"""Knowledge distillation on one prediction: hard label „A“ against the teacher's 0.60 / 0.35 / 0.05.

The article's example (CONCEPTS.md §30): the teacher gives tokens A, B, C the probabilities
0.60, 0.35, 0.05; the label „A“ names only the winner and hides that B was a close
alternative, much likelier than C.

Temperature (Hinton, Vinyals, Dean 2015, §2): soft targets qᵢ(T) = exp(zᵢ/T) / Σⱼ exp(zⱼ/T)
with the teacher's logits z = ln p, i.e. qᵢ(T) ∝ pᵢ^(1/T). The student is softened with the
*same* T. Its ordinary (T = 1) prediction is s = (s_A, r·(1 − s_A), (1 − r)·(1 − s_A)), where r is
the student's share of the rest for B: an exact Fraction that sums to 1 for every slider setting.
The student's logits are v = ln s, so its softened prediction is sᵢ(T) ∝ sᵢ^(1/T).

Losses (natural log, nats):
* hard: cross-entropy with the label at T = 1, −ln s_A;
* soft: KL(p(T)‖s(T)); the cross-entropy H(p(T), s(T)) differs only by the teacher's entropy
  H(p(T)), a constant for the student, so both have the same gradient;
* total: (1 − α)·hard + α·T²·KL. The T² (Hinton §2) compensates that the soft gradient
  ∂H(p(T), s(T))/∂v = (s(T) − p(T))/T shrinks roughly as 1/T² when T grows.

An own teacher (2–8 typed chances, kit/distribution.py) replaces the article's; the label stays the
first token, A. The student keeps its two sliders: A gets s_A, B the share r of the rest, and the
remaining (1 − r)·(1 − s_A) goes to C, D, … in the teacher's proportions among them (evenly where the
teacher gives them nothing), so that it never rules out a token the teacher expects. With only two
tokens B takes the whole rest.
"""

from __future__ import annotations

import math
from fractions import Fraction
from html import escape

from ..kit import distribution, drag, fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import NARROW, WIDE
from ..kit.lesson import Lesson, Near, Prediction, Task, unless_own

SLUG = "knowledge-distillation"
TITLE = "Knowledge Distillation"
GROUP = "Lernen und Bewerten"
TEASER = "Ein Schüler lernt aus den Wahrscheinlichkeiten eines Lehrers – mehr als aus dem Label allein."

TOKENS = ("A", "B", "C")
TEACHER = (Fraction(60, 100), Fraction(35, 100), Fraction(5, 100))
LABEL = (Fraction(1), Fraction(0), Fraction(0))
T_MIN, T_MAX, T_STEP = 1.0, 5.0, 0.1

OWN = distribution.own("teacher", "Eigener Lehrer",
                       help="2 bis 8 Wahrscheinlichkeiten des Lehrers für A, B, C …, mit Semikolon getrennt; das Label bleibt A. "
                            "Ergeben sie nicht 1, wird durch ihre Summe geteilt. Leer: 0,6; 0,35; 0,05. Die Balken "
                            "eines eigenen Lehrers lassen sich im Bild ziehen.")

PARAMS = (
    Param("T", "Temperatur T", "float", 1.0, lo=T_MIN, hi=T_MAX, step=T_STEP,
          help="Gilt für Lehrer und Schüler gleichermaßen; größer heißt weicher."),
    Param("s_a", "Schüler: Wahrscheinlichkeit von A", "float", 0.9, lo=0.01, hi=0.98, step=0.01,
          help="Die gewöhnliche Vorhersage des Schülers (bei T = 1) für A."),
    Param("split", "Schüler: Anteil von B am Rest", "float", 0.5, lo=0.005, hi=0.995, step=0.005,
          help="Wie der Schüler den Rest 1 − s(A) auf B und C verteilt (der Lehrer: 0,875)."),
    Param("alpha", "Gewicht α der weichen Ziele", "float", 0.5, lo=0.0, hi=1.0, step=0.05,
          help="0: nur das Label zählt; 1: nur der Lehrer."),
    OWN,
)

PRESETS = (
    Preset("Von vorn", {}, "Ein Schüler, der vor allem das Label „A“ gelernt hat."),
    Preset("Schüler wie Lehrer", {"s_a": 0.6, "split": 0.875}, "Der Schüler trifft die Lehrerverteilung genau."),
    Preset("B und C vertauscht", {"s_a": 0.6, "split": 0.125},
           "Gleicher Gewinner, gleicher harter Verlust – aber B und C verwechselt."),
    Preset("T = 2", {"T": 2.0}, "Die weichen Ziele bei doppelter Temperatur."),
    Preset("T = 4", {"T": 4.0}, "Noch weicher: C tritt deutlich hervor."),
)


# -- the mathematics ----------------------------------------------------------------

def exact(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(repr(float(x)))


def student(s_a, split, teacher=TEACHER) -> tuple[Fraction, ...]:
    a, r = exact(s_a), exact(split)
    if len(teacher) == 2:
        return a, 1 - a
    rest = teacher[2:] if sum(teacher[2:]) > 0 else (Fraction(1),) * (len(teacher) - 2)
    return (a, r * (1 - a), *tuple((1 - r) * (1 - a) * w / sum(rest) for w in rest))


def label(n: int) -> tuple[int, ...]:
    return LABEL[:1] + (0,) * (n - 1)


def soften(dist, T: float):
    """softmax(ln p / T): exact for T = 1, floats that sum to 1 (up to rounding) otherwise."""
    if T == 1:
        return tuple(dist)
    weights = [float(p) ** (1.0 / T) if p > 0 else 0.0 for p in dist]
    total = math.fsum(weights)
    return tuple(w / total for w in weights)


def cross_entropy(target, pred) -> float:
    return -math.fsum(float(t) * distribution.ln(p) for t, p in zip(target, pred) if t > 0)


def entropy(dist) -> float:
    return -math.fsum(float(t) * distribution.ln(t) for t in dist if t > 0)


def kl(target, pred) -> float:
    return math.fsum(float(t) * distribution.ln(t / p) for t, p in zip(target, pred) if t > 0)


def _norm(values) -> float:
    return math.sqrt(math.fsum(float(v) ** 2 for v in values))


def soft_gradient(s, T: float, teacher=TEACHER) -> float:
    """|∂H(p(T), s(T))/∂v| for the student's logits v = ln s: |s(T) − p(T)| / T."""
    q, st = soften(teacher, T), soften(s, T)
    return _norm(float(a) - float(b) for a, b in zip(st, q)) / T


def hard_gradient(s) -> float:
    """|∂(−ln s_A)/∂v| = |s − label| at T = 1."""
    return _norm(float(a) - float(b) for a, b in zip(s, label(len(s))))


def losses(s, T: float, alpha: float, teacher=TEACHER) -> dict:
    q, st = soften(teacher, T), soften(s, T)
    hard = -distribution.ln(s[0])
    soft_kl = max(0.0, kl(q, st))  # ≥ 0 in exact arithmetic; clip −1e-17 rounding
    return {
        "hard": hard,
        "soft_kl": soft_kl,
        "soft_ce": cross_entropy(q, st),
        "teacher_entropy": entropy(q),
        "soft_kl_scaled": T * T * soft_kl,
        "total": (1 - alpha) * hard + alpha * T * T * soft_kl,
    }


# -- the experiment -------------------------------------------------------------------

def compute(T: float = 1.0, s_a: float = 0.9, split: float = 0.5, alpha: float = 0.5, teacher: tuple = ()) -> dict:
    own = bool(teacher)
    teacher = distribution.shares(teacher) if own else TEACHER
    s = student(s_a, split, teacher)
    q, st = soften(teacher, T), soften(s, T)
    ts = [round(T_MIN + i * T_STEP, 1) for i in range(round((T_MAX - T_MIN) / T_STEP) + 1)]
    return {
        "T": T,
        "alpha": alpha,
        "own": own,
        "tokens": list(distribution.names(len(teacher))),
        "teacher": [float(x) for x in teacher],
        "label": [float(x) for x in label(len(teacher))],
        "student": [float(x) for x in s],
        "student_exact": [str(x) for x in s],
        "teacher_T": [float(x) for x in q],
        "student_T": [float(x) for x in st],
        **losses(s, T, alpha, teacher),
        "hard_gradient": hard_gradient(s),
        "soft_gradient": soft_gradient(s, T, teacher),
        "soft_gradient_scaled": T * T * soft_gradient(s, T, teacher),
        "gradients": [{"T": t, "raw": soft_gradient(s, t, teacher), "scaled": t * t * soft_gradient(s, t, teacher)}
                      for t in ts],
    }


def triple(values, digits: int = 2) -> str:
    return " · ".join(fmt.de(v, digits) for v in values)


def _key_sentence(r: dict) -> str:
    """The sentence under the bars: both distributions at T, then what the two losses see – the label only
    A (it rewards a student who exaggerates A, and cannot tell how the rest is shared), the soft targets
    all tokens (0 only for a student who matches the teacher)."""
    hard, soft, total = fmt.de(r["hard"], 3), fmt.de(r["soft_kl"], 3), fmt.de(r["total"], 3)
    label, student_a, teacher_a = r["tokens"][0], r["student"][0], r["teacher"][0]
    # the hard loss of a student who matches the teacher (an own teacher may give the label 0)
    own_hard = fmt.de(-math.log(teacher_a), 3) if teacher_a > 0 else "∞"
    text = (f"Bei T = {fmt.de_auto(r['T'])} gibt der Lehrer {triple(r['teacher_T'])} für {', '.join(r['tokens'])}, "
            f"der Schüler {triple(r['student_T'])}.")
    if soft == fmt.de(0, 3):
        text += (f" Er trifft den Lehrer, darum ist der weiche Verlust 0; übrig bleibt nur der Zug des Labels, "
                 f"harter Verlust {hard}.")
    elif math.isclose(student_a, teacher_a, abs_tol=1e-9):
        text += (f" {label} gibt er wie der Lehrer, also ist der harte Verlust derselbe ({hard}). Nur der weiche "
                 f"Verlust sieht, wie er den Rest verteilt: {soft}.")
    elif student_a > teacher_a:
        text += (f" Das Label belohnt seine Übertreibung: harter Verlust {hard}, kleiner als bei einem Schüler, "
                 f"der den Lehrer trifft ({own_hard}). Die weichen Ziele zeigen, was fehlt: KL {soft}.")
    else:
        text += (f" Er gibt {label} weniger als der Lehrer: harter Verlust {hard}, mehr als bei einem Schüler, der "
                 f"den Lehrer trifft ({own_hard}); weicher Verlust {soft}.")
    return text + f" Gesamt {total}."


def view(r: dict, layout: str = WIDE) -> View:
    readouts = [
        # labels are fixed text (the page swaps only the values)
        Readout("teacher_T", f"Weiche Ziele des Lehrers ({' · '.join(r['tokens'])})", triple(r["teacher_T"], 3), r["teacher_T"], True),
        Readout("hard", "Harter Verlust −ln s(A)", fmt.de(r["hard"], 3), r["hard"]),
        Readout("soft_kl", "Weicher Verlust KL(Lehrer‖Schüler) bei T", fmt.de(r["soft_kl"], 3), r["soft_kl"], True),
        Readout("soft_kl_scaled", "T² · KL", fmt.de(r["soft_kl_scaled"], 3), r["soft_kl_scaled"]),
        Readout("soft_ce", "Kreuzentropie bei T (= KL + Entropie des Lehrers)", fmt.de(r["soft_ce"], 3), r["soft_ce"]),
        Readout("total", "Gesamt: (1 − α)·hart + α·T²·KL", fmt.de(r["total"], 3), r["total"], True),
    ]
    summary = _key_sentence(r)
    return View(_figure(r, layout), readouts, summary, _gradients(r, layout))


# -- figures ------------------------------------------------------------------------

def _figure(r: dict, layout: str) -> str:
    # a narrow figure: narrower bars (their values at the smallest narrow print, knowledge_distillation.css), one key a row
    narrow = layout == NARROW
    W, H = (340, 366) if narrow else (440, 318)
    top, bottom, left, right = (30, 232, 44, 332) if narrow else (30, 232, 52, 430)
    py = lambda v: bottom - v * (bottom - top)  # noqa: E731
    T = fmt.de_auto(r["T"])
    parts = []
    for v in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line class="pl-grid" x1="{left}" y1="{py(v):.1f}" x2="{right}" y2="{py(v):.1f}"/>'
                     f'<text class="pl-tick" x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">'
                     f'{fmt.de_auto(v) if v else "0"}</text>')
    parts.append(f'<text class="pl-axis" transform="translate(14 {(top + bottom) / 2:.0f}) rotate(-90)" '
                 f'text-anchor="middle">Wahrscheinlichkeit</text>')
    series = (("Label „A“", r["label"], "pl-kd-label"), (f"Lehrer bei T = {T}", r["teacher_T"], "pl-kd-teacher"),
              (f"Schüler bei T = {T}", r["student_T"], "pl-kd-student"))
    tokens = r["tokens"]
    few = len(tokens) <= 3  # room for the numbers above the bars; with more they are in the bars' titles
    group = (right - left) / len(tokens)
    bar = min(26 if narrow else 32, group / 3 - 4)
    # an own teacher can be dragged: its bar at T = 1, else its mark for T = 1 (the chance typed);
    # the targets span each token's column and lie under all bars
    targets, first = [], len(parts)
    for i, token in enumerate(tokens):
        cx = left + group * (i + 0.5)
        for j, (name, values, cls) in enumerate(series):
            x = cx + (j - 1.5) * (bar + 4) + 2
            v = values[i]
            dragged = r["own"] and cls == "pl-kd-teacher"
            if dragged:
                targets.append(distribution.target(OWN, i, cx, bar, room=group, top=top, bottom=bottom))
            handle = (drag.markup(distribution.handle(OWN, i, r["teacher"][i], top=top, bottom=bottom))
                      if dragged else "")
            parts.append(f'<rect class="{cls}{" pl-bar-handle" if handle and r["T"] == 1 else ""}" x="{x:.1f}" '
                         f'y="{py(v):.1f}" width="{bar:g}" height="{bottom - py(v):.1f}"'
                         f'{handle if r["T"] == 1 else ""}><title>{escape(name)}, {token}: {fmt.de(v, 3)}</title></rect>')
            if few:
                parts.append(f'<text class="pl-kd-value" x="{x + bar / 2:.1f}" y="{py(v) - 5:.1f}" '
                             f'text-anchor="middle">{fmt.de(v, 2)}</text>')
            if cls == "pl-kd-teacher" and r["T"] != 1:
                t1 = r["teacher"][i]  # where the teacher stood at T = 1
                parts.append(f'<line class="pl-kd-t1{" pl-bar-handle" if handle else ""}" x1="{x - 3:.1f}" '
                             f'y1="{py(t1):.1f}" x2="{x + bar + 3:.1f}" y2="{py(t1):.1f}"{handle}>'
                             f'<title>Lehrer bei T = 1: {fmt.de(t1, 2)}</title></line>')
        parts.append(f'<text class="pl-axis" x="{cx:.1f}" y="{bottom + 20}" text-anchor="middle">{"Token " if len(tokens) <= 4 else ""}{token}</text>')
    parts[first:first] = targets
    parts.append(f'<line class="pl-frame" x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}"/>')
    # legend in two rows, so that it stays legible when the figure shrinks to a phone's width
    keys = [(cls, name) for name, _, cls in series]
    if r["T"] != 1:
        keys.append(("pl-kd-t1", "Lehrer bei T = 1"))
    for k, (cls, name) in enumerate(keys):
        x, y = (20, bottom + 44 + k * 22) if narrow else (20 + (k % 2) * 210, H - 42 + (k // 2) * 22)
        line = cls == "pl-kd-t1"
        parts.append(svg.key(x, y, cls, name, w=16 if line else 13, gap=5 if line else 8, line=line,
                             text_cls="pl-legend pl-kd-legend"))
    label = (f"Label, Lehrer und Schüler bei T = {T}: Lehrer {triple(r['teacher_T'])}, "
             f"Schüler {triple(r['student_T'])}")
    return svg.figure(W, H, parts, label=label, cls="pl-kd", layout=layout)


def _gradients(r: dict, layout: str) -> str:
    """How hard each target pulls on the student's logits, for every T: why Hinton multiplies by T²."""
    rows = r["gradients"]
    peak = max([r["hard_gradient"]] + [row["scaled"] for row in rows] + [row["raw"] for row in rows])
    top = peak * 1.9 if peak > 0 else 1.0  # room for the legend above the curves
    plot = svg.Plot(320, 240, (T_MIN, T_MAX), (0, top), label="Zug der Ziele am Schüler, je nach T",
                    margin=(14, 14, 42, 48), layout=layout)
    step = _nice_step(top)
    ticks = [i * step for i in range(int(top / step) + 1)]
    plot.grid(xticks=[1, 2, 3, 4, 5], yticks=ticks, xlabel="Temperatur T", ylabel="Stärke des Gradienten",
              xfmt=fmt.tick, yfmt=lambda v: fmt.de_auto(v) if v else "0")
    plot.hline(r["hard_gradient"], "pl-kd-hard")
    plot.polyline([(row["T"], row["raw"]) for row in rows], "pl-kd-raw")
    plot.polyline([(row["T"], row["scaled"]) for row in rows], "pl-kd-scaled")
    plot.line(r["T"], 0, r["T"], top, "pl-kd-now")
    plot.point(r["T"], r["soft_gradient"], 4.5, "pl-kd-raw-dot")
    plot.point(r["T"], r["soft_gradient_scaled"], 4.5, "pl-kd-scaled-dot")
    plot.legend([("pl-kd-hard", "Label (T = 1)"), ("pl-kd-raw", "weich, roh"), ("pl-kd-scaled", "weich × T²")],
                corner="tr")
    return plot.render()


def _nice_step(top: float) -> float:
    raw = top / 4
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


# -- the lesson ---------------------------------------------------------------------------

def _near(value, target) -> bool:
    return abs(float(value) - target) < 1e-9  # slider values arrive as floats on a 0,01 grid


def _kl_at_1(params) -> float:
    return losses(student(params["s_a"], params["split"]), 1.0, params["alpha"])["soft_kl"]


LESSON = Lesson(
    prediction=Prediction(
        question="Zwei Schüler geben A beide 0,6. Einer teilt den Rest wie der Lehrer auf, "
                 "der andere vertauscht B und C. Wie unterscheidet sich ihr harter Verlust?",
        choices=("Der Schüler mit vertauschten B und C hat den größeren.", "Er ist gleich groß.",
                 "Der Schüler wie der Lehrer hat den größeren."),
        answer=1,
        shown=unless_own(lambda params, result: _near(params["s_a"], 0.6)),
        explain="Der harte Verlust schaut nur auf A, das Label. Wie der Rest auf B und C verteilt ist, "
                "sieht er gar nicht.",
        example={"s_a": 0.6, "split": 0.125},
        why_not=("Er hat B und C verwechselt, das sieht nach einem Fehler aus, der bestraft wird. "
                 "Der harte Verlust ist aber −ln s(A), und A ist bei beiden 0,6: Beide haben 0,511.",
                 "",
                 "Man könnte meinen, das Label bestraft jede Wahrscheinlichkeit, die nicht bei A landet. "
                 "Beide geben A aber genau 0,6, also bleibt für beide 0,511. Den Rest sieht nur der weiche Verlust."),
    ),
    tasks=(
        Task("copy_teacher", "Stelle den Schüler so ein, dass der weiche Verlust auf 0 fällt.",
             solved=unless_own(lambda params, result: result["soft_kl"] < 1e-12),
             explain="Jetzt sagt der Schüler genau 0,6, 0,35 und 0,05 wie der Lehrer. "
                     "Der harte Verlust bleibt trotzdem über 0, weil das Label 1 für A verlangt.",
             example={"s_a": 0.6, "split": 0.875},
             hints=("Der weiche Verlust vergleicht alle drei Wahrscheinlichkeiten des Schülers mit denen des Lehrers.",
                    "Der Schüler muss A, B und C genauso viel geben wie der Lehrer. Zwei Regler bestimmen das.",
                    "Stelle „Schüler: Wahrscheinlichkeit von A“ auf den Wert des Lehrers. Der Hilfetext von "
                    "„Schüler: Anteil von B am Rest“ nennt den Anteil des Lehrers."),
             # at T = 1: a higher T alone shrinks the KL without bringing the student closer
             near=Near(lambda params, result: not result["own"] and _kl_at_1(params) < 0.01,
                       "Fast: Der Schüler liegt schon ganz nah am Lehrer. Ein Regler steht noch ein paar Schritte daneben.",
                       {"s_a": 0.6, "split": 0.85})),
        # over 1, not 0,5: the prediction's own example (B and C swapped, 0,584) passed 0,5 unasked
        Task("blind_label", "Lass A bei 0,6 und finde eine Aufteilung des Rests, bei der der weiche Verlust "
                            "über 1 steigt.",
             solved=unless_own(lambda params, result: _near(params["s_a"], 0.6) and result["soft_kl"] > 1),
             explain="Der harte Verlust bleibt bei 0,511, denn A hat sich nicht verändert. Nur der weiche "
                     "Verlust merkt, dass der Schüler fast den ganzen Rest C gibt, dem der Lehrer nur 0,05 zutraut.",
             example={"s_a": 0.6, "split": 0.02},
             hints=("Der harte Verlust hängt nur an A. Was mit B und C passiert, merkt nur der weiche Verlust.",
                    "Der weiche Verlust wächst stark, wenn der Schüler einem Token wenig gibt, dem der Lehrer viel zutraut.",
                    "Lass „Schüler: Wahrscheinlichkeit von A“ bei 0,6 und schiebe „Schüler: Anteil von B am Rest“ "
                    "weit nach links."),
             near=Near(unless_own(lambda params, result: result["soft_kl"] > 0.7),
                       "Fast: Der weiche Verlust ist schon groß. Prüfe, ob A genau bei 0,6 steht und ob er über 1 liegt.",
                       {"s_a": 0.6, "split": 0.04})),
        Task("why_t_squared", "Erhöhe T, bis die KL-Divergenz weniger als ein Zehntel ihres Werts bei T = 1 hat.",
             solved=unless_own(lambda params, result: 0 < result["soft_kl"] < 0.1 * _kl_at_1(params)),
             explain="Die weichen Ziele ziehen bei hoher Temperatur viel schwächer am Schüler. "
                     "Der Faktor T² gleicht das aus, sonst würde fast nur noch das Label zählen.",
             example={"T": 4.0},
             hints=("Schaue auf den weichen Verlust KL, nicht auf T² · KL.",
                    "Je höher die Temperatur, desto flacher werden Lehrer und Schüler. Flache Verteilungen gleichen sich.",
                    "Schiebe „Temperatur T“ nach rechts und vergleiche die KL mit ihrem Wert bei T = 1."),
             near=Near(unless_own(lambda params, result: 0 < result["soft_kl"] < 0.2 * _kl_at_1(params)),
                       "Fast: Die KL ist schon unter einem Fünftel ihres Werts bei T = 1. Erhöhe T noch etwas.",
                       {"T": 2.5})),
    ),
    discussion=(
        "Der Lehrer sagt A mit 0,6. Warum kann der Schüler mehr lernen als aus dem Label „A“ allein?",
        "Der Lehrer irrt sich bei einer Frage. Was passiert mit einem Schüler, der ihn genau nachahmt?",
        "Warum macht man Lehrer und Schüler mit derselben Temperatur weich und nicht nur den Lehrer?",
    ),
    teacher=(
        "Die Verteilung verrät, dass B eine ernsthafte Alternative war und C kaum. "
        "Diese Beziehungen zwischen den Tokens fehlen im Label.",
        "Der Schüler lernt den Irrtum mit. Ein kleiner weicher Verlust heißt nur, dass er dem Lehrer gleicht, "
        "nicht dass er richtig liegt.",
        "Verglichen werden sollen zwei Verteilungen in derselben Form. Wäre nur der Lehrer weich, "
        "müsste der Schüler schon bei T = 1 eine flache Verteilung lernen. Im Einsatz wäre er dann viel zu unsicher.",
    ),
    misconceptions=(
        "„Ein kleiner harter Verlust ist immer gut.“ Der übertriebene Schüler mit 0,9 für A hat einen kleineren "
        "harten Verlust. Trotzdem liegt er weiter vom Lehrer weg als der Schüler, der ihn genau trifft.",
        "„Den Lehrer zu befragen ist schon Destillation.“ Destilliert ist erst, was die Parameter des Schülers "
        "durch Training verändert.",
        "„Eine höhere Temperatur ändert die Reihenfolge.“ Sie macht die Verteilung nur flacher; B bleibt vor C.",
    ),
)
