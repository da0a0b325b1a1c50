"""The Decode article's toy model (CONCEPTS.md §17) as an engine model.

Three tokens with fixed two-dimensional vectors, A = (1, 0), B = (0, 1), C = (−1, −1). One attention
with Q = K = V = the token's vector and scale 1/√2; no positions, no norm, no MLP, no training. The
output h = (h₀, h₁) of the newest position gives the logits [h₁, h₀, −h₀−h₁] for A, B, C.

It has the engine model's interface (``config`` with the cache shape, ``forward(ids, positions,
attn)``), so the paged cache, the kernels and later the scheduler and tracer run it unchanged: the
decode page's recorded run is literally the article's example. Prompt A B gives h ≈ (0.330, 0.670)
and chooses A; greedy decoding then alternates B, A, B, … (the article says "repeats"; CONCEPTS.md D2).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from engine.tokenizer import CharTokenizer

ALPHABET = "ABC"
VECTORS = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
# Rows give the logits of A, B, C from h: [h₁, h₀, −h₀−h₁].
LOGIT_MATRIX = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])


@dataclass(frozen=True)
class ToyConfig:
    """Same field names as ``ModelConfig`` where the cache and the tracer need them; one head."""

    name: str = "decode-toy"
    vocab_size: int = 3
    num_layers: int = 1
    num_heads: int = 1
    num_kv_heads: int = 1
    head_dim: int = 2
    dtype: str = "float64"

    @property
    def attention_kind(self) -> str:
        return "MHA"

    def to_dict(self) -> dict:
        return asdict(self)


class ToyDecodeModel:
    scale = 1 / np.sqrt(2)  # equals head_dim ** −0.5 for head_dim 2, as in the Llama model

    def __init__(self, dtype: str = "float64"):
        self.config = ToyConfig(dtype=dtype)
        self.tokenizer = CharTokenizer(ALPHABET)

    def hidden(self, token_ids, positions, attn) -> np.ndarray:
        """h for every position ``[tokens, 2]``: attention of each position over its visible context."""
        x = VECTORS.astype(self.config.dtype)[np.asarray(token_ids, dtype=np.int64)]
        qkv = x[:, None, :]  # one head; Q = K = V = the token vector
        return attn(0, qkv, qkv, qkv, np.asarray(positions, dtype=np.int64), self.scale)[:, 0, :]

    def forward(self, token_ids, positions, attn) -> np.ndarray:
        return self.hidden(token_ids, positions, attn) @ LOGIT_MATRIX.astype(self.config.dtype).T


# --------------------------------------------------------------------------- Prefill article (§19)
class ValueTokenizer:
    """Token i is the number i: the prefill article's values read as themselves in a trace."""

    def __init__(self, vocab_size: int):
        self.vocab_size = vocab_size

    def token_text(self, token_id: int) -> str:
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} outside 0…{self.vocab_size - 1}")
        return str(token_id)

    def decode(self, ids) -> str:
        return " ".join(self.token_text(int(i)) for i in ids)


class RunningMeanModel:
    """The Prefill article's single head (CONCEPTS.md §19): all queries and keys 1, values = the tokens.

    Equal scores make the causal weights uniform, so the output at position i is the mean of the values
    at positions 0…i: [2, 4, 8, 10] → [2, 3, 14/3, 6], whether the prompt runs in one pass or in chunks
    that read earlier positions from the cache. Queries and keys are stored as 0 rather than 1: the
    scores are then 0 instead of 1, the same softmax. The next token is the value nearest the last
    output. ``outputs`` keeps (positions, values) of every forward pass for the tracer.
    """

    scale = 1.0

    def __init__(self, vocab_size: int = 16, dtype: str = "float64"):
        self.config = ToyConfig(name="running-mean", vocab_size=vocab_size, head_dim=1, dtype=dtype)
        self.tokenizer = ValueTokenizer(vocab_size)
        self.outputs: list[tuple[np.ndarray, np.ndarray]] = []

    def forward(self, token_ids, positions, attn) -> np.ndarray:
        values = np.asarray(token_ids, dtype=self.config.dtype)[:, None, None]
        zeros = np.zeros_like(values)
        out = attn(0, zeros, zeros, values, np.asarray(positions, dtype=np.int64), self.scale)[:, 0, 0]
        self.outputs.append((np.asarray(positions).copy(), out.copy()))
        vocab = np.arange(self.config.vocab_size, dtype=self.config.dtype)
        return -((out[:, None] - vocab[None, :]) ** 2)


# --------------------------------------------------------------------- Speculative article (§20)
ARTICLE_P = (0.2, 0.5, 0.3)  # the target's p over A, B, C
ARTICLE_Q = (0.6, 0.3, 0.1)  # the draft's q


@dataclass(frozen=True)
class ConstantConfig:
    probs: tuple[float, ...]
    num_layers: int = 1
    num_heads: int = 1
    num_kv_heads: int = 1
    head_dim: int = 1
    dtype: str = "float64"

    @property
    def vocab_size(self) -> int:
        return len(self.probs)

    def to_dict(self) -> dict:
        return {"name": "constant", "vocab_size": self.vocab_size, "probs": list(self.probs), "dtype": self.dtype}


class ConstantModel:
    """A "model" whose next-token distribution is the same at every position: the speculative
    decoding article's p (target) or q (draft) over A, B, C, turned into a decoding run."""

    def __init__(self, probs):
        self.config = ConstantConfig(tuple(float(p) for p in probs))
        self.tokenizer = CharTokenizer(ALPHABET[:len(probs)]) if len(probs) <= 3 else None

    def forward(self, token_ids, positions, attn=None) -> np.ndarray:
        return np.tile(np.log(np.asarray(self.config.probs)), (len(token_ids), 1))
