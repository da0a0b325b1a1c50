"""The engine's model and attention kernels in PyTorch: the same numbers on a CUDA GPU (or the CPU).

``TorchLlamaModel`` holds the weights of a numpy ``LlamaModel`` as torch tensors and computes the same
forward pass, operation for operation (RMSNorm, RoPE "rotate_half", GQA, SwiGLU), in float32 or
float64. It plugs into ``LLMEngine`` through two hooks the engine looks for on a model:

* ``new_cache(num_blocks, block_size)`` – the paged K/V store, here ``TorchKVCache`` (tensors on the
  model's device, same layout ``[layer, block, offset, kv_head, head_dim]`` as ``paged_kv.KVCache``);
* ``paged_attention(cache, segments, kernel)`` – the attention backend of one forward pass, here
  ``TorchPagedAttention``.

``forward`` returns numpy logits, so sampling, ``keep_logits`` and the step records stay as they are;
the copy to the host also waits for the GPU, so the engine's ``wall_time_s`` is the real step time.

Kernels, with the numpy kernels' signature ``kernel(q, k, v, q_pos, k_pos, scale, causal, record)``
on torch tensors (positions as int64 tensors on the same device):

* ``dense_attention`` – the whole score matrix, one softmax;
* ``tiled(tile_size)`` – FlashAttention's online softmax over key tiles (records m, l, u per tile
  like the numpy kernel);

and one *paged* kernel (``kernel.paged`` is true) that reads K/V straight from the cache through the
block tables, for every token of the forward pass at once, without first gathering a sequence's K/V:

* ``paged_attention(q, k_cache, v_cache, block_tables, seq_of_token, q_pos, scale)`` – online softmax
  with one cache block as the tile (vLLM's PagedAttention). ``triton_kernels.py`` has the same
  kernel, and the tiled one, in Triton.

A numpy kernel handed to the torch backend (the engine's default ``dense_attention``, or
``attention.tiled(n)``) is replaced by its torch counterpart (``torch_kernel``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from engine import attention as np_attention
from engine.attention import Segment, positions_of
from engine.model import LlamaModel, _check_ids, weight_shapes

TORCH_DTYPES = {"float32": torch.float32, "float64": torch.float64}


def pick_device() -> torch.device:
    """``cuda`` where a CUDA GPU is usable, else ``cpu``."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def describe_gpu(device: str | torch.device | None = None) -> str | None:
    """The GPU in words (name, memory, CUDA version); None when ``device`` is the CPU."""
    device = torch.device(device) if device is not None else pick_device()
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        return f"GPU: {props.name} ({props.total_memory / 2**30:.0f} GiB, CUDA {torch.version.cuda})"
    return None


# ------------------------------------------------------------------------------------------ kernels
def _expand_kv(q, k, v):
    heads, kv_heads = q.shape[1], k.shape[1]
    if heads % kv_heads:
        raise ValueError(f"{heads} query heads cannot share {kv_heads} K/V heads evenly")
    group = heads // kv_heads
    # [k0, k0, k1, k1] for 4 heads over 2 K/V heads: Transformers' repeat_kv order, as in numpy.
    return k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)


