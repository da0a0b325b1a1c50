"""„Am echten Modell“ (probierlabor/realmodel) on the trained models: every page's method does what the
engine does on the same settings and seed, the distributions shown add up, caps and bad input get German
notes, and a run is a function of its settings (a shared link gives the same text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from probierlabor.pageblocks import realmodel_block
from probierlabor.realmodel import fields, form, methods, models, views
from probierlabor.realmodel.fields import MAX_NEW_TOKENS, PROMPT_CHARS, PROMPT_TOKENS, TOP

from engine.attention import NoCacheAttention
from engine.generate import greedy_recompute
from engine.sampler import SamplingParams, sample, softmax
from engine.speculative import speculative_generate

ROOT = Path(__file__).resolve().parents[2]
PROMPT = "Der Hund läuft über die Straße"
SLUGS = tuple(views.pages("decoding"))


def run(slug, **settings):
    return views.run(slug, {"prompt": PROMPT} | {k: str(v) for k, v in settings.items()})


def ids(tokens):
    return [t["id"] for t in tokens]


def full_logits(model, seq):
    return model.forward(seq, np.arange(len(seq)), NoCacheAttention())


@pytest.fixture(scope="module")
def target():
    model, tokenizer = models.load("target")
    return model, tokenizer, tokenizer.encode(PROMPT)


@pytest.mark.parametrize("slug, settings", [(slug, {}) for slug in SLUGS] + [("top-p-sampling", {"p": 0.2})])
def test_every_distribution_shows_the_ten_likeliest_possible_the_rest_and_the_cut_which_sum_to_one(
        slug, settings, target):
    out = run(slug, steps=5, **settings)
    assert out["prompt"] == [{"id": i, "text": target[1].token_text(i)} for i in target[2]]
    for dist in [t["dist"] for t in out["tokens"]] + [out["next"]]:
        p = [t["p"] for t in dist["top"]]
        # only tokens that can be drawn: a nucleus of three shows three bars, not seven more at 0 %
        assert len(p) == min(TOP, dist["possible"]) and p == sorted(p, reverse=True) and min(p) > 0
        assert dist["rest_count"] == dist["possible"] - len(p)
        assert dist["cut"] == target[1].vocab_size - dist["possible"]
        assert sum(p) + dist["rest"] == pytest.approx(1, abs=1e-9)
        assert dist["rest"] <= p[-1] * dist["rest_count"] + 1e-12  # none of the rest beats the tenth
    json.dumps(out)  # plain data for the page


def test_greedy_and_decode_take_the_argmax_and_decode_feeds_one_token_per_step_through_the_kv_cache(target):
    model, tokenizer, prompt = target
    expected = greedy_recompute(model, prompt, 12).tokens
    for slug in ("greedy-decoding", "decode"):
        out = run(slug, steps=12)
        assert ids(out["tokens"]) == expected
        assert out["text"] == tokenizer.decode(expected)
        # the chosen token is the top bar of the distribution it was chosen from
        assert all(t["dist"]["top"][0]["id"] == t["id"] for t in out["tokens"])
    steps = run("decode", steps=12)["steps"]
    assert [s["fed"] for s in steps] == [len(prompt)] + [1] * 11
    assert [s["cache"] for s in steps] == [len(prompt) + i for i in range(12)]


@pytest.mark.parametrize("slug, settings, params", [
    ("top-k-sampling", {"k": 5, "temperature": 0.7, "seed": 3}, SamplingParams(temperature=0.7, top_k=5)),
    ("top-p-sampling", {"p": 0.6, "temperature": 1.3, "seed": 8}, SamplingParams(temperature=1.3, top_p=0.6)),
])
def test_sampling_draws_what_engine_sampler_draws_with_the_same_seed(slug, settings, params, target):
    model, _, prompt = target
    out = run(slug, steps=20, **settings)
    rng = np.random.default_rng(settings["seed"])
    seq = list(prompt)
    for _ in range(20):
        seq.append(int(sample(full_logits(model, seq)[-1], params, rng)))
    assert ids(out["tokens"]) == seq[len(prompt):]
    # the bars are the distribution drawn from: the filtered tokens have probability 0
    for token in out["tokens"]:
        assert token["dist"]["possible"] <= settings.get("k", target[1].vocab_size)
        # a token outside the bars only where more than ten could be drawn
        assert token["id"] in ids(token["dist"]["top"]) or token["dist"]["possible"] > TOP


def test_one_step_more_is_the_same_text_with_one_token_more_and_the_same_settings_give_the_same_text():
    for slug in ("top-k-sampling", "top-p-sampling", "greedy-decoding"):
        short, longer = run(slug, steps=4, seed=5), run(slug, steps=5, seed=5)
        assert ids(longer["tokens"])[:4] == ids(short["tokens"])
        assert run(slug, steps=5, seed=5) == longer
        assert views.run(slug, longer["settings"])["text"] == longer["text"]  # the link's settings
    assert run("top-k-sampling", steps=8, seed=5)["text"] != run("top-k-sampling", steps=8, seed=6)["text"]


def counted(monkeypatch, model) -> list[int]:
    """The positions each of the model's passes computes, from now on."""
    passes, forward = [], model.forward

    def counting(token_ids, positions, attn):
        passes.append(len(token_ids))
        return forward(token_ids, positions, attn)

    monkeypatch.setattr(model, "forward", counting)
    return passes


