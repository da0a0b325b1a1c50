"""A page as a lesson: a guess before the experiment, tasks the page checks, questions for the class.

A concept module may declare ``LESSON = Lesson(...)``. The checks are plain functions of the
experiment's state — the checked parameters and ``compute``'s result — so the page (through
``api.run``), the CLI, the build and the tests all decide „gelöst“ the same way. A check that
raises counts as not solved: a lesson must never break the experiment it sits next to.

Every task and the prediction name an ``example``: parameter values that solve it (or answer the
question). The tests check that the example solves and the default state does not, and the
browser tests reach the example by operating the controls, as a student would. On the page only such a
change of the reader's own counts (static/js/classroom/lesson.js): a state that a preset, a number in the
prose or a shared link shows solves nothing, so a preset may show what a task asks for.

Feedback teaches, it does not only judge: every wrong choice of the prediction says why someone might
pick it and what the experiment shows instead (``why_not``); a task gives hints, one at a time on
request, and may know when the reader is close (``near``: a state with its own sentence, and an
example of it that the tests check is close but not yet solved).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

State = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]  # (params, result) -> bool


@dataclass(frozen=True)
class Prediction:
    """„Erst vermuten“: one question with 2–4 answers, asked before the reader tries anything.

    ``shown`` tells when the experiment's state answers the question (the page then says whether
    the guess was right); ``answer`` is the index of the right choice."""

    question: str
    choices: tuple[str, ...]
    answer: int
    shown: State
    explain: str
    example: Mapping[str, Any]
    why_not: tuple[str, ...] = ()  # one sentence per choice, "" for the right one

    def __post_init__(self):
        assert 2 <= len(self.choices) <= 4 and 0 <= self.answer < len(self.choices), self.question
        assert not self.why_not or (
            len(self.why_not) == len(self.choices)
            and [i for i, text in enumerate(self.why_not) if not text] == [self.answer]), self.question


@dataclass(frozen=True)
class Near:
    """Close to solving a task: ``holds`` recognises the state, ``text`` is what the page then says,
    ``example`` is such a state (the tests check it is close and not yet solved)."""

    holds: State
    text: str
    example: Mapping[str, Any]


@dataclass(frozen=True)
class Task:
    """One „Aufgabe“: ``text`` says what to do, ``solved`` recognises it, ``explain`` is the one
    sentence the page shows once it is solved."""

    key: str
    text: str
    solved: State
    explain: str
    example: Mapping[str, Any]
    hints: tuple[str, ...] = ()  # shown one at a time, the reader asks for each
    near: Near | None = None

    def __post_init__(self):
        assert len(self.hints) <= 3, self.key


@dataclass(frozen=True)
class Lesson:
    prediction: Prediction
    tasks: tuple[Task, ...]
    discussion: tuple[str, ...]  # „Für das Gespräch“: open questions for the class
    teacher: tuple[str, ...]  # „Für Lehrkräfte“: answer ideas
    misconceptions: tuple[str, ...] = field(default=())  # typical wrong ideas, for the teacher

    def __post_init__(self):
        assert 2 <= len(self.tasks) <= 4, "2–4 Aufgaben"
        assert 2 <= len(self.discussion) <= 3, "2–3 Fragen für das Gespräch"
        keys = [t.key for t in self.tasks]
        assert len(set(keys)) == len(keys), keys


def unless_own(check: State) -> State:
    """``check`` on the page's own numbers only: where the reader typed own ones (``result["own"]``),
    the lesson's tasks and question speak of numbers that are not on screen, so nothing is solved."""
    return lambda params, result: not result["own"] and check(params, result)


def holds(check: State, params: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    try:
        return bool(check(params, result))
    except Exception:
        return False


def status(lesson: Lesson | None, params: Mapping[str, Any], result: Mapping[str, Any]) -> dict:
    """What the page needs after every run: the solved tasks' keys, those of the tasks the reader is
    close to (not solved yet), and whether the guess can be judged."""
    if lesson is None:
        return {"solved": [], "near": [], "shown": False}
    solved = [t.key for t in lesson.tasks if holds(t.solved, params, result)]
    return {
        "solved": solved,
        "near": [t.key for t in lesson.tasks
                 if t.near is not None and t.key not in solved and holds(t.near.holds, params, result)],
        "shown": holds(lesson.prediction.shown, params, result),
    }
