"""The one entry point: raw parameters in, checked parameters, results and view out.

The browser calls ``run_json`` with the URL's query values; the CLI calls ``run`` with
``name=value`` strings; the build calls ``run`` with no parameters (or a preset) to
pre-render the default figure and to quote numbers in the prose. All three therefore
clamp, compute and format identically.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from .. import SLUGS, module_name
from . import layout as layouts
from . import lesson
from .contract import Param


@cache
def concept(slug: str):
    if slug not in SLUGS:
        raise KeyError(f"Unbekanntes Konzept „{slug}“. Bekannt sind: {', '.join(SLUGS)}.")
    return importlib.import_module(f"probierlabor.concepts.{module_name(slug)}")


def params_of(slug: str) -> dict[str, Param]:
    return {p.name: p for p in concept(slug).PARAMS}


def check(slug: str, raw: Mapping[str, Any]) -> tuple[dict, list[str]]:
    """Valid parameters (defaults filled in) and German notes for everything that was changed."""
    values, notes = checked(slug, raw)
    return values, list(notes.values())


def checked(slug: str, raw: Mapping[str, Any]) -> tuple[dict, dict[str, str]]:
    """Like ``check``, with each note under the name of the parameter it is about."""
    declared = params_of(slug)
    values, notes = {}, {}
    aliases = {p.alias for p in declared.values() if p.alias}
    for name, param in declared.items():
        given = name if name in raw else param.alias if param.alias and param.alias in raw else None
        if given is not None:
            value, note = param.coerce(raw[given])
            if note:
                notes[name] = note
        else:
            value = param.default
        values[name] = value
    for name in raw:
        if name not in declared and name not in aliases:
            notes[name] = f"Den Regler „{name}“ gibt es in diesem Experiment nicht; er wurde ignoriert."
    return values, notes


def preset_values(slug: str, label: str) -> dict:
    for preset in concept(slug).PRESETS:
        if preset.label == label:
            return {**{p.name: p.default for p in concept(slug).PARAMS}, **preset.values}
    raise KeyError(f"„{label}“ ist keine Voreinstellung von {slug}.")


def preset_url(slug: str, label: str) -> dict:
    """A preset's state as the query string carries it (its button's data-preset-url, a prose link's)."""
    return url_state(slug, check(slug, preset_values(slug, label))[0])


def url_state(slug: str, values: Mapping[str, Any]) -> dict:
    """Checked values as the query string carries them: only what differs from the defaults."""
    declared = params_of(slug)
    return {name: declared[name].to_url(v) for name, v in values.items() if v != declared[name].default}


def controls(slug: str, values: Mapping[str, Any]) -> dict:
    """What each control holds for these values: the URL's text, typed lists in German (Param.to_field)."""
    declared = params_of(slug)
    return {name: declared[name].to_field(v) for name, v in values.items()}


@cache
def draws_narrow(slug: str) -> bool:
    """Whether the concept lays its figure out for a narrow screen (its ``view`` takes a ``layout``)."""
    return "layout" in inspect.signature(concept(slug).view).parameters


def run(slug: str, raw: Mapping[str, Any] | None = None, layout: str = layouts.WIDE) -> dict:
    """Check, compute and view. The result is JSON-serialisable.

    ``layout`` is the width the page reports for the figure (kit/layout.py); it changes how the
    figure is laid out, never a number, and it is not part of the state in the URL."""
    return _run(slug, raw, layout, with_result=True)


def _run(slug: str, raw: Mapping[str, Any] | None, layout: str, with_result: bool) -> dict:
    module = concept(slug)
    layouts.check(layout)
    values, noted = checked(slug, raw or {})
    result = module.compute(**values)
    narrow = draws_narrow(slug)
    drawn = layout if narrow else layouts.WIDE
    view = module.view(result, layout=drawn) if narrow else module.view(result)
    declared = params_of(slug)
    return {
        "slug": slug,
        "layout": drawn,
        "params": {name: jsonable(v) for name, v in values.items()},
        "url": url_state(slug, values),
        "controls": controls(slug, values),
        "display": {name: declared[name].format(v) for name, v in values.items()},
        "notes": list(noted.values()),
        "noted": list(noted),  # whose note each one is: the page tells a reader what it changed in a typed value
        **({"result": jsonable(result)} if with_result else {}),
        "figure": view.figure,
        "extra": view.extra,
        "readouts": [_readout(r) for r in view.readouts],
        "summary": view.summary,
        "answer": view.answer,
        "extra_answers": view.extra_answers,
        "lesson": lesson.status(getattr(module, "LESSON", None), values, result),
    }


def _readout(r) -> dict:
    # field by field rather than dataclasses.asdict, which deep-copies ``raw`` (a whole list on some
    # pages) only for jsonable to convert it again: a tenth of some pages' render on the slider path
    return {field.name: getattr(r, field.name) for field in dataclasses.fields(r)} | {"raw": jsonable(r.raw)}


def run_json(slug: str, raw_json: str, layout: str = layouts.WIDE) -> str:
    """Browser entry point: JSON in, JSON out; an exception becomes a German message.

    The raw results stay behind: the page shows only the view, and every slider step would
    otherwise convert, serialise and parse them again."""
    try:
        out = _run(slug, json.loads(raw_json or "{}"), layout, with_result=False)
        return json.dumps(out, ensure_ascii=False)
    except Exception as error:
        return json.dumps({"slug": slug, "error": f"{type(error).__name__}: {error}"}, ensure_ascii=False)


def jsonable(value):
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if hasattr(value, "numerator") and not isinstance(value, (int, bool)):
        return float(value)
    return value
