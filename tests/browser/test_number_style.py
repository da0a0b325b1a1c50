"""One number style on every page: what kit/fmt.py and static/js/fmt.js write (1536, 123 456, −3,5, 0,5),
never a second one beside it (1.536, 123.456, -3,5, 0.5) – in the built HTML, in the live page once its
experiment has run, and in every replay panel while it steps through its recording.

Code, formulas (KaTeX) and scripts are left out: there a point or a hyphen is the notation, not a number
style. Versions (0.27.7) and dates (01.12.2026) have a second point and do not count either."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import ClassVar
from urllib.parse import urlsplit

import pytest
from conftest import ARRIVED, FOLLOW
from probierlabor import SLUGS
from replay_helpers import ROOT, SITE, go

pytestmark = pytest.mark.browser

PAGES = ["/"] + [f"/{slug}/" for slug in SLUGS]

# Replays and fmt.js need no Python; without it starting beside them a busy machine answers in time.
NO_PYTHON = lambda route: route.abort()  # noqa: E731

# A number is delimited by anything but digits, letters, points and commas: "0.27.7" and "01.12.2026"
# never match as a whole, "GPT-4" has a letter before its hyphen.
EDGE_BEFORE, EDGE_AFTER = r"(?<![\w.,])", r"(?![\w.,])"
SECOND_STYLE = {
    "Punkt als Tausendertrenner": re.compile(EDGE_BEFORE + r"\d{1,3}(?:\.\d{3})+" + EDGE_AFTER),
    "Dezimalpunkt": re.compile(EDGE_BEFORE + r"\d+\.\d+" + EDGE_AFTER),
    "Bindestrich als Minus": re.compile(r"(?<![\w.,\-–−/])-\d"),
}

# Section, figure and arXiv numbers keep the source's points (§2.1–2.2, Abb. 5.3, arXiv:2104.09864).
REFERENCE = re.compile(r"(?:§|Abb\.\s*|Tab\.\s*|arXiv:)\d+(?:\.\d+)*(?:\s*[–-]\s*\d+(?:\.\d+)*)?")

# Where a point or a hyphen is notation rather than a number: code, formulas, scripts.
SKIP_TAGS = {"script", "style", "code", "pre", "kbd", "samp", "noscript", "template"}
SKIP_CLASS = "katex"
SKIP_SELECTOR = ", ".join(sorted(SKIP_TAGS)) + f", .{SKIP_CLASS}"

# Every text node the reader can meet (SVG <title>s included), outside SKIP_SELECTOR, joined by newlines.
VISIBLE_TEXT_JS = """([root, skip]) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const out = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.parentElement && !n.parentElement.closest(skip)) out.push(n.data);
    }
    return out.join("\\n");
}"""


def second_style(text: str) -> list[str]:
    """Each number written in the other style, with a little context and the rule it breaks."""
    found = []
    text = REFERENCE.sub(" ", text)
    for rule, pattern in SECOND_STYLE.items():
        for m in pattern.finditer(text):
            context = text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ")
            found.append(f"{rule}: „{m.group(0)}“ in „…{context}…“")
    return found


class _Text(HTMLParser):
    """The text of built HTML outside SKIP_TAGS and KaTeX, the way VISIBLE_TEXT_JS reads the live page."""

    VOID: ClassVar = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is its text skipped?
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        skipped = (self.stack and self.stack[-1]) or tag in SKIP_TAGS or SKIP_CLASS in classes
        self.stack.append(bool(skipped))

    def handle_startendtag(self, tag, attrs):
        pass  # <path/>, <rect/>: no text

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


def static_text(path: str) -> str:
    parser = _Text()
    parser.feed((SITE / path.strip("/") / "index.html").read_text(encoding="utf-8"))
    return "\n".join(parser.parts)


def live_text(v, selector: str = "body") -> str:
    return v.page.locator(selector).first.evaluate(
        "(root, skip) => (" + VISIBLE_TEXT_JS + ")([root, skip])", SKIP_SELECTOR)


def test_chromium_answers_the_golden_table_like_node(visit):
    """Node checks static/js/fmt.js (tests/js/); the pages run it on Chromium's own Intl."""
    golden = json.loads((ROOT / "tests/golden/numbers.json").read_text(encoding="utf-8"))
    cases = [c for c in golden["cases"] if c["fn"] in golden["browser"]]
    v = visit("/", routes=[("**/static/vendor/pyodide/**", NO_PYTHON)])
    got = v.page.evaluate("cases => cases.map(c => window.probierlabor.fmt[c.fn](...c.args))", cases)
    assert got == [c["expected"] for c in cases]


