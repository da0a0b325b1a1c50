"""The site's own German text: the pages' prose, the lessons and the glossary, each as (name, paragraphs).

The lessons and the glossary are read from the concept modules themselves (through ``probierlabor``), so the
corpus holds exactly the strings the reader sees, numbers filled in as the page shows them.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.kit.lesson import Lesson
from probierlabor.pageblocks.glossary import TERMS

from .prose import markdown_paragraphs

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "pages"


def page_texts(pages: Path = PAGES) -> list[tuple[str, list[str]]]:
    return [(f"pages/{path.name}", markdown_paragraphs(path.read_text(encoding="utf-8")))
            for path in sorted(pages.glob("*.md"))]


def lesson_strings(lesson: Lesson) -> list[str]:
    """Every German string of a lesson, in the order the page shows them."""
    guess = lesson.prediction
    strings = [guess.question, *guess.choices, guess.explain, *guess.why_not]
    for task in lesson.tasks:
        strings += [task.text, *task.hints, task.explain]
        if task.near is not None:
            strings.append(task.near.text)
    strings += [*lesson.discussion, *lesson.teacher, *lesson.misconceptions]
    return [_clean(s) for s in strings if s.strip()]


def lesson_texts() -> list[tuple[str, list[str]]]:
    return [(f"lesson:{slug}", lesson_strings(lesson)) for slug in SLUGS
            if (lesson := getattr(api.concept(slug), "LESSON", None)) is not None]


def glossary_text() -> tuple[str, list[str]]:
    """One line per entry, as the glossary page reads: „das Token: …“."""
    return ("glossary", [_clean(f"{f'{t.article} ' if t.article else ''}{t.term}: {t.explanation}") for t in TERMS])


def site_texts() -> list[tuple[str, list[str]]]:
    return [*page_texts(), *lesson_texts(), glossary_text()]


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())
