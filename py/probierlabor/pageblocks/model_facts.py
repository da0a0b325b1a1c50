"""What the pages say about the site's own language model, read from the model's manifest
(model/weights/MANIFEST.json, written by ``make model``), so no page repeats a number by hand.

    {{ about_model() }}                 a paragraph: size, what it read, how well it predicts text
    {{ about_model("present") }}        the same after a sentence that already names the model
    {{ model_fact("kv_bytes", "MHA") }}   one number, German-formatted (FACTS)

EXPECT is what a reader should expect of the model's own text; every block that shows it says so
(realmodel_block, live_block).

Build time only (it reads the manifest with the engine); the recorded traces run this model
(engine/pretrained.engine_model), in float64, so a cached number takes 8 bytes.
"""

from __future__ import annotations

import functools

from engine import pretrained

from ..kit import fmt, vocabulary
from ..realmodel.fields import PROMPT_TOKENS

BYTES_PER_NUMBER = 8  # the traces compute in float64 (pretrained.engine_model)


@functools.cache
def _manifest() -> dict:
    return pretrained.manifest()


def _config(name: str = "target") -> dict:
    return _manifest()["models"][name]["config"]


def kv_bytes(kind: str = "GQA") -> int:
    """Bytes the KV cache holds per token: K and V, in every layer, for each K/V head of ``kind``."""
    c = _config()
    return 2 * c["num_layers"] * pretrained.KV_HEADS[kind] * c["head_dim"] * BYTES_PER_NUMBER


def _millions(n: int) -> str:
    return f"{fmt.APPROX}{fmt.de(n / 1e6, 2)} Millionen"


FACTS = {
    "parameters": lambda: _millions(_manifest()["models"]["target"]["parameters"]),
    "draft_parameters": lambda: _millions(_manifest()["models"]["draft"]["parameters"]),
    "layers": lambda: fmt.de(_config()["num_layers"]),
    "heads": lambda: fmt.de(_config()["num_heads"]),
    "kv_heads": lambda kind="GQA": fmt.de(pretrained.KV_HEADS[kind]),
    "head_dim": lambda: fmt.de(_config()["head_dim"]),
    "vocab": lambda: fmt.de(_config()["vocab_size"]),
    "vocab_sizes": vocabulary.sizes,
    "bytes_per_number": lambda: fmt.de(BYTES_PER_NUMBER),
    "kv_bytes": lambda kind="GQA": fmt.de(kv_bytes(kind)),
    # rounded, so written with „≈“
    "perplexity": lambda name="target": fmt.APPROX + fmt.de(_manifest()["models"][name]["heldout_perplexity"], 1),
    "real_words": lambda name="target": fmt.APPROX + fmt.pct(_manifest()["models"][name]["real_words"]["share"], 0),
    "prompt_tokens": lambda: fmt.de(PROMPT_TOKENS),  # the most „Am echten Modell“ reads of a text
}


def fact(name: str, *args) -> str:
    return FACTS[name](*args)


# The weights learnt from model/site-prose.json.gz, the pages as they were before the group „Grundlagen“
# had any (7,6 % of the training text's bytes, 9,6 % of its tokens), and from the LibreOffice help
# (model/DATA.md).
TRAINING_TEXT = ("vor allem aus der deutschen Hilfe des Büroprogramms LibreOffice. Weniger als ein Zehntel stammt "
                 "aus einer früheren Fassung dieser Website, noch ohne die Seiten unter „Grundlagen“")

EXPECT = ("Von einem so kleinen Modell mit so wenig Lesestoff erwarte keinen sinnvollen Text: Es schreibt Sätze, "
          "die deutsch klingen, aber selten Sinn ergeben. Englische Stücke wie „Left“ oder „FileSc“ hat es aus der "
          "Hilfe des Büroprogramms LibreOffice: Dort stehen zwischen den deutschen Sätzen viele englische Namen von Befehlen "
          "und Funktionen.")

LEAD = {
    "past": "Gerechnet hat das Sprachmodell dieser Website, ein kleines Llama-Modell mit {parameters} Parametern.",
    "present": "Es ist ein kleines Llama-Modell mit {parameters} Parametern.",
}


def paragraph(tense: str = "past") -> str:
    """The site's model in a few sentences, for every page whose engine runs it. ``present``: for a place
    whose sentence before already names the model, so the paragraph does not name it again."""
    m = _manifest()
    return (
        LEAD[tense].format(parameters=fact("parameters"))
        + f" Es hat {fact('layers')} Schichten und {fact('heads')} Query-Köpfe, die sich "
        f"{fact('kv_heads')} K/V-Köpfe teilen (GQA). Gelernt hat es aus "
        f"{fmt.de(m['training']['train_tokens'])} Tokens Text, {TRAINING_TEXT}. Es setzt deutsche Sätze "
        f"fort, und {fact('real_words')} seiner längeren Wörter gibt es wirklich. Bei Text, den es nie gesehen "
        f"hat, ist es im Mittel so unsicher wie bei einer Wahl zwischen {fact('perplexity')} gleich guten Tokens."
    )
