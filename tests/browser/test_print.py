"""The printed worksheet, read back from the PDF Chromium makes of the page (print.css, lesson.css, classroom/present.js's
state line): the state on screen everywhere, no example text of an empty field, every table whole on the paper, the
question and its choices but nothing that answers them, and no page left nearly empty.

Printing costs 0,3–3 s a page on a busy 2-core machine (all 36 pages ≈ 50 s), so four pages are printed here, in the
reader's tab: gradientenabstieg (its limit answered its question on paper) and three with tables beside their figure.
What prints on every page is checked without a PDF, in print emulation, in tests/browser/test_pages.py."""

from __future__ import annotations

import re
from io import BytesIO
from urllib.parse import urlencode

import pytest
from probierlabor.kit import api
from probierlabor.pageblocks import workshop_block
from pypdf import PdfReader

pytestmark = pytest.mark.browser

# Pages in a state that is not their default, each with typed fields left empty and tables beside their figure:
# top-p at T = 2 is where the worksheet contradicted itself; gradientenabstieg crawling, where its key sentence
# named the limit the guess asks for.
PAGES = [
    ("gradientenabstieg", {"lr": "0.01"}),
    ("top-p-sampling", {"p": "0.8", "temperature": "2"}),
    ("prefill", {"chunk": "3", "v2": "5"}),
    ("flash-attention", {"block": "3", "s1": "0.5"}),
]
# A page of the sheet is used: text reaches at least half way down each page but the last, and a fifth of the
# way down the last one (its top margin is a tenth), so no page carries only the guess or only „Für das
# Gespräch“ and a class prints no sheet that is mostly empty.
FULL, LAST = 0.5, 0.2

# What the experiment shows of a parameter: a slider's output, else the field's own text.
SHOWN = """names => names.map((name) => {
  const field = document.querySelector(`[data-experiment]:not([data-url-prefix]) [data-param="${name}"]`);
  const output = field.closest('.pl-control').querySelector('output');
  return output ? output.textContent : field.value; })"""
TABLES = """() => [...document.querySelectorAll('[data-experiment]:not([data-url-prefix]) .pl-extra table')].map((t) => ({
  caption: t.caption ? t.caption.textContent : '',
  cells: [...t.querySelectorAll('th, td')].map((c) => c.textContent).filter((s) => s.trim()) }))"""
# what answers the guess and stands on the page, hidden or not: the texts that must not reach paper
ANSWERS = """() => [...document.querySelectorAll(`[data-experiment]:not([data-url-prefix]) [data-answers],
  .pl-predict .pl-explain, .pl-predict .pl-why-not, .pl-tasks .pl-explain, details.pl-discover > :not(summary)`)]
  .map((el) => el.textContent.trim()).filter(Boolean)"""


def squeeze(text: str) -> str:
    """Text without its white space: a line the PDF breaks elsewhere than the page still matches."""
    return re.sub(r"[\s\u00ad]+", "", text)


def number(text: str) -> float:
    return float(text.replace(",", "."))


def _product(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def read(pdf: bytes) -> list[tuple[str, float]]:
    """Each page's text, and how far down the page its lowest line stands (0 top, 1 bottom)."""
    pages = []
    for page in PdfReader(BytesIO(pdf)).pages:
        heights = []

        def seen(text, cm, tm, _font, _size, heights=heights):
            if text.strip():
                heights.append(_product(tm, cm)[5])
        text = page.extract_text(visitor_text=seen)
        pages.append((squeeze(text), 1 - min(heights, default=float(page.mediabox.height)) / float(page.mediabox.height)))
    return pages


@pytest.mark.parametrize("slug, raw", PAGES, ids=[slug for slug, _ in PAGES])
def test_the_printed_sheet_shows_the_state_on_screen_asks_without_answering_and_fills_its_pages(reader, check, slug, raw):
    v = reader(f"/{slug}/?{urlencode(raw)}")
    v.wait_state()
    expected = api.run(slug, raw)
    v.page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s", arg=expected["summary"])
    url = v.page.evaluate("location.href")
    params = {p.name: p for p in api.concept(slug).PARAMS}
    shown = dict(zip(raw, v.page.evaluate(SHOWN, list(raw))))
    placeholders = v.page.evaluate("() => [...document.querySelectorAll('[data-param][placeholder]')].map(e => e.placeholder)")
    tables = v.page.evaluate(TABLES)
    answers = v.page.evaluate(ANSWERS)
    # as a reader who has guessed sees it: „Was du entdeckst“ open, the answering numbers shown; paper still leaves them out
    v.page.evaluate("""() => { document.querySelectorAll('details.pl-discover').forEach((d) => { d.open = true; });
                               document.querySelectorAll('[data-experiment]').forEach((e) => e.toggleAttribute('data-guessed', true)); }""")
    pdf = v.page.pdf(format="A4", print_background=True)
    v.page.evaluate("() => document.querySelectorAll('[data-experiment]').forEach((e) => e.removeAttribute('data-guessed'))")
    pages = read(pdf)
    texts = [text for text, _ in pages]
    whole = "".join(texts)

    with check("the state line names this state"):
        assert squeeze(f"Stand: {url}") in texts[0]
    for name, value in raw.items():
        with check(f"the control {name} prints its value"):
            assert number(shown[name]) == pytest.approx(number(value))
            assert squeeze(f"{params[name].label}: {shown[name]}") in whole
    with check("an empty field prints no example"):
        assert [text for text in placeholders if squeeze(text) in whole] == []
    with check("every table whole on its page"):
        for table in tables:  # on the page of its caption (a caption's words may stand in the text as well)
            missing = min(([cell for cell in table["cells"] if squeeze(cell) not in text]
                           for text in texts if squeeze(table["caption"]) in text), key=len)
            assert missing == [], table["caption"]

    lesson = api.concept(slug).LESSON
    with check("the question and its choices, the tasks and the questions for the class"):
        for text in (lesson.prediction.question, *lesson.prediction.choices, *(t.text for t in lesson.tasks),
                     *lesson.discussion):
            assert squeeze(text) in whole, text
    with check("nothing that answers them: explanations, reasons, discoveries, the flagged numbers and sentences"):
        assert answers, "the page holds its answers"
        leaks = [text for text in (*answers, lesson.prediction.explain, *lesson.prediction.why_not,
                                   *(t.explain for t in lesson.tasks)) if text and squeeze(text) in whole]
        assert leaks == []
        if expected["answer"]:
            assert squeeze(expected["answer"]) not in whole
        for readout in expected["readouts"]:
            if readout["answers"]:
                assert squeeze(f'{readout["label"]}:{readout["value"]}') not in whole
    with check("the article and its code stay on screen: the worksheet ends with the lesson"):
        assert squeeze(workshop_block.TITLE) not in whole and squeeze("Siehe auch") not in whole
    with check("no page nearly empty"):
        reach = [round(depth, 2) for _, depth in pages]
        assert all(depth >= FULL for depth in reach[:-1]) and reach[-1] >= LAST, reach
    assert v.console_errors() == []
