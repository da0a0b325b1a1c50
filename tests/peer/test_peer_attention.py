"""Peer check of engine.attention.attention_maps: the attention probabilities of the trained target, every
layer and query head, against Transformers' ``output_attentions=True`` (eager attention, float64 from
the same float16 weights). The attention page shows these maps for the reader's sentence."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from engine import pretrained  # noqa: E402 (after the skip: without torch the module is not collected)
from engine.attention import attention_maps  # noqa: E402 (after the skip)
from tests.peer.test_peer_pretrained import hf_model  # noqa: E402 (after the skip)

SENTENCE = "Die Katze jagt die Maus, und die Maus rennt weg."
# float64 on both sides, but Transformers builds RoPE's cos and sin in float32 (5e-7 measured on this
# sentence): the bound of test_peer_pretrained's logits
TOLERANCE = 1e-5


def test_attention_maps_are_transformers_attentions():
    ours, tokenizer = pretrained.load("target", dtype="float64")
    ids = tokenizer.encode(SENTENCE)
    maps = attention_maps(ours, ids)
    with torch.no_grad():
        out = hf_model(ours)(torch.tensor([ids]), output_attentions=True)
    theirs = np.stack([layer[0].numpy() for layer in out.attentions])
    assert maps.shape == theirs.shape == (4, 8, len(ids), len(ids))
    worst = float(np.abs(maps - theirs).max())
    print(f"peer attention maps: {len(ids)} tokens, max |Δp| = {worst:.2e}")
    assert worst <= TOLERANCE
    assert out.attentions[0].shape[1] == 8  # GQA: eight query heads read two K/V heads
    assert theirs.max(-1).min() < 0.9  # a trained head spreads some rows: the comparison is not trivial
