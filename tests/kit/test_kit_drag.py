"""The bars of an own distribution as handles (kit/drag.py, kit/distribution.py): what the figure
tells the browser and a screen reader about each, on every page that takes an own distribution."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from probierlabor.kit import api, distribution, drag

NS = "{http://www.w3.org/2000/svg}"

CASES = [
    ("top-k-sampling", {"dist": "0.5_0.3_0.2"}, {"dist": [0.5, 0.3, 0.2]}),
    ("top-k-sampling", {"dist": "_".join(["0.125"] * 8)}, {"dist": [0.125] * 8}),
    ("top-p-sampling", {"dist": "0.1_0.6_0.3", "temperature": 2}, {"dist": [0.1, 0.6, 0.3]}),
    ("top-p-sampling", {"dist": "1_0"}, {"dist": [1.0, 0.0]}),
    ("kl-divergence", {"p_eigen": "0.2_0.3_0.5", "q_eigen": "0.6_0.4"}, {"p_eigen": [0.2, 0.3, 0.5], "q_eigen": [0.6, 0.4]}),
    ("kl-divergence", {"q_eigen": "0.25_0.75", "swap": 1}, {"q_eigen": [0.25, 0.75]}),
    ("knowledge-distillation", {"teacher": "0.5_0.25_0.25"}, {"teacher": [0.5, 0.25, 0.25]}),
    ("knowledge-distillation", {"teacher": "0.5_0.25_0.25", "T": 2}, {"teacher": [0.5, 0.25, 0.25]}),
]


def figure(slug, raw, layout):
    out = api.run(slug, raw, layout)
    assert out["notes"] == []
    return ET.fromstring(out["figure"]), out


def height_of(el) -> float:
    """Where a handle shows its value: a bar's top, a mark's line."""
    return float(el.get("y") if el.tag == NS + "rect" else el.get("y1"))


@pytest.mark.parametrize("layout", ["wide", "narrow"])
@pytest.mark.parametrize("slug, raw, typed", CASES)
def test_each_typed_chance_is_a_slider_at_its_own_height(slug, raw, typed, layout):
    root, out = figure(slug, raw, layout)
    params = api.params_of(slug)
    for field, values in typed.items():
        handles = sorted((el for el in root.iter() if el.get("data-drag") is not None and el.get("data-drag-field") == field),
                         key=lambda el: int(el.get("data-drag")))
        assert [float(h.get("aria-valuenow")) for h in handles] == values == out["params"][field]
        for i, h in enumerate(handles):
            token = distribution.LETTERS[i]
            assert (h.get("role"), h.get("tabindex")) == ("slider", "0")
            assert h.get("aria-label") == f"{params[field].label}: {token}"
            assert h.get("aria-valuetext").startswith(f"{token}: ")
            assert float(h.get("aria-valuemin")) == 0
            assert float(h.get("aria-valuemax")) == max(distribution.MAX_SHARE, values[i])
            assert float(h.get("data-drag-step")) == distribution.STEP
            # the mapping puts the value where the handle shows it: the browser's pointer lands there too
            y0, y1, v0, v1 = map(float, h.get("data-drag-y").split())
            assert (v0, v1) == (0, 1) and y0 > y1
            assert abs(y0 + (values[i] - v0) / (v1 - v0) * (y1 - y0) - height_of(h)) < 0.11
    if any(el.get("tabindex") for el in root.iter()):
        assert root.get("role") == "group"  # a figure of sliders is not one picture


@pytest.mark.parametrize("layout", ["wide", "narrow"])
@pytest.mark.parametrize("slug, raw, typed", CASES)
def test_a_finger_target_per_bar_spans_every_value_and_never_reaches_a_neighbour(slug, raw, typed, layout):
    root, _ = figure(slug, raw, layout)
    order = list(root.iter())
    targets = [el for el in order if el.get("data-drag-hit") is not None and el.get("data-drag-field")]
    handles = [el for el in order if el.get("data-drag") is not None and el.get("data-drag-field")]
    assert sorted((t.get("data-drag-field"), t.get("data-drag-hit")) for t in targets) == \
        sorted((h.get("data-drag-field"), h.get("data-drag")) for h in handles)
    spans = []
    for t in targets:
        h = next(h for h in handles if (h.get("data-drag-field"), h.get("data-drag")) == (t.get("data-drag-field"), t.get("data-drag-hit")))
        y0, y1, _, _ = map(float, h.get("data-drag-y").split())
        x, w, y, height = (float(t.get(a)) for a in ("x", "width", "y", "height"))
        assert abs(y - y1) < 0.11 and abs(y + height - y0) < 0.11  # a bar at 0 can be grabbed as well
        if h.tag == NS + "rect":
            assert x <= float(h.get("x")) + 0.11 and float(h.get("x")) + float(h.get("width")) <= x + w + 0.11
        spans.append((x, x + w))
    spans.sort()
    assert all(a[1] <= b[0] + 0.11 for a, b in itertools.pairwise(spans)), spans
    # as wide as a finger needs where the figure has the room: a few tokens (and all of top-p's own)
    if len(handles) <= 4 or slug == "top-p-sampling":
        assert min(b - a for a, b in spans) >= drag.TARGET_MIN


@pytest.mark.parametrize("slug", sorted({slug for slug, _, _ in CASES}))
def test_the_articles_numbers_have_no_handles(slug):
    """The article's figures stay as they were: only a distribution of the reader's own is dragged."""
    for label in [None] + [p.label for p in api.concept(slug).PRESETS]:
        raw = {} if label is None else api.preset_values(slug, label)
        for layout in ("wide", "narrow"):
            assert "data-drag" not in api.run(slug, raw, layout)["figure"]


def test_a_handle_says_its_field_index_mapping_and_step():
    attributes = drag.attrs("dist", 2, 0.25, at=(200, 100, 0, 1), lo=0, hi=0.99, step=0.01,
                            label="Eigene Verteilung: C", valuetext="C: 0,25")
    assert attributes["data-drag"] == 2 and attributes["data-drag-field"] == "dist"
    assert attributes["data-drag-y"] == "200 100 0 1" and attributes["data-drag-step"] == "0.01"
    assert attributes["aria-valuenow"] == "0.25"
    assert drag.target_width(100) == 44 and drag.target_width(30) == 30
