"""Time to First Token: a synthetic event trace, measured from the client and from the server.

The example (CONCEPTS.md §16; NVIDIA NIM benchmarking documentation, „Time to First Token“,
„Inter-Token Latency“, „End-to-End Request Latency“):

* the client sends at 0 ms; the request reaches the server after the network time up (30);
* the server prepares the input (10), the request waits in the queue (200), prefill runs (120),
  the first result is prepared (5) and delivered to the client (35);
* client TTFT = send → first non-empty content at the client = sum of all phases = 400 ms;
* the server interval = arrival → first result prepared = 10 + 200 + 120 + 5 = 335 ms;
* then further tokens follow, one per message, every ``gap`` ms (4 × 20 ms → the answer is
  complete at 480 ms); with gaps of 100 ms it ends at 800 ms while TTFT stays 400 ms.

The phases never overlap, each message carries one token, and all times are whole milliseconds,
so everything is exact integer arithmetic.
"""

from __future__ import annotations

from ..kit import fmt, svg
from ..kit.contract import Param, Preset, Readout, View
from ..kit.layout import WIDE, fewer_ticks
from ..kit.layout import width as figure_width
from ..kit.lesson import Lesson, Near, Prediction, Task
from ..kit.table import table

SLUG = "ttft"
TITLE = "Time to First Token (TTFT)"
GROUP = "Die Inferenz-Engine"
TEASER = "Wie lange es bis zum ersten Stück der Antwort dauert – und was alles in dieser Zahl steckt."

# The article's opening example: sent at 0 ms, first text at 800 ms.
INTRO_SENT, INTRO_FIRST_TEXT = 0, 800

PHASES = (  # name, label, lane
    ("up", "Netz hin", "net"),
    ("prep", "Vorbereitung", "server"),
    ("queue", "Warteschlange", "server"),
    ("prefill", "Prefill", "server"),
    ("first", "erstes Ergebnis", "server"),
    ("down", "Netz zurück", "net"),
)

PARAMS = (
    Param("up", "Netz hin (ms)", "int", 30, lo=0, hi=300, step=5, unit="ms",
          help="Vom Absenden bis zur Ankunft der Anfrage beim Server."),
    Param("prep", "Vorbereitung der Eingabe (ms)", "int", 10, lo=0, hi=100, step=5, unit="ms",
          help="Der Server bereitet die Anfrage vor (z. B. Tokenisierung)."),
    Param("queue", "Warteschlange (ms)", "int", 200, lo=0, hi=1000, step=10, unit="ms",
          help="Die Anfrage wartet, bis der Scheduler sie zulässt."),
    Param("prefill", "Prefill (ms)", "int", 120, lo=0, hi=500, step=5, unit="ms",
          help="Das Modell verarbeitet die ganze Eingabe."),
    Param("first", "Erstes Ergebnis vorbereiten (ms)", "int", 5, lo=0, hi=50, step=1, unit="ms",
          help="Das erste Token wird ausgewählt und in eine Nachricht verpackt."),
    Param("down", "Netz zurück (ms)", "int", 35, lo=0, hi=300, step=5, unit="ms",
          help="Die erste Nachricht reist zum Client."),
    Param("gap", "Abstand zwischen Tokens (ms)", "int", 20, lo=0, hi=200, step=5, unit="ms",
          help="Zeit zwischen zwei weiteren Tokens (Inter-Token Latency)."),
    Param("more", "Weitere Tokens", "int", 4, lo=0, hi=10, step=1,
          help="Wie viele Tokens nach dem ersten noch kommen."),
)

PRESETS = (
    Preset("Beispiel", {}, "Die Ereignisspur aus dem Text."),
    Preset("Abstände 100 ms", {"gap": 100}, "Nur das Ende verschiebt sich."),
    Preset("Warteschlange 400 ms", {"queue": 400}, "TTFT, Serverzeit und Ende wandern gemeinsam."),
)


