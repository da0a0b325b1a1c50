"""Peer check: our numpy engine against Transformers' LlamaForCausalLM, number for number.

Run with ``make test-peer`` (its own venv with PyTorch and Transformers, see requirements-peer.txt).
Skipped in ``make test``, which stays free of torch.

Transformers builds the model from a small ``LlamaConfig`` with random weights (nothing is
downloaded); the same weights are loaded into our engine by name. Prefill logits at every position
and the logits of every cached decode step must agree to ≤ 1e-5: a different order of float operations
is all that may differ. This holds for float64 too but is not tighter there: Transformers computes the
RoPE angles in float32 even for a float64 model (measured: about 5e-7), our engine in float64.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from engine.attention import (  # noqa: E402 (after the skip: without torch the module is not collected)
    NoCacheAttention,
    tiled,
)
from engine.generate import greedy_paged  # noqa: E402 (after the skip: without torch the module is not collected)
from engine.model import (  # noqa: E402 (after the skip: without torch the module is not collected)
    LlamaModel,
    tiny_config,
)
from engine.tokenizer import CharTokenizer  # noqa: E402 (after the skip: without torch the module is not collected)

PROMPT = CharTokenizer().encode("heute trinke ich tee")  # 20 tokens
DECODE_STEPS = 12
TOLERANCE = {"float32": 1e-5, "float64": 1e-5}
RESULTS = {}  # max abs differences, printed at the end of the run


def peer_pair(kind: str, dtype: str, seed: int = 0):
    config = tiny_config(kind, dtype=dtype, seed=seed)
    hf_config = transformers.LlamaConfig(**config.to_hf(), max_position_embeddings=64, attn_implementation="eager")
    torch.manual_seed(seed)
    hf = transformers.LlamaForCausalLM(hf_config).eval()
    # Transformers initialises projections with std 0.02, which makes all logits nearly equal and the
    # comparison weak. Redraw on the scale our engine uses; norm weights away from 1 so that a mix-up
    # of the two norms shows.
    with torch.no_grad():
        for name, p in hf.named_parameters():
            if name.endswith("norm.weight"):
                p.copy_(1 + 0.1 * torch.randn_like(p))
            elif "embed_tokens" in name:
                p.normal_()
            else:
                p.normal_(std=p.shape[1] ** -0.5)
    hf = hf.to(getattr(torch, dtype))
    ours = LlamaModel.from_state_dict(config, {k: v.detach().numpy() for k, v in hf.state_dict().items()})
    return hf, ours


def hf_greedy(hf, prompt, steps):
    """Prefill logits at every position, then logits of each cached decode step (Transformers' cache)."""
    with torch.no_grad():
        out = hf(torch.tensor([prompt]), use_cache=True)
        prefill = out.logits[0].numpy()
        cache, last = out.cache, out.logits[0, -1]
        tokens, logits = [], []
        for _ in range(steps):
            logits.append(last.numpy())
            token = int(torch.argmax(last))
            tokens.append(token)
            out = hf(torch.tensor([[token]]), cache=cache, use_cache=True)
            cache, last = out.cache, out.logits[0, -1]
    assert cache.get_seq_length() == len(prompt) + steps
    return prefill, tokens, logits


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["MHA", "GQA", "MQA"])
def test_prefill_and_every_cached_decode_step_match_transformers(kind, dtype):
    hf, ours = peer_pair(kind, dtype)
    prefill, tokens, logits = hf_greedy(hf, PROMPT, DECODE_STEPS)
    assert len(set(tokens)) > 2  # the compared run is not a degenerate repetition

    our_prefill = ours.forward(PROMPT, np.arange(len(PROMPT)), NoCacheAttention())
    worst = float(np.abs(our_prefill - prefill).max())
    for options in ({"block_size": 4}, {"block_size": 3, "chunk_size": 7}, {"block_size": 8, "kernel": tiled(5)}):
        run = greedy_paged(ours, PROMPT, DECODE_STEPS, **options)
        assert run.tokens == tokens, f"greedy tokens differ with {options}"
        worst = max(worst, max(float(np.abs(a - b).max()) for a, b in zip(run.logits, logits, strict=True)))
    RESULTS[(kind, dtype)] = worst
    assert worst <= TOLERANCE[dtype], f"{kind} {dtype}: max |Δlogit| = {worst:.2e}"
    assert np.abs(prefill).max() > 1.0  # logits of order 1: the tolerance is meaningful


def test_report_max_differences():
    """Prints the measured differences (run with -s, or see the make test-peer output)."""
    if not RESULTS:
        pytest.skip("no comparisons ran before this test")
    for (kind, dtype), worst in sorted(RESULTS.items()):
        print(f"peer {kind} {dtype}: max |Δlogit| = {worst:.3e}")
