"""HTML of an experiment block, rendered at build time from the declared parameters.

The block arrives complete in the static page (controls, default figure, readouts), so
the reader sees the experiment at once, in print and without JavaScript. The browser
layer (static/js/experiment/mount.js) only wires the controls to ``api.run_json`` and swaps
in the strings that come back. The markup here is therefore the contract with that
script: ``data-param`` on every control, ``data-preset`` on preset buttons, and the
``pl-…`` slots it fills.

Python needs seconds to start, and a preset clicked meanwhile must not be lost: the view of every
preset (what ``api.run`` returns for it) travels with the page in ``<template class="pl-views">``,
so the script can show it at once. A template is inert: Material's instant navigation does not
execute it (as it would a ``<script>``) and the search index does not read its attribute.
"""

from __future__ import annotations

import json
import math
import re
from html import escape

from ..kit import api
from ..kit import layout as layouts
from ..kit.contract import Param


def experiment(slug: str) -> str:
    run = api.run(slug)
    first = first_paint(slug)
    module = api.concept(slug)
    controls = "".join(_control(p, run["params"][p.name], run["display"][p.name])
                       for p in module.PARAMS)
    views, preset_views = prerendered(slug)
    presets = "".join(_preset_button(slug, i, p, preset_views[i]) for i, p in enumerate(module.PRESETS))
    drag_hint = any(p.kind == "moves" for p in module.PARAMS)
    return (
        f'<section class="pl-experiment" data-experiment="{slug}" data-state="loading"{_aliases(module.PARAMS)} '
        f'aria-label="Experiment: {escape(module.TITLE)}">'
        f'<div class="pl-presets" role="group" aria-label="Voreinstellungen">{presets}</div>'
        f"{_TOOLBAR}"
        f'<div class="pl-controls">{controls}</div>'
        f'<p class="pl-status" role="status"><span class="pl-spinner" aria-hidden="true"></span>'
        f'<span class="pl-status-text">Python wird geladen … Die Abbildung zeigt schon die Standardeinstellung.</span></p>'
        f'<div class="pl-notes" role="alert" hidden></div>'
        f"{_SWIPE_HINT}"
        f'<div class="pl-stage">'
        f'<figure class="pl-figure pl-figure-scroll{" pl-draggable" if drag_hint else ""}">{first["figure"]}</figure>'
        f'<div class="pl-side">{_readouts(run["readouts"])}'
        f'<div class="pl-extra pl-extra-scroll"{_ANSWERS if run["extra_answers"] else ""}>{first["extra"]}</div></div>'
        f'</div>'
        f'<p class="pl-summary" aria-live="polite">{escape(run["summary"])}</p>'
        f'<p class="pl-answer"{_ANSWERS} aria-live="polite">{escape(run["answer"])}</p>'
        f"<template class=\"pl-views\" data-views='{_single_quoted(views)}'></template>"
        f'</section>'
    )


def _aliases(params) -> str:
    """Former names of parameters (Param.alias), which the script reads from an old link and writes back
    under the new name."""
    aliases = {p.alias: p.name for p in params if p.alias}
    return f" data-aliases='{_single_quoted(aliases)}'" if aliases else ""


def first_paint(slug: str) -> dict[str, str]:
    """The default figure and second figure as the page arrives. A concept that lays its figures out
    for a narrow screen (kit/layout.py) sends both versions, each in a wrapper that names its layout;
    the CSS shows the one that fits the experiment's width before Python runs, and Python's first
    view replaces the pair with the one figure for that width. The presets' views in the template
    stay wide: they are for a click in the seconds before Python is ready. The search index reads the
    figure's texts once: the narrow twin is left out of it."""
    wide = api.run(slug)
    if not api.draws_narrow(slug):
        return {key: wide[key] for key in ("figure", "extra")}
    narrow = api.run(slug, layout=layouts.NARROW)
    return {key: wide[key] if wide[key] == narrow[key] else
            f'<div data-pl-layout="{layouts.WIDE}">{wide[key]}</div>'
            f'<div data-pl-layout="{layouts.NARROW}" data-search-exclude>{narrow[key]}</div>'
            for key in ("figure", "extra")}


# What the page needs of a view before Python runs; a readout's raw number is for the CLI and tests.
_VIEW_KEYS = ("summary", "answer", "extra_answers", "controls", "display", "url", "lesson")
_READOUT_KEYS = ("key", "label", "value", "emphasis", "answers")


