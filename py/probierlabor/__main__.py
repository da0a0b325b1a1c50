"""Command line for teachers preparing worksheets.

    python -m probierlabor list
    python -m probierlabor show overfitting degree=9 [--json]
    python -m probierlabor show overfitting --preset "Experiment 2"
    python -m probierlabor tasks top-p-sampling p=0.7   the page's tasks, ✓ where this state solves them
"""

from __future__ import annotations

import argparse
import json
import sys

from . import SLUGS
from .kit import api


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m probierlabor", description="Probierlabor: Experimente ohne Browser.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="alle Konzepte, ein Slug pro Zeile")
    show = sub.add_parser("show", help="ein Experiment berechnen")
    show.add_argument("slug")
    show.add_argument("assignments", nargs="*", metavar="name=wert")
    show.add_argument("--preset", help="Voreinstellung, z. B. „Experiment 2“")
    show.add_argument("--json", action="store_true", help="ein JSON-Objekt ausgeben")
    tasks = sub.add_parser("tasks", help="Vermutung und Aufgaben einer Seite, mit ✓ für gelöste")
    tasks.add_argument("slug")
    tasks.add_argument("assignments", nargs="*", metavar="name=wert")
    tasks.add_argument("--preset", help="Voreinstellung, z. B. „Experiment 2“")
    args = parser.parse_args(argv)

    if args.command == "list":
        print("\n".join(SLUGS))
        return 0

    if args.slug not in SLUGS:
        print(f"Unbekanntes Konzept „{args.slug}“. `python -m probierlabor list` zeigt alle.", file=sys.stderr)
        return 2
    raw: dict = {}
    if args.preset:
        try:
            raw.update(api.preset_values(args.slug, args.preset))
        except KeyError as error:
            labels = ", ".join(p.label for p in api.concept(args.slug).PRESETS)
            print(f"{error.args[0]} Möglich: {labels}.", file=sys.stderr)
            return 2
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"„{item}“: erwartet wird name=wert.", file=sys.stderr)
            return 2
        raw[name.strip()] = value.strip()
    out = api.run(args.slug, raw)
    for note in out["notes"]:
        print("Hinweis: " + note, file=sys.stderr)
    if args.command == "tasks":
        return _print_tasks(args.slug, out)
    if args.json:
        print(json.dumps({k: out[k] for k in ("slug", "params", "notes", "result", "readouts", "summary")},
                         ensure_ascii=False))
        return 0
    module = api.concept(args.slug)
    print(f"{module.TITLE}")
    for name, text in out["display"].items():
        print(f"  {api.params_of(args.slug)[name].label}: {text}")
    print()
    for r in out["readouts"]:
        print(f"  {r['label']}: {r['value']}")
    print()
    print(out["summary"])
    return 0


def _print_tasks(slug: str, out: dict) -> int:
    lesson = getattr(api.concept(slug), "LESSON", None)
    if lesson is None:
        print(f"„{slug}“ hat noch keine Aufgaben.", file=sys.stderr)
        return 2
    guess = lesson.prediction
    print("Erst vermuten: " + guess.question)
    for i, choice in enumerate(guess.choices):
        print(f"  {'abcd'[i]}) {choice}")
    if out["lesson"]["shown"]:
        print(f"  Dieser Zustand beantwortet die Frage: {guess.choices[guess.answer]}. {guess.explain}")
    print()
    print("Aufgaben:")
    for task in lesson.tasks:
        solved = task.key in out["lesson"]["solved"]
        print(f"  {'✓' if solved else '☐'} {task.text}")
        if solved:
            print(f"    {task.explain}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
