"""A tiny decoder-only transformer with the Llama architecture, in numpy.

Per layer (pre-norm, residual around each half):

    x = x + o_proj(attention(rope(q_proj(h)), rope(k_proj(h)), v_proj(h)))    h = RMSNorm(x)
    x = x + down_proj(silu(gate_proj(h)) · up_proj(h))                        h = RMSNorm(x)

then a final RMSNorm and the LM head. It is the architecture of Transformers' ``LlamaForCausalLM``
(no biases, RoPE in the "rotate_half" layout, K/V heads shared by groups of query heads), so a
Transformers model with random weights can check it number for number (``tests/peer``).

Weights are kept under Transformers' names and in PyTorch's ``[out, in]`` layout, so a state dict maps
over name for name. Nothing is downloaded: ``init_weights`` draws them from a seed.

The model does not own a KV cache. ``forward`` gets an attention backend (``attention.py``) that knows
where K/V of earlier positions are, so the same code runs a whole prompt, a chunk of a prompt at
positions 17…23, or one decode token, alone or in a batch with other sequences.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

import numpy as np

from engine.tokenizer import CharTokenizer

DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int = 48
    hidden_size: int = 32
    num_layers: int = 2
    num_heads: int = 4
    num_kv_heads: int = 2  # = num_heads: MHA; 1: MQA; in between: GQA
    head_dim: int = 8
    intermediate_size: int = 64
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-6
    dtype: str = "float64"
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("vocab_size", "hidden_size", "num_layers", "num_heads", "num_kv_heads", "head_dim",
                     "intermediate_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"ModelConfig.{name} must be a positive integer, got {value!r}")
        if self.num_heads % self.num_kv_heads:
            raise ValueError(
                f"num_heads={self.num_heads} is not a multiple of num_kv_heads={self.num_kv_heads}: "
                "every K/V head must serve the same number of query heads"
            )
        if self.head_dim % 2:
            raise ValueError(f"head_dim={self.head_dim} must be even: RoPE rotates pairs of numbers")
        if self.dtype not in DTYPES:
            raise ValueError(f"dtype must be one of {DTYPES}, got {self.dtype!r}")
        if not self.rope_theta > 0 or not self.rms_norm_eps > 0:
            raise ValueError("rope_theta and rms_norm_eps must be positive")

    @property
    def attention_kind(self) -> str:
        if self.num_kv_heads == self.num_heads:
            return "MHA"
        return "MQA" if self.num_kv_heads == 1 else "GQA"

    def to_dict(self) -> dict:
        return asdict(self)

    def to_hf(self) -> dict:
        """Keyword arguments for ``transformers.LlamaConfig`` describing the same architecture."""
        return {
            "vocab_size": self.vocab_size, "hidden_size": self.hidden_size, "intermediate_size": self.intermediate_size,
            "num_hidden_layers": self.num_layers, "num_attention_heads": self.num_heads,
            "num_key_value_heads": self.num_kv_heads, "head_dim": self.head_dim, "rms_norm_eps": self.rms_norm_eps,
            "rope_theta": self.rope_theta, "hidden_act": "silu", "attention_bias": False, "mlp_bias": False,
            "tie_word_embeddings": False,
        }


def weight_shapes(config: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Every parameter under its Transformers name, with its shape ([out, in] for projections)."""
    c = config
    shapes = {"model.embed_tokens.weight": (c.vocab_size, c.hidden_size)}
    for i in range(c.num_layers):
        p = f"model.layers.{i}."
        shapes |= {
            p + "input_layernorm.weight": (c.hidden_size,),
            p + "self_attn.q_proj.weight": (c.num_heads * c.head_dim, c.hidden_size),
            p + "self_attn.k_proj.weight": (c.num_kv_heads * c.head_dim, c.hidden_size),
            p + "self_attn.v_proj.weight": (c.num_kv_heads * c.head_dim, c.hidden_size),
            p + "self_attn.o_proj.weight": (c.hidden_size, c.num_heads * c.head_dim),
            p + "post_attention_layernorm.weight": (c.hidden_size,),
            p + "mlp.gate_proj.weight": (c.intermediate_size, c.hidden_size),
            p + "mlp.up_proj.weight": (c.intermediate_size, c.hidden_size),
            p + "mlp.down_proj.weight": (c.hidden_size, c.intermediate_size),
        }
    shapes |= {"model.norm.weight": (c.hidden_size,), "lm_head.weight": (c.vocab_size, c.hidden_size)}
    return shapes


