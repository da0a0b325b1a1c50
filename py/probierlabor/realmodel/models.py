"""The models „Am echten Modell“ runs: ``load(name, folder)`` → (model, tokenizer) of the site's trained
language model, "target" or "draft" (engine/pretrained.py: float16 weights checked against MANIFEST.json).

The weight files (FILES, in model/weights/, engine/pretrained.py WEIGHTS) go into the site under SITE_FOLDER
(mkdocs_hooks/assemble.py); the Python worker fetches them when the reader opens the block and passes the
folder it put them in (static/js/runtime/python-worker.js, static/py/realmodel_run.py). CPython reads them
from the repository (folder None).
"""

from __future__ import annotations

import functools
from pathlib import Path

from engine import pretrained

# The files pretrained.load reads and where the site serves them. The site's folder keeps the name it had
# when the weights lived in the engine's folder, so pages and readers' offline copies keep finding them.
SITE_FOLDER = "engine/weights"
FILES = ("MANIFEST.json", "tokenizer.json", "target.npz", "draft.npz")
PATHS = tuple(f"{SITE_FOLDER}/{name}" for name in FILES)  # in the site; „Eigener Lauf“ too
SOURCES = {path: pretrained.WEIGHTS / name for path, name in zip(PATHS, FILES, strict=True)}  # in the repository


def folder_of(folder: str | Path | None) -> Path:
    """The folder of the weight files: the worker's copy, or (None) the repository's."""
    return pretrained.WEIGHTS if folder is None else Path(folder)


def load(name: str = "target", folder: str | Path | None = None):
    """(model, tokenizer) from ``folder`` (None: the repository's), loaded once per process and folder (the
    worker keeps them between runs)."""
    return _load(name, folder_of(folder))


@functools.cache
def _load(name: str, folder: Path):
    return pretrained.load(name, folder=folder)


def token(tokenizer, token_id) -> dict:
    """A token as the views name it: its id and its text (a chip's label)."""
    return {"id": int(token_id), "text": tokenizer.token_text(int(token_id))}
