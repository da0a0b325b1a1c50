"""Loss masking: which positions of an agent transcript count in the training loss.

The transcript is our own example (CONCEPTS.md §11 proposes the segments, the seed has no
experiment and no numbers): a user asks, the agent calls a tool, the tool answers, the agent
answers. One word or symbol is one token, 15 in all.

* The loss averages the token losses ℓ_t = −log p(x_t | x_<t) over the *scored* positions S:
  L = (1/|S|)·Σ_{t∈S} ℓ_t. A role switched off drops its tokens from S. Token 1 is never scored
  (nothing comes before it to predict it from).
* The prediction of token t is made at position t − 1, which by the causal mask reads tokens
  1 … t − 1. That reading does not depend on S at all: the figure of links stays the same.
* An unscored token still influences the loss when some scored token comes after it.

Everything is counting; the weights 1/|S| are exact fractions.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, width
from ..kit.lesson import Lesson, Near, Prediction, Task

SLUG = "loss-masking"
TITLE = "Loss Masking"
GROUP = "Lernen und Bewerten"
TEASER = "Was zählt im Verlust? Maskierte Tokens bleiben sichtbar – sie werden nur nicht bewertet."

ROLES = {"user": "Nutzer", "agent": "Agent", "tool": "Werkzeugergebnis"}
SEGMENTS = (
    ("user", ("Wetter", "in", "Köln", "?")),
    ("agent", ("wetter(", "Köln", ")")),
    ("tool", ("18", "°C", "sonnig")),
    ("agent", ("Es", "sind", "18", "°C", "■")),
)
TOKENS = tuple((role, text) for role, words in SEGMENTS for text in words)
N = len(TOKENS)

PARAMS = (
    Param("focus", "Vorhersage von Token t", "int", 13, lo=2, hi=N, step=1,
          help="Welche Vorhersage hervorgehoben wird: sie liest alle Tokens vor t."),
    Param("user", "Nutzer bewerten", "bool", False, help="Die Frage des Nutzers zählt im Verlust."),
    Param("agent", "Agent bewerten", "bool", True, help="Werkzeugaufruf und Antwort des Agenten zählen im Verlust."),
    Param("tool", "Werkzeugergebnis bewerten", "bool", False, help="Die Antwort des Werkzeugs zählt im Verlust."),
)

PRESETS = (
    Preset("Von vorn", {}, "Nur die Tokens des Agenten zählen."),
    Preset("Alles bewerten", {"user": True, "agent": True, "tool": True}, "Jede Position ab Token 2 zählt."),
    Preset("Agent und Werkzeug", {"tool": True}, "Das Modell soll auch das Werkzeugergebnis vorhersagen."),
    Preset("Nichts bewerten", {"agent": False}, "Kein Token zählt – es gibt kein Lernsignal."),
    Preset("Der Werkzeugaufruf", {"focus": 5}, "Die Vorhersage von „wetter(“ liest die Frage des Nutzers."),
)

SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def scored_positions(user: bool, agent: bool, tool: bool) -> list[int]:
    """1-based positions t whose token is scored (token 1 never is)."""
    on = {"user": user, "agent": agent, "tool": tool}
    return [t for t, (role, _) in enumerate(TOKENS, start=1) if t >= 2 and on[role]]


def links() -> list[tuple[int, int]]:
    """(t, j): the prediction of token t reads token j, for every j < t (causal mask)."""
    return [(t, j) for t in range(2, N + 1) for j in range(1, t)]


def loss_formula(scored: list[int]) -> str:
    """L = (ℓ₅ + ℓ₆ + ℓ₇ + ℓ₁₁ + … + ℓ₁₅) / 8, runs of four or more shortened with „…“."""
    if not scored:
        return "kein Verlust: keine Position bewertet"
    runs, start = [], scored[0]
    for a, b in zip(scored, [*scored[1:], None]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    parts = []
    for lo, hi in runs:
        if hi - lo >= 3:
            parts += [f"ℓ{str(lo).translate(SUB)}", "…", f"ℓ{str(hi).translate(SUB)}"]
        else:
            parts += [f"ℓ{str(t).translate(SUB)}" for t in range(lo, hi + 1)]
    body = " + ".join(parts)
    return f"L = {body}" if len(scored) == 1 else f"L = ({body}) / {len(scored)}"


def compute(focus: int = 13, user: bool = False, agent: bool = True, tool: bool = False) -> dict:
    scored = scored_positions(user, agent, tool)
    s = set(scored)
    weight = Fraction(1, len(scored)) if scored else None
    last = max(scored) if scored else 0
    reads = list(range(1, focus))
    unscored_read = [j for j in range(1, N + 1) if j not in s and j < last]
    by_role = {role: sum(TOKENS[j - 1][0] == role for j in reads) for role in ROLES}
    return {
        "focus": focus,
        "focus_token": TOKENS[focus - 1][1],
        "on": {"user": user, "agent": agent, "tool": tool},
        "tokens": [{"t": t, "role": role, "text": text, "scored": t in s}
                   for t, (role, text) in enumerate(TOKENS, start=1)],
        "visible": N,
        "scored": scored,
        "scored_count": len(scored),
        "scored_by_role": {role: sum(TOKENS[t - 1][0] == role for t in scored) for role in ROLES},
        "weight": float(weight) if weight else None,
        "weight_exact": str(weight) if weight else None,
        "links": len(links()),
        "focus_reads": reads,
        "focus_reads_count": len(reads),
        "focus_reads_by_role": by_role,
        "focus_reads_unscored": sum(j not in s for j in reads),
        "focus_scored": focus in s,
        "unscored_but_read": unscored_read,
        "unscored_but_read_count": len(unscored_read),
        "formula": loss_formula(scored),
    }


# -- what the page shows -----------------------------------------------------

ROLE_CLASS = {"user": "pl-lm-user", "agent": "pl-lm-agent", "tool": "pl-lm-tool"}


def _loss_mark(x: float, y: float, scored: bool, first: bool) -> str:
    if first:
        return svg.text(x, y + 4, "–", "pl-lm-small", "middle")
    if scored:
        return f'<circle class="pl-lm-on" cx="{x:.1f}" cy="{y:.1f}" r="5"><title>im Verlust</title></circle>'
    return f'<circle class="pl-lm-off" cx="{x:.1f}" cy="{y:.1f}" r="5"><title>nicht im Verlust</title></circle>'


def _strip(r: dict, layout: str) -> str:
    # the longest row ends at 310 px: a narrow figure is the same strip with less room on the right
    out = []
    y, t = 14, 0
    focus = r["focus"]
    for role, words in SEGMENTS:
        on = r["on"][role]
        out.append(svg.text(6, y + 26, ROLES[role] if role != "tool" else "Werkzeug", "pl-label pl-lm-role"))
        out.append(svg.text(6, y + 42, "im Verlust" if on else "nicht im Verlust", "pl-lm-small"))
        x = 100
        for text in words:
            t += 1
            w = max(40, 9.5 * len(text) + 16)
            cls = f"pl-lm-tok {ROLE_CLASS[role]}"
            if t == focus:
                cls += " pl-lm-focus"
            elif t < focus:
                cls += " pl-lm-read"
            out.append(f'<rect class="{cls}" x="{x:.1f}" y="{y + 10}" width="{w - 4:.1f}" height="30" rx="4">'
                       f"<title>Token {t}: {escape(text)} ({ROLES[role]})</title></rect>")
            out.append(svg.text(x + (w - 4) / 2, y + 30, text, "pl-lm-toklabel", "middle"))
            out.append(svg.text(x + (w - 4) / 2, y + 6, str(t), "pl-lm-small", "middle"))
            out.append(_loss_mark(x + (w - 4) / 2, y + 50, r["tokens"][t - 1]["scored"], t == 1))
            x += w
        y += 64
    out.append(svg.text(8, y + 6, r["formula"], "pl-label pl-lm-formula"))
    y += 26
    legend = (f'<circle class="pl-lm-on" cx="12" cy="{y}" r="5"/>' + svg.text(22, y + 4, "im Verlust", "pl-legend")
              + f'<circle class="pl-lm-off" cx="122" cy="{y}" r="5"/>'
              + svg.text(132, y + 4, "nicht im Verlust", "pl-legend")
              + svg.key(4, y + 24, "pl-lm-tok pl-lm-read pl-lm-agent",
                        f"wird für die Vorhersage von Token {focus} gelesen", w=16, h=14, rx=3, gap=6)
              + svg.key(4, y + 44, "pl-lm-tok pl-lm-focus pl-lm-agent", f"Token {focus}", w=16, h=14, rx=3, gap=6))
    out.append(legend)
    height = y + 54
    return svg.figure(width(400, layout), height, out, label="Das Transkript Token für Token mit Verlust-Markierungen",
                      cls="pl-lm", layout=layout)


def _grid(r: dict, layout: str) -> str:
    left, top = 66, 46
    cell = 18.0 if layout == WIDE else (width(400, layout) - left - 10) / N  # 17 px on a narrow figure
    size = cell * N
    out = [svg.text(left + size / 2, 12, "… liest Token j", "pl-axis", "middle"),
           f'<text class="pl-axis" transform="translate(14 {top + size / 2:.1f}) rotate(-90)" '
           f'text-anchor="middle">Vorhersage von Token t …</text>']
    for j, (role, text) in enumerate(TOKENS, start=1):
        x = left + (j - 1) * cell
        out.append(f'<rect class="pl-lm-chip {ROLE_CLASS[role]}" x="{x + 1:.1f}" y="{top - 14}" '
                   f'width="{cell - 2:.1f}" height="10"><title>Token {j}: {escape(text)}</title></rect>')
        out.append(svg.text(x + cell / 2, top - 18, str(j), "pl-lm-tiny", "middle"))
    for t in range(1, N + 1):
        y = top + (t - 1) * cell
        row_cls = " pl-lm-focusrow" if t == r["focus"] else ""
        out.append(svg.text(left - 22, y + cell * 0.7, str(t), "pl-lm-tiny" + row_cls, "end"))
        scored = r["tokens"][t - 1]["scored"]
        if t > 1:
            cx, cy = left - 10, y + cell / 2
            cls = "pl-lm-on" if scored else "pl-lm-off"
            out.append(f'<circle class="{cls}" cx="{cx}" cy="{cy:.1f}" r="4"/>')
        for j in range(1, t):
            x = left + (j - 1) * cell
            cls = f"pl-lm-link {ROLE_CLASS[TOKENS[j - 1][0]]}" + (" pl-lm-link-focus" if t == r["focus"] else "")
            out.append(f'<rect class="{cls}" x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}"/>')
    out.append(f'<rect class="pl-frame" x="{left}" y="{top}" width="{size:.1f}" height="{size:.1f}"/>')
    fy = top + (r["focus"] - 1) * cell
    out.append(f'<rect class="pl-lm-focusframe" x="{left - 16}" y="{fy:.1f}" width="{size + 16:.1f}" height="{cell:.1f}"/>')
    y = top + size + 18
    # the count alone: that every mask keeps it answers the lesson's guess (the key sentence's answer says it)
    out.append(svg.text(left, y, f"{r['links']} Verbindungen", "pl-legend"))
    out.append(svg.text(left, y + 16, "Punkt links: Vorhersage im Verlust", "pl-legend"))
    return svg.figure(left + size + 10, y + 24, out, label="Welche Tokens jede Vorhersage lesen darf", cls="pl-lm",
                      layout=layout)


def _listed(items: list[str]) -> str:
    return " und ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)


def _key_sentence(r: dict) -> tuple[str, str]:
    """The sentence under the strip: what the loss counts, and that a scored prediction still reads
    the tokens without a loss of their own – two masks, and only the dots change; and apart from it
    that the grid keeps its links with every mask, which answers the lesson's guess."""
    on = [ROLES[k] for k, v in r["on"].items() if v]
    if on:
        only = "" if len(on) == len(ROLES) else "nur "
        roles = f"die Rolle {on[0]}" if len(on) == 1 else f"die Rollen {_listed(on)}"
        text = (f"Im Verlust {'zählt' if len(on) == 1 else 'zählen'} {only}{roles}: {r['scored_count']} von "
                f"{r['visible']} Positionen, {r['formula']}. ")
    else:
        text = "Nichts wird bewertet: Der Verlust hat keinen Summanden, das Modell lernt aus diesem Transkript nichts. "
    reads = fmt.count(r["focus_reads_count"], "Token", "Tokens")
    unscored = r["focus_reads_unscored"]
    verb = "zählt mit und liest" if r["focus_scored"] else "zählt nicht, liest aber"
    text += (f"Die Vorhersage von Token {r['focus']} („{r['focus_token']}“) {verb} {reads}, "
             f"{unscored} davon ohne eigenen Verlust"
             + (". Unbewertet heißt also nicht wirkungslos." if unscored and r["focus_scored"] else "."))
    return text, f"Das Raster behält bei jeder Maske seine {r['links']} Verbindungen."


