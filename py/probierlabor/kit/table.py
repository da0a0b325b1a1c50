"""One HTML table for the experiments: caption, header row(s), body rows, section rows.

Every table carries the class ``pl-table`` and takes its look from static/css/probierlabor.css
(block „tables“); a concept adds its own class only where its figure needs more than that.
Text is escaped here, so a concept passes plain strings; markup (a ``<br/>``, ``<code>``) goes
through ``Cell(..., html=True)``. Markup stays well-formed XML: the tests parse it with ElementTree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Cell:
    """A cell with more than text: a class, markup instead of text, a column span, or a header cell."""
    content: str
    cls: str = ""
    html: bool = False
    colspan: int = 1
    header: bool = False


Content = str | int | Cell


def table(head: Sequence[Content] | Sequence[Sequence[Content]] | None, rows: Iterable,
          *, caption: str = "", row_heads: bool = False, highlight: int | Iterable[int] | None = None,
          row_classes: Sequence[str] | None = None, numeric: bool = False, wide: bool = False,
          scroll: bool = True, cls: str = "") -> str:
    """A table of strings, ints (written as digits) and ``Cell``s.

    ``head`` is one header row, several (a list of rows) or None; a row given as a string is a
    section heading across the table. ``row_heads`` makes each row's first cell its header (what a
    screen reader announces with every value of the row). ``highlight`` (row indices, counting
    section rows too) marks the row the reader's setting picked; ``row_classes`` adds a class per
    row. ``numeric`` aligns every column but the first to the right, ``wide`` spans the full width,
    ``scroll`` lets a wide table scroll sideways instead of widening the page.
    """
    rows = list(rows)
    head_rows = _head_rows(head)
    width = max([_width(r) for r in head_rows] + [_width(r) for r in rows if not isinstance(r, str)] + [1])
    marked = {highlight} if isinstance(highlight, int) else set(highlight or ())
    body = []
    for i, row in enumerate(rows):
        classes = [row_classes[i]] if row_classes and row_classes[i] else []
        if i in marked:
            classes.append("pl-table-em")
        if isinstance(row, str):
            classes.insert(0, "pl-table-section")
            cells = f'<th colspan="{width}" scope="rowgroup">{escape(row)}</th>'
        else:
            cells = "".join(_cell(c, "row" if row_heads and j == 0 else None) for j, c in enumerate(row))
        attr = f' class="{" ".join(classes)}"' if classes else ""
        body.append(f"<tr{attr}>{cells}</tr>")
    thead = ("<thead>" + "".join("<tr>" + "".join(_cell(c, "col") for c in r) + "</tr>" for r in head_rows)
             + "</thead>") if head_rows else ""
    cap = f"<caption>{escape(caption)}</caption>" if caption else ""
    names = " ".join(["pl-table"] + (["pl-table-num"] if numeric else []) + (["pl-table-wide"] if wide else [])
                     + ([cls] if cls else []))
    markup = f'<table class="{names}">{cap}{thead}<tbody>{"".join(body)}</tbody></table>'
    return f'<div class="pl-table-scroll">{markup}</div>' if scroll else markup


def _head_rows(head) -> list:
    if not head:
        return []
    if all(isinstance(h, (list, tuple)) for h in head):
        return [list(r) for r in head]
    return [list(head)]


def _width(row) -> int:
    return sum(c.colspan if isinstance(c, Cell) else 1 for c in row)


def _cell(c: Content, scope: str | None) -> str:
    """``scope`` is "col" in the header, "row" for a row's own header cell, else None (a data cell,
    unless the cell says it is a header)."""
    if not isinstance(c, Cell):
        c = Cell(str(c))
    scope = scope or ("row" if c.header else None)
    tag = "th" if scope else "td"
    attrs = f' scope="{scope}"' if scope else ""
    if c.cls:
        attrs += f' class="{escape(c.cls)}"'
    if c.colspan > 1:
        attrs += f' colspan="{c.colspan}"'
    return f"<{tag}{attrs}>{c.content if c.html else escape(c.content)}</{tag}>"
