"""kit/svg.py: the blocks of hand-drawn figures, checked on their parsed structure."""

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st
from probierlabor.kit import svg
from probierlabor.kit.decoding_tree import Tree

NS = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def wrap(markup: str) -> ET.Element:
    """Loose elements (a legend key is several) inside one root, in the SVG namespace."""
    return parse(f'<g xmlns="http://www.w3.org/2000/svg">{markup}</g>')


def test_figure_is_an_accessible_svg_root_with_a_pixel_viewbox():
    root = parse(svg.figure(400, 250.0, ["<circle/>", "<line/>"], label="Zwei Dinge", cls="pl-own"))
    assert root.tag == NS + "svg"
    assert root.get("viewBox").split() == ["0", "0", "400", "250"]
    assert root.get("role") == "img" and root.get("aria-label") == "Zwei Dinge"
    assert root.get("class").split() == ["pl-plot", "pl-own"]
    assert [child.tag for child in root] == [NS + "circle", NS + "line"]


def test_figure_takes_a_string_body_a_role_and_more_attributes():
    root = parse(svg.figure(10, 10, "<g/>", label="x", role="group", attrs={"data-box": "1 2 3 4"}))
    assert root.get("class") == "pl-plot" and root.get("role") == "group" and root.get("data-box") == "1 2 3 4"
    assert len(root) == 1


@given(st.text().map(lambda s: "".join(ch for ch in s if ch.isprintable())))
def test_any_label_is_escaped_and_read_back_unchanged(label):
    assert parse(svg.figure(1, 1, "", label=label)).get("aria-label") == label


def test_plot_and_tree_share_the_figure_root():
    plot = svg.Plot(300, 200, (0, 1), (0, 1), label="Kurve")
    plot.polyline([(0, 0), (1, 1)], "pl-fit")
    root = parse(plot.render())
    assert root.get("aria-label") == "Kurve" and root.get("viewBox").split()[2:] == ["300", "200"]
    assert root.get("data-box") == f"{plot.left} {plot.top} {plot.right} {plot.bottom}"
    tree = parse(Tree(200, 100, [10, 100], "Baum").render())
    assert tree.get("aria-label") == "Baum" and "pl-tree" in tree.get("class").split()


def test_rect_has_its_box_corner_and_tooltip():
    r = parse(svg.rect(1, 2, 30, 40, "pl-a", rx=4, title="Hinweis & mehr").replace(
        "<rect", '<rect xmlns="http://www.w3.org/2000/svg"', 1))
    assert [float(r.get(k)) for k in ("x", "y", "width", "height", "rx")] == [1, 2, 30, 40, 4]
    assert r.get("class") == "pl-a" and r.find(NS + "title").text == "Hinweis & mehr"
    plain = wrap(svg.rect(0, 0, -5, 3, "pl-b"))[0]
    assert plain.get("rx") is None and float(plain.get("width")) == 0 and len(plain) == 0


def test_a_key_is_a_swatch_left_of_its_label_centred_on_the_text():
    mark, label = wrap(svg.key(10, 50, "pl-a", "Aufgabe", w=12))
    assert mark.tag == NS + "rect" and mark.get("class") == "pl-a"
    top, height = float(mark.get("y")), float(mark.get("height"))
    assert top < 50 < top + height + 4  # the swatch sits at the height of the text above the baseline
    assert label.tag == NS + "text" and label.text == "Aufgabe" and float(label.get("y")) == 50
    assert float(label.get("x")) > float(mark.get("x")) + float(mark.get("width"))
    line, _ = wrap(svg.key(10, 50, "pl-b", "Linie", w=24, line=True))
    assert line.tag == NS + "line" and float(line.get("x2")) - float(line.get("x1")) == 24
    assert float(line.get("y1")) == float(line.get("y2")) < 50