def fresh(slug) -> methods.Decoding:
    """The page's runner without the run the shared one may hold."""
    decoding = views.VIEWS[slug].run
    return methods.Decoding(decoding.method, decoding.shown)


def uncached(model, seq, steps, params, seed):
    """The tokens as a run without cache chooses them: the whole text through the model for every step."""
    rng = np.random.default_rng(seed)
    seq = list(seq)
    for _ in range(steps):
        seq.append(int(sample(full_logits(model, seq)[-1], params, rng)))
    return seq


@pytest.mark.parametrize("slug, settings", [
    ("greedy-decoding", {}), ("top-p-sampling", {"p": "0.8", "temperature": "0.7", "seed": "2"}),
    ("beam-search", {"width": "3"}), ("speculative-decoding", {"gamma": "3", "spec_temperature": "0.8", "seed": "4"})])
def test_next_token_is_one_decode_step_of_the_held_run_and_shows_what_the_whole_text_without_cache_gives(
        slug, settings, target, monkeypatch):
    model, _, prompt = target
    draft = models.load("draft")[0]
    target_passes, draft_passes = counted(monkeypatch, model), counted(monkeypatch, draft)
    decoding, asked = fresh(slug), {"prompt": PROMPT} | settings
    decoding(asked | {"steps": "3"})
    del target_passes[:], draft_passes[:]
    out = decoding(asked | {"steps": "4"})  # „Nächstes Token“
    step = out["steps"][-1]
    if slug == "beam-search":  # every beam one token further
        assert target_passes == [1, 1, 1] and draft_passes == []
    elif slug == "speculative-decoding":  # one round: the draft's proposals, the target's check, its next token
        assert draft_passes and len(draft_passes) == len(step["proposals"])
        assert target_passes == [len(step["proposals"]) + 1, 1]
    else:
        assert target_passes == [1] and draft_passes == []
    values = form.read(decoding.shown, asked)
    params = methods.params_of(decoding.method, values)
    seq = ids(out["prompt"]) + ids(out["tokens"])
    if slug in ("greedy-decoding", "top-p-sampling"):
        assert seq == uncached(model, prompt, 4, params, values.get("seed"))
    else:
        assert ids(out["tokens"]) == ids(fresh(slug)(asked | {"steps": "4"})["tokens"])
    # the bars: each generated token's distribution and the next one's, from one pass over the whole text
    rows = methods.shown(full_logits(model, seq)[len(prompt) - 1:], params)
    for dist, row in zip([t["dist"] for t in out["tokens"]] + [out["next"]], rows, strict=True):
        tenth = np.sort(row)[-TOP]
        for bar in dist["top"]:
            assert bar["p"] == pytest.approx(row[bar["id"]], abs=1e-5) and row[bar["id"]] >= tenth - 1e-5
        assert dist["rest"] == pytest.approx(row.sum() - sum(row[b["id"]] for b in dist["top"]), abs=1e-5)


