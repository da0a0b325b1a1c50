"""Every lesson's checks against the experiment: the example solves, the untouched page does not.

The checks are the page's own (``api.run`` returns their result), so a task that the default state
already solves, or that its own example cannot reach, fails here before a student meets it."""

import re

import pytest
from probierlabor import SLUGS
from probierlabor.__main__ import main
from probierlabor.kit import api, lesson

WITH_LESSON = [slug for slug in SLUGS if getattr(api.concept(slug), "LESSON", None) is not None]


def _status(slug, values):
    out = api.run(slug, values)
    assert not out["notes"], (slug, values, out["notes"])  # the example must be a valid state as it stands
    return out["lesson"]


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_the_untouched_page_solves_nothing_and_answers_nothing(slug):
    assert _status(slug, {}) == {"solved": [], "near": [], "shown": False}


def test_which_preset_solves_which_task_for_the_record():
    """The page counts no task a preset (its button, „Von vorn“, a number in the prose) shows: only the
    reader's own change does (static/js/classroom/lesson.js). Which preset's state would solve which task
    is printed for the record (``pytest -rP -k for_the_record``); the default state must solve none."""
    rows = []
    for slug in WITH_LESSON:
        for preset in api.concept(slug).PRESETS:
            values = api.preset_values(slug, preset.label)
            solved = _status(slug, values)["solved"]
            if not api.url_state(slug, values):
                assert solved == [], f"{slug}: die Standardeinstellung „{preset.label}“ löst {solved}"
            elif solved:
                rows.append(f"{slug}: „{preset.label}“ → {', '.join(solved)}")
    print(f"{len(rows)} Voreinstellungen zeigen einen Zustand, der eine Aufgabe löst (sie zählen nicht):", *rows, sep="\n")


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_each_example_solves_its_task(slug):
    for task in api.concept(slug).LESSON.tasks:
        assert task.key in _status(slug, dict(task.example))["solved"], (slug, task.key)


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_each_near_example_is_close_and_not_yet_solved(slug):
    for task in api.concept(slug).LESSON.tasks:
        if task.near is not None:
            status = _status(slug, dict(task.near.example))
            assert task.key in status["near"] and task.key not in status["solved"], (slug, task.key)
            # and solving it leaves „fast“ behind
            assert task.key not in _status(slug, dict(task.example))["near"], (slug, task.key)


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_feedback_teaches_every_wrong_choice_and_every_task_has_a_hint(slug):
    """A wrong guess gets its own reason, and a stuck reader a hint before the solution."""
    item = api.concept(slug).LESSON
    assert item.prediction.why_not, f"{slug}: why_not fehlt"
    assert all(task.hints for task in item.tasks), [t.key for t in item.tasks if not t.hints]


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_the_prediction_is_answered_by_its_example(slug):
    guess = api.concept(slug).LESSON.prediction
    assert _status(slug, dict(guess.example))["shown"], slug


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_checking_the_guess_solves_no_task(slug):
    # A reader who tries the prediction's own example has not yet tried a task, so the example solves none.
    guess = api.concept(slug).LESSON.prediction
    assert _status(slug, dict(guess.example))["solved"] == [], slug


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_lesson_text_is_german_du_form_and_complete(slug):
    item = api.concept(slug).LESSON
    assert item.prediction.question.endswith("?")
    near = [t.near.text for t in item.tasks if t.near]
    hints = [hint for t in item.tasks for hint in t.hints]
    why_not = [text for text in item.prediction.why_not if text]
    for text in [t.text for t in item.tasks] + [t.explain for t in item.tasks] + list(item.teacher) + near + hints + why_not:
        assert text.rstrip()[-1] in ".!?", text
    for text in item.discussion:
        assert text.endswith("?"), text
    everything = " ".join([item.prediction.question, item.prediction.explain, *item.prediction.choices,
                           *(t.text for t in item.tasks), *(t.explain for t in item.tasks),
                           *item.discussion, *item.teacher, *item.misconceptions, *near, *hints, *why_not])
    assert not re.search(r"\b(Sie|Ihnen|Ihre[nmrs]?)\b(?! [a-zäöü])", everything), "du-Form"
    assert not re.search(r"\d\.\d", everything.replace("0.9999", "")), "Dezimalkomma"


def test_a_check_that_raises_counts_as_unsolved():
    def broken(params, result):
        raise KeyError("x")
    assert lesson.holds(broken, {}, {}) is False


def test_cli_lists_and_checks_tasks(capsys):
    slug = WITH_LESSON[0]
    task = api.concept(slug).LESSON.tasks[0]
    assert main(["tasks", slug]) == 0
    assert "☐ " + task.text in capsys.readouterr().out
    assert main(["tasks", slug, *(f"{k}={v}" for k, v in api.url_state(slug, api.check(slug, task.example)[0]).items())]) == 0
    out = capsys.readouterr().out
    assert "✓ " + task.text in out and task.explain in out


def test_every_concept_page_is_a_lesson():
    assert list(SLUGS) == WITH_LESSON