def test_swatch_legend_has_a_box_and_one_key_per_entry():
    entries = [("pl-a", "eins"), ("pl-b", "zwei"), ("pl-c", "drei")]
    g = wrap(svg.swatch_legend(entries, 20, 30, 120))
    box, *rest = list(g)
    assert box.get("class") == "pl-legend-bg" and float(box.get("width")) == 120
    swatches = [el for el in rest if el.tag == NS + "rect"]
    labels = [el.text for el in rest if el.tag == NS + "text"]
    assert [s.get("class") for s in swatches] == ["pl-a", "pl-b", "pl-c"] and labels == ["eins", "zwei", "drei"]
    ys = [float(s.get("y")) for s in swatches]
    assert ys == sorted(ys) and len(set(ys)) == 3  # one entry under the other
    assert all(float(box.get("y")) <= y <= float(box.get("y")) + float(box.get("height")) for y in ys)


def test_a_key_row_lays_entries_side_by_side_without_overlap():
    entries = [("pl-a", "kurz"), ("pl-b", "ein viel längerer Eintrag"), ("pl-c", "x")]
    g = list(wrap(svg.key_row(entries, 10, 20, lines=["pl-b"])))
    marks, labels = g[0::2], g[1::2]
    assert [m.tag for m in marks] == [NS + "rect", NS + "line", NS + "rect"]
    assert [t.text for t in labels] == ["kurz", "ein viel längerer Eintrag", "x"]
    assert all(float(t.get("y")) == 20 for t in labels)
    starts = [float(m.get("x") or m.get("x1")) for m in marks]
    assert starts[0] == 10 and starts == sorted(starts)
    # the second entry starts further after the first than the third after the second: longer label
    assert starts[2] - starts[1] > starts[1] - starts[0]


def test_a_draggable_point_has_a_larger_hit_area_under_every_point():
    plot = svg.Plot(300, 200, (0, 10), (0, 10), label="Punkte")
    for i in range(3):
        plot.point(i, i, 4, "pl-point", {"data-drag": i, "tabindex": 0}, hit=22)
    plot.point(5, 5, 4, "pl-other", hit=22)  # not draggable: nothing to grab
    circles = list(parse(plot.render()).iter(NS + "circle"))
    hits = [c for c in circles if c.get("class") == "pl-drag-hit"]
    assert [c.get("data-drag-hit") for c in hits] == ["0", "1", "2"] and {c.get("r") for c in hits} == {"22"}
    # the hit areas come first: a visible point is never covered by a neighbour's hit area
    assert circles[:3] == hits and all(c.get("class") != "pl-drag-hit" for c in circles[3:])
    assert [(c.get("cx"), c.get("cy")) for c in hits] == [(c.get("cx"), c.get("cy")) for c in circles[3:6]]


@given(st.lists(st.tuples(st.floats(allow_nan=True, allow_infinity=True, width=64),
                          st.floats(allow_nan=True, allow_infinity=True, width=64)), max_size=20))
def test_a_curve_lies_where_its_points_would_and_far_values_are_pulled_in(points):
    """polyline writes px, py and the pull-in out (speed): the same numbers as a point at each place."""
    plot = svg.Plot(480, 330, (15, 35), (-60, 360), label="x")
    plot.polyline(points, "pl-fit")
    line = wrap(plot.body[0])[0].get("points")
    assert line == " ".join(f"{plot._cx(x):.1f},{plot._cy(y):.1f}" for x, y in points)
    assert all(abs(float(v)) <= 1e4 for pair in line.split() for v in pair.split(","))


def test_a_vertical_line_leaves_gaps_for_the_boxes_it_would_cross_and_only_for_those():
    label = svg.text_box(100, 50, "0,15", 12, "middle")
    far = svg.text_box(300, 80, "weit weg", 12)
    pieces = [(float(e.get("y1")), float(e.get("y2"))) for e in wrap(svg.vline(100, 0, 200, "pl-x", avoid=[label, far]))]
    assert pieces == [(0.0, round(label[1], 1)), (round(label[3], 1), 200.0)]
    assert label[0] < 100 - 12 and label[2] > 100 + 12 and label[1] <= 50 - 12 < 50 < label[3]
    # two boxes on top of each other make one gap; a box that reaches the end leaves no dot behind
    lower = (90, 150, 110, 198)
    assert len(wrap(svg.vline(100, 0, 200, "pl-x", avoid=[label, (95, 40, 105, 70), lower]))) == 2
