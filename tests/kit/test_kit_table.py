"""kit/table.py: the one table helper, checked on its parsed structure (not on the markup's text)."""

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st
from probierlabor.kit.table import Cell, table


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def the_table(markup: str) -> ET.Element:
    root = parse(markup)
    return root if root.tag == "table" else root.find("table")


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def texts(row: ET.Element) -> list[str]:
    return ["".join(cell.itertext()) for cell in row]


def test_head_body_and_caption_in_their_places():
    t = the_table(table(["a", "b"], [["1", "2"], ["3", "4"]], caption="Titel"))
    assert "pl-table" in classes(t)
    assert t.find("caption").text == "Titel"
    head = t.findall("thead/tr")
    assert len(head) == 1 and texts(head[0]) == ["a", "b"]
    assert all(th.tag == "th" and th.get("scope") == "col" for th in head[0])
    body = t.findall("tbody/tr")
    assert [texts(r) for r in body] == [["1", "2"], ["3", "4"]]
    assert all(cell.tag == "td" for r in body for cell in r)


def test_scroll_wrapper_is_optional():
    wrapped = parse(table(["a"], [["1"]]))
    assert wrapped.tag == "div" and "pl-table-scroll" in classes(wrapped) and wrapped.find("table") is not None
    assert parse(table(["a"], [["1"]], scroll=False)).tag == "table"


def test_several_header_rows_and_none():
    t = the_table(table([["x", Cell("y", colspan=2)], ["", "y1", "y2"]], [["1", "2", "3"]]))
    rows = t.findall("thead/tr")
    assert [texts(r) for r in rows] == [["x", "y"], ["", "y1", "y2"]]
    assert rows[0][1].get("colspan") == "2"
    assert the_table(table(None, [["1"]])).find("thead") is None


def test_row_heads_are_headers_of_their_row():
    t = the_table(table(["", "v"], [["Zeile", "1"]], row_heads=True))
    first, second = t.find("tbody/tr")
    assert first.tag == "th" and first.get("scope") == "row" and second.tag == "td"


def test_a_string_row_is_a_section_across_the_full_width():
    t = the_table(table(["a", "b", "c"], ["Schritt 1", ["1", "2", "3"]]))
    section = t.find("tbody/tr")
    assert "pl-table-section" in classes(section)
    (cell,) = section
    assert cell.tag == "th" and cell.get("scope") == "rowgroup" and cell.get("colspan") == "3"
    assert cell.text == "Schritt 1"


def test_highlight_and_row_classes_mark_the_right_rows():
    rows = [["1"], ["2"], ["3"]]
    body = the_table(table(["a"], rows, highlight=1, row_classes=["x", "", "y"])).findall("tbody/tr")
    assert [classes(r) for r in body] == [{"x"}, {"pl-table-em"}, {"y"}]
    body = the_table(table(["a"], rows, highlight=[0, 2])).findall("tbody/tr")
    assert ["pl-table-em" in classes(r) for r in body] == [True, False, True]


def test_layout_options_are_classes():
    assert {"pl-table-num", "pl-table-wide", "pl-own"} <= classes(
        the_table(table(["a"], [["1"]], numeric=True, wide=True, cls="pl-own")))
    assert classes(the_table(table(["a"], [["1"]]))) == {"pl-table"}


def test_cells_carry_class_span_header_and_markup():
    t = the_table(table(["a", "b"], [[Cell("m", header=True), Cell("x<br/>y", "pl-c", html=True)],
                                     [Cell("weit", colspan=2)], [7, "8"]]))
    first, second, third = t.findall("tbody/tr")
    assert first[0].tag == "th" and first[0].get("scope") == "row"
    assert first[1].get("class") == "pl-c" and first[1].find("br") is not None
    assert second[0].get("colspan") == "2"
    assert texts(third) == ["7", "8"]


@given(st.lists(st.lists(st.text(), min_size=2, max_size=2), max_size=4), st.text(), st.text())
def test_any_text_is_escaped_and_comes_back_unchanged(rows, caption, head):
    def clean(s):
        return "".join(ch for ch in s if ch.isprintable())  # XML forbids control characters
    rows = [[clean(c) for c in r] for r in rows]
    t = the_table(table([clean(head), "b"], rows, caption=clean(caption)))
    assert [texts(r) for r in t.findall("tbody/tr")] == rows
    assert "".join(t.find("thead/tr")[0].itertext()) == clean(head)
    if clean(caption):
        assert t.find("caption").text == clean(caption)
