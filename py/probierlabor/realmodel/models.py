"""The model „Am echten Modell“ runs: ``load(name)`` → (model, tokenizer), for "target" and "draft".

STAND-IN until engine/pretrained.py (issue 31 §1) is on main: seeded random Llama models of the
engine with a vocabulary of 256 and the byte-level BPE without merges (every byte its own token). Both
are what the trained ones are (``engine.model.LlamaModel``, ``engine.bpe.ByteBPE``), so switching is the
one line in ``load``:

    return pretrained.load(name, **({"folder": Path(FOLDER)} if FOLDER else {}))   # from engine import pretrained

The weight files (engine/weights/, FILES) go into the site beside the engine (mkdocs_hooks/site.py) when
they exist; the Python worker fetches them when the reader opens the block and sets FOLDER to where it put
them (static/js/runtime/python-worker.js, static/py/realmodel_run.py). Without them the stand-in needs none.
"""

from __future__ import annotations

import functools
from pathlib import Path

import engine
from engine.bpe import ByteBPE
from engine.model import LlamaModel, ModelConfig

# The stand-in's sizes: the target a little larger than the engine's tiny test models, the draft one
# layer of half the width, each from its own seed (a draft knows nothing of its target here).
STAND_IN = {
    "target": ModelConfig(vocab_size=256, hidden_size=64, num_layers=2, num_heads=4, num_kv_heads=2, head_dim=16,
                          intermediate_size=128, dtype="float32", seed=31),
    "draft": ModelConfig(vocab_size=256, hidden_size=32, num_layers=1, num_heads=2, num_kv_heads=1, head_dim=16,
                         intermediate_size=64, dtype="float32", seed=32),
}


# The files engine.pretrained.load reads, in the engine's folder and, under the same path, in the site.
WEIGHTS = "engine/weights"
FILES = ("MANIFEST.json", "tokenizer.json", "target.npz", "draft.npz")
FOLDER: str | None = None  # None: the engine's own folder (CPython); the worker's copy in the browser


def shipped() -> bool:
    """Whether the trained weights are there to ship (at build time)."""
    return (Path(engine.__file__).parent.parent / WEIGHTS / FILES[0]).exists()


@functools.cache
def load(name: str = "target"):
    """(model, tokenizer), loaded once per process (the worker keeps them between runs). STAND-IN:"""
    return LlamaModel(STAND_IN[name]), ByteBPE()