def view(r: dict, layout: str = WIDE) -> View:
    if r["weight"] is None:
        weight = "– (nichts bewertet)"
    else:
        exact = (Fraction(r["weight_exact"]) * 1000).denominator == 1
        weight = f"1/{r['scored_count']} {'=' if exact else '≈'} {fmt.de(r['weight'], 3)}"
    reads = f"{fmt.count(r['focus_reads_count'], 'Token', 'Tokens')}, {r['focus_reads_unscored']} davon ohne eigenen Verlust"
    readouts = [
        Readout("visible", "Tokens in der Eingabe", f"{r['visible']} (alle sichtbar)", r["visible"]),
        Readout("scored_count", "Bewertete Positionen", str(r["scored_count"]), r["scored_count"], True),
        Readout("weight", "Gewicht je bewertete Position", weight, r["weight"]),
        Readout("links", "Verbindungen (Vorhersage liest Token)", f"{r['links']} (immer gleich)", r["links"], True,
                answers=True),
        Readout("focus_reads", "Vorhersage von Token t liest", reads, r["focus_reads_count"]),
        Readout("unscored_but_read", "Ohne Verlust, aber gelesen",
                fmt.count(r["unscored_but_read_count"], "Token", "Tokens"), r["unscored_but_read_count"]),
    ]
    summary, answer = _key_sentence(r)
    return View(_strip(r, layout), readouts, summary, _grid(r, layout), answer=answer)


