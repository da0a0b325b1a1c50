"""Trained models from a folder of files, checked against its manifest and loaded for the engine.

The default folder is the repository's ``model/weights/``, next to the training that writes it (``make model``:
``model/train.py`` trains, ``model/export.py`` exports); the browser's worker passes the folder it put the
files in. A folder holds:

* ``target.npz``, ``draft.npz`` – float16 weights under the engine's (= Transformers') names;
* ``tokenizer.json`` – the byte-level BPE both models read (``engine.bpe.ByteBPE``);
* ``heldout.txt`` – a slice of held-out text the models never trained on, about 2 000 tokens;
* ``MANIFEST.json`` – the sha256 of each file, each model's ``ModelConfig``, its loss on ``heldout.txt``
  as this engine computed it from the float16 files, and how the models were trained.

Every file is checked against its sha256 before it is used, so a weight file that changed by accident
(a merge, a re-export of one model only) fails loudly, naming the file, instead of serving a model
whose reported numbers belong to another. float16 halves the download; the model computes in its own
dtype (float32 by default, float64 for the peer checks): the weights are widened once on loading.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine.attention import NoCacheAttention
from engine.bpe import ByteBPE
from engine.model import LlamaModel, ModelConfig, regroup_kv_heads

WEIGHTS = Path(__file__).resolve().parent.parent / "model" / "weights"
MODELS = ("target", "draft")


class WeightsError(ValueError):
    """A file of the trained models that is missing, unreadable or not the one MANIFEST.json names: the
    site's copy is damaged, not the caller's input (the pages say so in their own words)."""


def manifest(folder: Path = WEIGHTS) -> dict:
    path = Path(folder) / "MANIFEST.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:  # ValueError: no JSON, or no UTF-8
        raise WeightsError(f"{path} cannot be read: {error}") from error


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verified(filename: str, folder: Path = WEIGHTS, index: dict | None = None) -> bytes:
    """The bytes of ``filename``, after checking them against the sha256 in MANIFEST.json."""
    index = manifest(folder) if index is None else index
    if filename not in index.get("files", {}):
        raise WeightsError(f"{filename} is not listed in {Path(folder) / 'MANIFEST.json'}")
    path = Path(folder) / filename
    try:
        data = path.read_bytes()
    except OSError as error:
        raise WeightsError(f"{path} cannot be read: {error}") from error
    got, want = sha256(data), index["files"][filename]["sha256"]
    if got != want:
        raise WeightsError(f"{path} does not match MANIFEST.json: sha256 {got}, expected {want}. "
                         "The file changed after `make model` exported it; restore it or run `make model` again.")
    return data


def load_tokenizer(folder: Path = WEIGHTS, index: dict | None = None) -> ByteBPE:
    return ByteBPE.from_json(verified("tokenizer.json", folder, index).decode("utf-8"))


def load(name: str = "target", dtype: str = "float32", folder: Path = WEIGHTS) -> tuple[LlamaModel, ByteBPE]:
    """The trained model ``name`` (``target`` or ``draft``) computing in ``dtype``, and its tokenizer."""
    if name not in MODELS:
        raise ValueError(f"unknown model {name!r}; choose one of {MODELS}")
    index = manifest(folder)
    data = verified(f"{name}.npz", folder, index)
    try:
        config = replace(ModelConfig(**index["models"][name]["config"]), dtype=dtype)
        with np.load(io.BytesIO(data), allow_pickle=False) as arrays:
            model = LlamaModel(config, {key: arrays[key] for key in arrays.files})
        tokenizer = load_tokenizer(folder, index)
    except WeightsError:
        raise
    except (KeyError, TypeError, ValueError, zipfile.BadZipFile) as error:
        # files that match a manifest which was changed with them: the checksum cannot catch that
        raise WeightsError(f"the files in {folder} do not make model {name!r}: {error!r}") from error
    model.tokenizer = tokenizer
    model.name = f"probierlabor-{name}"
    return model, tokenizer


# The kinds of attention the engine pages compare, as K/V heads of the trained target (8 query heads).
KV_HEADS = {"MHA": 8, "GQA": 2, "MQA": 1}


@functools.cache
def engine_model(kind: str = "GQA", dtype: str = "float64", folder: Path = WEIGHTS) -> LlamaModel:
    """The model the engine serves by default: the trained target, for the recorded traces and the
    readers' own runs. MHA and MQA are the same target with its K/V heads regrouped
    (``model.regroup_kv_heads``): MHA computes exactly what GQA does, MQA averages the two K/V heads
    without retraining. float64 by default, like the traces' other numbers. Cached: do not change it."""
    if kind not in KV_HEADS:
        raise ValueError(f"unknown attention kind {kind!r}; choose one of {sorted(KV_HEADS)}")
    model, _ = load("target", dtype, folder)
    if kind == "GQA":
        return model
    out = regroup_kv_heads(model, KV_HEADS[kind])
    out.name = f"{model.name}-{kind.lower()}"
    return out


def heldout_ids(tokenizer: ByteBPE, folder: Path = WEIGHTS, index: dict | None = None) -> list[int]:
    return tokenizer.encode(verified("heldout.txt", folder, index).decode("utf-8"))


def mean_loss(model: LlamaModel, ids, window: int) -> float:
    """Mean next-token cross-entropy in nats over ``ids``, scored in windows of ``window`` tokens.

    Each window starts without context (as the training windows did), and every token after a window's
    first is predicted once, so the loss covers len(ids) − ⌈len(ids) / window⌉ predictions.
    """
    total, count = 0.0, 0
    for start in range(0, len(ids), window):
        chunk = np.asarray(ids[start:start + window])
        if len(chunk) < 2:
            continue
        logits = model.forward(chunk[:-1], np.arange(len(chunk) - 1), NoCacheAttention()).astype(np.float64)
        top = logits.max(axis=-1)
        log_z = top + np.log(np.exp(logits - top[:, None]).sum(axis=-1))
        total += float(np.sum(log_z - logits[np.arange(len(chunk) - 1), chunk[1:]]))
        count += len(chunk) - 1
    return total / count
