"""A page's Markdown as plain German paragraphs, one a line: what a reader reads, nothing the build fills in.

Dropped whole: front matter, code blocks, display math, tables, HTML comments, lines that are only a macro.
Unwrapped: headings, list items, admonition titles (``??? note "…"``), link texts (the target goes), emphasis,
HTML elements (the tags go, their text stays). A sentence that held an inline macro (``{{ value(…) }}``: a
number the build computes), inline math or inline code is dropped whole: without the missing piece it would
teach the model broken German („Die Gewichte sind und, also ist“).
"""

from __future__ import annotations

import html
import re
import unicodedata

# Stands for a removed inline piece until its sentence is dropped; never occurs in a page.
GAP = "\x00"

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.S | re.M)
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# No page spreads a macro over lines; a pattern that could would swallow the text between two macros.
_MACRO_LINE = re.compile(r"^[ \t]*(\{\{.*?\}\}|\{%.*?%\})[ \t]*$", re.M)
_MACRO = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")
_INLINE_MATH = re.compile(r"\\\(.*?\\\)|(?<![\\$])\$(?!\s)[^$\n]+?(?<!\s)\$", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_ATTR_LIST = re.compile(r"\{:?\s*[.#][^}]*\}")
_STRONG = re.compile(r"\*\*|__")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")

_ADMONITION = re.compile(r"^(?:!!!|\?\?\?\+?)\s*\w+(?:\s+\"([^\"]*)\")?\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*$")
_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
# A sentence ends at . ! ? or … followed by a space and something that can start a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[„\"'(\[A-ZÄÖÜ0-9])")


def markdown_paragraphs(markdown: str) -> list[str]:
    """The page's running text: one paragraph (or heading) a string, in page order."""
    text = _FRONT_MATTER.sub("", markdown.replace("\r\n", "\n"))
    text = _FENCE.sub("", text)
    text = _COMMENT.sub("", text)
    text = _MACRO_LINE.sub("", text)
    text = _DISPLAY_MATH.sub(GAP, text)
    text = _MACRO.sub(GAP, text)
    text = _INLINE_MATH.sub(GAP, text)
    text = _INLINE_CODE.sub(GAP, text)
    text = _TAG.sub(" ", text)
    paragraphs: list[str] = []
    current: list[str] = []

    def close():
        if current:
            paragraphs.append(" ".join(current))
            current.clear()

    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith(">"):
            line = line.lstrip("> ").strip()
        if not line or line.startswith("|"):
            close()
            continue
        if (match := _ADMONITION.match(line)) or (match := _HEADING.match(line)):
            close()
            current.append(match.group(1) or "")
            close()
            continue
        if _ITEM.match(line):
            close()
            line = _ITEM.sub("", line)
        current.append(line)
    close()
    return [p for p in (plain(p) for p in paragraphs) if p]


def plain(paragraph: str) -> str:
    """Inline Markdown to plain text; sentences with a gap are dropped."""
    text = _IMAGE.sub("", paragraph)
    text = _LINK.sub(r"\1", text)
    text = _ATTR_LIST.sub("", text)
    text = _STRONG.sub("", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = unicodedata.normalize("NFC", html.unescape(text))
    text = " ".join(text.split())
    if GAP in text:
        text = " ".join(s for s in _SENTENCE_END.split(text) if GAP not in s)
    return text.strip()