# -- the lesson ----------------------------------------------------------------

LESSON = Lesson(
    prediction=Prediction(
        question=f"Das Raster hat {len(links())} Verbindungen. "
                 "Wie viele sind es, wenn du zusätzlich das Werkzeugergebnis bewertest?",
        choices=(f"mehr als {len(links())}", f"genau {len(links())}", f"weniger als {len(links())}"),
        answer=1,
        shown=lambda params, result: params["tool"],
        explain="Bewerten ändert nur, welche Vorhersagen bestraft werden. Was jede Vorhersage lesen darf, "
                "bestimmt die kausale Maske, und die bleibt gleich.",
        example={"tool": True},
        why_not=("Mehr bewertete Positionen klingen nach mehr Verbindungen. Eine Verbindung zeigt aber, was eine "
                 "Vorhersage lesen darf. Das ändert das Bewerten nicht.",
                 "",
                 "Man könnte meinen, ein bewertetes Token dürfe nicht mehr gelesen werden. Doch jedes Token bleibt "
                 "Lesestoff für alle späteren Vorhersagen, ob es bewertet wird oder nicht."),
    ),
    tasks=(
        Task("most_scored", "Schalte die Rollen so, dass möglichst viele Positionen im Verlust zählen.",
             solved=lambda params, result: result["scored_count"] == N - 1,
             explain=f"Es sind {N - 1}, nicht {N}: Vor Token 1 steht nichts, aus dem man es vorhersagen könnte.",
             example={"user": True, "tool": True},
             hints=("Jede Rolle hat einen eigenen Schalter. Schaue, welche Positionen im Verlust zählen.",
                    "Schalte „Nutzer bewerten“, „Agent bewerten“ und „Werkzeugergebnis bewerten“ ein."),
             near=Near(lambda params, result: sum(result["on"].values()) == 2,
                       "Fast: Zwei der drei Rollen zählen schon im Verlust. Eine fehlt noch.",
                       {"tool": True})),
        Task("first_scored", "Wähle mit dem Regler die erste Vorhersage, die im Verlust zählt.",
             solved=lambda params, result: bool(result["scored"]) and result["focus"] == result["scored"][0],
             explain="Alles, was diese Vorhersage liest, hat selbst keinen Verlust. "
                     "Trotzdem hängt ihr Verlust von genau diesen Tokens ab.",
             example={"focus": 5},
             hints=("Eine Vorhersage zählt nur, wenn ihr Token zu einer bewerteten Rolle gehört.",
                    "Schiebe „Vorhersage von Token t“ von links nach rechts bis zur ersten bewerteten Position."),
             near=Near(lambda params, result: bool(result["scored"]) and abs(result["focus"] - result["scored"][0]) == 1,
                       "Fast: Du stehst einen Schritt neben der ersten Vorhersage, die im Verlust zählt.",
                       {"focus": 6})),
        Task("no_signal", "Schalte so, dass das Modell aus diesem Transkript gar nichts lernt.",
             solved=lambda params, result: result["scored_count"] == 0,
             explain="Ohne bewertete Position hat der Mittelwert keinen Summanden. "
                     f"Alle {N} Tokens stehen noch da, aber es gibt kein Lernsignal.",
             example={"agent": False},
             hints=("Das Lernsignal kommt nur von Positionen, die im Verlust zählen.",
                    "Schalte jede Rolle aus, auch „Agent bewerten“."),
             near=Near(lambda params, result: 0 < result["scored_count"] <= 3,
                       "Fast: Nur noch wenige Positionen zählen im Verlust. Aber noch lernt das Modell etwas.",
                       {"agent": False, "tool": True})),
    ),
    discussion=(
        "Warum soll ein Agent lernen, ein Werkzeug aufzurufen, aber nicht, dessen Ergebnis vorherzusagen?",
        "Ein Nutzer schreibt eine Beleidigung in seine Frage. "
        "Reicht es, seine Tokens aus dem Verlust zu nehmen, damit das Modell davon unberührt bleibt?",
    ),
    teacher=(
        "Das Ergebnis kommt von außen, etwa die Temperatur 18 °C. Das Modell kann es nicht wissen. "
        "Es würde lernen zu raten, statt das Werkzeug zu benutzen.",
        "Nein. Die Beleidigung bleibt in der Eingabe und wird von allen späteren Vorhersagen gelesen. "
        "Über diese bewerteten Vorhersagen prägt sie das Training weiter.",
    ),
    misconceptions=(
        "„Maskierte Tokens werden aus der Eingabe entfernt.“ – Nein, sie bleiben stehen und werden gelesen; "
        "nur ihre eigene Vorhersage zählt nicht.",
        "„Je mehr Positionen bewertet werden, desto besser.“ – Nein, wer Text bewertet, den das Modell nicht "
        "wissen kann, bringt ihm Raten bei.",
    ),
)
