"""Sampling: from rows of logits to tokens.

Greedy takes the largest logit (ties go to the lowest id, as ``np.argmax`` does). Sampling applies
the rules in Transformers' order (``TemperatureLogitsWarper``, ``TopKLogitsWarper``,
``TopPLogitsWarper``) and then draws from the softmax of what is left:

1. temperature T: logits / T (T < 1 sharpens, T > 1 flattens);
2. top-k: keep every token whose logit is at least the k-th largest, so tokens tied with the k-th are
   all kept (Transformers compares with ``< topk(...)[-1]``, which keeps ties as well);
3. top-p (nucleus): sort by probability, largest first, ties by lower id, and keep the shortest
   prefix whose probability sum reaches p. That is the set Transformers keeps (it removes the longest
   tail of mass ≤ 1 − p) up to rounding; its tie order is unspecified, ours is fixed. p = 1 is off,
   so rounding in the cumulative sum can never drop the tiniest tokens.

Randomness comes only from a ``numpy.random.Generator`` the caller passes in: the same seed gives
the same tokens, and nothing depends on global state. Everything works on a batch of rows
``[batch, vocab]`` (or one row ``[vocab]``) and computes in float64 whatever the model's dtype.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SamplingParams:
    temperature: float = 1.0
    top_k: int | None = None  # None: off
    top_p: float = 1.0  # 1.0: off
    greedy: bool = False  # argmax; temperature, top-k and top-p are then ignored

    def __post_init__(self) -> None:
        if not isinstance(self.greedy, bool):
            raise TypeError(f"greedy must be True or False, got {self.greedy!r}")
        t = self.temperature
        if not self.greedy and not (isinstance(t, (int, float)) and math.isfinite(t) and t > 0):
            raise ValueError(f"temperature must be a positive number when sampling, got {t!r} "
                             "(for argmax decoding use SamplingParams(greedy=True))")
        k = self.top_k
        if k is not None and (isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1):
            raise ValueError(f"top_k must be a positive integer or None, got {k!r}")
        p = self.top_p
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 1:
            raise ValueError(f"top_p must lie in (0, 1], got {p!r}")

    def to_dict(self) -> dict:
        return {"greedy": self.greedy, "temperature": self.temperature, "top_k": self.top_k, "top_p": self.top_p}


GREEDY = SamplingParams(greedy=True)


def _rows(logits) -> np.ndarray:
    x = np.asarray(logits, dtype=np.float64)
    if x.ndim not in (1, 2) or x.shape[-1] == 0:
        raise ValueError(f"logits must have shape [vocab] or [batch, vocab], got {x.shape}")
    if np.isnan(x).any() or np.isposinf(x).any():
        raise ValueError("logits contain NaN or +inf")
    if np.isneginf(x).all(axis=-1).any():
        raise ValueError("a row of logits is −inf everywhere: no token can be chosen")
    return x


def softmax(logits) -> np.ndarray:
    x = _rows(logits)
    # Subtracting the row maximum changes nothing mathematically and keeps exp from overflowing;
    # removed tokens (−inf) get probability exactly 0.
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(logits) -> np.ndarray:
    """ln of ``softmax``, computed as x − max − ln Σ exp(x − max): a token far below the largest keeps its
    finite log-probability, where ln of its rounded-to-0 probability would be −inf."""
    x = _rows(logits)
    x = x - x.max(axis=-1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


def apply_temperature(logits, temperature: float) -> np.ndarray:
    SamplingParams(temperature=temperature)  # validates
    return _rows(logits) / temperature


def top_k_filter(logits, k: int) -> np.ndarray:
    """Logits with every token below the k-th largest value set to −inf (ties at the k-th kept)."""
    SamplingParams(top_k=k)
    x = _rows(logits)
    k = min(int(k), x.shape[-1])  # k larger than the vocabulary keeps everything, as in Transformers
    kth = np.sort(x, axis=-1)[..., -k, None]
    return np.where(x < kth, -np.inf, x)


def top_p_filter(logits, p: float) -> np.ndarray:
    """Logits outside the shortest most-probable prefix of mass ≥ p set to −inf."""
    SamplingParams(top_p=p)
    x = _rows(logits)
    if p == 1:
        return x.copy()
    probs = softmax(x)
    order = np.argsort(-probs, axis=-1, kind="stable")  # largest first; ties: lower id first
    cumulative = np.cumsum(np.take_along_axis(probs, order, axis=-1), axis=-1)
    # Number of tokens kept: all those before the sum reaches p, plus the one that reaches it.
    keep = np.minimum((cumulative < p).sum(axis=-1, keepdims=True) + 1, x.shape[-1])
    removed_sorted = np.arange(x.shape[-1]) >= keep  # [.., vocab] in sorted order
    removed = np.zeros_like(removed_sorted)
    np.put_along_axis(removed, order, removed_sorted, axis=-1)
    return np.where(removed, -np.inf, x)


def process_logits(logits, params: SamplingParams) -> np.ndarray:
    """Temperature, then top-k, then top-p (Transformers' order). Not for greedy parameters."""
    if params.greedy:
        raise ValueError("greedy decoding does not filter logits; use probabilities() or sample()")
    x = apply_temperature(logits, params.temperature)
    if params.top_k is not None:
        x = top_k_filter(x, params.top_k)
    return top_p_filter(x, params.top_p)


def probabilities(logits, params: SamplingParams) -> np.ndarray:
    """The distribution a token is drawn from: softmax of the processed logits; greedy: one-hot at
    the argmax (the limit T → 0, and what speculative decoding compares in greedy mode)."""
    if params.greedy:
        x = _rows(logits)
        return np.eye(x.shape[-1])[np.argmax(x, axis=-1)]
    return softmax(process_logits(logits, params))


def check_rng(rng) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise TypeError("sampling needs a numpy.random.Generator, e.g. np.random.default_rng(seed); "
                        f"got {type(rng).__name__}")
    return rng


def draw(probs, rng: np.random.Generator) -> np.ndarray:
    """One token per row of ``probs`` by inversion: the first token whose cumulative sum exceeds u·total.

    One uniform number per row, so the randomness consumed does not depend on the distribution.
    A token of probability 0 is never drawn.
    """
    check_rng(rng)
    probs = np.asarray(probs, dtype=np.float64)
    if probs.ndim not in (1, 2) or probs.shape[-1] == 0:
        raise ValueError(f"probabilities must have shape [vocab] or [batch, vocab], got {probs.shape}")
    if not np.isfinite(probs).all() or (probs < 0).any() or (probs.sum(axis=-1) <= 0).any():
        raise ValueError("probabilities must be finite, non-negative and not all zero")
    cumulative = np.cumsum(probs, axis=-1)
    u = rng.random(probs.shape[:-1])
    target = (u * cumulative[..., -1])[..., None]
    index = (cumulative <= target).sum(axis=-1)
    if (index == probs.shape[-1]).any():  # u·total rounded up to the total: the last token with any probability
        last = probs.shape[-1] - 1 - np.argmax((probs > 0)[..., ::-1], axis=-1)
        index = np.minimum(index, last)
    return index.astype(np.int64)


def sample(logits, params: SamplingParams, rng: np.random.Generator | None = None) -> np.ndarray:
    """One token id per row (shape ``logits.shape[:-1]``; use ``int(...)`` for a single row)."""
    if params.greedy:
        return np.argmax(_rows(logits), axis=-1).astype(np.int64)
    return draw(probabilities(logits, params), check_rng(rng))
