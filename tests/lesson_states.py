"""The states a reader reaches without solving anything: the untouched page, each preset and each number
in the page's prose (``{{ value(slug, key, digits, preset=…, name=value) }}``, one click on it sets the
experiment so). A task that one of them solves is solved by a click, not by the reader."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from probierlabor.kit import api

ROOT = Path(__file__).resolve().parents[1]
MACRO = re.compile(r"\{\{\s*(value\(.*?\))\s*\}\}", re.S)


def prose_states(slug: str) -> list[tuple[str, dict]]:
    """(the macro as written, the raw state it computes) for every value() of this slug in its page."""
    states = []
    for text in MACRO.findall((ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8")):
        call = ast.parse(text, mode="eval").body
        if ast.literal_eval(call.args[0]) != slug:
            continue
        params = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        preset = params.pop("preset", None)
        raw = dict(api.preset_values(slug, preset)) if preset else {}
        states.append((" ".join(text.split()), raw | params))
    return states


def free_states(slug: str) -> list[tuple[str, dict]]:
    """The default, every preset and every prose number's state, each with a name for the failure."""
    presets = [(f"Voreinstellung „{p.label}“", dict(api.preset_values(slug, p.label)))
               for p in api.concept(slug).PRESETS]
    return [("Standard", {})] + presets + prose_states(slug)


def solved_for_free(slug: str) -> dict[str, list[str]]:
    """Each free state that solves a task, with the tasks it solves (empty when none does)."""
    out = {}
    for name, raw in free_states(slug):
        solved = api.run(slug, raw)["lesson"]["solved"]
        if solved:
            out[name] = solved
    return out