def test_a_held_run_goes_on_only_for_more_steps_of_its_own_settings(target, monkeypatch):
    """Other settings, another prompt or fewer steps start a new run: a link still gives its own text."""
    passes = counted(monkeypatch, target[0])
    decoding = fresh("top-k-sampling")
    asked = {"prompt": PROMPT, "k": "20", "seed": "1", "steps": "5"}
    first = decoding(asked)
    del passes[:]
    assert decoding(asked) == first and passes == []  # the same settings again: nothing to compute
    for other in ({"seed": "2"}, {"steps": "2"}, {"k": "3"}, {"prompt": "Heute lernen wir"}, {"steps": "6"}):
        out = decoding(asked | other)
        assert ids(out["tokens"]) == ids(fresh("top-k-sampling")(asked | other)["tokens"]), other
    assert ids(out["tokens"])[:5] == ids(first["tokens"])


def test_beam_scores_are_sums_of_log_probabilities_and_width_one_is_greedy(target):
    model, _, prompt = target
    out = run("beam-search", steps=6, width=3)
    for step in out["steps"]:
        scores = [b["score"] for b in step["beams"]]
        assert len(scores) == 3 and scores == sorted(scores, reverse=True)
        for b in step["beams"]:
            seq = prompt + b["tokens"]
            logits = full_logits(model, seq)
            logp = np.log(softmax(logits[len(prompt) - 1:-1]))
            assert b["score"] == pytest.approx(sum(logp[i, t] for i, t in enumerate(b["tokens"])), abs=1e-4)  # float32
    assert ids(out["tokens"]) == out["steps"][-1]["beams"][0]["tokens"]
    greedy = run("beam-search", steps=6, width=1)
    assert ids(greedy["tokens"]) == greedy_recompute(model, prompt, 6).tokens


def test_speculative_rounds_follow_the_acceptance_rule_and_the_whole_text_is_the_engines(target, monkeypatch):
    model, _, prompt = target
    draft, _ = models.load("draft")
    out = run("speculative-decoding", steps=MAX_NEW_TOKENS, gamma=3, spec_temperature=0.8, seed=4)
    assert out["done"] and len(out["tokens"]) == MAX_NEW_TOKENS
    assert int(out["settings"]["steps"]) == len(out["steps"]) <= MAX_NEW_TOKENS  # rounds, each ≥ 1 token
    for step in out["steps"]:
        a = step["accepted"]
        assert ids(step["tokens"][:a]) == ids(step["proposals"][:a])
        for i, prob in enumerate(step["accept_probs"]):
            assert prob == pytest.approx(min(1, step["target_probs"][i] / step["draft_probs"][i]))
            assert (step["uniforms"][i] < prob) == (i < a)  # kept exactly while u < min(1, p/q)
        assert len(step["tokens"]) == a + 1
    engine = speculative_generate(model, draft, prompt, MAX_NEW_TOKENS, k=3, params=SamplingParams(temperature=0.8),
                                  rng=np.random.default_rng(4), block_size=methods.BLOCK_SIZE)
    assert ids(out["tokens"]) == engine.tokens
    # „Nächstes Token“ from the start: each round's target pass computes what the engine's does (the bars' look
    # at the next token leaves the cache as it was), then one position for the bars
    passes, decoding = counted(monkeypatch, model), fresh("speculative-decoding")
    for steps in range(4):
        decoding({"prompt": PROMPT, "gamma": "3", "spec_temperature": "0.8", "seed": "4", "steps": str(steps)})
    assert passes == [len(prompt)] + [n for pass_ in engine.target_forward_tokens[:3] for n in (pass_, 1)]
    # temperature 0: greedy, the target's own greedy text whatever the draft proposes
    greedy = run("speculative-decoding", steps=5, gamma=4, spec_temperature=0)
    assert ids(greedy["tokens"]) == greedy_recompute(model, prompt, len(greedy["tokens"])).tokens


def test_an_empty_prompt_is_refused_in_german_and_nothing_is_computed():
    for prompt in ("", "   \n"):
        with pytest.raises(form.PromptError, match="Der Prompt ist leer"):
            views.run("greedy-decoding", {"prompt": prompt})


