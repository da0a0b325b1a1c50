"""„Am echten Modell“ on the cross-entropy page: the reader's sentence through the site's language model,
and for every token the probability the model gave it before it came, its loss −ln p, the mean (the
cross-entropy) and the perplexity e^mean; beside them the model's own figures on held-out text, read
from the weights' MANIFEST.json (the one source of those numbers).

The first token has no loss: nothing comes before it, as in the held-out measurement
(engine/pretrained.mean_loss: every window's first token is not predicted). One forward pass over the
sentence gives every position's distribution; row i predicts token i + 1.
"""

from __future__ import annotations

import math

import numpy as np

from engine import pretrained
from engine.attention import NoCacheAttention
from engine.sampler import log_softmax

from . import models
from .fields import PROMPT_TOKENS
from .form import PromptError, typed
from .models import token

DEFAULT_TEXT = "Das Modell liest den Text und schreibt die Antwort."


def heldout(name: str = "target", folder=None) -> dict:
    """The model's mean loss (nats) and perplexity on held-out text, as MANIFEST.json in ``folder`` (None:
    the repository's) records them."""
    entry = pretrained.manifest(models.folder_of(folder))["models"][name]
    return {"loss": entry["heldout_loss"], "perplexity": entry["heldout_perplexity"]}


def read(settings) -> tuple[str, list[str]]:
    """The reader's sentence, cut to PROMPT_CHARS with a note; a ``PromptError`` for an empty one."""
    return typed(settings.get("text", ""), "Satz", DEFAULT_TEXT.rstrip("."))


def run(settings, folder=None) -> dict:
    text, notes = read(settings)
    model, tokenizer = models.load("target", folder)
    ids = tokenizer.encode(text)
    if len(ids) > PROMPT_TOKENS:
        notes.append(f"Dein Satz ergibt {len(ids)} Tokens. Das Modell liest nur die ersten {PROMPT_TOKENS}.")
        ids = ids[:PROMPT_TOKENS]
    if len(ids) < 2:
        raise PromptError("Dein Satz ist nur ein Token. Erst ab dem zweiten gibt es etwas vorherzusagen: "
                          "Schreibe ein paar Wörter mehr.")
    rows = log_softmax(model.forward(ids[:-1], np.arange(len(ids) - 1), NoCacheAttention()))
    scored = []
    for i, seen in enumerate(ids[1:]):
        log_p = float(rows[i][seen])
        best = int(np.argmax(rows[i]))
        scored.append(token(tokenizer, seen) | {"p": math.exp(log_p), "loss": -log_p,
                                                 "best": token(tokenizer, best) | {"p": math.exp(float(rows[i][best]))}})
    mean = sum(t["loss"] for t in scored) / len(scored)
    return {
        "first": token(tokenizer, ids[0]),
        "tokens": scored,
        "mean": mean,
        "bits": mean / math.log(2),
        "perplexity": math.exp(mean),
        "worst": max(range(len(scored)), key=lambda i: scored[i]["loss"]),
        "heldout": heldout(folder=folder),
        "settings": {"text": text},
        "notes": notes,
    }
