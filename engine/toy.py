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

from dataclasses import dataclass

import numpy as np

from engine.tokenizer import CharTokenizer

ALPHABET = "ABC"
VECTORS = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
# Rows give the logits of A, B, C from h: [h₁, h₀, −h₀−h₁].
LOGIT_MATRIX = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, -1.0]])


@dataclass(frozen=True)
class ToyConfig:
    """Same field names as ``ModelConfig`` where the cache and the tracer need them."""

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
        return {"name": "decode-toy", "vocab_size": 3, "num_layers": 1, "num_heads": 1, "num_kv_heads": 1,
                "head_dim": 2, "dtype": self.dtype}


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
