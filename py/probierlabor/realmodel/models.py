"""The models „Am echten Modell“ runs: ``load(name)`` → (model, tokenizer) of the site's trained language
model, "target" or "draft" (engine/pretrained.py: float16 weights checked against MANIFEST.json).

The weight files (FILES, in model/weights/, engine/pretrained.py WEIGHTS) go into the site under SITE_FOLDER
(mkdocs_hooks/site.py); the Python worker fetches them when the reader opens the block and sets FOLDER to
where it put them (static/js/runtime/python-worker.js, static/py/realmodel_run.py). CPython reads them from
the repository.
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
FOLDER: str | None = None  # None: the engine's own folder (CPython); the worker's copy in the browser


@functools.cache
def load(name: str = "target"):
    """(model, tokenizer), loaded once per process (the worker keeps them between runs)."""
    return pretrained.load(name, **({"folder": Path(FOLDER)} if FOLDER else {}))
