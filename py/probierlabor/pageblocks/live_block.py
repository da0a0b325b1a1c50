"""HTML of an engine page's „Eigener Lauf“ (probierlabor/live): ``{{ live_run("continuous-batching") }}``.

A form for the reader's own workload, with the page's recorded runs as presets; static/js/live/live.js
keeps it in the URL, runs it in the tab's Python worker on „Starten“ and replays the trace in a
fresh panel from the ``<template>`` (pageblocks/replay_block.frame), with the page's own view. Only the
settings that matter for the page are shown; the others travel as hidden fields, set by the presets.

The markup is the contract with live.js: ``data-live`` names the slug, ``data-live-field`` the
setting (the keys of live/fields.py), ``data-live-*`` the buttons and areas. Labels, bounds, hints and
choices are the fields' ``Param``s. No inline script or style (Content-Security-Policy).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from html import escape

from engine import pretrained
from recorder import tracer

from ..kit import fmt
from ..kit.contract import Param
from ..live import fields, runs
from ..realmodel import models
from . import model_facts, replay_block
from .replays import REPLAYS

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
    "decode": ("cache", ("kv-cache-growth",), ("model", "block_size")),
    "flash-attention": ("tiles", ("flash-attention-tiles",), ("tile_size", "block_size")),
    # The article's constant p and q are a choice of the model pair, beside the site's trained model.
    "speculative-decoding": ("speculative", ("speculative-decoding-tiny", "speculative-decoding-pq"),
                             ("model", *fields.SPECULATIVE_NUMBERS)),
}

# The engine form's model choice counts the trained model's heads (its MANIFEST.json, read at build time).
_HEADS = pretrained.manifest()["models"]["target"]["config"]["num_heads"]
MODEL = dataclasses.replace(
    fields.ENGINE["model"], help=f"so viele K/V-Köpfe teilen sich die {_HEADS} Query-Köpfe des trainierten "
                                 "Sprachmodells dieser Website",
    choices=tuple((kind, f"{kind}: {n} K/V-Köpfe" if n > 1 else f"{kind}: 1 K/V-Kopf")
                  for kind, n in ((kind, pretrained.KV_HEADS[kind]) for kind in fields.MODELS)))
# Not „demselben Sprachmodell“: a page's recordings may run another model (decode's toy model, the
# speculative page's constant pair), and the speculative form offers that pair too.
_INTRO = ("Hier rechnest du deine eigenen Anfragen mit derselben kleinen Engine, die die Aufzeichnungen "
          "oben geschrieben hat. Sie rechnet mit dem trainierten Sprachmodell dieser Website{alternative} und "
          "läuft in deinem Browser mit der Python-Bibliothek numpy. Beim ersten Start lädt die Seite Python, "
          "numpy und das Modell nach, das dauert ein paar Sekunden.")
INTRO = _INTRO.format(alternative="")
_PROMPT = f"Der Prompt ist beliebiger Text. Mehr als {fields.PROMPT_TOKENS} Tokens werden abgeschnitten."
SPECULATIVE_HELP = (f"{_PROMPT} Beim Beispielpaar p und q besteht er aus A, B und C. Temperatur 0 rechnet "
                    "greedy, dann ist die Antwort genau die des Zielmodells allein.")
HELP = (f"Eine Anfrage pro Zeile, höchstens {fields.MAX_REQUESTS}: Prompt | neue Tokens | Ankunftsschritt. "
        f"{_PROMPT} Eine Zahl allein steht für einen Prompt aus zufälligen Wörtern mit so vielen Tokens. "
        "Die Anfragen heißen der Reihe nach A, B, C …")


def presets(slug: str) -> list[tuple[str, dict]]:
    """(title, settings) of the page's recorded runs, read from their committed traces."""
    return [(REPLAYS[name].title,
             runs.settings_of_trace(tracer.load(replay_block.TRACES / f"{name}.json")))
            for name in PAGES[slug][1]]


