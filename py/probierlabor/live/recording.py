"""What every „Eigener Lauf“ shares, the batching page's and the speculative page's: how its trace is
headed, how a prompt given as a length is drawn, and how a reader stops a run."""

from __future__ import annotations

import numpy as np

from engine import workloads
from engine.tokenizer import CharTokenizer

TOKENIZER = CharTokenizer()
SCENARIO = {"name": "eigener-lauf", "title": "Eigener Lauf",
            "description": "Deine Anfragen, gerechnet von der Engine in deinem Browser."}
REVISION = "eigener-lauf"  # the header names no git revision: the browser has none
# Prompts given as a length are drawn from this seed, so a link reproduces them.
SEED = 0


class Stopped(Exception):
    """``should_stop`` asked to end the run."""


def prompt_text(written: str | int, rng: np.random.Generator) -> str:
    """A prompt as ``form.prompt`` read it: as typed, or everyday words drawn from ``rng`` for a length."""
    return workloads.text_of_length(rng, written) if isinstance(written, int) else written