def init_weights(config: ModelConfig) -> dict[str, np.ndarray]:
    """Deterministic random weights from ``config.seed``, drawn in float64 and cast to ``config.dtype``.

    Scaled so that signals stay of order 1 through the layers (projections ~ N(0, 1/fan_in)) and the
    logits are clearly different from each other, which makes greedy choices robust and the traces
    less boring than with a trained model's typical 0.02. Norm weights are not all ones, so a mix-up
    of the two norms would show. The float32 and float64 models of one seed are the same model.
    """
    rng = np.random.default_rng(config.seed)
    weights = {}
    for name, shape in weight_shapes(config).items():
        if name.endswith("norm.weight"):
            w = 1.0 + 0.1 * rng.standard_normal(shape)
        elif name == "model.embed_tokens.weight":
            w = rng.standard_normal(shape)
        else:
            w = rng.standard_normal(shape) / np.sqrt(shape[1])
        weights[name] = w.astype(config.dtype)
    return weights


def rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * weight


def silu(x: np.ndarray) -> np.ndarray:
    # x·sigmoid(x), with sigmoid written through tanh: no overflow warning for large |x|.
    return x * (0.5 + 0.5 * np.tanh(0.5 * x))


def rope(x: np.ndarray, positions: np.ndarray, theta: float) -> np.ndarray:
    """Rotary position embedding, Llama/Transformers layout ("rotate_half").

    Dimension i of the first half and dimension i of the second half form one pair, rotated by the
    angle position·θ^(−2i/d). (The RoFormer paper pairs neighbours 2i, 2i+1 instead; both are the
    same rotation up to a fixed permutation of dimensions, but only this one matches Llama weights.)
    """
    dim = x.shape[-1]
    inv_freq = theta ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq[None, :]
    cos = np.cos(np.concatenate([angles, angles], axis=-1)).astype(x.dtype)[:, None, :]
    sin = np.sin(np.concatenate([angles, angles], axis=-1)).astype(x.dtype)[:, None, :]
    half = dim // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)  # rotate_half
    return x * cos + rotated * sin


def _check_ids(config: ModelConfig, token_ids, positions) -> tuple[np.ndarray, np.ndarray]:
    """Token ids and positions as int64 arrays, refused unless they pair up and fit the vocabulary
    (every backend's forward pass takes the same input)."""
    token_ids = np.asarray(token_ids, dtype=np.int64)
    positions = np.asarray(positions, dtype=np.int64)
    if token_ids.shape != positions.shape or token_ids.ndim != 1:
        raise ValueError("token_ids and positions must be 1-D and of the same length")
    if token_ids.size and (token_ids.min() < 0 or token_ids.max() >= config.vocab_size):
        raise ValueError(f"token ids must lie in 0…{config.vocab_size - 1}")
    return token_ids, positions


