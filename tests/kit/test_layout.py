"""Figures laid out for a narrow screen (kit/layout.py): the same module and the same numbers,
only the layout changes; the width is the page's, never the state's."""

import json
import re
import types
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api, layout, svg
from probierlabor.pageblocks import experiment_block

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
NARROW = [slug for slug in SLUGS if api.draws_narrow(slug)]
NUMBER = re.compile(r"−?\d[\d\u202f\u2009 .]*(?:,\d+)?")


def states(slug):
    return [{}] + [api.preset_values(slug, p.label) for p in api.concept(slug).PRESETS]


def numbers(markup: str) -> tuple[Counter, Counter]:
    """The numbers written in a figure's texts: those of axis ticks and other small print (a narrow
    axis may name fewer ticks) and all others."""
    ticks, others = Counter(), Counter()
    for fig in re.findall(r"<svg.*?</svg>", markup, flags=re.S):
        for text in ET.fromstring(fig).iter(NS + "text"):
            content = "".join(text.itertext())
            found = [n.strip() for n in NUMBER.findall(content)]
            small = any(c == "pl-tick" or c.endswith("-small") for c in text.get("class", "").split())
            (ticks if small else others).update(found)
    return ticks, others


def test_every_figure_has_a_narrow_layout():
    assert list(SLUGS) == NARROW


@pytest.fixture
def wide_only(monkeypatch):
    """A concept whose ``view`` knows only the wide layout, as a new page may have at first: every page
    has a narrow one now, so overfitting stands in, with its view stripped of the layout."""
    slug, real, concept = "overfitting", api.concept("overfitting"), api.concept
    plain = types.SimpleNamespace(**vars(real))
    plain.view = lambda r: real.view(r)
    monkeypatch.setattr(api, "concept", lambda s: plain if s == slug else concept(s))
    api.draws_narrow.cache_clear()
    yield slug
    api.draws_narrow.cache_clear()


@pytest.mark.parametrize("slug", NARROW)
def test_a_narrow_figure_shows_the_same_numbers_as_the_wide_one(slug):
    for values in states(slug):
        wide, narrow = api.run(slug, values), api.run(slug, values, layout=layout.NARROW)
        assert narrow["layout"] == layout.NARROW and wide["layout"] == layout.WIDE
        for key in ("readouts", "summary", "url", "controls", "display", "notes", "lesson", "result"):
            assert narrow[key] == wide[key], (slug, values, key)
        for part in ("figure", "extra"):
            wide_ticks, wide_others = numbers(wide[part])
            narrow_ticks, narrow_others = numbers(narrow[part])
            assert narrow_others == wide_others, (slug, values, part)
            assert not narrow_ticks - wide_ticks, (slug, values, part)
        assert 'data-layout="narrow"' in narrow["figure"] and "data-layout" not in wide["figure"]


@pytest.mark.parametrize("slug", NARROW)
def test_a_narrow_figure_fits_a_phone(slug):
    """At most NARROW_WIDTH wide, so that its 12-pixel text stays above 11 px on a 390-pixel phone."""
    for values in states(slug):
        for fig in re.findall(r"<svg.*?</svg>", "".join(api.run(slug, values, layout=layout.NARROW)[k]
                                                          for k in ("figure", "extra")), flags=re.S):
            width = float(ET.fromstring(fig).get("viewBox").split()[2])
            assert width <= layout.NARROW_WIDTH, (slug, values, width)


def test_a_concept_without_a_narrow_layout_draws_its_wide_figure(wide_only):
    assert not api.draws_narrow(wide_only)
    out = api.run(wide_only, layout=layout.NARROW)
    assert out["layout"] == layout.WIDE and out["figure"] == api.run(wide_only)["figure"]
    assert "data-layout" not in out["figure"]


def test_the_layout_is_not_part_of_the_state():
    out = json.loads(api.run_json("gqa", json.dumps({"groups": "4"}), "narrow"))
    assert out["layout"] == "narrow" and out["url"] == {"groups": "4"}
    assert "layout" not in api.params_of("gqa")