def intro(sent: int = INTRO_SENT, first_text: int = INTRO_FIRST_TEXT) -> dict:
    """The article's opening example: TTFT is simply the distance between the two timestamps."""
    return {"ttft": first_text - sent}


def compute(up: int = 30, prep: int = 10, queue: int = 200, prefill: int = 120, first: int = 5,
            down: int = 35, gap: int = 20, more: int = 4) -> dict:
    durations = {"up": up, "prep": prep, "queue": queue, "prefill": prefill, "first": first, "down": down}
    t, spans = 0, {}
    for name, _, _ in PHASES:
        spans[name] = (t, t + durations[name])
        t += durations[name]
    ttft = t
    arrival, ready = spans["up"][1], spans["first"][1]
    tokens = [ttft + k * gap for k in range(more + 1)]
    return {
        "durations": durations,
        "phases": {name: {"start": a, "end": b} for name, (a, b) in spans.items()},
        "events": {"send": 0, "arrival": arrival, "prep_end": spans["prep"][1], "queue_end": spans["queue"][1],
                   "prefill_end": spans["prefill"][1], "first_ready": ready, "received": ttft},
        "client_ttft": ttft,
        "server_interval": ready - arrival,
        "network": up + down,
        "tokens": tokens,
        "server_tokens": [ready + k * gap for k in range(more + 1)],
        "end": tokens[-1],
        "gap": gap,
        "more": more,
        "prefill_share": prefill / ttft if ttft else None,
        "prefill_pct": 100 * prefill / ttft if ttft else None,
    }


def _nice_step(span: float) -> int:
    for step in (20, 50, 100, 200, 250, 500):
        if span / step <= 8:
            return step
    return 1000


def _key_sentence(r: dict, times: str) -> str:
    """The sentence under the timeline: the client's TTFT against the server's interval (the network is
    missing there), which phase takes the largest part and how much of it is prefill, then the rest."""
    ms = lambda t: f"{fmt.de(t)} ms"  # noqa: E731
    if r["client_ttft"] == 0:
        text = "Alle Phasen dauern 0 ms: Das erste Token ist sofort beim Client."
    else:
        text = f"Das erste Token erreicht den Client nach {ms(r['client_ttft'])}"
        text += (f", der Server misst davon nur {ms(r['server_interval'])}: Die {ms(r['network'])} im Netz fehlen "
                 "in seiner Zahl." if r["network"] else
                 f"; ohne Netzzeit misst der Server dieselben {ms(r['server_interval'])}.")
        longest = max(r["durations"].values())
        largest = [f"„{label}“" for name, label, _ in PHASES if r["durations"][name] == longest]
        share = fmt.pct(r["prefill_share"], 0)
        if largest == ["„Prefill“"]:
            text += f" Das Prefill macht {share} davon aus, mehr als jede andere Phase."
        else:
            text += (f" Am längsten dauert die Phase {largest[0]} ({ms(longest)})" if len(largest) == 1 else
                     f" Am längsten dauern die Phasen {', '.join(largest[:-1])} und {largest[-1]} (je {ms(longest)})")
            text += f", das Prefill macht {share} aus."
        if r["durations"]["queue"] > r["durations"]["prefill"]:
            text += " Die Anfrage wartet länger, als das Modell an ihr rechnet."
    return text + (f" Weitere {r['more']} Tokens kommen bei {times} ms; die Antwort ist nach {ms(r['end'])} komplett."
                   if r["more"] else " Es folgen keine weiteren Tokens.")


