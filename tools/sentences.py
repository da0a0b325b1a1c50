"""Median sentence length per page, read from the built site (≤ 20 words for school students).

    python tools/sentences.py [SITE] [--longest SLUG [N]]

Only the page's own prose counts: paragraphs and list items of the main article. Left out are headings,
code, formulas (a formula counts as one word), figures, tables, the experiment and replay blocks, the
sources (bibliographic lines, not sentences) and collapsed „Genauer“ boxes (optional depth, closed
by default). ``blocks`` is shared with tests/pageblocks/test_glossary.py, which reads the same pages with the
experiments included.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from html.parser import HTMLParser
from pathlib import Path

from probierlabor import SLUGS

ROOT = Path(__file__).resolve().parent.parent

TARGET = 20
LONG = 25  # a sentence over this many words is worth a second look
_BLOCKS = {"p", "li", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "summary", "figcaption",
           "label", "button", "option", "th", "td", "caption", "div", "section", "details", "pre", "output"}
_VOID = {"br", "hr", "img", "input", "meta", "link", "source", "col", "wbr", "area", "base", "embed", "track"}
# Skipped for prose; with experiments=True only the first group is skipped.
_NEVER = ("script", "style", "template", "svg", "math", "annotation", "noscript")
_NOT_PROSE = ("pre", "code", "textarea", "figure", "table", "h1", "h2", "h3", "h4", "h5", "h6", "details",
              "pl-experiment", "pl-replay", "headerlink", "katex-display", "md-source-file")


class _Reader(HTMLParser):
    def __init__(self, experiments: bool):
        super().__init__(convert_charrefs=True)
        self.skip = _NEVER if experiments else _NEVER + _NOT_PROSE
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.depth_article = 0
        self.blocks: list[str] = []
        self.current: list[str] = []
        self.section = ""
        self.heading: list[str] | None = None  # the text of the h2 being read, to know the section

    def _flush(self):
        text = re.sub(r"\s+", " ", "".join(self.current)).strip()
        if text and self.section != "Quellen":
            self.blocks.append(text)
        self.current = []

    def _skipped(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            if tag == "br":
                self.current.append(" ")
            return
        classes = (dict(attrs).get("class") or "").split()
        if tag == "article":
            self.depth_article += 1
        if tag in _BLOCKS:
            self._flush()
        formula = "katex" in classes and not self._skipped()
        skipped = tag in self.skip or any(c in self.skip for c in classes) or formula
        if formula and "katex-display" not in classes:
            self.current.append(" Formel ")  # an inline formula reads as one word
        self.stack.append((tag, skipped))
        if tag == "h2":
            self.heading = []

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break
        if tag == "h2" and self.heading is not None:
            self.section = "".join(self.heading).replace("¶", "").strip()
            self.heading = None
        if tag in _BLOCKS:
            self._flush()
        if tag == "article":
            self.depth_article -= 1

    def handle_data(self, data):
        if self.heading is not None:
            self.heading.append(data)
        if self.depth_article and not self._skipped():
            self.current.append(data)


def blocks(html: str, experiments: bool = False) -> list[str]:
    """The text blocks of the page's article: prose only, or with the experiments' labels and readouts."""
    reader = _Reader(experiments)
    reader.feed(html)
    reader._flush()
    return reader.blocks


# Abbreviations whose dot does not end a sentence.
_ABBREVIATIONS = ("z. B.", "d. h.", "u. a.", "et al.", "bzw.", "ca.", "vgl.", "Nr.", "Abb.", "usw.", "evtl.", "S.")


def sentences(block: str) -> list[str]:
    text = block
    for abbreviation in _ABBREVIATIONS:
        text = text.replace(abbreviation, abbreviation.replace(".", "\0"))
    parts = re.split(r"(?<=[.!?])\s+(?=[„\"(\[A-ZÄÖÜ0-9])", text)
    return [p.replace("\0", ".").strip() for p in parts if re.search(r"\w", p)]


def words(sentence: str) -> int:
    return len([w for w in sentence.split() if re.search(r"\w", w)])


def page_sentences(site: Path, slug: str) -> list[str]:
    html = (site / slug / "index.html").read_text(encoding="utf-8")
    return [s for b in blocks(html) for s in sentences(b)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--longest", nargs="+", metavar=("SLUG", "N"),
                        help="die längsten Sätze einer Seite zeigen")
    args = parser.parse_args(argv)
    site = Path(args.site)
    if args.longest:
        slug, count = args.longest[0], int(args.longest[1]) if len(args.longest) > 1 else 10
        for s in sorted(page_sentences(site, slug), key=words, reverse=True)[:count]:
            print(f"{words(s):3d}  {s}")
        return 0
    over = 0
    print(f"{'Seite':24s} Sätze  Median  Mittel  über {LONG}  längster")
    for slug in SLUGS:
        lengths = [words(s) for s in page_sentences(site, slug)]
        median = statistics.median(lengths)
        over += median > TARGET
        long = sum(n > LONG for n in lengths)
        print(f"{slug:24s} {len(lengths):5d}  {median:6.1f}  {statistics.mean(lengths):6.1f}  {long:7d}  "
              f"{max(lengths):8d}{'  > ' + str(TARGET) if median > TARGET else ''}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
