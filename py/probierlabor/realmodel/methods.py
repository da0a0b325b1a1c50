"""One page's decoding method on the language model, step by step: the data „Am echten Modell“ shows.

``run(slug, settings)`` reads the reader's settings (form.py), tokenizes the prompt, runs the page's
method for as many steps as the settings say and returns plain JSON: the prompt's tokens, the
generated tokens each with the distribution it was chosen from (the ten likeliest tokens and the rest),
the distribution of the next token, and per step what the method did (the beams and their summed
log-probabilities, the draft's proposals and how many the target kept, how many tokens a decode step
fed and how long the KV cache is). A run is a function of its settings alone: the same settings (a
shared link) give the same text, and „one step more“ is the same run with one step more.

Every method runs the engine with its paged KV cache (``engine.speculative.PagedSequence``: a step
computes only the new positions); the distributions shown come from one pass over the whole text at
the end. Sampling is ``engine.sampler``'s (temperature, top-k, top-p, ``draw`` with a seeded
generator), speculative decoding is ``engine.speculative.speculative_generate`` itself.
"""

from __future__ import annotations

import numpy as np

from engine.attention import NoCacheAttention
from engine.sampler import GREEDY, SamplingParams, draw, probabilities, softmax
from engine.speculative import PagedSequence, pool_size, speculative_generate

from . import form, models
from .fields import MAX_NEW_TOKENS, PROMPT_TOKENS, TOP

BLOCK_SIZE = 16


def params_of(method: str, values: dict) -> SamplingParams:
    """The sampling rules a method draws with (greedy for greedy, beam search and decode)."""
    if method == "top_k":
        return SamplingParams(temperature=values["temperature"], top_k=values["k"])
    if method == "top_p":
        return SamplingParams(temperature=values["temperature"], top_p=values["p"])
    if method == "speculative" and values["spec_temperature"] > 0:
        return SamplingParams(temperature=values["spec_temperature"])
    return GREEDY


def log_probs(logits) -> np.ndarray:
    x = np.asarray(logits, dtype=np.float64)
    x = x - x.max()
    return x - np.log(np.exp(x).sum())


def _cache(model, prompt, gamma: int = 0) -> PagedSequence:
    return PagedSequence(model, pool_size(len(prompt), MAX_NEW_TOKENS, gamma, BLOCK_SIZE), BLOCK_SIZE)


def _next_logits(cache: PagedSequence, seq: list[int]) -> np.ndarray:
    return cache.logits(seq, len(seq) - 1)[-1]


# ----------------------------------------------------------------------------- the methods
# Each takes (model, prompt ids, steps, values) and returns one record per step; a record's "tokens"
# are the tokens that step added to the text (for beam search: to the best beam).

def greedy(model, prompt, steps, values) -> list[dict]:
    """The likeliest token, step by step. Each step feeds the model only what its KV cache lacks: the
    whole prompt first, then the one token chosen last ("fed"); "cache" is the cache's length after it."""
    seq, cache, out = list(prompt), _cache(model, prompt), []
    for _ in range(steps):
        token = int(np.argmax(_next_logits(cache, seq)))
        out.append({"tokens": [token], "fed": cache.computed, "cache": len(cache.tokens)})
        seq.append(token)
    return out


def sampling(model, prompt, steps, values) -> list[dict]:
    """A token drawn from the processed distribution (``engine.sampler``: temperature, then top-k or
    top-p), one uniform number of the seeded generator per step."""
    params = params_of(values["method"], values)
    rng = np.random.default_rng(values["seed"])
    seq, cache, out = list(prompt), _cache(model, prompt), []
    for _ in range(steps):
        token = int(draw(probabilities(_next_logits(cache, seq), params), rng))
        out.append({"tokens": [token]})
        seq.append(token)
    return out


def beam(model, prompt, steps, values) -> list[dict]:
    """Beam search: every beam's ``width`` likeliest continuations, the ``width`` best by summed
    log-probability survive (ties: the earlier beam, then the likelier token). Each beam keeps a KV
    cache of its own; a new beam takes the cache that shares the longest beginning with it."""
    width = values["width"]
    beams = [(0.0, list(prompt))]
    slots = [_cache(model, prompt) for _ in range(width)]
    out = []
    for _ in range(steps):
        candidates, free = [], list(slots)
        for score, seq in beams:
            cache = max(free, key=lambda c: _shared(c.tokens, seq))
            free.remove(cache)
            logp = log_probs(_next_logits(cache, seq))
            for token in np.argsort(-logp, kind="stable")[:width]:
                candidates.append((score + float(logp[token]), seq + [int(token)]))
        candidates.sort(key=lambda c: -c[0])  # stable
        beams = candidates[:width]
        out.append({"tokens": [beams[0][1][-1]],
                    "beams": [{"tokens": seq[len(prompt):], "score": score} for score, seq in beams]})
    return out


def _shared(a, b) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


class _Enough(Exception):
    """The rounds asked for are done."""


