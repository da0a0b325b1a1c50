"""What every „Eigener Lauf“ shares, the batching page's and the speculative page's: the site's trained
model and its tokenizer, how a prompt is cut to its tokens or drawn for a length, how its trace is
headed, and how a reader stops a run."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from engine import pretrained
from engine.tokenizer import round_trip_cut
from recorder import workloads

from .fields import PROMPT_TOKENS

SCENARIO = {"name": "eigener-lauf", "title": "Eigener Lauf",
            "description": "Deine Anfragen, gerechnet von der Engine in deinem Browser."}
REVISION = "eigener-lauf"  # the header names no git revision: the browser has none
# Prompts given as a length are drawn from this seed, so a link reproduces them.
SEED = 0
# float64, as the recorded traces compute: a page's preset then runs as its recording did, event for
# event, and a reader's run reads like the recordings beside it. float32 would save about a third of the
# time (CPython, one core: the realistic preset 0,27 → 0,18 s), not enough to give that up.
DTYPE = "float64"


class Stopped(Exception):
    """``should_stop`` asked to end the run."""


def model(kind: str, folder: str | None = None):
    """The trained target with ``kind``'s K/V heads (pretrained.engine_model, cached), from ``folder``:
    where the browser's worker put the weight files; None, the engine's own folder."""
    return pretrained.engine_model(kind, DTYPE, Path(folder) if folder else pretrained.WEIGHTS)


@functools.cache
def draft(folder: str | None = None):
    """The distilled draft the speculative page pairs with the target, in the target's dtype."""
    return pretrained.load("draft", DTYPE, Path(folder) if folder else pretrained.WEIGHTS)[0]


@functools.cache
def tokenizer(folder: str | None = None):
    return pretrained.load_tokenizer(Path(folder) if folder else pretrained.WEIGHTS)


def prompt_ids(text: str, where: str, notes: list[str], tok) -> tuple[tuple[int, ...], str]:
    """A typed prompt's tokens and its text, cut to PROMPT_TOKENS with a note. The cut keeps a text whose
    tokens are exactly the ones kept (a cut inside a character or a word may tokenize otherwise), so the
    settings of a run give the same tokens again."""
    ids = tok.encode(text)
    if len(ids) <= PROMPT_TOKENS:
        return tuple(ids), text
    kept = round_trip_cut(tok, ids, PROMPT_TOKENS)
    notes.append(f"{where}: Der Prompt ergibt {len(ids)} Tokens. Gerechnet wird mit den ersten {len(kept)}.")
    return kept, tok.decode(kept)


def prompt_text(written: str | int, rng: np.random.Generator, tok) -> str:
    """A prompt as ``form.prompt`` read it: as typed, or everyday words drawn from ``rng`` for a length."""
    return workloads.prompt_of_length(rng, written, tok)[1] if isinstance(written, int) else written