def test_caps_hold_with_a_german_note_and_any_unicode_is_a_prompt(target):
    tokenizer = target[1]
    long = "Ä" * (PROMPT_CHARS + 100)
    out = views.run("greedy-decoding", {"prompt": long, "steps": "1000"})
    assert len(out["prompt"]) == PROMPT_TOKENS and len(out["tokens"]) == MAX_NEW_TOKENS and out["done"]
    tokens = len(tokenizer.encode(long[:PROMPT_CHARS]))
    assert out["notes"] == [
        f"Dein Prompt hat {PROMPT_CHARS + 100} Zeichen. Das Modell liest nur die ersten {PROMPT_CHARS}.",
        "„Schritte“: 1000 liegt außerhalb des erlaubten Bereichs 0 bis 32; verwendet wird 32.",
        f"Dein Prompt ergibt {tokens} Tokens. Das Modell liest nur die ersten {PROMPT_TOKENS}."]
    assert out["settings"]["steps"] == str(MAX_NEW_TOKENS)
    out = views.run("top-k-sampling", {"prompt": "🙂 日本語 ß", "k": "0", "temperature": "abc", "seed": "2"})
    assert out["prompt"] == [{"id": i, "text": tokenizer.token_text(i)} for i in tokenizer.encode("🙂 日本語 ß")]
    assert out["notes"] == ["„k“: 0 liegt außerhalb des erlaubten Bereichs 1 bis 50; verwendet wird 1.",
                            "„Temperatur“: „abc“ ist kein gültiger Wert; verwendet wird der Standardwert 1."]
    assert out["settings"]["k"] == "1"
    with pytest.raises(form.PromptError):
        views.run("kv-cache", {"prompt": "x"})


@pytest.mark.parametrize("slug", SLUGS)
def test_the_block_is_closed_and_offers_the_pages_settings(slug):
    html = realmodel_block.section(slug)
    assert html.startswith(f'<details class="pl-realmodel" data-realmodel="{slug}"') and " open" not in html.split(">")[0]
    shown = {name for name in fields.PARAMS if f'data-realmodel-field="{name}"' in html}
    assert shown == {"steps", *views.VIEWS[slug].run.shown}
    assert 'data-realmodel-field="prompt"' in html


def test_each_pages_view_is_named_once_and_every_kind_has_its_block_and_its_browser_code():
    from mkdocs_hooks.macros import REAL_MODEL

    asked = {m for page in (ROOT / "pages").glob("*.md")
             for m in re.findall(r'real_model\("([^"]+)"\)', page.read_text(encoding="utf-8"))}
    assert asked == set(views.VIEWS)
    assert set(REAL_MODEL) == set(views.KINDS)
    for kind in views.KINDS:
        assert (ROOT / "static/js/realmodel" / f"{kind}.js").is_file(), kind
    for slug, view in views.VIEWS.items():
        head = REAL_MODEL[view.kind](slug).split(">")[0]
        assert f'data-realmodel="{slug}" data-realmodel-view="{view.kind}"' in head, head


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=st.sampled_from(SLUGS), raw=st.dictionaries(
    st.sampled_from(["prompt", *fields.PARAMS]), st.one_of(st.text(max_size=30), st.integers(-99, 99).map(str),
                                                            st.floats(allow_nan=True).map(str))))
def test_any_settings_give_a_result_or_the_empty_prompt_note(slug, raw):
    try:
        out = views.run(slug, raw)
    except form.PromptError as refused:
        assert str(refused).startswith("Der Prompt ist leer")
        return
    json.dumps(out, allow_nan=False)
    assert len(out["tokens"]) <= MAX_NEW_TOKENS and len(out["prompt"]) <= PROMPT_TOKENS
    assert views.run(slug, out["settings"])["text"] == out["text"]  # what the link keeps gives it again


def test_a_typed_number_reads_in_german_and_english_and_a_whole_one_is_said_rounded():
    """The block's fields are text (inputmode digits where no minus is needed): „1,5“ is 1.5, „−1“ is −1."""
    read = form.read(views.VIEWS["top-p-sampling"].run.shown, {"prompt": PROMPT, "p": "0,5", "temperature": "1.5", "seed": "\u22121"})
    assert (read["p"], read["temperature"], read["seed"]) == (0.5, 1.5, 0)
    assert read["notes"] == ["„Seed“: \u22121 liegt außerhalb des erlaubten Bereichs 0 bis 9999; verwendet wird 0."]
    assert form.read(views.VIEWS["beam-search"].run.shown, {"prompt": PROMPT, "width": "1,5"})["notes"] == [
        "„Strahlbreite“: 1,5 ist keine ganze Zahl; verwendet wird 2."]
    block = realmodel_block.section("top-k-sampling")
    assert 'type="text" inputmode="numeric" data-realmodel-field="k"' in block
    assert 'type="text" inputmode="decimal" data-realmodel-field="temperature"' in block
