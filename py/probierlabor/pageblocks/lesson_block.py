"""HTML of a page's lesson (kit/lesson.py), rendered at build time around its experiment block.

„Erst vermuten“ stands before the experiment, the tasks and the questions for the class after it:
the reader commits to a guess, tries it out, and finds the tasks right below the figure. Everything
is in the static page, so the printed worksheet needs no JavaScript: answers and explanations carry
``hidden`` until static/js/classroom/lesson.js shows them, and print.css draws choice boxes and answer lines.

The markup is the contract with lesson.js: ``data-lesson`` names the slug on every part,
``data-task`` the task's key, ``data-answer`` the right choice. No inline script or style: the page
must pass a Content-Security-Policy without 'unsafe-inline'.
"""

from __future__ import annotations

from html import escape

from ..kit import api
from ..kit.lesson import Lesson


def lesson_of(slug: str) -> Lesson | None:
    return getattr(api.concept(slug), "LESSON", None)


def before(slug: str) -> str:
    """„Erst vermuten“: the question, its choices as radio buttons, and the verdict's empty slot."""
    lesson = lesson_of(slug)
    if lesson is None:
        return ""
    guess = lesson.prediction
    name = f"pl-guess-{slug}"
    choices = "".join(
        f'<label class="pl-guess-choice"><input type="radio" name="{name}" value="{i}">'
        f'<span>{escape(text)}</span></label>'
        for i, text in enumerate(guess.choices)
    )
    return (
        f'<section class="pl-lesson pl-predict" data-lesson="{slug}" data-answer="{guess.answer}" '
        f'aria-labelledby="{name}-title">'
        f'<h3 id="{name}-title" class="pl-lesson-title">Erst vermuten</h3>'
        f'<fieldset class="pl-guess"><legend>{escape(guess.question)}</legend>'
        f'<div class="pl-guess-choices">{choices}</div></fieldset>'
        f'<p class="pl-guess-actions">'
        f'<button type="button" class="md-button md-button--primary" data-lesson-commit hidden>Festlegen</button>'
        f'<button type="button" class="md-button" data-lesson-change hidden>Ändern</button>'
        f'<button type="button" class="md-button pl-reveal" data-lesson-reveal hidden '
        f'aria-expanded="false">Lösung zeigen</button></p>'
        f'<p class="pl-guess-hint" data-committed="{_COMMITTED}">{_OPEN}</p>'
        f'<div class="pl-verdict" tabindex="-1" hidden><p class="pl-verdict-text"></p>{_why_not(guess)}'
        f'<p class="pl-explain">{escape(guess.explain)}</p></div>'
        f"</section>"
    )


def _why_not(guess) -> str:
    """Each wrong choice's own explanation; lesson.js shows the one of the reader's guess."""
    return "".join(f'<p class="pl-why-not" data-choice="{i}" hidden>{escape(text)}</p>'
                   for i, text in enumerate(guess.why_not) if text)


def _hints(task) -> str:
    """The hints one inside the other: each opens on request and offers the next (no script needed)."""
    html = ""
    for i, hint in reversed(list(enumerate(task.hints))):
        label = "Tipp" if i == 0 else "Noch ein Tipp"
        html = f'<details class="pl-hint"><summary>{label}</summary><p>{escape(hint)}</p>{html}</details>'
    return html


def _near(task) -> str:
    """What the page says when the reader is close (lesson.js shows it while kit/lesson.status says so)."""
    return f'<p class="pl-task-near" hidden>{escape(task.near.text)}</p>' if task.near else ""


# The hint under the guess, before and after „Festlegen“; static/js/classroom/lesson.js swaps between the two.
_OPEN = "Lege dich auf eine Antwort fest. Probiere es dann im Experiment aus."
_COMMITTED = "Festgelegt. Probiere es jetzt im Experiment aus."


# What lesson.js counts (only the reader's own change solves a task), said once under the tasks' progress.
_ONLY_YOU = "Eine Aufgabe zählt erst, wenn du selbst etwas verstellst – Voreinstellungen und Links lösen keine."


def after(slug: str) -> str:
    """The tasks (each with its hidden explanation and, for paper, answer lines), the questions for
    the class and the collapsed notes for the teacher."""
    lesson = lesson_of(slug)
    if lesson is None:
        return ""
    tasks = "".join(
        f'<li class="pl-task" data-task="{escape(t.key)}">'
        f'<p class="pl-task-text">{escape(t.text)}<span class="pl-task-done" hidden> <span aria-hidden="true">✓</span> gelöst</span></p>'
        f"{_near(t)}{_hints(t)}"
        f'<p class="pl-explain" hidden>{escape(t.explain)}</p>'
        f'<button type="button" class="md-button pl-reveal" data-lesson-reveal hidden aria-expanded="false">'
        f"Lösung zeigen</button>"
        f'<div class="pl-answer-lines" aria-hidden="true"></div>'
        f"</li>"
        for t in lesson.tasks
    )
    items = lambda texts: "".join(f"<li>{escape(t)}</li>" for t in texts)  # noqa: E731
    misconceptions = (f'<p class="pl-teacher-head">Typische Fehlvorstellungen</p><ul>{items(lesson.misconceptions)}</ul>'
                      if lesson.misconceptions else "")
    return (
        f'<section class="pl-lesson pl-tasks" data-lesson="{slug}" aria-labelledby="pl-tasks-{slug}-title">'
        f'<h3 id="pl-tasks-{slug}-title" class="pl-lesson-title">Aufgaben</h3>'
        f'<ol class="pl-task-list">{tasks}</ol>'
        f'<p class="pl-task-nav" hidden>'
        f'<button type="button" class="md-button" data-lesson-step="-1" aria-keyshortcuts="V">Vorige Aufgabe</button>'
        f'<span class="pl-task-position"></span>'
        f'<button type="button" class="md-button" data-lesson-step="1" aria-keyshortcuts="A">Nächste Aufgabe</button></p>'
        f'<p class="pl-progress"><span class="pl-progress-text"></span>'
        f'<button type="button" class="md-button" data-lesson-reset hidden>Fortschritt zurücksetzen</button></p>'
        f'<p class="pl-lesson-note" hidden>{_ONLY_YOU} Dein Fortschritt bleibt nur in diesem Browser gespeichert.</p>'
        f'<div class="pl-lesson-live" role="status"></div>'
        f"</section>"
        f'<section class="pl-lesson pl-talk" data-lesson="{slug}" aria-labelledby="pl-talk-{slug}-title">'
        f'<h3 id="pl-talk-{slug}-title" class="pl-lesson-title">Für das Gespräch</h3>'
        f"<ul>{items(lesson.discussion)}</ul>"
        f'<details class="pl-teacher"><summary>Für Lehrkräfte</summary>'
        f'<p class="pl-teacher-head">Ideen für Antworten</p><ul>{items(lesson.teacher)}</ul>{misconceptions}'
        f"</details></section>"
    )
