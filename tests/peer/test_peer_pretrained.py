"""Peer check of the trained models: the engine and Transformers' LlamaForCausalLM on the committed weights.

``test_peer_llama.py`` proves the engine equal to Transformers on random weights; this repeats the
check on the weights the site serves (``model/weights/``), whose logits are sharper and whose greedy
choices depend on small margins. Both sides compute in float64 from the same float16 values.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from engine import pretrained  # noqa: E402 (after the skip: without torch the module is not collected)
from engine.attention import NoCacheAttention  # noqa: E402 (after the skip)
from engine.engine import LLMEngine  # noqa: E402 (after the skip)
from engine.generate import greedy_paged  # noqa: E402 (after the skip)
from tests.peer.test_peer_llama import hf_greedy  # noqa: E402 (after the skip)

PROMPT = "Ein Sprachmodell sagt das nächste Token voraus, und der KV-Cache"
DECODE_STEPS = 16
TOLERANCE = 1e-5


def hf_model(ours):
    hf_config = transformers.LlamaConfig(**ours.config.to_hf(), max_position_embeddings=256,
                                         attn_implementation="eager")
    hf = transformers.LlamaForCausalLM(hf_config).to(torch.float64).eval()
    missing, unexpected = hf.load_state_dict({k: torch.from_numpy(v) for k, v in ours.weights.items()}, strict=False)
    assert not unexpected and all("rotary_emb" in k for k in missing)
    return hf


@pytest.mark.parametrize("name", pretrained.MODELS)
def test_trained_weights_give_transformers_logits_and_greedy_tokens(name):
    ours, tokenizer = pretrained.load(name, dtype="float64")
    hf = hf_model(ours)
    prompt = tokenizer.encode(PROMPT)
    prefill, tokens, logits = hf_greedy(hf, prompt, DECODE_STEPS)
    worst = float(np.abs(ours.forward(prompt, np.arange(len(prompt)), NoCacheAttention()) - prefill).max())
    run = greedy_paged(ours, prompt, DECODE_STEPS, block_size=8, chunk_size=16)
    assert run.tokens == tokens
    worst = max(worst, max(float(np.abs(a - b).max()) for a, b in zip(run.logits, logits, strict=True)))
    print(f"peer trained {name}: max |Δlogit| = {worst:.2e}, greedy: {tokenizer.decode(tokens)!r}")
    assert worst <= TOLERANCE
    assert np.ptp(prefill[-1]) > 5.0  # a trained model's logits are spread out: the comparison is not trivial


BATCH_PROMPTS = ("Der KV-Cache", "Wähle im Menü", "Ein kleines Modell lernt aus Text, und")


@pytest.mark.parametrize("kind", sorted(pretrained.KV_HEADS))
def test_batched_paged_engine_run_gives_each_request_transformers_greedy_tokens(kind):
    """The engine as the traces run it (pretrained.engine_model: several requests at once, chunked
    prefill, paged KV cache, preemption by a small pool) against Transformers on each prompt alone."""
    ours = pretrained.engine_model(kind)
    hf = hf_model(ours)
    engine = LLMEngine(ours, num_blocks=9, block_size=4, max_num_seqs=3, max_num_batched_tokens=6,
                       chunked_prefill=True, prefix_caching=True)
    prompts = {f"r{i}": ours.tokenizer.encode(text) for i, text in enumerate(BATCH_PROMPTS)}
    for i, (rid, prompt) in enumerate(prompts.items()):
        engine.add_request(prompt, 10, req_id=rid, arrival_step=i)
    engine.run()
    assert any(record["preempted"] for record in engine.steps)  # the pool forced a recompute
    for rid, prompt in prompts.items():
        _, tokens, _ = hf_greedy(hf, prompt, 10)
        assert [int(t) for t in engine.sequences[rid].output] == tokens, rid
