"""The fields of „Eigener Lauf“'s two forms as ``kit.contract.Param``s: name, German label, kind, bounds, hint.

One source for the form (pageblocks/live_block.py renders it), its checks and its messages (form.py);
numpy-free, because the page's own Python reads a workload with them before the worker loads the engine.
A missing number is refused, never filled in (form.py), so a number's ``default`` is only the in-range
value a ``Param`` must have: its lower bound.
"""

from __future__ import annotations

from ..kit.contract import Param

SEPARATOR = "|"
MODELS = ("MHA", "GQA", "MQA")
NAMES = "ABCDEFGHIJKLMNOP"  # request ids, as the articles name their requests
MAX_REQUESTS = len(NAMES)
DEFAULT_NEW_TOKENS = 8


def _number(name: str, label: str, lo, hi, hint: str = "", kind: str = "int") -> Param:
    return Param(name, label, kind, lo, lo=lo, hi=hi, help=hint)


# Within these bounds a run can still be long (16 requests of 64 + 32 tokens, one token per step, or four
# with FlashAttention's tiles of one key): batching.MAX_WORK caps the whole run.
REQUEST = {p.name: p for p in (  # the parts of one request line: prompt | new tokens | arrival step
    _number("prompt", "Prompt-Länge", 1, 64),
    _number("max_new_tokens", "neue Tokens", 1, 32),
    _number("arrival_step", "Ankunft", 0, 64),
)}
ENGINE = {p.name: p for p in (
    # its choices' labels and hint count the model's heads (pageblocks/live_block.py, at build time)
    Param("model", "Modell", "choice", "GQA", choices=tuple((kind, kind) for kind in MODELS)),
    Param("policy", "Batching", "choice", "continuous",
          choices=(("continuous", "Continuous Batching"), ("static", "feste Gruppe (statisch)"))),
    _number("block_size", "Blockgröße", 1, 16, "Positionen pro Block des KV-Caches"),
    _number("num_blocks", "Zahl der Blöcke", 1, 256, "Blöcke im ganzen Pool"),
    _number("max_num_seqs", "Sequenzen pro Schritt", 1, 16, "so viele Anfragen rechnen höchstens gleichzeitig"),
    _number("max_num_batched_tokens", "Token-Budget pro Schritt", 1, 256,
            "so viele Tokens gehen höchstens durch einen Schritt"),
    Param("chunked_prefill", "Chunked Prefill", "bool", True, help="lange Prompts in Stücken vorfüllen"),
    Param("prefix_caching", "Präfix-Cache", "bool", True, help="volle Blöcke gleicher Anfänge wiederverwenden"),
    _number("tile_size", "Kachelgröße", 1, 16, "so viele Keys fasst eine Kachel"),
)}
# Numbers a form shows next to their key (the rest are on/off switches and choices).
NUMBERS = ("block_size", "num_blocks", "max_num_seqs", "max_num_batched_tokens")
SWITCHES = tuple(name for name, p in ENGINE.items() if p.kind == "bool")

# The speculative-decoding page's form: one prompt, γ and the sampling rules. With the trained pair a run at
# every upper bound takes 0,1–1,1 s of CPU in CPython (the longest: greedy, γ = 8, 64 tokens, MQA); the
# article's recorded run needs 60 new tokens.
SPECULATIVE_KEY = "k"  # settings that carry γ are a speculative run
ARTICLE = "PQ"  # the article's model pair p and q over the tokens A, B, C
SPECULATIVE = {p.name: p for p in (
    Param("model", "Modellpaar", "choice", "GQA", help="Zielmodell und Entwurf",
          choices=((ARTICLE, "Beispielpaar p und q (A, B, C)"),
                   *((kind, f"trainiertes Sprachmodell der Seite ({kind}), Entwurf: das kleine destillierte Modell")
                     for kind in MODELS))),
    _number("max_new_tokens", "Neue Tokens", 1, 64, "so lang wird die Antwort"),
    _number(SPECULATIVE_KEY, "Vorschläge pro Runde (γ)", 1, 8, "so viele Tokens schlägt der Entwurf pro Runde vor"),
    _number("temperature", "Temperatur", 0.0, 2.0, "0 heißt greedy: immer das wahrscheinlichste Token", "float"),
    _number("top_k", "Top-k", 0, 48, "nur die k wahrscheinlichsten Tokens, 0 heißt aus"),
    _number("top_p", "Top-p", 0.05, 1.0, "nur die wahrscheinlichsten Tokens bis zu diesem Anteil, 1 heißt aus",
            "float"),
    _number("seed", "Startwert des Zufalls", 0, 9999, "derselbe Startwert gibt dieselben Ziehungen"),
    _number("block_size", "Blockgröße", 1, 16, "Positionen pro Block des KV-Caches"),
)}
SPECULATIVE_NUMBERS = tuple(name for name, p in SPECULATIVE.items() if p.kind in ("int", "float"))

# The typed text of each form, and its label.
TEXT_LABELS = {"requests": "Anfragen", "prompt": "Prompt"}
# A prompt, on both forms, is cut to PROMPT_CHARS characters as typed (the byte-level tokenizer is pure
# Python: so tokenizing stays fast) and then to PROMPT_TOKENS tokens. 64 tokens of the site's texts are
# about 200 characters; only a pasted page reaches the character cap.
PROMPT_TOKENS = REQUEST["prompt"].hi
PROMPT_CHARS = 8 * PROMPT_TOKENS
