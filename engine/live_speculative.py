"""„Eigener Lauf“ on the speculative-decoding page: one prompt, a draft proposes γ tokens per round,
the target verifies them in one pass (``speculative.speculative_generate``, paged caches).

Settings are strings as in ``live.py`` (a form, a URL): the prompt, new tokens, γ (``k``), the
sampling rules (temperature 0 means greedy), a seed for the draws, the block size, and the model
pair: the tiny Llama model (MHA, GQA or MQA) with its first layer as the draft, or the article's p
and q over A, B, C (``toy.ConstantModel``). A bad value gets a German ``WorkloadError`` before
anything runs; sizes are capped to ``LIMITS`` with a note, so a run stays well under a second.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from engine import live, tracer
from engine.sampler import GREEDY, SamplingParams
from engine.speculative import speculative_generate, truncated_draft
from engine.tokenizer import CharTokenizer
from engine.toy import ALPHABET, ARTICLE_P, ARTICLE_Q, ConstantModel

KEY = "k"  # settings that carry γ are a speculative run (live.run_settings asks for it)
ARTICLE = "PQ"
MODELS = (ARTICLE, *live.MODELS)

# (lowest, highest); at every upper bound a run takes a few hundred milliseconds in CPython.
LIMITS = {
    "prompt": (1, 64),
    "max_new_tokens": (1, 64),
    "k": (1, 8),
    "temperature": (0.0, 2.0),
    "top_k": (0, 48),  # 0: off
    "top_p": (0.05, 1.0),
    "seed": (0, 9999),
    "block_size": (1, 16),
}
NUMBERS = ("max_new_tokens", "k", "temperature", "top_k", "top_p", "seed", "block_size")
DECIMALS = ("temperature", "top_p")  # the rest are whole numbers
LABELS = {"prompt": "Prompt", "model": "Modellpaar", "max_new_tokens": "Neue Tokens", "k": "Vorschläge pro Runde (γ)",
          "temperature": "Temperatur", "top_k": "Top-k", "top_p": "Top-p", "seed": "Startwert des Zufalls",
          "block_size": "Blockgröße"}


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


DECIMAL = re.compile(r"[+-]?[0-9]{1,9}(?:[.,][0-9]{1,9})?")  # ASCII digits; a decimal comma as written in German


def _decimal(text, what: str) -> float:
    raw = str(text).strip()
    if not DECIMAL.fullmatch(raw):
        raise live.WorkloadError(f"{what}: „{raw[:20]}“ ist keine Zahl.")
    return float(raw.replace(",", "."))


def _clamp(value, key: str, notes: list[str]):
    low, high = LIMITS[key]
    if value < low or value > high:
        kept = min(max(value, low), high)
        notes.append(f"{LABELS[key]}: {_german(value)} liegt außerhalb von {_german(low)} bis {_german(high)}, "
                     f"gerechnet wird mit {_german(kept)}.")
        return kept
    return value


def _german(x) -> str:
    return f"{x:g}".replace(".", ",") if isinstance(x, float) else str(x)


def _article_prompt(text: str) -> str:
    prompt = text.strip().upper()
    if not prompt or any(ch not in ALPHABET for ch in prompt):
        raise live.WorkloadError(f"Prompt: Das Beispielpaar p und q kennt nur die Tokens {', '.join(ALPHABET)}. "
                                 "Schreibe zum Beispiel „A“ oder „ABBA“.")
    high = LIMITS["prompt"][1]
    return prompt[:high]


def parse(settings: Mapping) -> SpeculativeWorkload:
    notes: list[str] = []
    model = str(settings.get("model", "GQA")).strip().upper()
    if model not in MODELS:
        raise live.WorkloadError(f"Modellpaar „{model[:10]}“ gibt es nicht; möglich sind {', '.join(MODELS)}.")
    text = str(settings.get("prompt", ""))
    if model == ARTICLE:
        prompt = _article_prompt(text)
    else:
        prompt = live.prompt_text(text, "Prompt", np.random.default_rng(live.SEED), notes)
    values = {}
    for key in NUMBERS:
        if key not in settings:
            raise live.WorkloadError(f"{LABELS[key]} fehlt.")
        value = _decimal(settings[key], LABELS[key]) if key in DECIMALS else live.integer(settings[key], LABELS[key])
        values[key] = _clamp(value, key, notes)
    return SpeculativeWorkload(prompt, model, **values, notes=tuple(notes))


def models(model: str):
    """(target, draft, tokenizer) of a model choice."""
    if model == ARTICLE:
        target = ConstantModel(ARTICLE_P)
        return target, ConstantModel(ARTICLE_Q), target.tokenizer
    target = live.model_for(model)
    return target, truncated_draft(target, 1), live.TOKENIZER


def run(workload: SpeculativeWorkload, *, concept: str = "speculative-decoding",
        on_step: Callable[[int, int], None] | None = None, should_stop: Callable[[], bool] | None = None,
        device: str | None = None) -> dict:
    """The workload through ``speculative_generate``; the trace. ``on_step(rounds, expected)`` after
    every round, ``expected`` the rounds so far plus the remaining tokens at this run's pace."""
    target, draft, tokenizer = models(workload.model)
    prompt = tokenizer.encode(workload.prompt)
    params = workload.params
    rng = None if params.greedy else np.random.default_rng(workload.seed)

    def after_round(run, *_caches):
        if should_stop is not None and should_stop():
            raise live.Stopped
        if on_step is not None:
            done = len(run.verifications)
            left = workload.max_new_tokens - len(run.tokens)
            on_step(done, done + -(-left * done // len(run.tokens)))

    run_ = speculative_generate(target, draft, prompt, workload.max_new_tokens, k=workload.k, params=params,
                                rng=rng, block_size=workload.block_size, after_round=after_round)
    scenario = dict(live.SCENARIO, concepts=[concept])
    return tracer.from_speculative(run_, target=target, draft=draft, prompt=prompt,
                                   max_new_tokens=workload.max_new_tokens, k=workload.k, params=params,
                                   seed=None if params.greedy else workload.seed, tokenizer=tokenizer,
                                   scenario=scenario, device=device, revision=live.REVISION)


def run_settings(settings: Mapping, **kwargs) -> dict:
    workload = parse(settings)
    return {"trace": run(workload, **kwargs), "notes": list(workload.notes), "settings": workload.settings()}


def settings_of_trace(trace: Mapping) -> dict:
    """A recorded speculative run as settings (the page's presets)."""
    spec = trace["workload"]["requests"][0]
    config, sampling = trace["config"], trace["config"]["sampling"]
    model = ARTICLE if trace["model"].get("name") == "constant" else trace["model"].get("attention", "GQA")
    tokenizer = CharTokenizer(trace["model"]["alphabet"]) if "alphabet" in trace["model"] else live.TOKENIZER
    return {"prompt": tokenizer.decode(spec["prompt"]), "model": model, "max_new_tokens": str(spec["max_new_tokens"]),
            "k": str(config["k"]), "temperature": "0" if sampling["greedy"] else _text(float(sampling["temperature"])),
            "top_k": str(sampling["top_k"] or 0), "top_p": _text(float(sampling["top_p"])),
            "seed": str(trace["workload"]["seed"] or 0), "block_size": str(config["block_size"])}
