"""The PyTorch backend and the Triton kernels against the numpy engine, number for number.

Run with ``make test-peer`` (venv .venv-peer with torch and triton). Skipped in ``make test``, which
has no torch. Without a CUDA GPU the torch backend runs on the CPU and the Triton kernels in Triton's
interpreter; the tests marked ``gpu`` run the same comparisons on CUDA where a GPU is present (the
Triton tests then run the compiled kernels on it).

Same weights, same operations, only the order of float operations may differ: logits within 1e-9
in float64 and 1e-5 in float32, greedy tokens identical, step records identical but for the timing.
"""

import re
from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from engine import torch_backend as tb  # noqa: E402
from engine.attention import NoCacheAttention, dense_attention, tiled, tiled_attention  # noqa: E402
from engine.engine import LLMEngine  # noqa: E402
from engine.generate import greedy_paged, greedy_recompute  # noqa: E402
from engine.model import LlamaModel, ModelConfig, tiny_config  # noqa: E402
from engine.paged_kv import KVCache  # noqa: E402
from engine.tokenizer import CharTokenizer  # noqa: E402
from recorder.tracer import describe_cpu  # noqa: E402

try:
    from engine import triton_kernels as tk
except ImportError:  # triton not installed: only the Triton tests skip
    tk = None

CUDA = torch.cuda.is_available()
gpu = pytest.mark.skipif(not CUDA, reason="needs a CUDA GPU")
needs_triton = pytest.mark.skipif(tk is None, reason="triton is not installed")
DEVICES = ["cpu", pytest.param("cuda", marks=gpu)]
TRITON_DEVICE = "cuda" if CUDA else "cpu"  # the interpreter takes CPU tensors, compiled kernels CUDA ones

TOLERANCE = {"float32": 1e-5, "float64": 1e-9}
PROMPT = CharTokenizer().encode("heute trinke ich tee")  # 20 tokens
DECODE_STEPS = 12
RESULTS = {}  # worst |Δ| per comparison, printed by the last test


def config_of(kind, dtype):
    if kind == "wide":  # head_dim 16, 8 heads over 2 K/V heads, 3 layers: nothing tuned to the tiny shape
        return ModelConfig(hidden_size=128, num_layers=3, num_heads=8, num_kv_heads=2, head_dim=16,
                           intermediate_size=256, dtype=dtype, seed=1)
    return tiny_config(kind, dtype=dtype)


def worst(a_list, b_list):
    return max(float(np.abs(np.asarray(a) - np.asarray(b)).max()) for a, b in zip(a_list, b_list, strict=True))


def note(key, value, dtype):
    RESULTS[key] = max(RESULTS.get(key, 0.0), value)
    assert value <= TOLERANCE[dtype], f"{key}: max |Δ| = {value:.2e}"


def single_request(model, kernel, *, block_size=4, budget=64, steps=DECODE_STEPS, prompt=PROMPT):
    engine = LLMEngine(model, num_blocks=16, block_size=block_size, max_num_batched_tokens=budget,
                       kernel=kernel, keep_logits=True)
    engine.add_request(prompt, steps, req_id="r")
    tokens = engine.run()["r"]
    return tokens, engine.sequences["r"].logits


# ------------------------------------------------------------------------------------ model parity
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind", ["MHA", "GQA", "MQA", "wide"])
def test_prefill_and_every_cached_decode_step_match_numpy(kind, dtype, device):
    ours = LlamaModel(config_of(kind, dtype))
    model = tb.TorchLlamaModel.from_numpy(ours, device)
    positions = np.arange(len(PROMPT))

    prefill = model.forward(PROMPT, positions, tb.TorchNoCacheAttention())
    assert prefill.dtype == np.dtype(dtype) and prefill.shape == (len(PROMPT), ours.config.vocab_size)
    diffs = [float(np.abs(prefill - ours.forward(PROMPT, positions, NoCacheAttention())).max())]

    reference = greedy_paged(ours, PROMPT, DECODE_STEPS)
    assert len(set(reference.tokens)) > 2  # not a degenerate repetition
    recompute = greedy_recompute(model, PROMPT, DECODE_STEPS)  # numpy NoCacheAttention, adapted
    assert recompute.tokens == reference.tokens
    diffs.append(worst(recompute.logits, reference.logits))
    # numpy's dense_attention and tiled(5) stand for their torch counterparts (engine defaults carry over).
    settings = [(tb.dense_attention, {}), (tiled(5), {"block_size": 3, "budget": 7}),
                (tb.paged_attention, {"block_size": 3, "budget": 7}), (dense_attention, {"block_size": 8})]
    for kernel, options in settings:
        tokens, logits = single_request(model, kernel, **options)
        assert tokens == reference.tokens, f"greedy tokens differ with {kernel.__name__} {options}"
        diffs.append(worst(logits, reference.logits))
    note(f"model {kind} {dtype} {device}", max(diffs), dtype)
    assert np.abs(prefill).max() > 1.0  # logits of order 1: the tolerance means something


