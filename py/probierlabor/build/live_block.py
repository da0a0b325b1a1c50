"""HTML of an engine page's „Eigener Lauf“ (engine/live.py): ``{{ live_run("continuous-batching") }}``.

A form for the reader's own workload, with the page's recorded runs as presets; static/js/live.js
keeps it in the URL, runs it in the tab's Python worker on „Starten“ and replays the trace in a
fresh panel from the ``<template>`` (build/replay_block.frame), with the page's own view. Only the
settings that matter for the page are shown; the others travel as hidden fields, set by the presets.

The markup is the contract with live.js: ``data-live`` names the slug, ``data-live-field`` the
setting (engine/live.py's keys), ``data-live-*`` the buttons and areas. Bounds come from
``live.LIMITS``, labels from ``live.LABELS``. No inline script or style (Content-Security-Policy).
"""

from __future__ import annotations

import json
from html import escape

from engine import live, tracer
from engine.model import tiny_config

from . import replay_block

# slug -> the replay view that plays a live trace, the recorded runs offered as presets (the first is
# the default), and the settings the form shows.
PAGES = {
    "continuous-batching": ("slots", ("continuous-batching-article", "continuous-batching-article-static",
                                      "continuous-batching-realistic", "continuous-batching-realistic-static"),
                            ("max_num_seqs", "max_num_batched_tokens", "chunked_prefill", "policy")),
    "paged-attention": ("blocks", ("paged-attention-blocks", "paged-attention-pressure"),
                        ("block_size", "num_blocks", "max_num_seqs", "prefix_caching")),
    "prefix-caching": ("blocks", ("prefix-caching-article", "prefix-caching-shared"),
                       ("block_size", "num_blocks", "prefix_caching")),
    "kv-cache": ("cache", ("kv-cache-growth",), ("model", "block_size", "num_blocks")),
    "prefill": ("prefill", ("prefill-interleaved",), ("max_num_seqs", "max_num_batched_tokens", "chunked_prefill")),
    "ttft": ("ttft", ("continuous-batching-realistic", "continuous-batching-realistic-static"),
             ("max_num_seqs", "max_num_batched_tokens", "chunked_prefill", "policy")),
    "gqa": ("kvbytes", ("gqa-kv-gqa", "gqa-kv-mha", "mqa-kv-mqa"), ("model", "block_size", "num_blocks")),
    "mqa": ("kvbytes", ("mqa-kv-mqa", "gqa-kv-gqa", "gqa-kv-mha"), ("model", "block_size", "num_blocks")),
}

HINTS = {
    "max_num_seqs": "so viele Anfragen rechnen höchstens gleichzeitig",
    "max_num_batched_tokens": "so viele Tokens gehen höchstens durch einen Schritt",
    "block_size": "Positionen pro Block des KV-Caches",
    "num_blocks": "Blöcke im ganzen Pool",
    "chunked_prefill": "lange Prompts in Stücken vorfüllen",
    "prefix_caching": "volle Blöcke gleicher Anfänge wiederverwenden",
    "model": f"so viele K/V-Köpfe teilen sich die {tiny_config().num_heads} Query-Köpfe",
}
CHOICES = {
    "policy": (("continuous", "Continuous Batching"), ("static", "feste Gruppe (statisch)")),
    "model": tuple((kind, f"{kind}: {n} K/V-Köpfe" if n > 1 else f"{kind}: 1 K/V-Kopf")
                   for kind, n in ((kind, tiny_config(kind).num_kv_heads) for kind in live.MODELS)),
}
INTRO = ("Hier rechnest du deine eigenen Anfragen mit derselben kleinen Engine, die die Aufzeichnungen "
         "oben geschrieben hat. Sie läuft in deinem Browser auf numpy. Beim ersten Start lädt die Seite "
         "Python und numpy nach, das dauert ein paar Sekunden.")