def test_an_unknown_layout_is_a_german_message():
    out = json.loads(api.run_json("gqa", "{}", "tablet"))
    assert "Unbekannte Breite „tablet“" in out["error"]


def test_a_dense_axis_shows_fewer_ticks_on_a_narrow_figure_only():
    ticks = list(range(13))
    assert layout.fewer_ticks(ticks, layout.WIDE, 120) == ticks
    assert layout.fewer_ticks(ticks, layout.NARROW, 120) == [0, 4, 8, 12]  # 10 px apart: every fourth
    assert layout.fewer_ticks(ticks, layout.NARROW, 600) == ticks  # 50 px apart: all
    assert layout.fewer_ticks([-3, -2, -1, 0, 1, 2, 3], layout.NARROW, 180) == [-2, 0, 2]  # the zero stays
    plot = svg.Plot(300, 200, (0, 12), (0, 1), label="x", margin=(10, 10, 10, 60), layout=layout.NARROW)
    plot.grid(ticks, [0, 1], "x", "y")  # 230 px for 12 steps: every third tick is 57 px from the next
    assert plot.render().count('class="pl-tick"') == 5 + 2


def test_panels_go_side_by_side_when_wide_and_stack_when_narrow():
    items = [(200, 100, "<a/>"), (150, 80, "<b/>")]
    assert svg.panels(items, layout.WIDE, gap=10)[:2] == (360, 100)
    assert svg.panels(items, layout.NARROW, gap=10)[:2] == (200, 190)
    markup = svg.panels(items, layout.NARROW, gap=10)[2]
    assert 'translate(0 110)"><b/>' in markup


def test_the_page_arrives_with_both_versions_of_the_default_figure():
    first = experiment_block.first_paint("gqa")
    assert first["figure"] == (f'<div data-pl-layout="wide">{api.run("gqa")["figure"]}</div>'
                               f'<div data-pl-layout="narrow" data-search-exclude>'
                               f'{api.run("gqa", layout="narrow")["figure"]}</div>')


def test_a_concept_without_a_narrow_layout_arrives_with_its_wide_figure_only(wide_only):
    assert experiment_block.first_paint(wide_only)["figure"] == api.run(wide_only)["figure"]


def test_an_axis_name_in_two_parts_takes_two_lines_on_a_narrow_figure_only():
    names = ("Bearbeitungszeit eines Menschen", "(log. Skala)")
    for kind, lines in ((layout.WIDE, ["Bearbeitungszeit eines Menschen (log. Skala)"]), (layout.NARROW, list(names))):
        plot = svg.Plot(300, 200, (0, 1), (0, 1), label="x", layout=kind)
        plot.grid([0, 1], [0, 1], names, "y")
        texts = ["".join(t.itertext()) for t in ET.fromstring(plot.render()).iter(NS + "text")
                 if t.get("class") == "pl-axis"]
        assert texts[:-1] == lines and texts[-1] == "y", kind


def test_the_search_index_reads_a_figure_once():
    """The first paint's narrow twin stays out of the search index: a search for a figure's text finds
    its page once, not twice."""
    index = ROOT / "site" / "search" / "search_index.json"
    if not index.exists():
        pytest.skip("site/ fehlt: erst `make site`")
    docs = json.loads(index.read_text())["docs"]
    text = " ".join(d["text"] for d in docs if d["location"].startswith("paged-attention/"))
    assert text.count("Physischer Speicher: 8 Blöcke") == 1


# -- a reader's own inputs at phone width: what the article's numbers never reach ---------------

CHAR_PX = 7.5  # a character of a figure's 12- or 13-pixel text, generously


