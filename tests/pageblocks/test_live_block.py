"""„Eigener Lauf“'s form (pageblocks/live_block.py): its presets are the page's recorded runs and run as they
are, and the form's bounds and names are the ``Param``s of probierlabor/live/fields.py."""

from __future__ import annotations

import html
import json
import re

import pytest
from probierlabor.kit import fmt
from probierlabor.live import batching, fields, speculative
from probierlabor.pageblocks import live_block


@pytest.mark.parametrize("slug", sorted(live_block.PAGES))
def test_the_form_offers_the_recorded_runs_and_carries_every_setting(slug):
    page = live_block.section(slug)
    presets = [json.loads(html.unescape(p)) for p in re.findall(r'data-live-preset="([^"]*)"', page)]
    assert presets == [values for _, values in live_block.presets(slug)]
    speculative_run = fields.SPECULATIVE_KEY in presets[0]
    for values in presets:
        assert (speculative if speculative_run else batching).parse(values).notes == ()  # a recorded run needs no capping
    keys = re.findall(r'data-live-field="([a-z_]+)"', page)
    assert sorted(keys) == sorted(presets[0])  # every setting, shown or hidden, exactly once
    view, _, shown = live_block.PAGES[slug]
    assert f'data-view="{view}"' in page
    for key in shown:
        assert f'type="hidden" data-live-field="{key}"' not in page
    form = live_block.SPECULATIVE_FORM if speculative_run else live_block.ENGINE_FORM
    for key, param in form.fields.items():
        if key in shown and param.kind in ("int", "float"):  # text, so that a decimal comma survives; the bounds said
            field = re.search(f'<input type="text"{param.keyboard} data-live-field="{key}"[^>]*>(.*?)</label>', page)
            assert field and f"{fmt.de_auto(param.lo)} bis {fmt.de_auto(param.hi)}" in field.group(1)
    assert 'type="number"' not in page
    assert "\n" not in page and "$" not in page and "\\" not in page  # one line, nothing for the formula typesetter
    # one prompt on the speculative page, a list of requests elsewhere: the caption says which
    assert ("Dein Prompt, gerechnet" in page) == speculative_run and ("Deine Anfragen, gerechnet" in page) != speculative_run
