"""Command line for teachers preparing worksheets.

    python -m probierlabor list
    python -m probierlabor show overfitting degree=9 [--json]
    python -m probierlabor show overfitting --preset "Grad 9 trifft jeden Punkt"
    python -m probierlabor tasks top-p-sampling p=0.7   the page's tasks, ✓ where this state solves them

What the reader typed comes back in notes, in argparse's messages and in the JSON. A character there
that the terminal may act on instead of showing it (an escape sequence that recolours or clears the
screen, a right-to-left override) is written as its JSON escape, e.g. \\u001b, and a note says so once.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata

from . import SLUGS
from .kit import api

_HIDDEN = {"Cc", "Cf"}  # control and invisible format characters
_escaped = False  # whether a line written since main() started had one


def _safe(text: str, keep: str = "") -> str:
    global _escaped
    safe = "".join(json.dumps(ch)[1:-1] if ch not in keep and unicodedata.category(ch) in _HIDDEN else ch
                   for ch in text)
    _escaped = _escaped or safe != text
    return safe


def say(text: str = "", file=None) -> None:
    """Print one line; a line break inside it came from the reader and is escaped too."""
    print(_safe(text), file=file)


class _Parser(argparse.ArgumentParser):
    """argparse echoes a wrong argument in its message (its own line breaks stay)."""

    def _print_message(self, message, file=None):
        super()._print_message(_safe(message, keep="\n"), file)


def main(argv: list[str] | None = None) -> int:
    global _escaped
    _escaped = False
    try:
        return _main(argv)
    finally:
        if _escaped:
            say("Hinweis: Steuerzeichen aus der Eingabe stehen hier als Escape-Folge, etwa \\u001b.", file=sys.stderr)


def _main(argv: list[str] | None) -> int:
    parser = _Parser(prog="python -m probierlabor", description="Probierlabor: Experimente ohne Browser.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="alle Konzepte, ein Slug pro Zeile")
    show = sub.add_parser("show", help="ein Experiment berechnen")
    show.add_argument("slug")
    show.add_argument("assignments", nargs="*", metavar="name=wert")
    show.add_argument("--preset", help="Voreinstellung, z. B. „Grad 9 trifft jeden Punkt“")
    show.add_argument("--json", action="store_true", help="ein JSON-Objekt ausgeben")
    tasks = sub.add_parser("tasks", help="Vermutung und Aufgaben einer Seite, mit ✓ für gelöste")
    tasks.add_argument("slug")
    tasks.add_argument("assignments", nargs="*", metavar="name=wert")
    tasks.add_argument("--preset", help="Voreinstellung, z. B. „Grad 9 trifft jeden Punkt“")
    args = parser.parse_args(argv)

    if args.command == "list":
        for slug in SLUGS:
            say(slug)
        return 0

    if args.slug not in SLUGS:
        say(f"Unbekanntes Konzept „{args.slug}“. `python -m probierlabor list` zeigt alle.", file=sys.stderr)
        return 2
    raw: dict = {}
    if args.preset:
        try:
            raw.update(api.preset_values(args.slug, args.preset))
        except KeyError as error:
            labels = ", ".join(p.label for p in api.concept(args.slug).PRESETS)
            say(f"{error.args[0]} Möglich: {labels}.", file=sys.stderr)
            return 2
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep:
            say(f"„{item}“: erwartet wird name=wert.", file=sys.stderr)
            return 2
        param = api.params_of(args.slug).get(name.strip())
        raw[name.strip()] = value if param and param.kind == "text" else value.strip()  # there a space is a character
    out = api.run(args.slug, raw)
    for note in out["notes"]:
        say("Hinweis: " + note, file=sys.stderr)
    if args.command == "tasks":
        return _print_tasks(args.slug, out)
    if args.json:
        say(json.dumps({k: out[k] for k in ("slug", "params", "notes", "result", "readouts", "summary", "answer")},
                         ensure_ascii=False))
        return 0
    module = api.concept(args.slug)
    say(f"{module.TITLE}")
    for name, text in out["display"].items():
        say(f"  {api.params_of(args.slug)[name].label}: {text}")
    say()
    for r in out["readouts"]:
        say(f"  {r['label']}: {r['value']}")
    say()
    say(" ".join(filter(None, (out["summary"], out["answer"]))))
    return 0


def _print_tasks(slug: str, out: dict) -> int:
    lesson = getattr(api.concept(slug), "LESSON", None)
    if lesson is None:
        say(f"„{slug}“ hat noch keine Aufgaben.", file=sys.stderr)
        return 2
    guess = lesson.prediction
    say("Erst vermuten: " + guess.question)
    for i, choice in enumerate(guess.choices):
        say(f"  {'abcd'[i]}) {choice}")
    if out["lesson"]["shown"]:
        say(f"  Dieser Zustand beantwortet die Frage: {guess.choices[guess.answer]}. {guess.explain}")
    say()
    say("Aufgaben:")
    for task in lesson.tasks:
        solved = task.key in out["lesson"]["solved"]
        say(f"  {'✓' if solved else '☐'} {task.text}")
        if solved:
            say(f"    {task.explain}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