def speculative(model, prompt, steps, values) -> list[dict]:
    """Rounds of ``engine.speculative.speculative_generate`` (the draft proposes γ tokens, the target
    checks them in one pass), stopped after ``steps`` rounds or at MAX_NEW_TOKENS."""
    draft, _ = models.load("draft")
    params = params_of("speculative", values)
    rng = None if params.greedy else np.random.default_rng(values["seed"])
    out = []

    def after_round(run, *_caches):
        v = run.verifications[-1]
        out.append({"tokens": v.emitted, "proposals": v.proposals, "accepted": v.accepted,
                    "accept_probs": v.accept_probs, "target_probs": v.target_probs, "draft_probs": v.draft_probs,
                    "uniforms": v.uniforms, "correction": v.correction, "bonus": v.bonus})
        if len(out) >= steps:
            raise _Enough

    if steps:
        try:
            speculative_generate(model, draft, prompt, MAX_NEW_TOKENS, k=values["gamma"], params=params, rng=rng,
                                 block_size=BLOCK_SIZE, after_round=after_round)
        except _Enough:
            pass
    return out


# What the bars show, per method (German, for the view's title).
SHOWN = {"greedy": "die Wahrscheinlichkeiten des Modells", "beam": "die Wahrscheinlichkeiten des Modells",
         "decode": "die Wahrscheinlichkeiten des Modells",
         "top_k": "die Verteilung nach Temperatur und Top-k, aus der gezogen wird",
         "top_p": "die Verteilung nach Temperatur und Top-p, aus der gezogen wird",
         "speculative": "die Verteilung des Zielmodells nach der Temperatur"}

METHODS = {"greedy": greedy, "decode": greedy, "top_k": sampling, "top_p": sampling, "beam": beam,
           "speculative": speculative}


# ----------------------------------------------------------------------------- the data for the view
def distribution(probs, tokenizer) -> dict:
    """The TOP likeliest tokens that can still be drawn (ties: the lower id first), what the other
    possible ones have together („rest“, „rest_count“ of them) and how many top-k or top-p cut to 0
    („cut“): a small nucleus shows its few tokens, not byte tokens at 0 % after them."""
    probs = np.asarray(probs, dtype=np.float64)
    order = np.argsort(-probs, kind="stable")
    possible = int((probs > 0).sum())
    top = order[:min(TOP, possible)]
    return {"top": [_token(tokenizer, i) | {"p": float(probs[i])} for i in top],
            "rest": float(probs[order[len(top):]].sum()), "rest_count": possible - len(top),
            "cut": len(order) - possible, "possible": possible}


def _token(tokenizer, token_id) -> dict:
    return {"id": int(token_id), "text": tokenizer.token_text(int(token_id))}


def run(slug: str, settings) -> dict:
    """The page's method on the reader's settings; raises ``form.PromptError`` for an empty prompt."""
    values = form.read(slug, settings)
    notes = values.pop("notes")
    method = values["method"]
    model, tokenizer = models.load("target")
    prompt = tokenizer.encode(values["prompt"])
    if len(prompt) > PROMPT_TOKENS:
        notes.append(f"Dein Prompt ergibt {len(prompt)} Tokens. Das Modell liest nur die ersten {PROMPT_TOKENS}.")
        prompt = prompt[:PROMPT_TOKENS]
    steps = METHODS[method](model, prompt, values["steps"], values)
    values["steps"] = len(steps)  # speculative decoding may end earlier, at MAX_NEW_TOKENS
    generated = steps[-1]["beams"][0]["tokens"] if method == "beam" and steps else [
        t for step in steps for t in step["tokens"]]
    seq = prompt + generated
    # every position's distribution in one pass: row i predicts token i + 1
    rows = model.forward(seq, np.arange(len(seq)), NoCacheAttention())
    params = params_of(method, values)
    shown = softmax(rows) if params.greedy else probabilities(rows, params)
    for step in steps:
        step["tokens"] = [_token(tokenizer, t) for t in step["tokens"]]
        for key in ("proposals",):
            if key in step:
                step[key] = [_token(tokenizer, t) for t in step[key]]
        for b in step.get("beams", ()):
            b["text"] = tokenizer.decode(b["tokens"])
    return {
        "method": method,
        "prompt": [_token(tokenizer, t) for t in prompt],
        "tokens": [_token(tokenizer, t) | {"dist": distribution(shown[len(prompt) - 1 + i], tokenizer)}
                   for i, t in enumerate(generated)],
        "next": distribution(shown[-1], tokenizer),
        "shown": SHOWN["greedy" if params.greedy else method],
        "steps": steps,
        "prompt_text": tokenizer.decode(prompt),  # as the model read it (cut to PROMPT_TOKENS)
        "text": tokenizer.decode(generated),
        "done": len(generated) >= MAX_NEW_TOKENS,
        "vocab_size": tokenizer.vocab_size,
        "settings": form.settings_of(values),
        "notes": notes,
    }
