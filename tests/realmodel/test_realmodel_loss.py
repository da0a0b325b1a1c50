"""„Am echten Modell“ on the cross-entropy page (probierlabor/realmodel/loss.py) on the trained target: each
token's probability is the model's own on the text before it, the mean is the engine's held-out measure
on the same text, the held-out figures come from MANIFEST.json, and bad input gets German notes.

The model computes in float32: log-probabilities are compared with a tolerance of 1e-4."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
from probierlabor.kit import fmt
from probierlabor.kit.model_files import DAMAGED
from probierlabor.pageblocks import realmodel_loss_block
from probierlabor.realmodel import loss, models
from probierlabor.realmodel.fields import PROMPT_CHARS, PROMPT_TOKENS
from probierlabor.realmodel.form import PromptError

from engine import pretrained
from engine.attention import NoCacheAttention

ROOT = Path(__file__).resolve().parents[2]
SLUG = "kreuzentropie-perplexitaet"
TEXT = "Das Modell liest den Text und schreibt die Antwort."


@pytest.fixture(scope="module")
def target():
    return models.load("target")


def test_each_tokens_probability_is_the_models_on_the_text_before_it(target):
    model, tokenizer = target
    out = loss.run({"text": TEXT})
    ids = tokenizer.encode(TEXT)
    assert out["first"]["id"] == ids[0] and [t["id"] for t in out["tokens"]] == ids[1:]
    for i, token in enumerate(out["tokens"], start=1):
        logits = model.forward(ids[:i], np.arange(i), NoCacheAttention())[-1].astype(np.float64)
        log_p = logits[ids[i]] - (logits.max() + math.log(np.exp(logits - logits.max()).sum()))
        assert token["loss"] == pytest.approx(-log_p, abs=1e-4)
        assert token["p"] == pytest.approx(math.exp(log_p), rel=1e-4)
        assert token["best"]["id"] == int(np.argmax(logits))
    json.dumps(out)


def test_mean_bits_and_perplexity_follow_from_the_losses_and_match_the_engines_held_out_measure(target):
    model, tokenizer = target
    out = loss.run({"text": TEXT})
    losses = [t["loss"] for t in out["tokens"]]
    assert out["mean"] == pytest.approx(sum(losses) / len(losses), abs=1e-12)
    assert out["bits"] == pytest.approx(out["mean"] / math.log(2), abs=1e-12)
    assert out["perplexity"] == pytest.approx(math.exp(out["mean"]), rel=1e-12)
    assert out["tokens"][out["worst"]]["loss"] == max(losses)
    # the manifest's held-out loss is measured the same way: the first token of a window is not predicted
    ids = tokenizer.encode(TEXT)
    assert out["mean"] == pytest.approx(pretrained.mean_loss(model, ids, window=len(ids)), abs=1e-4)


def test_the_held_out_figures_are_the_manifests_and_the_block_shows_them():
    entry = pretrained.manifest()["models"]["target"]
    assert loss.heldout() == {"loss": entry["heldout_loss"], "perplexity": entry["heldout_perplexity"]}
    html = realmodel_loss_block.section(SLUG)
    assert html.startswith(f'<details class="pl-realmodel pl-realmodel-loss" data-realmodel="{SLUG}" '
                           'data-realmodel-view="loss"') and " open" not in html.split(">")[0]
    assert f"≈ {fmt.de(entry['heldout_loss'], 3)} Nat" in html and f"Perplexität von ≈ {fmt.de(entry['heldout_perplexity'], 1)}" in html
    assert 'data-realmodel-field="text"' in html


def test_a_sentence_the_model_cannot_score_gets_a_german_message_and_a_long_one_a_note():
    with pytest.raises(PromptError, match="leer"):
        loss.run({"text": "  "})
    with pytest.raises(PromptError, match="nur ein Token"):
        loss.run({"text": "D"})
    out = loss.run({"text": "Das Modell liest. " * 40})
    assert out["notes"][0] == f"Dein Satz hat 720 Zeichen. Das Modell liest nur die ersten {PROMPT_CHARS}."
    assert out["notes"][1].endswith(f"Das Modell liest nur die ersten {PROMPT_TOKENS}.")
    assert len(out["tokens"]) == PROMPT_TOKENS - 1


def _runner(script: str) -> dict:
    """A worker's runner script (static/py), as python-worker.js runs it: its names, run() among them."""
    scope = {}
    exec(compile((ROOT / "static/py" / script).read_text(encoding="utf-8"), script, "exec"), scope)
    return scope