def test_the_rules_catch_the_second_style_and_leave_versions_and_dates():
    assert second_style("Cache 1.536 Byte") and second_style("123.456 Tokens") and second_style("0.5 ms")
    assert second_style("Minimum -3,5") and second_style("(-1)")
    for fine in ["1536", "123\u202f456", "\u22123,5", "0,5", "Pyodide 0.27.7", "am 01.12.2026", "GPT-4",
                 "Token 1-2", "Top-5", "sw.js", "Schritt 3.", "(§2.1–2.2)", "§5.2.2", "Abb. 5.3", "arXiv:2104.09864"]:
        assert not second_style(fine), fine


@pytest.mark.parametrize("path", PAGES)
def test_built_pages_write_numbers_one_way(path):
    assert second_style(static_text(path)) == []


def _navigate(v, path: str) -> None:
    """Through the site's own instant navigation, so that one Python runtime serves every page."""
    v.page.evaluate("""path => { const a = document.createElement("a"); a.href = path;
                                 document.body.append(a); a.click(); }""", path)
    v.page.wait_for_function("path => location.pathname.endsWith(path)", arg=path)


def test_live_pages_write_numbers_one_way(reader):
    v = reader("/")
    found = {}
    for path in PAGES:
        _navigate(v, path)
        slug = path.strip("/")
        if slug:
            v.wait_state(("ready",), selector=f'[data-experiment="{slug}"]')
        found[path] = second_style(live_text(v))
    assert {p: f for p, f in found.items() if f} == {}
    assert not v.console_errors()


def _replay_pages() -> list[tuple[str, str]]:
    """(slug, trace name) of every replay panel the built site has."""
    out = []
    for slug in SLUGS:
        html = (SITE / slug / "index.html").read_text(encoding="utf-8")
        out += [(slug, name) for name in dict.fromkeys(re.findall(r'data-replay="([^"]+)"', html))]
    return out


STEPS_PER_PANEL = 16  # spread over the recording: a few hundred repaints would add nothing but time


def test_replay_panels_write_numbers_one_way_at_every_stage(visit, check):
    """Every replay panel of the site, in one tab that moves from page to page."""
    v = visit("/", routes=[("**/static/vendor/pyodide/**", NO_PYTHON)])
    for slug, name in _replay_pages():
        if urlsplit(v.page.url).path != f"/{slug}/":
            v.page.evaluate(FOLLOW, f"{v.origin}/{slug}/")
            v.page.wait_for_function(ARRIVED, arg=f"/{slug}/", timeout=30_000)
        selector = f'section.pl-replay[data-replay="{name}"]'
        v.page.wait_for_selector(f'{selector}[data-state="ready"]', timeout=30_000)
        panel = v.page.locator(selector).first
        length = panel.evaluate("el => window.probierlabor.player(el).length")
        found = {}
        for index in sorted({1 + (length - 1) * k // STEPS_PER_PANEL for k in range(STEPS_PER_PANEL + 1)}):
            go(panel, index)
            found[index] = second_style(live_text(v, selector))
        with check(f"{slug}, {name}"):
            assert {i: f for i, f in found.items() if f} == {}
