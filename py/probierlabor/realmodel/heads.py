"""„Am echten Modell“ on the attention page: the attention pattern of every layer and head of the site's
trained model on the reader's sentence (engine.attention.attention_maps), as data for the heatmap in
static/js/realmodel/heads.js. The reader picks the layer and the head there; one run computes all of
them, so a new pick draws at once without asking the worker again.

A sentence is cut to HEAD_TOKENS tokens (a heatmap of more rows is unreadable on a phone) with a note,
like a too long prompt; an empty one is a ``form.PromptError``. The probabilities travel rounded to
DIGITS places (they are shown with two; the JSON stays small).
"""

from __future__ import annotations

import numpy as np

from engine.attention import attention_maps

from ..kit.contract import whole_characters
from . import models
from .fields import PROMPT_CHARS
from .form import PromptError

PAGE = "attention"
HEAD_TOKENS = 24
DIGITS = 3
DEFAULT_SENTENCE = "Die Katze jagt die Maus, und die Maus rennt weg."


def run(settings) -> dict:
    """{tokens, layers, heads, kv_heads, maps [layer][head][query][key ≤ query], notes, settings}."""
    sentence, note = whole_characters(str(settings.get("prompt", "")), "Dein Satz")
    if not sentence.strip():
        raise PromptError("Der Satz ist leer. Schreibe ein paar Wörter, zum Beispiel „Die Katze jagt die Maus“.")
    notes = [note] if note else []
    if len(sentence) > PROMPT_CHARS:
        notes.append(f"Dein Satz hat {len(sentence)} Zeichen. Das Modell liest nur die ersten {PROMPT_CHARS}.")
        sentence = sentence[:PROMPT_CHARS]
    model, tokenizer = models.load("target")
    ids = tokenizer.encode(sentence)
    if len(ids) > HEAD_TOKENS:
        notes.append(f"Dein Satz hat {len(ids)} Tokens. Die Karte zeigt die ersten {HEAD_TOKENS}.")
        ids = ids[:HEAD_TOKENS]
    maps = np.round(attention_maps(model, ids), DIGITS)
    c = model.config
    return {
        "tokens": [{"id": int(t), "text": tokenizer.token_text(int(t))} for t in ids],
        "layers": c.num_layers, "heads": c.num_heads, "kv_heads": c.num_kv_heads,
        # row i: what token i looks at, keys 0 … i (the rest is masked, 0)
        "maps": [[[row[:i + 1] for i, row in enumerate(head)] for head in layer] for layer in maps.tolist()],
        "notes": notes,
        "settings": {"prompt": sentence},
    }
