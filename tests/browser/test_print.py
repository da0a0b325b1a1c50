"""The printed worksheet, read back from the PDF Chromium makes of the page (print.css, classroom/present.js's state
line, workshop/workshop.js's printed code; issue 28): the state on screen everywhere, no example text of an empty
field, every table whole on the paper, and the code last, on pages of its own that the print dialog's page
range can leave out."""

from __future__ import annotations

import re
from io import BytesIO
from urllib.parse import urlencode

import pytest
from pypdf import PdfReader

from probierlabor.pageblocks import workshop_block
from probierlabor.kit import api, workshop

pytestmark = pytest.mark.browser

# Three pages in a state that is not their default, each with typed fields left empty and tables beside
# their figure: top-p at T = 2 is where the worksheet contradicted itself.
PAGES = [
    ("top-p-sampling", {"p": "0.8", "temperature": "2"}),
    ("prefill", {"chunk": "3", "v2": "5"}),
    ("flash-attention", {"block": "3", "s1": "0.5"}),
]

# What the experiment shows of a parameter: a slider's output, else the field's own text.
SHOWN = """names => names.map((name) => {
  const field = document.querySelector(`[data-experiment]:not([data-url-prefix]) [data-param="${name}"]`);
  const output = field.closest('.pl-control').querySelector('output');
  return output ? output.textContent : field.value; })"""
TABLES = """() => [...document.querySelectorAll('[data-experiment]:not([data-url-prefix]) .pl-extra table')].map((t) => ({
  caption: t.caption ? t.caption.textContent : '',
  cells: [...t.querySelectorAll('th, td')].map((c) => c.textContent).filter((s) => s.trim()) }))"""


def squeeze(text: str) -> str:
    """Text without its white space: a line the PDF breaks elsewhere than the page still matches."""
    return re.sub(r"[\s\u00ad]+", "", text)


def number(text: str) -> float:
    return float(text.replace(",", "."))


@pytest.mark.parametrize("slug, raw", PAGES, ids=[slug for slug, _ in PAGES])
def test_the_printed_sheet_shows_the_state_on_screen_whole_with_the_code_last(reader, check, slug, raw):
    v = reader(f"/{slug}/?{urlencode(raw)}")
    v.wait_state()
    v.page.wait_for_function("s => document.querySelector('.pl-summary').textContent === s",
                             arg=api.run(slug, raw)["summary"])
    url = v.page.evaluate("location.href")
    params = {p.name: p for p in api.concept(slug).PARAMS}
    shown = dict(zip(raw, v.page.evaluate(SHOWN, list(raw))))
    placeholders = v.page.evaluate("() => [...document.querySelectorAll('[data-param][placeholder]')].map(e => e.placeholder)")
    tables = v.page.evaluate(TABLES)
    # folded, as a reader sees it before guessing (stored progress of an earlier visit would have opened it)
    v.page.evaluate("document.querySelectorAll('details.pl-discover').forEach((d) => { d.open = false; })")
    pdf = v.page.pdf(format="A4", print_background=True)
    pages = [squeeze(page.extract_text()) for page in PdfReader(BytesIO(pdf)).pages]
    whole = "".join(pages)

    with check("the state line names this state"):
        assert squeeze(f"Stand: {url}") in pages[0]
    for name, value in raw.items():
        with check(f"the control {name} prints its value"):
            assert number(shown[name]) == pytest.approx(number(value))
            assert squeeze(f"{params[name].label}: {shown[name]}") in whole
    with check("an empty field prints no example"):
        assert placeholders and [text for text in placeholders if squeeze(text) in whole] == []
    with check("every table whole on its page"):
        assert tables
        for table in tables:  # on the page of its caption (a caption's words may stand in the text as well)
            missing = min(([cell for cell in table["cells"] if squeeze(cell) not in text]
                           for text in pages if squeeze(table["caption"]) in text), key=len)
            assert missing == [], table["caption"]

    # the code with this state's values, alone on the last pages: its heading opens a page
    code = workshop.fill(slug, raw)
    with check("the code is the state's, on pages of its own at the end"):
        start = next(i for i, text in enumerate(pages) if squeeze(code.splitlines()[0]) in text)
        assert "".join(pages[start:]) == squeeze(workshop_block.TITLE + code)
        assert start > 0 and squeeze(workshop.fill(slug)) != squeeze(code)  # the default would print else
    with check("the section with editor and buttons does not print"):
        assert squeeze(workshop_block.INTRO) not in whole
    with check("„Was du entdeckst“, folded on screen, prints open"):
        # its own first paragraph or list (a box of its own inside, like „Genauer: …“, prints as on screen)
        # (its first words: a formula further on reads otherwise in the PDF's text)
        folded = v.page.evaluate("""() => document.querySelector('details.pl-discover > :is(p, ul)').textContent
                                        .trim().split(/\\s+/).slice(0, 6).join(' ')""")
        assert squeeze(folded) in whole
    assert v.console_errors() == []