@pytest.mark.parametrize("device", DEVICES)
def test_batched_engine_run_matches_numpy(device):
    """Arrivals, chunked prefill under a small budget, prefix hits and preemption: the same schedule,
    the same block events, the same tokens and logits on both backends."""
    ours = LlamaModel(tiny_config("GQA"))
    model = tb.TorchLlamaModel.from_numpy(ours, device)
    tok = CharTokenizer()
    prompts = ["heute trinke ich tee", "heute trinke ich kaffee", "morgen", "heute trinke ich tee und"]
    runs = []
    for m, kernel in ((ours, dense_attention), (model, tb.paged_attention), (model, tb.tiled(3))):
        engine = LLMEngine(m, num_blocks=14, block_size=4, max_num_seqs=3, max_num_batched_tokens=9,
                           kernel=kernel, keep_logits=True, tokenizer=tok)
        for i, text in enumerate(prompts):
            engine.add_request(tok.encode(text), 10, req_id=f"r{i}", arrival_step=2 * i)
        outputs = engine.run()
        steps = [{k: v for k, v in s.items() if k != "wall_time_s"} for s in engine.steps]
        logits = {rid: seq.logits for rid, seq in engine.sequences.items()}
        runs.append((outputs, steps, logits))
    (outputs, steps, logits), *others = runs
    assert any(s["preempted"] for s in steps), "the workload should run out of blocks"
    assert any(e["kind"] == "hit" for s in steps for e in s["blocks"]), "the workload should hit the prefix cache"
    for other_outputs, other_steps, other_logits in others:
        assert other_outputs == outputs
        assert other_steps == steps
        note(f"engine batch float64 {device}", max(worst(logits[r], other_logits[r]) for r in logits), "float64")


def test_engine_hooks_and_cache_layout():
    ours = LlamaModel(tiny_config("MQA"))
    model = tb.TorchLlamaModel.from_numpy(ours, "cpu")
    engine = LLMEngine(model, num_blocks=5, block_size=4, kernel=tb.paged_attention)
    assert isinstance(engine.cache, tb.TorchKVCache)
    assert tuple(engine.cache.k.shape) == tuple(KVCache(ours.config, 5, 4).k.shape) == (2, 5, 4, 1, 8)
    assert engine.cache.bytes_reserved == KVCache(ours.config, 5, 4).bytes_reserved
    assert engine.config["kernel"] == "paged_attention"
    with pytest.raises(TypeError, match="not a torch attention backend"):
        model.forward([1, 2], [0, 1], object())
    with pytest.raises(ValueError, match="needs a K/V cache"):
        tb.TorchNoCacheAttention(tb.paged_attention)
    with pytest.raises(TypeError, match="no torch counterpart"):
        tb.torch_kernel(lambda *a: None)


def test_describe_device():
    assert tb.describe_gpu("cpu") is None
    text = describe_cpu()  # the header of a run on torch's CPU, as of the numpy backend's traces
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        names = re.findall(r"^model name\s*:\s*(.+)$", f.read(), flags=re.M)
    if names:
        assert names[0].strip() in text


@gpu
def test_describe_device_names_the_gpu():
    assert torch.cuda.get_device_name(0) in tb.describe_gpu("cuda")
    assert tb.pick_device().type == "cuda"


# ------------------------------------------------------------------------------------ recording on torch
@pytest.mark.parametrize("device", DEVICES)
def test_a_realistic_scenario_recorded_on_torch_is_the_numpy_run_labelled_with_its_machine(device, tmp_path):
    from engine import backends
    from recorder import cli, scenarios, tracer
    name = "paged-attention-pressure"  # preemption, recompute and evictions: the most moving parts
    assert cli.main(["record", name, "--backend", "torch", "--device", device, "--dir", str(tmp_path)]) == 0
    on_torch = tracer.load(tmp_path / f"{name}.json")
    tracer.validate(on_torch)
    assert on_torch["recorded"]["backend"] == "torch"
    assert on_torch["recorded"]["device"] == (tb.describe_gpu(device) or describe_cpu())
    on_numpy = scenarios.get(name).record()
    assert on_numpy["recorded"]["backend"] == "numpy"
    same = {**tracer.without_measurements(on_numpy)["recorded"], "backend": "torch"}
    assert tracer.without_measurements(on_torch) == {**tracer.without_measurements(on_numpy), "recorded": same}
    # asking torch of a scenario without the Llama model says which ones can
    assert cli.main(["record", "decode-toy", "--backend", "torch", "--dir", str(tmp_path)]) == 2
    assert not (tmp_path / "decode-toy.json").exists()
    assert backends.get("torch", device).model(scenarios.model()).device.type == device


