"""„Im Code nachrechnen“: every concept's short numpy + matplotlib script, with the reader's settings.

A script is a plain Python file, ``probierlabor/workshop/<module>.py``, written for students: it
recomputes the page's central result with numpy and draws its central figure with matplotlib, as a
second, independent implementation of the experiment (tests/workshop_check.py runs each one in
CPython and compares what it prints with the concept module's result).

Its settings are ordinary assignments near the top, one per line, named like the experiment's
parameters (``p = 0.75``); ``fill`` replaces their values with the experiment's current, checked
values, so the script the reader opens computes exactly what the page shows. Everything else in the
file stays as written.
"""

from __future__ import annotations

import json
import pkgutil
import re

from .. import module_name
from . import api, distribution


def template(slug: str) -> str:
    try:
        data = pkgutil.get_data("probierlabor.workshop", f"{module_name(slug)}.py")
    except OSError:
        data = None
    if data is None:
        raise KeyError(f"Für „{slug}“ gibt es kein Skript zum Nachrechnen.")
    return data.decode("utf-8")


def settings(text: str, slug: str) -> list[str]:
    """The parameters that the script sets, in the order of their lines."""
    declared = api.params_of(slug)
    return [m.group(1) for m in _SETTING.finditer(text) if m.group(1) in declared]


def fill(slug: str, raw=None) -> str:
    """The script with the checked values of ``raw`` (URL or CLI values, like ``api.run`` takes)."""
    values, _ = api.check(slug, raw or {})
    declared = api.params_of(slug)
    text = template(slug)
    for name in settings(text, slug):
        value = values[name]
        if declared[name].normalise and value:  # the script takes chances: the typed numbers divided by their sum
            value = tuple(float(share) for share in distribution.shares(value))
        pattern = re.compile(rf"^{re.escape(name)} = .*$", re.M)
        line = f"{name} = {literal(value)}"
        text = pattern.sub(lambda _, line=line: line, text, count=1)  # a function: the value may hold backslashes
    return text


def fill_json(slug: str, raw_json: str) -> str:
    """Browser entry point (static/js/workshop/workshop.js): the filled script, or a German message."""
    try:
        return json.dumps({"script": fill(slug, json.loads(raw_json or "{}"))}, ensure_ascii=False)
    except KeyError as missing:
        return json.dumps({"error": missing.args[0]}, ensure_ascii=False)
    except Exception as error:
        return json.dumps({"error": f"{type(error).__name__}: {error}"}, ensure_ascii=False)


def literal(value) -> str:
    """Python source for a checked value: dragged points become a list of [index, value] pairs."""
    if isinstance(value, tuple):
        return repr([list(item) if isinstance(item, tuple) else item for item in value])
    return repr(value)


_SETTING = re.compile(r"^([A-Za-z_]\w*) = ", re.M)
