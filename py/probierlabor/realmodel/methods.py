"""One page's decoding method on the language model, step by step: the data „Am echten Modell“ shows.

``Decoding(method, shown)`` is a decoding page's runner (views.VIEWS): called with the reader's settings
(form.py), it tokenizes the prompt, runs the page's method for as many steps as the settings say and
returns plain JSON: the prompt's tokens, the generated tokens each with the distribution it was chosen
from (the ten likeliest tokens and the rest), the distribution of the next token, and per step what the
method did (the beams and their summed log-probabilities, the draft's proposals and how many the target
kept, how many tokens a decode step fed and how long the KV cache is).

A run is a function of its settings alone: the same settings (a shared link) give the same text, and
„one step more“ is the same run with one step more. So the runner holds its last run with its KV caches
(``engine.speculative.PagedSequence``: a pass computes only the positions the cache lacks), and settings
that differ from it in more steps alone go on from where it stands: „Nächstes Token“ is one decode step.
Any other settings start a new run, which does the same passes a held run did. Every pass gives the
distribution of the token after it, so the bars are the distributions the steps computed.

Sampling is ``engine.sampler``'s (temperature, top-k, top-p, ``draw`` with a seeded generator); a
speculative round is ``engine.speculative.speculative_generate``'s, with ``verify`` (tests/realmodel/test_realmodel.py
holds the two to the same tokens).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.sampler import GREEDY, SamplingParams, draw, log_softmax, probabilities, softmax
from engine.speculative import PagedSequence, pool_size, speculative_round

from . import form, models
from .fields import MAX_NEW_TOKENS, PROMPT_TOKENS, TOP
from .models import token

BLOCK_SIZE = 16


def params_of(method: str, values: Mapping) -> SamplingParams:
    """The sampling rules a method draws with (greedy for greedy, beam search and decode)."""
    if method == "top_k":
        return SamplingParams(temperature=values["temperature"], top_k=values["k"])
    if method == "top_p":
        return SamplingParams(temperature=values["temperature"], top_p=values["p"])
    if method == "speculative" and values["spec_temperature"] > 0:
        return SamplingParams(temperature=values["spec_temperature"])
    return GREEDY


def shown(logits, params: SamplingParams) -> np.ndarray:
    """What the bars show: the model's probabilities (greedy: its softmax, not the one-hot argmax), or the
    distribution a token is drawn from."""
    return softmax(logits) if params.greedy else probabilities(logits, params)


def _cache(model, prompt, gamma: int = 0) -> PagedSequence:
    return PagedSequence(model, pool_size(len(prompt), MAX_NEW_TOKENS, gamma, BLOCK_SIZE), BLOCK_SIZE)


def _next_logits(cache: PagedSequence, seq: list[int]) -> np.ndarray:
    return cache.logits(seq, len(seq) - 1)[-1]


def _shared(a, b) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


# ----------------------------------------------------------------------------- the methods
# A run of each kind starts from (method, model, prompt ids, values, folder); step() takes one step and
# returns its record, whose "tokens" are the tokens it added to the text (for beam search: to the best
# beam). ``generated``, ``shown`` (the distribution each generated token came from) and ``next`` are the
# run as it stands.

class _Run:
    steps: list[dict]
    key: tuple = ()  # what the run is a function of besides its steps (Decoding._run)

    @property
    def done(self) -> bool:
        return len(self.generated) >= MAX_NEW_TOKENS

    def advance(self, steps: int) -> None:
        while len(self.steps) < steps and not self.done:
            self.steps.append(self.step())


class _Chain(_Run):
    """Greedy and decode (the likeliest token) and top-k and top-p (a token drawn from the processed
    distribution, one uniform number of the seeded generator per step). Each pass feeds the model only
    what its KV cache lacks: the whole prompt first, then the one token chosen last (greedy's records say
    so, for the decode page: "fed", and "cache", the cache's length after it)."""

    def __init__(self, method, model, prompt, values, folder):
        self.params = params_of(method, values)
        self.rng = None if self.params.greedy else np.random.default_rng(values["seed"])
        self.seq, self.start = list(prompt), len(prompt)
        self.cache = _cache(model, prompt)
        self.steps, self.shown = [], []
        self._look()

    def _look(self) -> None:
        self.logits = _next_logits(self.cache, self.seq)
        self.fed, self.length = self.cache.computed, len(self.cache.tokens)
        self.next = shown(self.logits, self.params)

    @property
    def generated(self) -> list[int]:
        return self.seq[self.start:]

    def step(self) -> dict:
        chosen = int(np.argmax(self.logits)) if self.params.greedy else int(draw(self.next, self.rng))
        record = {"tokens": [chosen]} | ({"fed": self.fed, "cache": self.length} if self.params.greedy else {})
        self.shown.append(self.next)
        self.seq.append(chosen)
        self._look()
        return record


class _Beam(_Run):
    """Beam search: every beam's ``width`` likeliest continuations, the ``width`` best by summed
    log-probability survive (ties: the earlier beam, then the likelier token). Each beam keeps a KV cache
    of its own; a new beam takes the cache that shares the longest beginning with it."""

    def __init__(self, method, model, prompt, values, folder):
        self.width, self.start = values["width"], len(prompt)
        self.beams = [(0.0, list(prompt), [])]  # (score, tokens, the logits each generated token came from)
        self.slots = [_cache(model, prompt) for _ in range(self.width)]
        self.steps = []
        self._look()

    def _look(self) -> None:
        free, self.pending = list(self.slots), []
        for _, seq, _ in self.beams:
            cache = max(free, key=lambda c: _shared(c.tokens, seq))
            free.remove(cache)
            self.pending.append(_next_logits(cache, seq))

    @property
    def generated(self) -> list[int]:
        return self.beams[0][1][self.start:]

    @property
    def shown(self) -> list[np.ndarray]:
        return [softmax(logits) for logits in self.beams[0][2]]

    @property
    def next(self) -> np.ndarray:
        return softmax(self.pending[0])

    def step(self) -> dict:
        candidates = []
        for (score, seq, rows), logits in zip(self.beams, self.pending, strict=True):
            logp = log_softmax(logits)
            for chosen in np.argsort(-logp, kind="stable")[:self.width]:
                candidates.append((score + float(logp[chosen]), [*seq, int(chosen)], [*rows, logits]))
        candidates.sort(key=lambda c: -c[0])  # stable
        self.beams = candidates[:self.width]
        self._look()
        return {"tokens": [self.beams[0][1][-1]],
                "beams": [{"tokens": seq[self.start:], "score": score} for score, seq, _ in self.beams]}


class _Speculative(_Run):
    """Rounds of speculative decoding, the engine's ``speculative_round`` (the draft proposes γ tokens, the
    target checks them in one pass), one round a step. The bars after a round need
    the target's distribution after its last token, which the round leaves for the next one's pass: it is
    computed when asked for, and the target's cache is cut back after it, so the next round computes what
    it computes in a run that never looked (the same floats: a link gives the same text)."""

    def __init__(self, method, model, prompt, values, folder):
        draft = models.load("draft", folder)[0]
        self.params = params_of(method, values)
        self.rng = None if self.params.greedy else np.random.default_rng(values["seed"])
        self.k = values["gamma"]
        self.target, self.draft = _cache(model, prompt, self.k), _cache(draft, prompt, self.k)
        self.seq, self.start = list(prompt), len(prompt)
        self.steps, self.shown, self._next = [], [], None

    @property
    def generated(self) -> list[int]:
        return self.seq[self.start:]

    @property
    def next(self) -> np.ndarray:
        if self._next is None:
            kept = len(self.target.tokens)
            self._next = shown(_next_logits(self.target, self.seq), self.params)
            self.target.truncate(kept)
        return self._next

    def step(self) -> dict:
        seq, params, rng = self.seq, self.params, self.rng
        n = min(self.k, MAX_NEW_TOKENS - len(self.generated) - 1)  # never past MAX_NEW_TOKENS
        r = speculative_round(self.target, self.draft, seq, n, params, rng)
        v = r.verification
        self.shown += [shown(row, params) for row in r.target_logits[:v.accepted + 1]]
        seq += v.emitted
        self._next = None
        return {"tokens": v.emitted, "proposals": v.proposals, "accepted": v.accepted,
                "accept_probs": v.accept_probs, "target_probs": v.target_probs, "draft_probs": v.draft_probs,
                "uniforms": v.uniforms, "correction": v.correction, "bonus": v.bonus}


METHODS = {"greedy": _Chain, "decode": _Chain, "top_k": _Chain, "top_p": _Chain, "beam": _Beam,
           "speculative": _Speculative}

# What the bars show, per method (German, for the view's title).
SHOWN = {"greedy": "die Wahrscheinlichkeiten des Modells", "beam": "die Wahrscheinlichkeiten des Modells",
         "decode": "die Wahrscheinlichkeiten des Modells",
         "top_k": "die Verteilung nach Temperatur und Top-k, aus der gezogen wird",
         "top_p": "die Verteilung nach Temperatur und Top-p, aus der gezogen wird",
         "speculative": "die Verteilung des Zielmodells nach der Temperatur"}


# ----------------------------------------------------------------------------- the data for the view
def distribution(probs, tokenizer) -> dict:
    """The TOP likeliest tokens that can still be drawn (ties: the lower id first), what the other
    possible ones have together („rest“, „rest_count“ of them) and how many top-k or top-p cut to 0
    („cut“): a small nucleus shows its few tokens, not byte tokens at 0 % after them."""
    probs = np.asarray(probs, dtype=np.float64)
    order = np.argsort(-probs, kind="stable")
    possible = int((probs > 0).sum())
    top = order[:min(TOP, possible)]
    return {"top": [token(tokenizer, i) | {"p": float(probs[i])} for i in top],
            "rest": float(probs[order[len(top):]].sum()), "rest_count": possible - len(top),
            "cut": len(order) - possible, "possible": possible}


def _record(step: dict, tokenizer) -> dict:
    """A step's record for the view, its tokens named (the held run keeps its own)."""
    out = step | {"tokens": [token(tokenizer, t) for t in step["tokens"]]}
    if "proposals" in step:
        out["proposals"] = [token(tokenizer, t) for t in step["proposals"]]
    if "beams" in step:
        out["beams"] = [b | {"text": tokenizer.decode(b["tokens"])} for b in step["beams"]]
    return out


@dataclass
class Decoding:
    """A decoding page's runner: its method (METHODS) and the settings its form shows besides the prompt
    (fields.PARAMS). It holds its last run (``held``), whose key is everything but the steps."""

    method: str
    shown: tuple[str, ...] = ()
    held: _Run | None = field(default=None, repr=False, compare=False)

    @property
    def models(self) -> tuple[str, ...]:
        """The trained models the method runs (models.load)."""
        return ("target", "draft") if self.method == "speculative" else ("target",)

    def __call__(self, settings: Mapping, folder=None) -> dict:
        """The method on the reader's settings; raises ``form.PromptError`` for an empty prompt."""
        values = form.read(self.shown, settings)
        notes = values.pop("notes")
        model, tokenizer = models.load("target", folder)
        prompt = tokenizer.encode(values["prompt"])
        if len(prompt) > PROMPT_TOKENS:
            notes.append(f"Dein Prompt ergibt {len(prompt)} Tokens. Das Modell liest nur die ersten {PROMPT_TOKENS}.")
            prompt = prompt[:PROMPT_TOKENS]
        run = self._run(model, prompt, values, folder)
        values["steps"] = len(run.steps)  # speculative decoding may end earlier, at MAX_NEW_TOKENS
        return self._data(run, tokenizer, prompt, values, notes)

    def _run(self, model, prompt: Sequence[int], values: Mapping, folder) -> _Run:
        key = (tuple(prompt), tuple(values[name] for name in self.shown), models.folder_of(folder))
        run, self.held = self.held, None  # a step that fails leaves no half-done run behind
        if run is None or run.key != key or len(run.steps) > values["steps"]:
            run = METHODS[self.method](self.method, model, prompt, values, folder)
            run.key = key
        run.advance(values["steps"])
        self.held = run
        return run

    def _data(self, run: _Run, tokenizer, prompt, values, notes) -> dict:
        generated = run.generated
        return {
            "method": self.method,
            "prompt": [token(tokenizer, t) for t in prompt],
            "tokens": [token(tokenizer, t) | {"dist": distribution(p, tokenizer)}
                       for t, p in zip(generated, run.shown, strict=True)],
            "next": distribution(run.next, tokenizer),
            "shown": SHOWN["greedy" if params_of(self.method, values).greedy else self.method],
            "steps": [_record(step, tokenizer) for step in run.steps],
            "prompt_text": tokenizer.decode(prompt),  # as the model read it (cut to PROMPT_TOKENS)
            "text": tokenizer.decode(generated),
            "done": run.done,
            "vocab_size": tokenizer.vocab_size,
            "settings": form.settings_of(values),
            "notes": notes,
        }