@dataclass(frozen=True)
class Form:
    """What a page's form offers for its kind of run: its typed text and its fields."""

    text: str  # the setting typed as free text: requests (one per line) or one prompt
    fields: dict[str, Param]
    help: str
    intro: str = INTRO


ENGINE_FORM = Form("requests", fields.ENGINE | {"model": MODEL}, HELP)
SPECULATIVE_FORM = Form("prompt", fields.SPECULATIVE, SPECULATIVE_HELP,
                        _INTRO.format(alternative=" oder mit dem Beispielpaar p und q"))


def _field(form: Form, key: str, value: str, shown: bool) -> str:
    attrs = f'data-live-field="{key}" name="{key}"'
    if not shown:
        return f'<input type="hidden" {attrs} value="{escape(value)}">'
    param = form.fields[key]
    label = escape(param.label)
    hint = f'<span class="pl-live-hint">{escape(param.help)}</span>' if param.help else ""
    if param.kind == "bool":
        checked = " checked" if value == "1" else ""
        return f'<label class="pl-live-switch"><input type="checkbox" {attrs}{checked}> {label}{hint}</label>'
    if param.kind == "choice":
        options = "".join(f'<option value="{v}"{" selected" if v == value else ""}>{escape(t)}</option>'
                          for v, t in param.choices)
        return f'<label>{label}<select {attrs}>{options}</select>{hint}</label>'
    # Text, not type="number": Chromium's number field drops a decimal comma („0,7“ became „07“), and
    # live/form.py reads „0,7“ and "0.7" alike, in every field.
    bounds = f'<span class="pl-live-range">{fmt.de_auto(param.lo)} bis {fmt.de_auto(param.hi)}</span>'
    return (f'<label>{label}<input type="text"{param.keyboard} {attrs} autocomplete="off" '
            f'value="{escape(value)}">{bounds}{hint}</label>')


def _text_field(form: Form, value: str) -> str:
    attrs = f'data-live-field="{form.text}" name="{form.text}" spellcheck="false"'
    label = escape(fields.TEXT_LABELS[form.text])
    if form.text == "prompt":
        return (f'<label class="pl-live-requests">{label}<input type="text" {attrs} '
                f'maxlength="{fields.PROMPT_CHARS}" value="{escape(value)}"></label>')
    rows = min(max(value.count("\n") + 2, 4), 10)
    return f'<label class="pl-live-requests">{label}<textarea {attrs} rows="{rows}">{escape(value)}</textarea></label>'


def section(slug: str) -> str:
    view, _, shown = PAGES[slug]
    offered = presets(slug)
    default = offered[0][1]
    form = SPECULATIVE_FORM if fields.SPECULATIVE_KEY in default else ENGINE_FORM
    buttons = "".join(
        f'<button type="button" class="md-button" data-live-preset="{escape(json.dumps(values, ensure_ascii=False))}">'
        f"{escape(title)}</button>" for title, values in offered)
    settings = "".join(_field(form, key, default[key], key in shown) for key in default if key != form.text)
    what = "Dein Prompt" if form is SPECULATIVE_FORM else "Deine Anfragen"
    panel = replay_block.frame(view, "data-live-replay", "Dein Lauf", f"{what}, gerechnet in deinem Browser.",
                               0, "Der Lauf wird vorbereitet …", "")
    html = (
        f'<div class="pl-live" data-live="{escape(slug)}" data-weights="{escape(json.dumps(models.PATHS))}" '
        f'data-search-exclude>'
        f'<p class="pl-live-intro">{escape(form.intro)}</p>'
        f'<p class="pl-live-intro" data-model-expect>{escape(model_facts.EXPECT)}</p>'
        f'<p class="pl-live-presets"><span>Vorlagen:</span>{buttons}</p>'
        f'{_text_field(form, default[form.text])}'
        f'<p class="pl-live-help">{escape(form.help)}</p>'
        f'<div class="pl-live-settings">{settings}</div>'
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
