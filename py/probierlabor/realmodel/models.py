"""The model „Am echten Modell“ runs: ``load(name)`` → (model, tokenizer), for "target" and "draft".

STAND-IN until engine/pretrained.py (issue 31 §1) is on main: seeded random Llama models of the
engine with a vocabulary of 256 and a tokenizer that reads every byte as its own token. Both have the
interface of the trained ones (``engine.model.LlamaModel``; ``encode``, ``decode``, ``token_text``,
``vocab_size`` of ``engine.bpe.ByteBPE``), so switching is the one line in ``load``:

    return pretrained.load(name)          # from engine import pretrained
"""

from __future__ import annotations

import functools

from engine.model import LlamaModel, ModelConfig

# The stand-in's sizes: the target a little larger than the engine's tiny test models, the draft one
# layer of half the width, each from its own seed (a draft knows nothing of its target here).
STAND_IN = {
    "target": ModelConfig(vocab_size=256, hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=2, head_dim=16,
                          intermediate_size=128, dtype="float32", seed=31),
    "draft": ModelConfig(vocab_size=256, hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=1, head_dim=16,
                         intermediate_size=64, dtype="float32", seed=32),
}


class ByteTokens:
    """One token per byte of the UTF-8 text (the ByteBPE without merges)."""

    vocab_size = 256

    def encode(self, text: str) -> list[int]:
        return list(text.encode("utf-8"))

    def decode(self, ids) -> str:
        return bytes(ids).decode("utf-8", errors="replace")

    def token_text(self, token_id: int) -> str:
        # a byte that is no character on its own (part of „ä“) as ‹C3›, as ByteBPE.token_text writes it
        return chr(token_id) if 0x20 <= token_id < 0x7F else f"‹{token_id:02X}›"


@functools.cache
def load(name: str = "target"):
    """(model, tokenizer), loaded once per process (the worker keeps them between runs)."""
    return LlamaModel(STAND_IN[name]), ByteTokens()
