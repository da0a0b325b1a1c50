"""The tokenizer of the site's trained model (model/weights/tokenizer.json, engine/bpe.py), for the pages
that cut the reader's text into its tokens (tokenisierung, embeddings).

The page's zip carries the file as data under its path in the repository (mkdocs_hooks/assemble.py
DATA_FOR_BROWSER): no numpy, no download of its own. Read once per interpreter, when the first such page
imports this module, through the engine package's loader: from the checkout in CPython, from the zip in
the browser.
"""

from __future__ import annotations

from pathlib import PurePosixPath

import engine
from engine.bpe import ByteBPE

_FILE = PurePosixPath(engine.__file__).parent.parent / "model" / "weights" / "tokenizer.json"
TEXT = engine.__loader__.get_data(str(_FILE)).decode("utf-8")  # the file itself (the workshop's script reads it)
TOKENIZER = ByteBPE.from_json(TEXT)