# ------------------------------------------------------------------------------------ kernel parity
SHAPES = [(4, 4, 8), (4, 2, 6), (6, 1, 5)]  # heads, kv_heads, head_dim: MHA, GQA, MQA (odd dims pad)


def random_qkv(shape, dtype, tokens=9, keys=23, seed=0):
    heads, kv_heads, dim = shape
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((tokens, heads, dim)).astype(dtype)
    k = rng.standard_normal((keys, kv_heads, dim)).astype(dtype)
    v = rng.standard_normal((keys, kv_heads, dim)).astype(dtype)
    # Keys out of position order: early tiles can be fully masked for some queries (m stays −inf).
    k_pos = rng.permutation(keys)
    q_pos = np.arange(keys - tokens, keys) - 3
    return q, k, v, q_pos, k_pos


def as_torch(device, *arrays):
    return [torch.as_tensor(a, device=device) for a in arrays]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("causal", [True, False])
def test_torch_dense_and_tiled_kernels_match_numpy(shape, dtype, causal):
    q, k, v, q_pos, k_pos = random_qkv(shape, dtype)
    scale = shape[2] ** -0.5
    np_record = []
    expected = dense_attention(q, k, v, q_pos, k_pos, scale, causal, np_record)
    t_record = []
    out = tb.dense_attention(*as_torch("cpu", q, k, v, q_pos, k_pos), scale, causal, t_record)
    diffs = [float(np.abs(out.numpy() - expected).max()),
             float(np.abs(t_record[0]["weights"] - np_record[0]["weights"]).max())]
    for tile in (1, 7, 64, len(k)):
        np_steps, t_steps = [], []
        tiled_attention(q, k, v, q_pos, k_pos, scale, causal, np_steps, tile_size=tile)
        out = tb.tiled(tile)(*as_torch("cpu", q, k, v, q_pos, k_pos), scale, causal, t_steps)
        diffs.append(float(np.abs(out.numpy() - expected).max()))
        assert [s["keys"] for s in t_steps] == [s["keys"] for s in np_steps]
        for a, b in zip(t_steps, np_steps, strict=True):  # m, l, u after every tile, as the traces show them
            assert np.array_equal(np.isneginf(a["m"]), np.isneginf(b["m"]))
            finite = ~np.isneginf(b["m"])
            diffs += [float(np.abs(a["m"][finite] - b["m"][finite]).max(initial=0)),
                      float(np.abs(a["l"] - b["l"]).max()), float(np.abs(a["u"] - b["u"]).max())]
    note(f"torch kernels {dtype}", max(diffs), dtype)