def texts(markup: str, cls: str) -> list[tuple[float, float, str, str]]:
    """(x, y, anchor, content) of the texts with that class in a figure's svgs (no panel moves them sideways)."""
    return [(float(t.get("x")), float(t.get("y")), t.get("text-anchor", "start"), "".join(t.itertext()))
            for fig in re.findall(r"<svg.*?</svg>", markup, flags=re.S)
            for t in ET.fromstring(fig).iter(NS + "text") if cls in t.get("class", "").split()]


def extent(x: float, anchor: str, content: str) -> tuple[float, float]:
    reach = CHAR_PX * len(content)
    return {"start": (x, x + reach), "end": (x - reach, x), "middle": (x - reach / 2, x + reach / 2)}[anchor]


def touching_in_a_row(found, gap: float) -> list:
    """Pairs of texts on one baseline whose centres are closer than ``gap``."""
    return [(a[3], b[3]) for a in found for b in found
            if a is not b and a[1] == b[1] and a[0] < b[0] and b[0] - a[0] < gap]


def test_a_long_own_stream_names_neighbouring_returns_in_rows_where_they_do_not_touch():
    out = api.run("reservoir-sampling", {"n": 40, "returns": "1; 2; 3; 38; 39; 40", "k": 10}, layout.NARROW)
    numbers = [t for t in texts(out["figure"], "pl-tick") if t[3].isdigit() and t[1] > 250]
    assert {"38", "39", "40"} <= {t[3] for t in numbers}
    assert touching_in_a_row(numbers, 16) == []  # two-digit numbers at 12 px: about 14 px wide


def test_eight_own_tokens_on_top_k_keep_their_numbers_apart():
    out = api.run("top-k-sampling", {"dist": "1; 1; 1; 1; 1; 1; 1; 1", "k": 8}, layout.NARROW)
    for cls in ("pl-dec-value", "pl-dec-out-text"):
        found = texts(out["figure"], cls)
        assert len(found) >= 8 and touching_in_a_row(found, 40) == [], cls  # "0,125" at 12 px


def test_top_p_at_another_temperature_writes_its_note_off_the_thresholds_line():
    for raw in ({"dist": "1; 2; 3; 4; 5; 6; 7; 8", "p": 0.3, "temperature": 2}, {"p": 0.3, "temperature": 2}):
        figure = api.run("top-p-sampling", raw, layout.NARROW)["figure"]
        (note,) = [t for t in texts(figure, "pl-tick") if t[3].startswith("T = ")]
        (threshold,) = texts(figure, "pl-dec-threshold-text")
        assert note[1] != threshold[1], raw
    wide = api.run("top-p-sampling", {"p": 0.3, "temperature": 2})["figure"]
    assert [t[1] for t in texts(wide, "pl-tick") if t[3].startswith("T = ")] == [22.0]  # room enough
    # a small p puts its label where the note stands on a wide figure too: the note goes below
    wide = api.run("top-p-sampling", {"p": 0.1, "temperature": 2})["figure"]
    (note,) = [t for t in texts(wide, "pl-tick") if t[3].startswith("T = ")]
    (threshold,) = texts(wide, "pl-dec-threshold-text")
    assert note[1] != threshold[1]


def test_rope_names_two_own_unturned_arrows_inside_the_narrow_figure():
    figure = api.run("rope", {"query": "0,5; -0,5", "key": "-1; 1"}, layout.NARROW)["figure"]
    grey = [t for t in texts(figure, "pl-tick") if t[3].startswith("grau") or t[3].startswith("q (")]
    assert "".join(t[3] for t in grey) == "grau: q und k vor der Drehung,q (0,5; −0,5), k (−1; 1)"
    assert all(extent(t[0], t[2], t[3])[0] >= 0 and extent(t[0], t[2], t[3])[1] <= 280 for t in grey)


def test_an_own_ewc_start_near_the_edge_keeps_every_label_inside_the_narrow_figure():
    for raw in ({"start": "3; -1", "mode": "none"}, {"start": "0; 0", "mode": "equal"}, {"F": "0,2; 5", "start": "1; 2"}):
        figure = api.run("ewc", raw, layout.NARROW)["figure"]
        width = float(ET.fromstring(figure).get("viewBox").split()[2])
        for x, _, anchor, content in texts(figure, "pl-label"):
            lo, hi = extent(x, anchor, content)
            assert lo >= 0 and hi <= width, (raw, content, lo, hi)