def prerendered(slug: str) -> tuple[dict, list[int]]:
    """The default view (index 0) and each preset's, and for each preset the index of its view.

    Presets mostly differ in a few curves: the same axes, grid lines and labels come back in every
    figure, and the cells of a grid share their class and most coordinates. So the markup is cut
    before each "<" into pieces, kept once each, and a figure is the list of its pieces; a piece is
    cut again after each attribute value ('" ') into tokens, kept once each as well. The browser
    joins tokens with '" ' and pieces with "<". Equal views (a preset that is the default) are kept
    once too."""
    module = api.concept(slug)
    tokens: dict[str, int] = {}
    pieces: dict[str, int] = {}

    def index(table: dict[str, int], text: str) -> int:
        return table.setdefault(text, len(table))

    def cut(markup: str) -> list[int]:
        for piece in markup.split("<"):
            if piece not in pieces:
                index(pieces, piece)
                for token in piece.split(_TOKEN_END):
                    index(tokens, token)
        return [pieces[piece] for piece in markup.split("<")]

    views: list[dict] = []
    seen: dict[str, int] = {}
    chosen = []
    for values in [{}] + [api.preset_values(slug, p.label) for p in module.PRESETS]:
        out = api.run(slug, values)
        assert not out["notes"], (slug, values, out["notes"])  # a preset must be valid as it stands
        view = {"figure": cut(out["figure"]), "extra": cut(out["extra"]),
                "readouts": [{k: r[k] for k in _READOUT_KEYS if k != "answers" or r[k]} for r in out["readouts"]],
                **{k: out[k] for k in _VIEW_KEYS}}
        text = json.dumps(view, sort_keys=True)
        if text not in seen:
            seen[text] = len(views)
            views.append(view)
        chosen.append(seen[text])
    encoded = []
    for piece in pieces:
        ids = [tokens[t] for t in piece.split(_TOKEN_END)]
        encoded.append(ids if len(ids) > 1 else ids[0])
    return {"tokens": list(tokens), "pieces": encoded, "views": views}, chosen[1:]


_TOKEN_END = '" '


def markup_of(data: dict, ids: list[int]) -> str:
    """The markup of a figure in ``prerendered``'s data: what static/js/experiment/early.js computes."""
    def piece(p):
        return _TOKEN_END.join(data["tokens"][t] for t in p) if isinstance(p, list) else data["tokens"][p]
    return "<".join(piece(data["pieces"][i]) for i in ids)


def _single_quoted(data) -> str:
    """JSON for an attribute in single quotes: the markup's many double quotes stay as they are."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "&amp;").replace("'", "&#39;")


# On a phone a figure stops shrinking where its labels would become too small and scrolls sideways in
# its own region instead (static/js/experiment/fit.js, fitFigures); the CSS shows this hint only while
# such a region actually scrolls (a11y.js marks it). The region itself is named for screen readers.
_SWIPE_HINT = '<p class="pl-swipe" aria-hidden="true">→ Abbildung zum Verschieben seitlich wischen</p>'


# Sharing tools (static/js/classroom/share.js). The buttons stay hidden until that script shows them:
# without JavaScript they could do nothing. Other scripts may append their own buttons.
_TOOLBAR = (
    '<div class="pl-toolbar" role="toolbar" aria-label="Werkzeuge">'
    '<button type="button" class="pl-tool md-button" data-share="link" hidden>Link kopieren</button>'
    '<button type="button" class="pl-tool md-button" data-share="qr" aria-haspopup="dialog" hidden>QR-Code</button>'
    '<button type="button" class="pl-tool md-button" data-share="ab" aria-pressed="false" hidden>A/B-Vergleich</button>'
    '<span class="pl-share-status" role="status"></span>'
    "</div>"
)


def _preset_button(slug: str, index: int, preset, view: int) -> str:
    """data-preset: the texts its controls take (api.controls); data-preset-url: the query string they
    give, so the page can tell which preset is on screen by comparing strings instead of asking Python;
    data-view: its pre-rendered view in the block's template."""
    values = api.check(slug, api.preset_values(slug, preset.label))[0]
    url = api.preset_url(slug, preset.label)
    return (f'<button type="button" class="pl-preset md-button" data-preset="{escape(json.dumps(api.controls(slug, values)))}"'
            f' data-preset-url="{escape(json.dumps(url))}" data-view="{view}" title="{escape(preset.help)}" data-key="{index}">'
            f'{escape(preset.label)}</button>')


# What answers the lesson's guess (contract.View): hidden until the reader has guessed (lesson.js marks the
# block with data-guessed) and never printed (lesson.css).
_ANSWERS = " data-answers"


def _readouts(readouts: list[dict]) -> str:
    items = "".join(
        f'<div class="pl-readout{" pl-em" if r["emphasis"] else ""}" data-readout="{escape(r["key"])}"'
        f'{_ANSWERS if r["answers"] else ""}>'
        f'<dt>{escape(r["label"])}</dt><dd>{escape(r["value"])}</dd></div>'
        for r in readouts
    )
    return f'<dl class="pl-readouts">{items}</dl>'


