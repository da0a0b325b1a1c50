"""Speculative decoding with the trained target and its distilled draft (model/weights/).

Leviathan et al. (2023, §3.5): a proposal x drawn from the draft's q is kept with probability
min(1, p(x)/q(x)), so at a given context it is kept with probability β = Σₓ min(p(x), q(x)), and the
acceptance rate α is the mean of β. The test runs the engine's speculative_generate on held-out text
(text neither model trained on), recomputes p and q at every proposal the target examined by a plain
full forward pass of each model, and compares the count of kept proposals with Σβ. Given its context,
each examined proposal is kept with probability β, so kept − Σβ is a sum of centred steps with variance
Σβ(1 − β): more than four standard deviations apart would mean the rule or the caches are wrong.

Sized to its power: ten prompts give about 144 examined proposals with Σβ(1 − β) ≈ 28, so one standard
deviation is about 5 kept proposals. A right engine stays within four deviations with probability
1 − 6·10⁻⁵ (and the seed is fixed, so every run is the same); a wrong rule or cache that moves each
proposal's chance of being kept by 0.33 or more lands beyond them with probability ≥ 1 − 10⁻⁶ (keeping
every proposal moves it by ≈ 0.47). Fewer prompts would let such bugs through; with one BLAS thread
(tests/conftest.py) the whole test costs about 2 CPU seconds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine import pretrained
from engine.attention import NoCacheAttention
from engine.sampler import SamplingParams, probabilities
from engine.speculative import speculative_generate

PARAMS = SamplingParams(temperature=1.0)


def next_distribution(model, context) -> np.ndarray:
    logits = model.forward(context, np.arange(len(context)), NoCacheAttention())[-1]
    return probabilities(logits.astype(np.float64), PARAMS)


@pytest.fixture(scope="module")
def models():
    target, tokenizer = pretrained.load("target", dtype="float64")
    draft, _ = pretrained.load("draft", dtype="float64")
    return target, draft, pretrained.heldout_ids(tokenizer)


def test_the_measured_acceptance_rate_is_the_expected_one_of_both_distributions(models):
    target, draft, heldout = models
    rng = np.random.default_rng(2023)
    kept = examined = 0
    expected = variance = 0.0
    for start in range(0, 10 * 120, 120):  # ten held-out prompts of 12 tokens, 16 new tokens each
        prompt = heldout[start:start + 12]
        run = speculative_generate(target, draft, prompt, 16, k=4, params=PARAMS, rng=rng)
        seq = list(prompt)
        for v in run.verifications:
            for i in range(len(v.accept_probs)):  # the proposals the target looked at
                context = seq + v.proposals[:i]
                beta = float(np.minimum(next_distribution(target, context), next_distribution(draft, context)).sum())
                expected += beta
                variance += beta * (1 - beta)
                kept += i < v.accepted
                examined += 1
            seq += v.emitted
    z = (kept - expected) / math.sqrt(variance)
    print(f"kept {kept} of {examined} examined proposals (α = {kept / examined:.3f}), "
          f"expected {expected:.1f} (mean β = {expected / examined:.3f}), z = {z:+.2f}")
    assert examined >= 100
    assert abs(z) < 4
    # the distilled draft agrees with the target often enough for speculation to pay off, and not always
    assert 0.4 < expected / examined < 0.95