def view(r: dict, layout: str = WIDE) -> View:
    width = figure_width(500, layout)
    x0, x1 = 64, width - 14
    horizon = max(r["end"], 100)
    step = _nice_step(horizon)
    horizon = -(-horizon // step) * step
    def px(t):
        return x0 + t / horizon * (x1 - x0)
    parts: list[str] = []
    client_y, server_y = 34, 104
    axis_y = 236
    named = set(fewer_ticks(range(0, horizon + 1, step), layout, x1 - x0))  # "1 000" needs room on a phone
    for t in range(0, horizon + 1, step):
        parts.append(f'<line class="pl-tt-grid" x1="{px(t):.1f}" y1="22" x2="{px(t):.1f}" y2="{axis_y}"/>')
        if t in named:
            parts.append(svg.text(px(t), axis_y + 16, fmt.de(t), "pl-label pl-tt-small", "middle"))
    parts.append(svg.text((x0 + x1) / 2, axis_y + 34, "Zeit in ms (ab dem Absenden)", "pl-axis", "middle"))
    parts.append(svg.text(x0 - 8, client_y + 16, "Client", "pl-label pl-tt-lane", "end"))
    parts.append(svg.text(x0 - 8, server_y + 16, "Server", "pl-label pl-tt-lane", "end"))
    ph = r["phases"]
    # the client waits from sending to the first token
    parts.append(f'<rect class="pl-tt-wait" x="{px(0):.1f}" y="{client_y}" width="{px(r["client_ttft"]) - px(0):.1f}" '
                 f'height="22" rx="3"><title>Client wartet</title></rect>')
    for name, label, lane in PHASES:
        a, b = ph[name]["start"], ph[name]["end"]
        if lane == "server":
            parts.append(f'<rect class="pl-tt-phase pl-tt-{name}" x="{px(a):.1f}" y="{server_y}" '
                         f'width="{max(px(b) - px(a), 0):.1f}" height="22"><title>{label}: {a} bis {b} ms</title></rect>')
            if px(b) - px(a) > 8 * len(label) * 0.8:
                parts.append(svg.text((px(a) + px(b)) / 2, server_y + 16, label, "pl-label pl-tt-in", "middle"))
    # the network legs as arrows between the lanes
    parts.append(svg.arrow(px(ph["up"]["start"]), client_y + 22, px(ph["up"]["end"]), server_y, "pl-tt-net", head=7))
    parts.append(svg.arrow(px(ph["down"]["start"]), server_y, px(ph["down"]["end"]), client_y + 22, "pl-tt-net", head=7))
    for k, (ts, tc) in enumerate(zip(r["server_tokens"], r["tokens"])):
        parts.append(f'<circle class="pl-tt-stok" cx="{px(ts):.1f}" cy="{server_y + 34}" r="3.5"/>')
        cls = "pl-tt-tok pl-tt-tok-first" if k == 0 else "pl-tt-tok"
        parts.append(f'<circle class="{cls}" cx="{px(tc):.1f}" cy="{client_y + 11}" r="{6 if k == 0 else 4.5}">'
                     f"<title>Token {k + 1} beim Client: {tc} ms</title></circle>")

    def bracket(y, a, b, text, cls):
        parts.append(f'<line class="pl-tt-br {cls}" x1="{px(a):.1f}" y1="{y}" x2="{px(b):.1f}" y2="{y}"/>')
        for t in (a, b):
            parts.append(f'<line class="pl-tt-br {cls}" x1="{px(t):.1f}" y1="{y - 5}" x2="{px(t):.1f}" y2="{y + 5}"/>')
        mid = (px(a) + px(b)) / 2
        anchor = "middle"
        if mid > x1 - 90:
            mid, anchor = px(b), "end"
        parts.append(svg.text(mid, y - 7, text, f"pl-label pl-tt-brlabel {cls}-text", anchor))

    e = r["events"]
    bracket(164, 0, r["client_ttft"], f"Client-TTFT {fmt.de(r['client_ttft'])} ms", "pl-tt-ttft")
    bracket(194, e["arrival"], e["first_ready"], f"Server {fmt.de(r['server_interval'])} ms", "pl-tt-server")
    bracket(224, 0, r["end"], f"ganze Antwort {fmt.de(r['end'])} ms", "pl-tt-end")
    height = axis_y + 42
    figure = svg.figure(width, height, parts, cls="pl-tt", layout=layout,
                        label="Zeitleiste von Client und Server mit den Phasen bis zum ersten Token")

    readouts = [
        Readout("client_ttft", "TTFT beim Client", f"{fmt.de(r['client_ttft'])} ms", r["client_ttft"], True),
        Readout("server_interval", "Server: Ankunft → erstes Ergebnis", f"{fmt.de(r['server_interval'])} ms",
                r["server_interval"], True),
        Readout("end", "Ganze Antwort beim Client", f"{fmt.de(r['end'])} ms", r["end"], True),
        Readout("network", "davon Netz", f"{fmt.de(r['network'])} ms", r["network"]),
        Readout("prefill_share", "Anteil Prefill an der TTFT",
                "–" if r["prefill_share"] is None else fmt.pct(r["prefill_share"]), r["prefill_share"]),
    ]
    times = ", ".join(fmt.de(t) for t in r["tokens"][1:])
    rows = [(name, f"{fmt.de(t)} ms") for name, t in (
        ("Absenden", e["send"]), ("Ankunft beim Server", e["arrival"]), ("Vorbereitung fertig", e["prep_end"]),
        ("Warteschlange verlassen", e["queue_end"]), ("Prefill fertig", e["prefill_end"]),
        ("erstes Ergebnis bereit", e["first_ready"]), ("erstes Token beim Client", e["received"]),
        ("letztes Token beim Client", r["end"]))]
    extra = table(None, rows, caption="Ereignisse (Zeitpunkte ab dem Absenden)", row_heads=True, numeric=True)
    summary = _key_sentence(r, times)
    return View(figure, readouts, summary, extra)


# The server's own times (between arrival and the first result); slow_net leaves them alone.
SERVER_SIDE = ("prep", "queue", "prefill", "first")
DEFAULTS = {p.name: p.default for p in PARAMS}


# -- the lesson ---------------------------------------------------------------------------

def _server_side_untouched(params) -> bool:
    return all(params[k] == DEFAULTS[k] for k in SERVER_SIDE)


def _changed_phases(params) -> list[str]:
    """The phases moved away from the example; gap and more do not touch the TTFT."""
    defaults = {p.name: p.default for p in PARAMS}
    return [name for name, _, _ in PHASES if params[name] != defaults[name]]


LESSON = Lesson(
    prediction=Prediction(
        question="Die Abstände zwischen den Tokens wachsen von 20 auf 100 ms. Was passiert mit der TTFT?",
        choices=("Sie bleibt bei 400 ms.", "Sie wächst.", "Sie sinkt."),
        answer=0,
        shown=lambda params, result: params["gap"] == 100 and not _changed_phases(params),
        explain="Die TTFT endet beim ersten Token. Die Abstände danach verschieben nur das Ende der Antwort.",
        example={"gap": 100},
        why_not=("",
                 "Längere Abstände machen die ganze Antwort langsamer: Sie endet erst nach 800 ms. "
                 "Die TTFT hört aber schon beim ersten Token auf und bleibt bei 400 ms.",
                 "Es klingt, als würde sich Zeit von hinten nach vorn verschieben. Die Abstände kommen aber erst "
                 "nach dem ersten Token. Davor ändert sich nichts, die TTFT bleibt bei 400 ms."),
    ),
    tasks=(
        Task("halve", "Halbiere die TTFT auf 200 ms, indem du nur eine einzige Phase änderst.",
             solved=lambda params, result: result["client_ttft"] == 200 and len(_changed_phases(params)) == 1,
             explain="Das schafft nur die Warteschlange: Ohne sie sind es 200 ms. Ein Prefill von 0 ms brächte "
                     "nur 280 ms, denn hier wartet die Anfrage länger, als das Modell rechnet.",
             example={"queue": 0},
             hints=("Die TTFT beim Client ist die Summe aller Phasen von „Netz hin“ bis „Netz zurück“.",
                    "Um 200 ms zu sparen, muss eine einzige Phase mindestens 200 ms lang sein.",
                    "Verkleinere nur diese eine Phase und lass alle anderen Regler stehen."),
             near=Near(lambda params, result: abs(result["client_ttft"] - 200) <= 40,
                       "Fast: Die TTFT liegt nah bei 200 ms. Sie soll genau 200 ms sein, "
                       "und nur eine einzige Phase darf sich ändern.",
                       {"queue": 20})),
        # with the server's own times left alone: queue = prefill = 0 shrank the server time instead
        Task("slow_net", "Ändere nur die beiden Netzzeiten, bis die Serverzeit kleiner ist als die Hälfte "
                         "der TTFT beim Client.",
             solved=lambda params, result: (_server_side_untouched(params)
                                            and 2 * result["server_interval"] < result["client_ttft"]),
             explain="Die Serverzeit beginnt erst bei der Ankunft und endet vor dem Rückweg. "
                     "Ein langsames Netz sieht nur der Client.",
             example={"up": 200, "down": 200},
             hints=("Vergleiche „TTFT beim Client“ mit „Server: Ankunft → erstes Ergebnis“.",
                    "Die Serverzeit beginnt bei der Ankunft und endet vor dem Rückweg. Das Netz zählt nur beim Client.",
                    "Erhöhe „Netz hin (ms)“ und „Netz zurück (ms)“. Die Zeiten im Server bleiben, wie sie sind."),
             near=Near(lambda params, result: (_server_side_untouched(params)
                                               and 2 * result["server_interval"] < 1.25 * result["client_ttft"]),
                       "Fast: Das Netz macht schon einen großen Teil der TTFT aus. "
                       "Die Serverzeit ist aber noch nicht kleiner als ihre Hälfte.",
                       {"up": 150, "down": 100})),
        Task("slow_rest", "Stelle die Abstände so ein, dass die ganze Antwort mehr als doppelt so lange dauert "
                          "wie die TTFT.",
             solved=lambda params, result: result["end"] > 2 * result["client_ttft"],
             explain="Die TTFT misst nur den Anfang. Wie schnell der Rest kommt, zeigt der Abstand "
                     "zwischen den Tokens.",
             example={"gap": 105},
             hints=("Vergleiche „Ganze Antwort beim Client“ mit „TTFT beim Client“.",
                    "Nach dem ersten Token kommen die weiteren in gleichen Abständen. "
                    "Das Ende ist die TTFT plus Tokens mal Abstand.",
                    "Erhöhe „Abstand zwischen Tokens (ms)“."),
             near=Near(lambda params, result: result["end"] > 1.8 * result["client_ttft"],
                       "Fast: Die ganze Antwort dauert schon fast doppelt so lange wie die TTFT.",
                       {"gap": 85})),
    ),
    discussion=(
        "Ein Anbieter wirbt mit „erstes Token nach 0,3 Sekunden“. Was müsstest du fragen, bevor du "
        "der Zahl traust?",
        "Bei welcher Anwendung ist eine kleine TTFT wichtiger als eine schnelle ganze Antwort?",
    ),
    teacher=(
        "Wichtig ist, wo gemessen wurde: beim Client oder beim Server, mit oder ohne Netz. Außerdem zählt, "
        "wie voll der Server war, denn die Warteschlange kann die TTFT stark verlängern.",
        "Bei einem Chat, in dem man mitliest, zählt der schnelle Beginn. Bei einer Übersetzung, die "
        "erst fertig weiterverarbeitet wird, zählt eher die ganze Antwort.",
    ),
    misconceptions=(
        "„TTFT ist die Rechenzeit des Modells.“ Prefill ist nur ein Teil; Netz, Vorbereitung und "
        "Warteschlange gehören dazu.",
        "„Eine kleine TTFT heißt, die Antwort ist schnell fertig.“ Die Abstände danach bestimmen das Ende.",
    ),
)