def test_the_workers_runner_sends_this_page_to_loss_run_and_the_decoding_pages_to_their_methods():
    scope = _runner("realmodel_run.py")
    told = []
    folder = str(pretrained.WEIGHTS)
    out = json.loads(scope["run"](json.dumps({"text": TEXT}), SLUG, folder, told.append))
    assert out["mean"] == pytest.approx(loss.run({"text": TEXT})["mean"], abs=1e-12)
    out = json.loads(scope["run"](json.dumps({"text": ""}), SLUG, folder, told.append))
    assert out["prompt"] is True and out["error"].startswith("Der Satz ist leer.")
    out = json.loads(scope["run"](json.dumps({"prompt": TEXT}), "greedy-decoding", folder, told.append))
    assert out["method"] == "greedy"


@pytest.mark.parametrize(("slug", "key"), [(SLUG, "text"), ("greedy-decoding", "prompt"), ("attention", "prompt")])
def test_half_a_character_in_the_readers_text_is_replaced_with_a_note_and_the_run_goes_on(slug, key):
    """A lone surrogate (an emoji cut in two) arrives from the field through JSON; the tokenizer cannot encode
    it, and the run ended „unerwartet abgebrochen (UnicodeEncodeError …)“."""
    scope = _runner("realmodel_run.py")
    asked = json.dumps({key: "Die Katze \ud83d jagt die Maus \ude00"})  # as JSON.stringify writes lone halves
    out = json.loads(scope["run"](asked, slug, str(pretrained.WEIGHTS), lambda _: None))
    assert "error" not in out, out.get("error")
    assert out["settings"][key] == "Die Katze \ufffd jagt die Maus \ufffd"
    assert out["notes"] == ["Dein " + ("Prompt" if slug == "greedy-decoding" else "Satz") + " enthält 2 halbe "
                            "Schriftzeichen (zum Beispiel zerschnittene Emojis). Das Modell liest an ihrer Stelle je ein „\ufffd“."]


@pytest.mark.parametrize("damage", ["flip", "manifest", "missing"])
def test_damaged_model_files_get_a_german_message_instead_of_pythons_error(damage, tmp_path):
    """A weight file that does not match MANIFEST.json showed „Das Modell konnte nicht starten (ValueError: …
    does not match MANIFEST.json: sha256 …)“; „Eigener Lauf“ said „unerwartet abgebrochen (ValueError …)“."""
    folder = tmp_path / "weights"
    shutil.copytree(pretrained.WEIGHTS, folder)
    if damage == "flip":
        data = bytearray((folder / "target.npz").read_bytes())
        data[len(data) // 2] ^= 1
        (folder / "target.npz").write_bytes(bytes(data))
    elif damage == "manifest":
        (folder / "MANIFEST.json").write_text("{ kaputt", encoding="utf-8")
    else:
        (folder / "tokenizer.json").unlink()
    out = json.loads(_runner("realmodel_run.py")["run"](json.dumps({"prompt": TEXT}), "greedy-decoding", str(folder),
                                                        lambda _: None))
    assert out == {"error": DAMAGED}
    engine_run = _runner("engine_run.py")["run"]
    own_run = {"requests": "hallo welt | 2", "model": "GQA", "block_size": "4", "num_blocks": "16", "max_num_seqs": "2",
               "max_num_batched_tokens": "8", "chunked_prefill": "1", "prefix_caching": "1", "policy": "continuous"}
    out = json.loads(engine_run(json.dumps(own_run), "kv-cache", str(folder), lambda _: None))
    assert out == {"error": DAMAGED}
    assert "Lade die Seite neu. Hilft das nicht, muss die Website neu kopiert werden" in DAMAGED
