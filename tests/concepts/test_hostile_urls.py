"""Every page's Python answers any hostile query value with a valid experiment and a German note."""

import pytest
from hostile_urls import BAD, KINDS, attacked, draws
from probierlabor import SLUGS
from probierlabor.kit import api


def _names(slug):
    return attacked(api.params_of(slug))


@pytest.mark.parametrize("seed", range(20))
def test_every_page_answers_a_hostile_query_with_a_note(seed):
    kinds = set()
    for slug, kind, _, raw in draws(SLUGS, _names, seed):
        kinds.add(kind)
        out = api.run(slug, raw)
        assert out["notes"], (slug, raw)
        assert all(len(note) < 600 for note in out["notes"])  # a 10,000-character value is shortened
        assert api.check(slug, out["url"])[1] == []  # what the page writes back into the URL is valid
    assert kinds == set(KINDS)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_value_the_generator_can_draw_gives_a_note_for_every_control(slug):
    """So that the browser test's daily draw can never pick a value that a page accepts silently."""
    for name in _names(slug):
        for value in {v for values in BAD.values() for v in values}:
            out = api.run(slug, {name: value})
            assert out["notes"], (slug, name, value)
    for name, param in api.params_of(slug).items():
        if param.kind == "text":  # a typed text: only a value longer than it may be is an attack
            for value in BAD["long value"]:
                assert api.run(slug, {name: value})["notes"], (slug, name)