# The output next to a slider shows the bare number (its label names the unit), but a screen reader
# announces only aria-valuetext while the slider moves: "30 ms", not "30". The unit is the declared one
# or one named at the end of the label: "Netz hin (ms)", "Richtung (Grad)", "Anteil (in %)".
_LABEL_UNIT = re.compile(r"\((?:in )?(ms|s|%|Grad)\)\s*$")


def slider_unit(p: Param) -> str:
    match = _LABEL_UNIT.search(p.label)
    return p.unit or (match.group(1) if match else "")


def _with_unit(display: str, unit: str) -> str:
    return f"{display} {unit}" if unit and not display.endswith(unit) else display


def _control(p: Param, value, display: str) -> str:
    ident = f"pl-{p.name}"
    help_text = f'<small class="pl-help">{escape(p.help)}</small>' if p.help else ""
    if p.kind == "seed":  # the page draws a fresh seed on click; the URL keeps it for sharing
        return (
            f'<div class="pl-control pl-seed"><input type="hidden" data-param="{p.name}" data-seed '
            f'value="{escape(p.to_url(value))}"><button type="button" class="md-button md-button--primary pl-seed-button" '
            f'data-seed-for="{p.name}">{escape(p.label)}</button>{help_text}</div>'
        )
    if p.kind in ("int", "float") and p.widget == "number":
        # Text, not type="number": a number field reads „1,5“ as 15 or as nothing, depending on the browser;
        # Python reads „1,5“, 1.5 and „−1“ alike and clamps with a note. The arrow keys step it
        # (experiment/controls.js) within data-min/data-max.
        return (
            f'<div class="pl-control pl-number"><label for="{ident}">{escape(p.label)}</label>'
            f'<input type="text"{p.keyboard} id="{ident}" data-param="{p.name}" data-min="{p.lo:g}" data-max="{p.hi:g}" '
            f'data-step="{p.step or 1:g}" value="{escape(p.to_field(value))}" autocomplete="off" spellcheck="false" '
            f'enterkeyhint="done">{help_text}</div>'
        )
    if p.kind in ("int", "float"):
        if p.log:
            lo, hi, now = math.log10(p.lo), math.log10(p.hi), math.log10(value)
            step = p.step
        else:
            lo, hi, now, step = p.lo, p.hi, value, p.step or 1
        unit = slider_unit(p)
        unit_attr = f' data-unit="{escape(unit)}"' if unit else ""
        return (
            f'<div class="pl-control pl-range">'
            f'<label for="{ident}">{escape(p.label)}: <output data-output="{p.name}" for="{ident}">'
            f"{escape(display)}</output></label>"
            f'<input type="range" id="{ident}" data-param="{p.name}" min="{lo:g}" max="{hi:g}" step="{step:g}" '
            f'value="{now:g}"{" data-log" if p.log else ""}{unit_attr} '
            f'aria-valuetext="{escape(_with_unit(display, unit))}">{help_text}</div>'
        )
    if p.kind == "choice" and p.widget == "select":
        options = "".join(
            f'<option value="{escape(p.to_url(v))}"{" selected" if v == value else ""}>{escape(label)}</option>'
            for v, label in p.choices
        )
        return (f'<div class="pl-control pl-select"><label for="{ident}">{escape(p.label)}</label>'
                f'<select id="{ident}" data-param="{p.name}">{options}</select>{help_text}</div>')
    if p.kind == "choice":
        options = "".join(
            f'<label class="pl-option"><input type="radio" name="{ident}" data-param="{p.name}" '
            f'value="{escape(p.to_url(v))}"{" checked" if v == value else ""}><span>{escape(label)}</span></label>'
            for v, label in p.choices
        )
        return (f'<fieldset class="pl-control pl-choice"><legend>{escape(p.label)}</legend>'
                f'<div class="pl-options">{options}</div>{help_text}</fieldset>')
    if p.kind in ("values", "text"):  # typed; Python reads „0,5; 0,3“ as well as the URL's 0.5_0.3
        placeholder = f' placeholder="{escape(p.widget)}"' if p.widget else ""
        return (
            f'<div class="pl-control pl-values"><label for="{ident}">{escape(p.label)}</label>'
            f'<input type="text" id="{ident}" data-param="{p.name}" value="{escape(p.to_field(value))}"'
            f'{placeholder} autocomplete="off" spellcheck="false" enterkeyhint="done">{help_text}</div>'
        )
    if p.kind == "moves":  # changed by dragging in the figure; kept here so the URL can carry it
        return f'<input type="hidden" data-param="{p.name}" data-moves value="{escape(p.to_url(value))}">'
    if p.kind == "bool":
        return (
            f'<div class="pl-control pl-toggle"><label><input type="checkbox" data-param="{p.name}" role="switch"'
            f'{" checked" if value else ""}> {escape(p.label)}</label>{help_text}</div>'
        )
    raise ValueError(p.kind)
