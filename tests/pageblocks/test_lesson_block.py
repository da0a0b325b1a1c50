"""The lesson's markup (pageblocks/lesson_block.py): every part of the lesson is in the static page, its
text escaped, no answer visible without the script, and a page without a lesson gets nothing."""

from html.parser import HTMLParser

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api
from probierlabor.kit.lesson import Lesson, Near, Prediction, Task
from probierlabor.pageblocks import lesson_block

WITH_LESSON = [slug for slug in SLUGS if lesson_block.lesson_of(slug) is not None]

never = lambda params, result: False  # noqa: E731

TRICKY = Lesson(
    prediction=Prediction(question="Ist 1 < 2 & 3 > 2?", choices=("ja <b>", 'nein "x"'), answer=0,
                          shown=never, explain="Weil <script>alert(1)</script> nichts ändert.", example={},
                          why_not=("", "Nein <s>, weil.")),
    tasks=(Task("a", "Tu <i>das</i>.", never, "Darum & deshalb.", {},
                hints=("Erst <kbd>.", "Dann & so."), near=Near(never, "Fast <q>.", {})),
           Task("b", "Und 'das'.", never, "Ebenso.", {})),
    discussion=("Warum <u>?", "Wieso?"),
    teacher=("Idee <em>.",),
    misconceptions=("Irrtum & Wahrheit.",),
)


class Parts(HTMLParser):
    """Collects the start tags with their attributes and the text, to check structure, not strings."""

    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(markup):
    parser = Parts()
    parser.feed(markup)
    return parser


@pytest.fixture
def tricky(monkeypatch):
    monkeypatch.setattr(lesson_block, "lesson_of", lambda slug: TRICKY)
    return parse(lesson_block.before("x") + lesson_block.after("x"))


def test_every_part_is_rendered_with_its_text_escaped(tricky):
    text = "".join(tricky.text)
    for part in ["Erst vermuten", "Ist 1 < 2 & 3 > 2?", "ja <b>", 'nein "x"', "Weil <script>alert(1)</script> nichts ändert.",
                 "Aufgaben", "Tu <i>das</i>.", "Darum & deshalb.", "Für das Gespräch", "Warum <u>?",
                 "Für Lehrkräfte", "Idee <em>.", "Irrtum & Wahrheit.", "Festlegen", "Fortschritt zurücksetzen",
                 "Lösung zeigen", "Nein <s>, weil.", "Erst <kbd>.", "Dann & so.", "Fast <q>.", "Tipp", "Noch ein Tipp"]:
        assert part in text, part
    tags = [t for t, _ in tricky.tags]
    for smuggled in ("b", "i", "u", "em", "script", "s", "kbd", "q"):  # the text's angle brackets stayed text
        assert smuggled not in tags, smuggled
    radios = [a for t, a in tricky.tags if t == "input" and a.get("type") == "radio"]
    assert [r["value"] for r in radios] == ["0", "1"]
    assert [a["data-task"] for t, a in tricky.tags if a.get("class") == "pl-task"] == ["a", "b"]
    assert ("details", {"class": "pl-teacher"}) in tricky.tags  # collapsed: no "open"
    # the right choice has no „why not“; the wrong one names its choice for the script
    assert [a["data-choice"] for t, a in tricky.tags if a.get("class") == "pl-why-not"] == ["1"]


def test_hints_open_one_at_a_time_inside_each_other():
    """A second hint is offered only inside the first, so a reader opens them in order (no script)."""
    markup = lesson_block._hints(TRICKY.tasks[0])
    first, second = markup.index("Erst &lt;kbd&gt;."), markup.index("Dann &amp; so.")
    assert markup.count("<details") == 2 and first < markup.index("<details", 1) < second
    assert markup.endswith("</details></details>") and "open" not in markup
    assert lesson_block._hints(TRICKY.tasks[1]) == ""


def test_answers_and_buttons_wait_for_the_script(tricky):
    """Printed without JavaScript the sheet shows no answer, and no button that could do nothing."""
    hidden = {a.get("class"): "hidden" in a for t, a in tricky.tags if t in ("div", "p", "button", "span")}
    assert hidden["pl-verdict"] and hidden["pl-explain"] and hidden["pl-task-done"]
    assert hidden["pl-why-not"] and hidden["pl-task-near"]
    assert hidden["pl-task-nav"] and hidden["pl-lesson-note"]  # presentation mode's and the script's
    assert all("hidden" in a for t, a in tricky.tags if t == "button" and "data-lesson-step" not in a)
    assert not any("style" in a for _, a in tricky.tags)  # a Content-Security-Policy forbids inline styles
    assert "script" not in [t for t, _ in tricky.tags]


@pytest.mark.parametrize("slug", WITH_LESSON)
def test_a_lesson_page_names_its_slug_and_its_answer(slug):
    lesson = api.concept(slug).LESSON
    tags = parse(lesson_block.before(slug) + lesson_block.after(slug)).tags
    predict = next(a for t, a in tags if t == "section" and "pl-predict" in a["class"])
    assert predict["data-lesson"] == slug and int(predict["data-answer"]) == lesson.prediction.answer
    assert [a["data-task"] for _, a in tags if a.get("class") == "pl-task"] == [t.key for t in lesson.tasks]
    ids = [a["id"] for _, a in tags if "id" in a]
    assert len(ids) == len(set(ids))


def test_a_page_without_a_lesson_gets_nothing(monkeypatch):
    monkeypatch.setattr(api.concept(SLUGS[0]), "LESSON", None, raising=False)
    assert lesson_block.before(SLUGS[0]) == lesson_block.after(SLUGS[0]) == ""