HELP = (f"Eine Anfrage pro Zeile, höchstens {live.LIMITS['requests'][1]}: Prompt | neue Tokens | Ankunftsschritt. "
        "Der Prompt ist Text aus kleinen Buchstaben, Ziffern und Satzzeichen. Eine Zahl allein steht für einen "
        "Prompt aus zufälligen Wörtern mit so vielen Zeichen. Die Anfragen heißen der Reihe nach A, B, C …")


def presets(slug: str) -> list[tuple[str, dict]]:
    """(title, settings) of the page's recorded runs, read from their committed traces."""
    return [(replay_block.header(name)["scenario"]["title"],
             live.settings_of_trace(tracer.load(replay_block.TRACES / f"{name}.json")))
            for name in PAGES[slug][1]]


def _field(key: str, value: str, shown: bool) -> str:
    attrs = f'data-live-field="{key}" name="{key}"'
    if not shown:
        return f'<input type="hidden" {attrs} value="{escape(value)}">'
    label = escape(live.LABELS[key])
    hint = f'<span class="pl-live-hint">{escape(HINTS[key])}</span>' if key in HINTS else ""
    if key in live.SWITCHES:
        checked = " checked" if value == "1" else ""
        return f'<label class="pl-live-switch"><input type="checkbox" {attrs}{checked}> {label}{hint}</label>'
    if key in CHOICES:
        options = "".join(f'<option value="{v}"{" selected" if v == value else ""}>{escape(t)}</option>'
                          for v, t in CHOICES[key])
        return f'<label>{label}<select {attrs}>{options}</select>{hint}</label>'
    low, high = live.LIMITS[key]
    return (f'<label>{label}<input type="number" {attrs} min="{low}" max="{high}" step="1" '
            f'value="{escape(value)}">{hint}</label>')


def section(slug: str) -> str:
    view, _, shown = PAGES[slug]
    offered = presets(slug)
    default = offered[0][1]
    buttons = "".join(
        f'<button type="button" class="md-button" data-live-preset="{escape(json.dumps(values, ensure_ascii=False))}">'
        f"{escape(title)}</button>" for title, values in offered)
    fields = "".join(_field(key, default[key], key in shown) for key in default if key != "requests")
    panel = replay_block.frame(view, "data-live-replay", "Dein Lauf", "Deine Anfragen, gerechnet in deinem Browser.",
                               0, "Der Lauf wird vorbereitet …", "")
    rows = min(max(default["requests"].count("\n") + 2, 4), 10)
    html = (
        f'<div class="pl-live" data-live="{escape(slug)}" data-search-exclude>'
        f'<p class="pl-live-intro">{escape(INTRO)}</p>'
        f'<p class="pl-live-presets"><span>Vorlagen:</span>{buttons}</p>'
        f'<label class="pl-live-requests">{escape(live.LABELS["requests"])}'
        f'<textarea data-live-field="requests" name="requests" rows="{rows}" spellcheck="false">'
        f'{escape(default["requests"])}</textarea></label>'
        f'<p class="pl-live-help">{escape(HELP)}</p>'
        f'<div class="pl-live-settings">{fields}</div>'
        f'<p class="pl-live-actions">'
        f'<button type="button" class="md-button md-button--primary" data-live-start>Starten</button>'
        f'<button type="button" class="md-button" data-live-stop disabled>Abbrechen</button></p>'
        f'<progress class="pl-live-progress" data-live-progress max="1" value="0" aria-label="Fortschritt in Schritten" hidden></progress>'
        f'<p class="pl-live-status" data-live-status role="status" aria-live="polite"></p>'
        f'<ul class="pl-live-notes" data-live-notes hidden></ul>'
        f'<template data-live-panel>{panel}</template>'
        f'<div class="pl-live-result" data-live-result></div>'
        f"</div>"
    )
    # One line of HTML (Markdown would break blank lines into paragraphs), and no "$" or "\\" left for
    # the formula typesetter (pymdownx.arithmatex) to take as the start of a formula.
    return html.replace("\n", "&#10;").replace("$", "&#36;").replace("\\", "&#92;")
