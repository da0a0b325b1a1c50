"""The random prompts of recorder/workloads.py: exactly as many tokens as asked, for either tokenizer."""

from __future__ import annotations

import numpy as np
import pytest

from engine import pretrained
from recorder import workloads


@pytest.mark.parametrize("first", [None, "heute"])
def test_text_of_length_has_exactly_that_many_characters(first):
    # the words often end one before the length: there it came out one short
    for seed in range(20):
        for length in range(70):
            text = workloads.text_of_length(np.random.default_rng(seed), length, first)
            assert len(text) == length, (seed, length, text)


@pytest.mark.parametrize("first", [None, "heute"])
def test_prompt_of_length_has_exactly_that_many_bpe_tokens(first):
    bpe = pretrained.load_tokenizer()
    for seed in range(10):
        for length in range(0, 50, 3):
            ids, text = workloads.prompt_of_length(np.random.default_rng(seed), length, bpe, first)
            assert len(ids) == length and bpe.decode(ids) == text and bpe.encode(text) == list(ids), (seed, length, text)
            if first and length >= 3:
                assert text.startswith(first[:2])