def random_paged_batch(shape, dtype, block_size, seed=0):
    """A numpy KVCache with three sequences in scattered blocks (unused slots stay NaN), and the
    forward pass's tokens: a decode token, a prefill chunk after a cached prefix, a whole prompt."""
    heads, kv_heads, dim = shape
    config = SimpleNamespace(num_layers=1, num_kv_heads=kv_heads, head_dim=dim, dtype=dtype)
    rng = np.random.default_rng(seed)
    lengths, new = [17, 11, 6], [1, 5, 6]
    needed = [-(-n // block_size) for n in lengths]
    cache = KVCache(config, sum(needed) + 3, block_size)
    physical = rng.permutation(cache.num_blocks)
    tables, start = [], 0
    for n in needed:
        tables.append([int(b) for b in physical[start:start + n]])
        start += n
    q_rows, q_pos, seq_of_token = [], [], []
    for row, (table, length, fresh) in enumerate(zip(tables, lengths, new, strict=True)):
        k = rng.standard_normal((length, kv_heads, dim)).astype(dtype)
        v = rng.standard_normal((length, kv_heads, dim)).astype(dtype)
        cache.write(0, table, np.arange(length), k, v)
        q_rows.append(rng.standard_normal((fresh, heads, dim)).astype(dtype))
        q_pos += list(range(length - fresh, length))
        seq_of_token += [row] * fresh
    q = np.concatenate(q_rows)
    expected = np.empty_like(q)
    scale = dim ** -0.5
    for t, (row, pos) in enumerate(zip(seq_of_token, q_pos, strict=True)):
        k_ctx, v_ctx = cache.read(0, tables[row], lengths[row])
        expected[t:t + 1] = dense_attention(q[t:t + 1], k_ctx, v_ctx, [pos], np.arange(lengths[row]), scale)
    width = max(len(t) for t in tables)
    padded = np.array([t + [0] * (width - len(t)) for t in tables], dtype=np.int64)
    args = (q, cache.k[0], cache.v[0], padded, np.array(seq_of_token), np.array(q_pos))
    return args, scale, expected


PAGED_KERNELS = [pytest.param("torch", id="torch"), pytest.param("triton", id="triton", marks=needs_triton)]


def paged_kernel(name):
    return tb.paged_attention if name == "torch" else tk.paged_attention


@pytest.mark.parametrize("impl", PAGED_KERNELS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("block_size", [1, 3, 4, 16])
def test_paged_kernel_matches_numpy(impl, shape, dtype, block_size):
    args, scale, expected = random_paged_batch(shape, dtype, block_size)
    assert np.isnan(args[1]).any()  # unwritten slots are there to be (not) read
    device = "cpu" if impl == "torch" else TRITON_DEVICE
    out = paged_kernel(impl)(*as_torch(device, *args), scale)
    assert not torch.isnan(out).any()
    note(f"{impl} paged kernel {dtype}", float(np.abs(out.cpu().numpy() - expected).max()), dtype)


@needs_triton
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("causal", [True, False])
def test_triton_tiled_kernel_matches_numpy(shape, dtype, causal):
    q, k, v, q_pos, k_pos = random_qkv(shape, dtype, tokens=19)  # two query tiles of 16
    scale = shape[2] ** -0.5
    expected = dense_attention(q, k, v, q_pos, k_pos, scale, causal)
    for tile in (1, 4, 16, 64):
        out = tk.tiled(tile)(*as_torch(TRITON_DEVICE, q, k, v, q_pos, k_pos), scale, causal)
        note(f"triton tiled kernel {dtype}", float(np.abs(out.cpu().numpy() - expected).max()), dtype)


@needs_triton
def test_triton_kernels_refuse_what_they_cannot_do():
    with pytest.raises(ValueError, match="power of two"):
        tk.tiled(5)
    q, k, v, q_pos, k_pos = as_torch(TRITON_DEVICE, *random_qkv(SHAPES[0], "float64"))
    with pytest.raises(ValueError, match="records nothing"):
        tk.tiled(4)(q, k, v, q_pos, k_pos, 0.5, True, [])
    with pytest.raises(TypeError, match="float32 or float64"):
        tk.tiled(4)(q.half(), k.half(), v.half(), q_pos, k_pos, 0.5)


@needs_triton
@pytest.mark.parametrize(("kind", "dtype", "kernel"), [("GQA", "float64", "paged"), ("MQA", "float32", "paged"),
                                                       ("MHA", "float64", "tiled")])
def test_engine_with_triton_kernels_matches_numpy(kind, dtype, kernel):
    ours = LlamaModel(tiny_config(kind, dtype=dtype))
    model = tb.TorchLlamaModel.from_numpy(ours, TRITON_DEVICE)
    prompt, steps = PROMPT[:11], 6
    reference = greedy_paged(ours, prompt, steps)
    triton_kernel = tk.paged_attention if kernel == "paged" else tk.tiled(4)
    tokens, logits = single_request(model, triton_kernel, block_size=3, budget=5, steps=steps, prompt=prompt)
    assert tokens == reference.tokens
    note(f"engine triton {kernel} {kind} {dtype} {TRITON_DEVICE}", worst(logits, reference.logits), dtype)


@gpu
@needs_triton
def test_triton_kernels_are_compiled_on_the_gpu():
    """On a GPU machine the Triton tests above must have run compiled kernels, not the interpreter."""
    assert not tk.INTERPRETED


def test_report_max_differences():
    """Prints the measured differences (run with -s, or see the make test-peer output)."""
    if not RESULTS:
        pytest.skip("no comparisons ran before this test")
    for key, value in sorted(RESULTS.items()):
        print(f"torch backend: {key}: max |Δ| = {value:.3e}")
