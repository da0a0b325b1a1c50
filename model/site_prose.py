"""The site's own German text: the pages' prose, the lessons and the glossary, each as (name, paragraphs).

The lessons and the glossary are read from the concept modules themselves (through ``probierlabor``), so the
corpus holds exactly the strings the reader sees, numbers filled in as the page shows them.
"""

from __future__ import annotations

import gzip
import json
import unicodedata
from pathlib import Path

from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.kit.lesson import Lesson
from probierlabor.pageblocks.glossary import TERMS

from .prose import markdown_paragraphs

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "pages"
# The prose the committed weights were trained on. The site keeps changing (every new page, every edited
# lesson), so `make model` reads this copy and trains on the same text as the committed run; pin the
# current prose (``python -m model.corpus --pin-prose``) only to train on it on purpose.
PINNED = Path(__file__).with_name("site-prose.json.gz")


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
    """Today's prose."""
    return [*page_texts(), *lesson_texts(), glossary_text()]


def pinned_texts(path: Path = PINNED) -> list[tuple[str, list[str]]]:
    """The prose as pinned (``pin``)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [(name, paragraphs) for name, paragraphs in json.load(f)["documents"]]


def pin(texts: list[tuple[str, list[str]]], commit: str, path: Path = PINNED) -> None:
    """Write ``texts`` as the pinned prose, byte for byte the same for the same texts (no time stamp)."""
    data = json.dumps({"commit": commit, "documents": texts}, ensure_ascii=False, indent=0).encode("utf-8")
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(data)


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())
