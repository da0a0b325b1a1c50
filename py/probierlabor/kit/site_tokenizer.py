"""The tokenizer of the site's trained model (engine/weights/tokenizer.json, engine/bpe.py), for the pages
that cut the reader's text into its tokens (tokenisierung, embeddings).

The page's zip carries the file as data (mkdocs_hooks/site.py ENGINE_DATA_FOR_BROWSER): no numpy, no
download of its own. Read once per interpreter, when the first such page imports this module.
"""

from __future__ import annotations

import pkgutil

from engine.bpe import ByteBPE

TOKENIZER = ByteBPE.from_json(pkgutil.get_data("engine", "weights/tokenizer.json").decode("utf-8"))