class LlamaModel:
    def __init__(self, config: ModelConfig, weights: dict[str, np.ndarray] | None = None):
        self.config = config
        weights = init_weights(config) if weights is None else weights
        shapes = weight_shapes(config)
        missing = sorted(set(shapes) - set(weights))
        unknown = sorted(set(weights) - set(shapes))
        if missing or unknown:
            raise ValueError(f"weights do not fit the config: missing {missing[:3]}, unexpected {unknown[:3]}")
        self.weights = {}
        for name, shape in shapes.items():
            w = np.asarray(weights[name], dtype=config.dtype)
            if w.shape != shape:
                raise ValueError(f"weight {name} has shape {w.shape}, the config needs {shape}")
            self.weights[name] = w

    @classmethod
    def from_state_dict(cls, config: ModelConfig, state: dict) -> LlamaModel:
        """From a Transformers ``LlamaForCausalLM`` state dict (values: numpy arrays or anything
        ``np.asarray`` converts). Rotary buffers, if present, are recomputed rather than loaded."""
        return cls(config, {k: np.asarray(v) for k, v in state.items() if "rotary_emb" not in k})

    def forward(self, token_ids, positions, attn) -> np.ndarray:
        """Logits ``[tokens, vocab]`` for ``token_ids`` at ``positions``; ``attn`` supplies the context."""
        c, w = self.config, self.weights
        token_ids, positions = _check_ids(c, token_ids, positions)
        scale = c.head_dim ** -0.5
        x = w["model.embed_tokens.weight"][token_ids]
        n = len(token_ids)
        for i in range(c.num_layers):
            p = f"model.layers.{i}."
            h = rms_norm(x, w[p + "input_layernorm.weight"], c.rms_norm_eps)
            q = (h @ w[p + "self_attn.q_proj.weight"].T).reshape(n, c.num_heads, c.head_dim)
            k = (h @ w[p + "self_attn.k_proj.weight"].T).reshape(n, c.num_kv_heads, c.head_dim)
            v = (h @ w[p + "self_attn.v_proj.weight"].T).reshape(n, c.num_kv_heads, c.head_dim)
            q, k = rope(q, positions, c.rope_theta), rope(k, positions, c.rope_theta)
            o = attn(i, q, k, v, positions, scale).reshape(n, c.num_heads * c.head_dim)
            x = x + o @ w[p + "self_attn.o_proj.weight"].T
            h = rms_norm(x, w[p + "post_attention_layernorm.weight"], c.rms_norm_eps)
            gate = silu(h @ w[p + "mlp.gate_proj.weight"].T)
            x = x + (gate * (h @ w[p + "mlp.up_proj.weight"].T)) @ w[p + "mlp.down_proj.weight"].T
        x = rms_norm(x, w["model.norm.weight"], c.rms_norm_eps)
        return x @ w["lm_head.weight"].T


def regroup_kv_heads(model: LlamaModel, num_kv_heads: int) -> LlamaModel:
    """The same model with ``num_kv_heads`` K/V heads, made from its own K/V projections.

    More heads (GQA → MHA): each K/V head is copied for every query head of its group, so the model
    computes exactly the same, only its KV cache is larger. Fewer heads (GQA → MQA): the heads of each
    new group are averaged, as Ainslie et al. (2023) start a GQA model from an MHA checkpoint ("mean
    pooling"); without the short retraining they follow it with, the outputs change somewhat.
    """
    c = model.config
    kv = c.num_kv_heads
    if num_kv_heads % kv and kv % num_kv_heads:
        raise ValueError(f"{num_kv_heads} K/V heads do not regroup the model's {kv}: one must divide the other")
    config = replace(c, num_kv_heads=num_kv_heads)  # checks that num_heads is a multiple
    weights = dict(model.weights)
    for i in range(c.num_layers):
        for proj in ("k_proj", "v_proj"):
            name = f"model.layers.{i}.self_attn.{proj}.weight"
            heads = weights[name].reshape(kv, c.head_dim, c.hidden_size)
            if num_kv_heads >= kv:
                heads = np.repeat(heads, num_kv_heads // kv, axis=0)
            else:
                heads = heads.reshape(num_kv_heads, kv // num_kv_heads, c.head_dim, c.hidden_size).mean(axis=1)
            weights[name] = heads.reshape(num_kv_heads * c.head_dim, c.hidden_size)
    out = LlamaModel(config, weights)
    for attribute in ("tokenizer", "name"):
        if hasattr(model, attribute):
            setattr(out, attribute, getattr(model, attribute))
    return out


def tiny_config(kind: str = "GQA", **overrides) -> ModelConfig:
    """The engine's standard tiny models: 4 query heads over 4 (MHA), 2 (GQA) or 1 (MQA) K/V heads."""
    kv = {"MHA": 4, "GQA": 2, "MQA": 1}
    if kind not in kv:
        raise ValueError(f"unknown attention kind {kind!r}; choose one of {sorted(kv)}")
    return ModelConfig(**{"num_heads": 4, "num_kv_heads": kv[kind], **overrides})


def tiny_model(kind: str = "GQA", **overrides) -> LlamaModel:
    """A tiny model with the character tokenizer, so traces carry readable text: the recorded runs
    (``scenarios``) and the readers' own runs (probierlabor/live) use this same model."""
    model = LlamaModel(tiny_config(kind, **overrides))
    model.tokenizer = CharTokenizer()
    return model