def test_own_kl_distributions_keep_their_numbers_apart_and_inside_the_narrow_figure():
    three = api.run("kl-divergence", {"p_eigen": "0,5; 0,3; 0,2"}, layout.NARROW)["figure"]
    values = [t for t in texts(three, "pl-kl-value") if t[0] < 170]  # the left panel's bars
    assert len(values) == 6 and touching_in_a_row(values, 30) == []  # "0,50" at 12 px
    eight = api.run("kl-divergence", {"p_eigen": "1; 2; 3; 4; 5; 6; 7; 8", "q_eigen": "8; 7; 6; 5; 4; 3; 2; 1"},
                    layout.NARROW)["figure"]
    (total,) = texts(eight, "pl-kl-value")  # with eight events only the sum is written
    assert extent(total[0], total[2], total[3])[1] <= layout.NARROW_WIDTH


def test_eight_own_keys_in_blocks_of_one_name_their_blocks_apart_on_flash_attentions_narrow_figure():
    out = api.run("flash-attention", {"scores": "1; 2; 3; 4; 5; 6; 7; 8", "values": "1; 2; 3; 4; 5; 6; 7; 8",
                                      "block": 1, "step": 2}, layout.NARROW)
    names = [t for t in texts(out["figure"], "pl-label") if t[3].startswith("Block ") or t[3] == "(offen)"]
    assert len([t for t in names if t[3].startswith("Block ")]) == 8
    assert touching_in_a_row(names, 56) == []  # "Block 1" at 13 px: about 50 px wide


def test_eight_own_values_on_prefill_keep_their_exact_outputs_inside_the_narrow_figure():
    figure = api.run("prefill", {"values": "1; 2; 3; 4; 5; 6; 7; 8", "chunk": 1}, layout.NARROW)["figure"]
    outputs = [t for t in texts(figure, "pl-value") if "/" in t[3]]
    assert "7/2 ≈ 3,50" in {t[3] for t in outputs}
    assert all(extent(t[0], t[2], t[3])[1] <= layout.NARROW_WIDTH for t in outputs)


def test_a_long_own_text_on_prefix_caching_writes_its_sentence_inside_the_narrow_figure():
    figure = api.run("prefix-caching", {"cached": "ABCDEFGHIJKL", "prompt": "ABCDEFGHIJKX", "block_size": 1},
                     layout.NARROW)["figure"]
    lines = [t for t in texts(figure, "pl-pc-head") if t[1] > 250]
    assert "".join(t[3] for t in lines) == "Wiederverwendet: 11 von 12 Tokens(11 volle Blöcke);neu zu rechnen: 1"
    assert all(extent(t[0], t[2], t[3])[1] <= layout.NARROW_WIDTH for t in lines)


def test_a_damped_curve_on_the_validation_set_fits_its_legend_and_errors_into_the_narrow_figure():
    figure = api.run("validation-set", {"lam": 100}, layout.NARROW)["figure"]
    legend = texts(figure, "pl-legend")
    assert any(t[3].startswith("28,2 + 1,71·(T − 23)") for t in legend)
    assert all(extent(t[0], t[2], t[3])[1] <= layout.NARROW_WIDTH for t in legend)
    errors = texts(api.run("validation-set", {"lam": 10, "fixed": "curve"}, layout.NARROW)["figure"], "pl-vs-err")
    assert len(errors) == 8
    boxes = [(extent(x, a, c), y) for x, y, a, c in errors]
    assert not [(p, q) for p in boxes for q in boxes if p is not q and p[0][0] < q[0][0] < p[0][1]
                and abs(p[1] - q[1]) < 13]  # 12-px numbers: one above the other, or side by side
