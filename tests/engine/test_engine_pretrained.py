"""The committed trained models (model/weights/): pinned by sha256, and as good as MANIFEST.json says.

The held-out loss is recomputed from the committed float16 files by the numpy engine in float32, the
dtype the site serves. MANIFEST.json holds the float64 value of the same weights; the two differ only by
float32 rounding in the matmuls and the softmax sums, averaged over about 2 000 tokens (measured:
below 1e-7 nats), so 1e-4 nats is a generous bound that still sits far below the gap between target
and draft.
"""

import math
import shutil

import numpy as np
import pytest

from engine import pretrained

INDEX = pretrained.manifest()
FLOAT32_TOLERANCE = 1e-4  # nats per token, see the module docstring
FLOAT64_TOLERANCE = 1e-9  # same weights, same dtype as the manifest: only the order of BLAS sums may differ


def test_every_committed_file_matches_its_sha256():
    assert sorted(INDEX["files"]) == ["draft.npz", "heldout.txt", "target.npz", "tokenizer.json"]
    for name, entry in INDEX["files"].items():
        data = (pretrained.WEIGHTS / name).read_bytes()
        assert pretrained.sha256(data) == entry["sha256"], name
        assert len(data) == entry["bytes"], name


@pytest.mark.parametrize("victim,name", [("target.npz", "target"), ("draft.npz", "draft"), ("tokenizer.json", "draft")])
def test_a_tampered_file_is_refused_by_name(tmp_path, victim, name):
    folder = tmp_path / "weights"
    shutil.copytree(pretrained.WEIGHTS, folder)
    data = bytearray((folder / victim).read_bytes())
    data[len(data) // 2] ^= 1  # one flipped bit
    (folder / victim).write_bytes(bytes(data))
    with pytest.raises(pretrained.WeightsError, match=f"{victim} does not match MANIFEST.json"):
        pretrained.load(name, folder=folder)


def test_unknown_model_name():
    with pytest.raises(ValueError, match="unknown model 'huge'"):
        pretrained.load("huge")


@pytest.mark.parametrize("name", pretrained.MODELS)
def test_the_heldout_loss_recomputed_from_the_committed_files_matches_the_manifest(name):
    entry = INDEX["models"][name]
    want, window = entry["heldout_loss"], INDEX["eval"]["window"]
    model32, tokenizer = pretrained.load(name)
    ids = pretrained.heldout_ids(tokenizer)
    assert len(ids) == INDEX["eval"]["tokens"] >= 2000
    assert model32.weights["lm_head.weight"].dtype == np.float32
    assert model32.config.vocab_size == tokenizer.vocab_size == INDEX["training"]["vocab_size"]
    assert abs(pretrained.mean_loss(model32, ids, window) - want) <= FLOAT32_TOLERANCE
    model64, _ = pretrained.load(name, dtype="float64")
    assert abs(pretrained.mean_loss(model64, ids, window) - want) <= FLOAT64_TOLERANCE
    assert entry["heldout_perplexity"] == pytest.approx(math.exp(want))


def test_the_target_beats_the_draft_and_both_beat_knowing_nothing():
    target, draft = (INDEX["models"][name]["heldout_loss"] for name in ("target", "draft"))
    uniform = math.log(INDEX["training"]["vocab_size"])  # the loss of a model that knows nothing
    assert target < draft - 0.2
    assert draft < uniform - 1.5
    target_params, draft_params = (INDEX["models"][name]["parameters"] for name in ("target", "draft"))
    assert 1_000_000 <= target_params <= 4_000_000 and draft_params * 8 <= target_params


def test_loaded_model_speaks_through_its_tokenizer():
    model, tokenizer = pretrained.load("target")
    assert model.tokenizer is tokenizer
    text = "Die Wahrscheinlichkeit für das nächste Token"
    assert tokenizer.decode(tokenizer.encode(text)) == text


def test_the_target_writes_mostly_real_german_words():
    """The model writes German: at T = 0.8 from the 20 fixed prompts, at least 60 % of the target's words of three or more
    letters are in Debian's word list. Regenerated from the committed files (float64, as the export did);
    a different BLAS can flip a rare near-tie draw and change the text a little, hence the 0.05 margin."""
    from model.export import real_words

    model, tokenizer = pretrained.load("target", dtype="float64")
    got = real_words(model, tokenizer)
    want = INDEX["models"]["target"]["real_words"]
    assert got["counted"] >= 200
    assert abs(got["share"] - want["share"]) <= 0.05
    assert got["share"] >= 0.6
    assert INDEX["wordcheck"]["random_weights"]["share"] < 0.5 * got["share"]
