"""Build-time HTML of a recorded-run panel: ``{{ replay("continuous-batching-article", view="slots") }}``.

The panel is pre-rendered from the run's title and description (replays.py) and the trace's header (which
machine recorded it),
so the page says what the recording is even without JavaScript and in print; ``static/js/replay/core.js``
then loads the trace and makes it playable. Reading the trace here also makes ``mkdocs build``
fail on a page that names a trace nobody recorded.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from ..kit import fmt
from .replays import REPLAYS

TRACES = Path(__file__).resolve().parents[3] / "static" / "traces"

VIEWS = ("blocks", "cache", "slots", "ttft", "prefill", "tiles", "speculative", "kvbytes")

# The playback speeds, the panel's only list of them: replay.js and the presentation keys (+ / −)
# step through the <option>s rendered from it, so a speed nobody can select is never announced.
SPEEDS = ((0.25, "¼×"), (0.5, "½×"), (1, "1×"), (2, "2×"), (4, "4×"))
DEFAULT_SPEED = 1

# Icons as inline SVG: the media-control characters (⏮ ⏸) are missing from common fonts and
# rendered as empty boxes in Debian's Chromium.
_PATHS = {
    "reset": "M3 3h2v10H3zM13 3v10L6 8z",
    "back": "M12 3v10L5 8z",
    "play": "M4 3v10l8-5z",
    "pause": "M4 3h3v10H4zM9 3h3v10H9z",
    "next": "M4 3v10l7-5zM11 3h2v10h-2z",
}


def icon(name: str) -> str:
    return (f'<svg class="pl-r-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" '
            f'focusable="false"><path d="{_PATHS[name]}"/></svg>')


def header(name: str) -> dict:
    path = TRACES / f"{name}.json"
    if not path.exists():
        raise ValueError(f"replay({name!r}): static/traces/{name}.json fehlt – `python -m recorder record {name}`")
    text = path.read_text(encoding="utf-8")
    # The header is the first line (tracer.dumps writes one step per line after it).
    head = json.loads(text.split('"steps":[', 1)[0].rstrip(",") + "}")
    return head


def _tile(name: str) -> dict:
    """The first ``tile`` event of a trace (recorder/tile_trace.py): which layer and head it shows."""
    steps = json.loads((TRACES / f"{name}.json").read_text(encoding="utf-8"))["steps"]
    return next(e for step in steps for e in step["events"] if e["type"] == "tile")


# What a page's prose says about a recorded run, read from the trace: ``{{ trace_fact(name, key) }}``.
# Layers and heads are counted from 1 on the pages (as the attention page's heatmap does), from 0 in a trace.
FACTS = {
    "prompt_tokens": lambda name: len(header(name)["workload"]["requests"][0]["prompt"]),
    "head_dim": lambda name: header(name)["model"]["head_dim"],
    "tile_size": lambda name: int(header(name)["config"]["kernel"].removeprefix("tiled_")),
    "layer": lambda name: _tile(name)["layer"] + 1,
    "head": lambda name: _tile(name)["head"] + 1,
}


def fact(name: str, key: str) -> str:
    return fmt.de(FACTS[key](name))


def machine_line(head: dict) -> str:
    rec = head["recorded"]
    return (f"Aufgezeichnet von unserer Engine (Backend {rec['backend']}, {rec['device']}, "
            f"Revision {rec['engine_revision']}). Gemessene Zeiten gelten nur für diese Maschine; "
            f"die Wiedergabe zählt in Engine-Schritten.")


def speed_options() -> str:
    return "".join(f'<option value="{value}"{" selected" if value == DEFAULT_SPEED else ""}>{label}</option>'
                   for value, label in SPEEDS)


def panel(name: str, view: str, twin: str | None = None) -> str:
    """``twin``: one trace name or several, comma-separated, replayed alongside (same step index)."""
    head = header(name)
    twin_attr = ""
    if twin:
        for other in twin.split(","):
            header(other)  # must exist as well
        twin_attr = f' data-twin="{escape(twin)}"'
    shown = REPLAYS[name]
    return frame(view, f'data-replay="{escape(name)}"', f"Aufzeichnung: {shown.title}", shown.description,
                 head["result"]["num_steps"],
                 "Die Aufzeichnung wird geladen … (ohne JavaScript ist sie nicht abspielbar; die Datei liegt "
                 f"unter static/traces/{name}.json)", machine_line(head), twin_attr)


def frame(view: str, which: str, title: str, description: str, steps: int, status: str, machine: str,
          twin_attr: str = "") -> str:
    """A replay panel's markup around any trace; ``which`` (an escaped HTML attribute) says which:
    static/js/replay/core.js mounts those with ``data-replay`` itself, static/js/live/live.js hands its own
    traces to ``probierlaborReplay.play``."""
    if view not in VIEWS:
        raise ValueError(f"unbekannte Ansicht {view!r}; möglich: {', '.join(VIEWS)}")
    return (
        f'<section class="pl-replay" {which} data-view="{view}"{twin_attr} '
        f'data-state="loading" aria-label="{escape(title)}">'
        f'<h3 class="pl-replay-title">{escape(title)}</h3>'
        f'<p class="pl-replay-desc">{escape(description)}</p>'
        f'<div class="pl-replay-controls" role="group" aria-label="Wiedergabe" hidden>'
        f'<button type="button" class="md-button pl-r-reset" aria-label="Zum Anfang" title="Zum Anfang (R)">{icon("reset")}</button>'
        f'<button type="button" class="md-button pl-r-back" aria-label="Ein Schritt zurück" title="Ein Schritt zurück (←)">{icon("back")}</button>'
        f'<button type="button" class="md-button md-button--primary pl-r-play" aria-label="Abspielen" title="Abspielen/Pause (Leertaste)">{icon("play")}{icon("pause")}</button>'
        f'<button type="button" class="md-button pl-r-next" aria-label="Ein Schritt vor" title="Ein Schritt vor (→)">{icon("next")}</button>'
        f'<label class="pl-r-scrub"><span class="pl-r-label">Schritt</span>'
        f'<input type="range" min="0" max="{steps}" step="1" value="0" aria-label="Schritt wählen"></label>'
        f'<output class="pl-r-counter" aria-live="off">0 von {steps}</output>'
        f'<label class="pl-r-speed"><span class="pl-r-label">Tempo</span><select aria-label="Abspieltempo">'
        f'{speed_options()}</select></label>'
        f'</div>'
        f'<div class="pl-replay-view"><p class="pl-replay-status">{escape(status)}</p></div>'
        f'<p class="pl-replay-summary" aria-live="polite"></p>'
        f'<p class="pl-replay-machine">{escape(machine)}</p>'
        f'</section>'
    )
