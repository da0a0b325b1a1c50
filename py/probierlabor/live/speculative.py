"""„Eigener Lauf“ on the speculative-decoding page: one prompt, a draft proposes γ tokens per round,
the target verifies them in one pass (the engine's ``speculative.speculative_generate``, paged caches).

Settings are strings as in ``batching.py`` (a form, a URL): the prompt, new tokens, γ (``k``), the
sampling rules (temperature 0 means greedy), a seed for the draws, the block size, and the model
pair: the site's trained target (its K/V heads as MHA, GQA or MQA) with the small model distilled from
it as the draft (its own heads: the engine keeps a cache per model), or the article's p and q over
A, B, C (``toy.ConstantModel``). A bad value gets a German ``WorkloadError`` before
anything runs; sizes are capped to their ``Param``s' bounds (fields.py) with a note, so a run stays well under a second.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from engine.sampler import GREEDY, SamplingParams
from engine.speculative import speculative_generate
from recorder import tracer
from recorder.toy import ALPHABET, ARTICLE_P, ARTICLE_Q, ConstantModel

from . import form, recording
from .fields import ARTICLE, PROMPT_TOKENS, TEXT_LABELS
from .fields import SPECULATIVE_NUMBERS as NUMBERS
from .form import WorkloadError
from .recording import REVISION, SCENARIO, SEED, Stopped


@dataclass(frozen=True)
class SpeculativeWorkload:
    prompt: str
    model: str
    max_new_tokens: int
    k: int
    temperature: float
    top_k: int
    top_p: float
    seed: int
    block_size: int
    notes: tuple[str, ...] = ()

    @property
    def params(self) -> SamplingParams:
        if self.temperature == 0:
            return GREEDY
        return SamplingParams(temperature=self.temperature, top_k=self.top_k or None, top_p=self.top_p)

    def settings(self) -> dict:
        return {"prompt": self.prompt, "model": self.model,
                **{key: _text(getattr(self, key)) for key in NUMBERS}}


def _text(value) -> str:
    if not isinstance(value, float):
        return str(value)
    text = repr(value)  # exact, so the settings give the same numbers back
    return text.removesuffix(".0")


def _article_prompt(text: str) -> str:
    prompt = text.strip().upper()
    if not prompt or any(ch not in ALPHABET for ch in prompt):
        raise WorkloadError(f"Prompt: Das Beispielpaar p und q kennt nur die Tokens {', '.join(ALPHABET)}. "
                                 "Schreibe zum Beispiel „A“ oder „ABBA“.")
    return prompt[:PROMPT_TOKENS]


def parse(settings: Mapping, folder: str | None = None) -> SpeculativeWorkload:
    """Settings (strings) → a workload that can run, with notes; a ``WorkloadError`` with every problem
    found. ``folder``: the weight files' (``recording.model``)."""
    problems = form.Problems()
    read = problems.take(form.read_speculative, settings)
    if str(settings.get("model", "")).strip().upper() == ARTICLE:
        article = problems.take(_article_prompt, str(settings.get("prompt", "")))
    problems.raise_any()
    notes = read["notes"]
    if read["model"] == ARTICLE:
        prompt = article
    else:
        tok = recording.tokenizer(folder)
        text = recording.prompt_text(read["prompt"], np.random.default_rng(SEED), tok)
        prompt = recording.prompt_ids(text, TEXT_LABELS["prompt"], notes, tok)[1]
    return SpeculativeWorkload(prompt, read["model"], **{key: read[key] for key in NUMBERS}, notes=tuple(notes))


def models(model: str, folder: str | None = None):
    """(target, draft, tokenizer) of a model choice."""
    if model == ARTICLE:
        target = ConstantModel(ARTICLE_P)
        return target, ConstantModel(ARTICLE_Q), target.tokenizer
    target = recording.model(model, folder)
    return target, recording.draft(folder), target.tokenizer


def run(workload: SpeculativeWorkload, *, concept: str = "speculative-decoding",
        on_step: Callable[[int, int], None] | None = None, should_stop: Callable[[], bool] | None = None,
        device: str | None = None, folder: str | None = None) -> dict:
    """The workload through ``speculative_generate``; the trace. ``on_step(rounds, expected)`` after
    every round, ``expected`` the rounds so far plus the remaining tokens at this run's pace."""
    target, draft, tokenizer = models(workload.model, folder)
    prompt = tokenizer.encode(workload.prompt)
    params = workload.params
    rng = None if params.greedy else np.random.default_rng(workload.seed)

    def after_round(run, *_caches):
        if should_stop is not None and should_stop():
            raise Stopped
        if on_step is not None:
            done = len(run.verifications)
            left = workload.max_new_tokens - len(run.tokens)
            on_step(done, done + -(-left * done // len(run.tokens)))

    run_ = speculative_generate(target, draft, prompt, workload.max_new_tokens, k=workload.k, params=params,
                                rng=rng, block_size=workload.block_size, after_round=after_round)
    scenario = dict(SCENARIO, concepts=[concept])
    return tracer.from_speculative(run_, target=target, draft=draft, prompt=prompt,
                                   max_new_tokens=workload.max_new_tokens, k=workload.k, params=params,
                                   seed=None if params.greedy else workload.seed, tokenizer=tokenizer,
                                   scenario=scenario, device=device, revision=REVISION)


def settings_of_trace(trace: Mapping) -> dict:
    """A recorded speculative run as settings (the page's presets)."""
    spec = trace["workload"]["requests"][0]
    config, sampling = trace["config"], trace["config"]["sampling"]
    model = ARTICLE if trace["model"].get("name") == "constant" else trace["model"].get("attention", "GQA")
    return {"prompt": spec["prompt_text"], "model": model, "max_new_tokens": str(spec["max_new_tokens"]),
            "k": str(config["k"]), "temperature": "0" if sampling["greedy"] else _text(float(sampling["temperature"])),
            "top_k": str(sampling["top_k"] or 0), "top_p": _text(float(sampling["top_p"])),
            "seed": str(trace["workload"]["seed"] or 0), "block_size": str(config["block_size"])}
