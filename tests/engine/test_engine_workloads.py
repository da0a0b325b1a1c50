"""The random prompt texts of engine/workloads.py: the exact one and the one the recorded traces were drawn with."""

from __future__ import annotations

import numpy as np
import pytest

from engine import workloads


@pytest.mark.parametrize("first", [None, "heute"])
def test_text_of_length_has_exactly_that_many_characters(first):
    # the words often end one before the length: there it came out one short
    for seed in range(20):
        for length in range(0, 70):
            text = workloads.text_of_length(np.random.default_rng(seed), length, first)
            assert len(text) == length, (seed, length, text)


def test_recorded_text_is_one_short_exactly_where_the_words_end_one_before_the_length():
    short = 0
    for seed in range(20):
        for length in range(1, 70):
            exact = workloads.text_of_length(np.random.default_rng(seed), length)
            recorded = workloads.recorded_text(np.random.default_rng(seed), length)
            # the same words; where they fill length − 1, the exact text draws one more and keeps its space
            assert recorded == exact or exact == recorded + " ", (seed, length)
            short += recorded != exact
    assert short > 0  # the case exists, so the recorded traces would change with an exact length