def _to_numpy(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy().copy()


def dense_attention(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
    """softmax(q·kᵀ·scale) v over all keys at once; records the weights ``[heads, tokens, keys]``."""
    k, v = _expand_kv(q, k, v)
    scores = torch.einsum("thd,shd->hts", q, k) * scale
    if causal:
        scores = scores.masked_fill((k_pos[None, :] > q_pos[:, None])[None], float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    if record is not None:
        record.append({"weights": _to_numpy(weights)})
    return torch.einsum("hts,shd->thd", weights, v)


def _online_softmax_step(m, l, s):
    """One tile of the online softmax: new maximum and sum, the rescale factor e^{m − m′} for what was
    summed before, and the tile's unnormalised weights p (keys on the last axis of ``s``)."""
    m_new = torch.maximum(m, s.amax(dim=-1))
    # Rows that have seen only masked keys keep m = −inf; shifting by 0 there avoids −inf − (−inf).
    shift = torch.where(torch.isneginf(m_new), torch.zeros_like(m_new), m_new)
    alpha = torch.exp(m - shift)
    p = torch.exp(s - shift[..., None])
    return m_new, alpha * l + p.sum(dim=-1), alpha, p


def tiled_attention(q, k, v, q_pos, k_pos, scale, causal=True, record=None, *, tile_size):
    """FlashAttention Algorithm 1 (forward) over key tiles of ``tile_size``; records m, l, u per tile."""
    if tile_size < 1:
        raise ValueError(f"tile_size must be at least 1, got {tile_size}")
    k, v = _expand_kv(q, k, v)
    tokens, heads, dim = q.shape
    m = torch.full((heads, tokens), float("-inf"), dtype=q.dtype, device=q.device)
    l = torch.zeros((heads, tokens), dtype=q.dtype, device=q.device)
    u = torch.zeros((heads, tokens, dim), dtype=q.dtype, device=q.device)
    for start in range(0, k.shape[0], tile_size):
        stop = min(start + tile_size, k.shape[0])
        s = torch.einsum("thd,shd->hts", q, k[start:stop]) * scale
        if causal:
            s = s.masked_fill((k_pos[None, start:stop] > q_pos[:, None])[None], float("-inf"))
        m, l, alpha, p = _online_softmax_step(m, l, s)
        u = alpha[..., None] * u + torch.einsum("hts,shd->htd", p, v[start:stop])
        if record is not None:
            record.append({"keys": (start, stop), "m": _to_numpy(m), "l": _to_numpy(l), "u": _to_numpy(u)})
    return (u / l[..., None]).transpose(0, 1)


def tiled(tile_size: int):
    """The torch tiled kernel with a fixed tile size (named ``tiled_<n>`` like the numpy one)."""
    if tile_size < 1:
        raise ValueError(f"tile_size must be at least 1, got {tile_size}")

    def kernel(q, k, v, q_pos, k_pos, scale, causal=True, record=None):
        return tiled_attention(q, k, v, q_pos, k_pos, scale, causal, record, tile_size=tile_size)

    kernel.__name__ = f"tiled_{tile_size}"
    kernel.backend = "torch"
    return kernel


def paged_attention(q, k_cache, v_cache, block_tables, seq_of_token, q_pos, scale, record=None):
    """Causal attention of every token of a forward pass over its sequence's cached K/V.

    ``q`` ``[tokens, heads, head_dim]``; ``k_cache``, ``v_cache`` one layer of the cache
    ``[blocks, block_size, kv_heads, head_dim]``; ``block_tables`` ``[sequences, max_blocks]`` (rows
    padded with any valid block id); ``seq_of_token`` ``[tokens]`` the row of each token; ``q_pos``
    ``[tokens]``. Token at position p reads keys 0…p. The loop runs over block-table columns: one
    cache block is one tile of the online softmax, fetched for all tokens at once by its physical id.
    """
    if record is not None:
        raise ValueError("the paged kernel records nothing; use dense_attention or tiled(n) for records")
    tokens, heads, dim = q.shape
    block_size, kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = heads // kv_heads
    qg = q.reshape(tokens, kv_heads, group, dim)  # query heads of one K/V head side by side
    m = torch.full((tokens, kv_heads, group), float("-inf"), dtype=q.dtype, device=q.device)
    l = torch.zeros_like(m)
    u = torch.zeros_like(qg)
    tables = block_tables[seq_of_token]  # [tokens, max_blocks]
    offsets = torch.arange(block_size, device=q.device)
    num_blocks = int(q_pos.max()) // block_size + 1 if tokens else 0
    for j in range(num_blocks):
        key_pos = j * block_size + offsets  # [block_size]
        valid = key_pos[None, :] <= q_pos[:, None]  # [tokens, block_size]
        phys = tables[:, j]
        # Slots past a token's position may hold NaN (never written) or another step's numbers: mask
        # the scores and zero the values, since 0 · NaN would still be NaN.
        k_blk = k_cache[phys]  # [tokens, block_size, kv_heads, dim]
        v_blk = torch.where(valid[:, :, None, None], v_cache[phys], torch.zeros((), dtype=q.dtype, device=q.device))
        s = torch.einsum("tkgd,tskd->tkgs", qg, k_blk) * scale
        s = s.masked_fill(~valid[:, None, None, :], float("-inf"))
        m, l, alpha, p = _online_softmax_step(m, l, s)
        u = alpha[..., None] * u + torch.einsum("tkgs,tskd->tkgd", p, v_blk)
    return (u / l[..., None]).reshape(tokens, heads, dim)


paged_attention.paged = True
paged_attention.backend = "torch"
dense_attention.backend = "torch"


def torch_kernel(kernel):
    """The torch kernel for ``kernel``: itself if it is one, the counterpart of a numpy kernel otherwise."""
    if getattr(kernel, "backend", None) in ("torch", "triton"):
        return kernel
    if kernel is np_attention.dense_attention:
        return dense_attention
    match = re.fullmatch(r"tiled_(\d+)", getattr(kernel, "__name__", ""))
    if match and getattr(kernel, "__module__", None) == np_attention.__name__:
        return tiled(int(match.group(1)))
    raise TypeError(f"no torch counterpart of kernel {kernel!r}; pass a kernel from engine.torch_backend "
                    "or engine.triton_kernels")


# ------------------------------------------------------------------------------------------ K/V cache
class TorchKVCache:
    """``paged_kv.KVCache`` in torch tensors: ``[layer, block, offset, kv_head, head_dim]`` per K and V."""

    def __init__(self, config, num_blocks: int, block_size: int, device: str | torch.device | None = None):
        if num_blocks < 1 or block_size < 1:
            raise ValueError(f"num_blocks and block_size must be positive, got {num_blocks}, {block_size}")
        self.block_size = block_size
        self.num_blocks = num_blocks
        self.device = torch.device(device) if device is not None else pick_device()
        shape = (config.num_layers, num_blocks, block_size, config.num_kv_heads, config.head_dim)
        # NaN as in the numpy store: a read of a never-written slot poisons the result visibly.
        self.k = torch.full(shape, float("nan"), dtype=TORCH_DTYPES[config.dtype], device=self.device)
        self.v = torch.full_like(self.k, float("nan"))

    @property
    def bytes_reserved(self) -> int:
        return 2 * self.k.numel() * self.k.element_size()

    def slots(self, block_table: Sequence[int], positions: np.ndarray) -> np.ndarray:
        """Flat slot index (block · block_size + offset) of each position of one sequence."""
        positions = np.asarray(positions, dtype=np.int64)
        index = positions // self.block_size
        if len(positions) and int(index.max()) >= len(block_table):
            raise IndexError(
                f"position {int(positions.max())} needs logical block {int(index.max())}, but the block "
                f"table has only {len(block_table)} blocks: allocate before writing"
            )
        return np.asarray(block_table, dtype=np.int64)[index] * self.block_size + positions % self.block_size

    def write_slots(self, layer: int, slots: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
        self.k[layer].view(-1, *self.k.shape[3:])[slots] = k
        self.v[layer].view(-1, *self.v.shape[3:])[slots] = v

    def write(self, layer: int, block_table: Sequence[int], positions, k: torch.Tensor, v: torch.Tensor) -> None:
        slots = torch.as_tensor(self.slots(block_table, positions), device=self.device)
        self.write_slots(layer, slots, k, v)

    def read(self, layer: int, block_table: Sequence[int], length: int) -> tuple[torch.Tensor, torch.Tensor]:
        """K/V of positions 0 … length−1 of one sequence, gathered through its block table."""
        n = -(-length // self.block_size)
        if n > len(block_table):
            raise IndexError(f"{length} positions need {n} blocks, the block table has {len(block_table)}")
        table = torch.as_tensor(list(block_table[:n]), dtype=torch.int64, device=self.device)
        shape = (n * self.block_size, *self.k.shape[3:])
        return self.k[layer, table].reshape(shape)[:length], self.v[layer, table].reshape(shape)[:length]


# ------------------------------------------------------------------------------------------ backends
class TorchNoCacheAttention:
    """Attention among the tokens of this forward pass only: the full-recompute reference."""

    def __init__(self, kernel=dense_attention, record: bool = False):
        self.kernel = torch_kernel(kernel)
        if getattr(self.kernel, "paged", False):
            raise ValueError("a paged kernel needs a K/V cache; use TorchPagedAttention")
        self.records: list[dict] | None = [] if record else None

    def __call__(self, layer, q, k, v, positions, scale):
        pos = torch.as_tensor(np.asarray(positions, dtype=np.int64), device=q.device)
        steps = None if self.records is None else []
        out = self.kernel(q, k, v, pos, pos, scale, True, steps)
        if steps is not None:
            self.records.append({"layer": layer, "segment": 0, "kernel": self.kernel.__name__, "steps": steps})
        return out


class TorchPagedAttention:
    """``attention.PagedAttention`` on a ``TorchKVCache``: write the new K/V, then attend through the
    block tables. The slot of every new token and the block tables are computed once per forward pass
    and shared by all layers."""

    def __init__(self, cache: TorchKVCache, segments: Sequence[Segment], kernel=dense_attention,
                 record: bool = False):
        if any(s.length < 1 or s.start < 0 for s in segments):
            raise ValueError("every segment needs at least one new token and a non-negative start")
        self.cache = cache
        self.segments = list(segments)
        self.kernel = torch_kernel(kernel)
        self.records: list[dict] | None = [] if record else None
        dev = cache.device
        self.positions = positions_of(self.segments)
        slots = [cache.slots(s.block_table, s.positions()) for s in self.segments]
        self.slots = torch.as_tensor(np.concatenate(slots) if slots else np.zeros(0, np.int64), device=dev)
        self.q_pos = torch.as_tensor(self.positions, dtype=torch.int64, device=dev)
        if getattr(self.kernel, "paged", False):
            if record:
                raise ValueError("the paged kernels record nothing; use dense_attention or tiled(n) for records")
            width = max((len(s.block_table) for s in self.segments), default=1)
            tables = np.zeros((len(self.segments), width), dtype=np.int64)  # padding: block 0, never read
            for row, s in enumerate(self.segments):
                tables[row, :len(s.block_table)] = s.block_table
            self.block_tables = torch.as_tensor(tables, device=dev)
            self.seq_of_token = torch.as_tensor(
                np.repeat(np.arange(len(self.segments)), [s.length for s in self.segments]), device=dev)

    def __call__(self, layer, q, k, v, positions, scale):
        if not np.array_equal(np.asarray(positions), self.positions):
            raise ValueError("the forward pass's positions do not match the attention segments")
        # Write first, then read: new tokens attend to themselves through the same path as to the prefix.
        self.cache.write_slots(layer, self.slots, k, v)
        if getattr(self.kernel, "paged", False):
            return self.kernel(q, self.cache.k[layer], self.cache.v[layer], self.block_tables, self.seq_of_token,
                               self.q_pos, scale)
        out = torch.empty_like(q)
        offset = 0
        for index, seg in enumerate(self.segments):
            rows = slice(offset, offset + seg.length)
            context = seg.start + seg.length
            k_ctx, v_ctx = self.cache.read(layer, seg.block_table, context)
            steps = None if self.records is None else []
            k_pos = torch.arange(context, device=q.device)
            out[rows] = self.kernel(q[rows], k_ctx, v_ctx, self.q_pos[rows], k_pos, scale, True, steps)
            if steps is not None:
                self.records.append({"layer": layer, "segment": index, "kernel": self.kernel.__name__,
                                     "steps": steps})
            offset += seg.length
        return out


# ------------------------------------------------------------------------------------------ model
def rms_norm(x, weight, eps):
    return x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + eps) * weight


class TorchLlamaModel:
    """``model.LlamaModel``'s forward pass in torch, with the same weights, on ``device``."""

    def __init__(self, config, weights: dict, device: str | torch.device | None = None):
        self.config = config
        self.device = torch.device(device) if device is not None else pick_device()
        self.dtype = TORCH_DTYPES[config.dtype]
        shapes = weight_shapes(config)
        if set(shapes) != set(weights):
            raise ValueError("weights do not fit the config: "
                             f"missing {sorted(set(shapes) - set(weights))[:3]}, "
                             f"unexpected {sorted(set(weights) - set(shapes))[:3]}")
        self.weights = {}
        for name, shape in shapes.items():
            w = torch.as_tensor(np.asarray(weights[name]), dtype=self.dtype).to(self.device)
            if tuple(w.shape) != shape:
                raise ValueError(f"weight {name} has shape {tuple(w.shape)}, the config needs {shape}")
            self.weights[name] = w
        dim = config.head_dim
        # The angles in float64 as the numpy model does, then cast to the model's dtype.
        self._inv_freq = config.rope_theta ** (
            -torch.arange(0, dim, 2, dtype=torch.float64, device=self.device) / dim)
        self.tokenizer = None

    @classmethod
    def from_numpy(cls, model: LlamaModel, device: str | torch.device | None = None) -> TorchLlamaModel:
        out = cls(model.config, model.weights, device)
        out.tokenizer = getattr(model, "tokenizer", None)
        if hasattr(model, "name"):  # the trained model's name, for the trace header (tracer.model_info)
            out.name = model.name
        return out

    # Hooks LLMEngine looks for: the K/V store and the attention backend of this model's kind.
    def new_cache(self, num_blocks: int, block_size: int) -> TorchKVCache:
        return TorchKVCache(self.config, num_blocks, block_size, self.device)

    def paged_attention(self, cache: TorchKVCache, segments: Sequence[Segment], kernel=dense_attention,
                        record: bool = False) -> TorchPagedAttention:
        return TorchPagedAttention(cache, segments, kernel, record)

    def _rope(self, x, positions):
        angles = positions.to(torch.float64)[:, None] * self._inv_freq[None, :]
        angles = torch.cat([angles, angles], dim=-1)
        cos, sin = torch.cos(angles).to(x.dtype)[:, None, :], torch.sin(angles).to(x.dtype)[:, None, :]
        half = x.shape[-1] // 2
        return x * cos + torch.cat([-x[..., half:], x[..., :half]], dim=-1) * sin

    def forward(self, token_ids, positions, attn) -> np.ndarray:
        """Logits ``[tokens, vocab]`` as a numpy array (see ``forward_tensor``)."""
        return self.forward_tensor(token_ids, positions, attn).cpu().numpy()

    @torch.inference_mode()
    def forward_tensor(self, token_ids, positions, attn) -> torch.Tensor:
        """Logits on the device. ``attn`` is a torch backend; a numpy ``NoCacheAttention`` is accepted
        and run with its kernel's torch counterpart (so ``generate.greedy_recompute`` works)."""
        c, w = self.config, self.weights
        token_ids, positions = _check_ids(c, token_ids, positions)
        if isinstance(attn, np_attention.NoCacheAttention):
            if attn.records is not None:
                raise ValueError("records of a numpy backend are numpy's; use TorchNoCacheAttention(record=True)")
            attn = TorchNoCacheAttention(attn.kernel)
        elif not isinstance(attn, TorchNoCacheAttention | TorchPagedAttention):
            raise TypeError(f"{type(attn).__name__} is not a torch attention backend")
        pos = torch.as_tensor(positions, device=self.device)
        scale = c.head_dim ** -0.5
        x = w["model.embed_tokens.weight"][torch.as_tensor(token_ids, device=self.device)]
        n = len(token_ids)
        for i in range(c.num_layers):
            p = f"model.layers.{i}."
            h = rms_norm(x, w[p + "input_layernorm.weight"], c.rms_norm_eps)
            q = (h @ w[p + "self_attn.q_proj.weight"].T).reshape(n, c.num_heads, c.head_dim)
            k = (h @ w[p + "self_attn.k_proj.weight"].T).reshape(n, c.num_kv_heads, c.head_dim)
            v = (h @ w[p + "self_attn.v_proj.weight"].T).reshape(n, c.num_kv_heads, c.head_dim)
            q, k = self._rope(q, pos), self._rope(k, pos)
            o = attn(i, q, k, v, positions, scale).reshape(n, c.num_heads * c.head_dim)
            x = x + o @ w[p + "self_attn.o_proj.weight"].T
            h = rms_norm(x, w[p + "post_attention_layernorm.weight"], c.rms_norm_eps)
            gate = F.silu(h @ w[p + "mlp.gate_proj.weight"].T)
            x = x + (gate * (h @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
        x = rms_norm(x, w["model.norm.weight"], c.rms_norm_eps)
        return x @ w["lm_head.weight"].T
