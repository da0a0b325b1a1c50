"""The states a page itself puts in front of the reader, and what its prose prints of them.

A reader can reach a page's experiment in three ways without solving anything: untouched (the default),
by a preset's button, or by a number in the prose (``{{ value(slug, key, digits, preset=…, name=…) }}``,
a link where a preset shows that state). ``states`` lists all three; ``solved_by_the_page`` runs each
through ``api.run`` and names the tasks one of them would tick. ``prose_values`` reads the page's value
calls as the build does (mkdocs_hooks/macros.py ``value``), with whether the prose writes „≈“ before one.
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from probierlabor.kit import api, fmt

PAGES = Path(__file__).resolve().parents[1] / "pages"
CALL = re.compile(r"(≈\s*)?\{\{\s*(value\(.*?\))\s*\}\}", re.S)


@dataclass(frozen=True)
class ProseValue:
    slug: str
    call: str
    raw: dict  # the state's parameters, as api.run takes them
    key: str
    digits: int
    marked_approx: bool  # the prose writes „≈“ right before it

    def value(self):
        item = api.run(self.slug, self.raw)["result"]
        for part in self.key.split("."):
            item = item[int(part)] if isinstance(item, list) else item[part]
        return item

    def printed(self) -> str:
        return fmt.de(self.value(), self.digits)

    def is_exact(self) -> bool:
        """The printed decimal is the value itself, not a rounding of it."""
        text = self.printed().replace(fmt.THIN_NBSP, "").replace(fmt.MINUS, "-").replace(",", ".")
        return Fraction(text) == fmt.as_fraction(self.value())


def prose_values(slug: str) -> list[ProseValue]:
    found = []
    text = (PAGES / f"{slug}.md").read_text(encoding="utf-8")
    for match in CALL.finditer(text):
        call = ast.parse(match[2], mode="eval").body
        args = [ast.literal_eval(a) for a in call.args]
        if args[0] != slug:
            continue
        params = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
        preset = params.pop("preset", None)
        raw = dict(api.preset_values(slug, preset)) if preset else {}
        raw.update(params)
        found.append(ProseValue(slug, match[2], raw, args[1], args[2] if len(args) > 2 else 1,
                                bool(match[1]) or _in_rounded_tuple(text, match.start())))
    return found


def _in_rounded_tuple(text: str, start: int) -> bool:
    """Does the number at ``start`` stand in a bracket with „≈“ before it, as in „h ≈ (0,330; 0,670)“?"""
    before = re.sub(r"\{\{.*?\}\}", lambda m: "x" * len(m[0]), text[:start], flags=re.S)  # a call's own brackets
    opened = max(before.rfind("("), before.rfind("["))
    if opened < 0 or max(before.rfind(")"), before.rfind("]")) > opened:
        return False
    return re.search(r"≈\s*\**\s*$", before[:opened]) is not None


def states(slug: str) -> list[tuple[str, dict]]:
    """(where the reader meets it, raw parameters): the default, every preset, every prose number's state."""
    module = api.concept(slug)
    return ([("Standard", {})]
            + [(f"Voreinstellung „{p.label}“", dict(api.preset_values(slug, p.label))) for p in module.PRESETS]
            + [(f"Zahl im Text {v.call}", v.raw) for v in prose_values(slug)])


def solved_by_the_page(slug: str) -> dict[str, list[str]]:
    """Each state of ``states`` that ticks a task, with the tasks it ticks."""
    ticked = {}
    for where, raw in states(slug):
        solved = api.run(slug, raw)["lesson"]["solved"]
        if solved:
            ticked[where] = solved
    return ticked


def unmarked_roundings(slug: str) -> list[str]:
    """The prose's numbers that round their value but have no „≈“, and exact ones that carry it."""
    return [f"{v.call} = {v.printed()}" for v in prose_values(slug) if v.is_exact() == v.marked_approx]


NUMBER = re.compile(r"\d+(?:,\d+)?")


def told_states(slug: str) -> dict[str, list[dict]]:
    """Each task whose text or a hint names its solution: the controls it names („Label“) set to the
    numbers it names, in every combination, and the states of those that solve the task."""
    module = api.concept(slug)
    labels = {p.label: p.name for p in module.PARAMS}
    found = {}
    for task in module.LESSON.tasks:
        for text in (task.text, *task.hints):
            names = [labels[q] for q in re.findall(r"„([^“]+)“", text) if q in labels]
            numbers = [float(n.replace(",", ".")) for n in NUMBER.findall(text.replace(fmt.THIN_NBSP, ""))]
            if not names or not numbers:
                continue
            for values in itertools.product(numbers, repeat=len(names)):
                raw = dict(zip(names, values))
                if task.key in api.run(slug, raw)["lesson"]["solved"]:
                    found.setdefault(task.key, []).append(raw)
    return found
