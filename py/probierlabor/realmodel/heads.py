"""„Am echten Modell“ on the attention page: the attention pattern of every layer and head of the site's
trained model on the reader's sentence (engine.attention.attention_maps), as data for the heatmap in
static/js/realmodel/heads.js. The reader picks the layer and the head there; one run computes all of
them, so a new pick draws at once without asking the worker again.

A sentence is cut to HEAD_TOKENS tokens (a heatmap of more rows is unreadable on a phone) with a note,
like a too long prompt; an empty one is a ``form.PromptError``. A layer or head the model does not have
(a hand-edited link) is clamped like any out-of-range setting, with the contract's note. The probabilities travel rounded to
DIGITS places (they are shown with two; the JSON stays small).
"""

from __future__ import annotations

import numpy as np

from engine.attention import attention_maps
from engine.tokenizer import round_trip_cut

from ..kit.contract import Param
from . import models
from .form import typed

HEAD_TOKENS = 24
DIGITS = 3
DEFAULT_SENTENCE = "Die Katze jagt die Maus, und die Maus rennt weg."


def run(settings, folder=None) -> dict:
    """{tokens, layers, heads, kv_heads, maps [layer][head][query][key ≤ query], notes, settings}: settings
    are the sentence as the map shows it and the layer and head asked for, both within the model's."""
    sentence, notes = typed(settings.get("prompt", ""), "Satz", "Die Katze jagt die Maus")
    model, tokenizer = models.load("target", folder)
    ids = tokenizer.encode(sentence)
    if len(ids) > HEAD_TOKENS:
        # cut where the text gives the same tokens again: the link keeps only the text the map shows
        kept = list(round_trip_cut(tokenizer, ids, HEAD_TOKENS))
        notes.append(f"Dein Satz hat {len(ids)} Tokens. Die Karte zeigt die ersten {len(kept)}.")
        ids, sentence = kept, tokenizer.decode(kept)
    maps = np.round(attention_maps(model, ids), DIGITS)
    c = model.config
    picked = {}
    for name, label, count in (("layer", "Schicht", c.num_layers), ("head", "Kopf", c.num_heads)):
        if name in settings:  # a link's choice the block does not offer: clamped or replaced, with a note
            value, note = Param(name, label, "int", 1, lo=1, hi=count).coerce(settings[name])
            picked[name] = str(value)
            notes += [note] if note else []
    return {
        "tokens": [models.token(tokenizer, t) for t in ids],
        "layers": c.num_layers, "heads": c.num_heads, "kv_heads": c.num_kv_heads,
        # row i: what token i looks at, keys 0 … i (the rest is masked, 0)
        "maps": [[[row[:i + 1] for i, row in enumerate(head)] for head in layer] for layer in maps.tolist()],
        "notes": notes,
        "settings": {"prompt": sentence, **picked},
    }
