"""The settings of „Am echten Modell“ as ``kit.contract.Param``s (which page shows which: views.py).

One source for the block's form (pageblocks/realmodel_block.py), the reading of a reader's values and
link (form.py) and the caps the methods run under (methods.py). Numpy-free: the page block renders them
at build time without the engine's model.
"""

from __future__ import annotations

from ..kit.contract import Param

# A prompt is cut to this many characters before it is tokenized (the byte-level tokenizer is pure
# Python) and to this many tokens before the model reads it; a text never grows past the last cap.
PROMPT_CHARS = 400
PROMPT_TOKENS = 64
MAX_NEW_TOKENS = 32
TOP = 10  # the likeliest tokens shown as bars; the rest is one more bar
DEFAULT_PROMPT = "Das Modell liest"

# Every setting a page may show; a page's own are named in views.VIEWS. „steps“ is how far the reader has
# gone (tokens, for speculative decoding rounds): the link keeps it, so a shared link shows the same text.
PARAMS = {p.name: p for p in (
    Param("steps", "Schritte", "int", 0, lo=0, hi=MAX_NEW_TOKENS,
          help="so viele Schritte sind schon gerechnet"),
    Param("temperature", "Temperatur", "float", 1.0, lo=0.1, hi=2.0, step=0.1,
          help="unter 1 schärfer, über 1 flacher"),
    Param("k", "k", "int", 10, lo=1, hi=50, help="nur die k wahrscheinlichsten Tokens bleiben"),
    Param("p", "p", "float", 0.9, lo=0.05, hi=1.0, step=0.05,
          help="die wahrscheinlichsten Tokens, bis ihre Summe p erreicht"),
    Param("width", "Strahlbreite", "int", 3, lo=1, hi=5, help="so viele Folgen verfolgt die Suche"),
    Param("gamma", "Vorschläge pro Runde (γ)", "int", 4, lo=1, hi=8,
          help="so viele Tokens schlägt der Entwurf pro Runde vor"),
    Param("spec_temperature", "Temperatur", "float", 1.0, lo=0.0, hi=2.0, step=0.1,
          help="0 heißt greedy: immer das wahrscheinlichste Token"),
    Param("seed", "Seed", "int", 1, lo=0, hi=9999, help="gleicher Seed, gleicher Text"),
)}
