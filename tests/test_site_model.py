"""What the pages say about the site's language model (pageblocks/site_model.py) agrees with the model the
traces ran, and no page whose engine runs it calls it untrained any more."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine import pretrained
from probierlabor.kit import fmt
from probierlabor.pageblocks import site_model

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name,kind", [("gqa-kv-mha", "MHA"), ("gqa-kv-gqa", "GQA"), ("mqa-kv-mqa", "MQA")])
def test_kv_bytes_per_token_are_the_traced_models(name, kind):
    model = json.loads((ROOT / "static/traces" / f"{name}.json").read_text(encoding="utf-8"))["model"]
    assert model["attention"] == kind and model["dtype"] == "float64"
    assert site_model.kv_bytes(kind) == 2 * model["num_layers"] * model["num_kv_heads"] * model["head_dim"] * 8
    assert site_model.fact("kv_bytes", kind) == fmt.de(site_model.kv_bytes(kind))


def test_the_paragraph_gives_the_manifests_numbers():
    m = pretrained.manifest()
    text = site_model.paragraph()
    assert fmt.de(m["models"]["target"]["parameters"] / 1e6, 2) + " Millionen" in text
    assert fmt.de(m["models"]["target"]["heldout_perplexity"], 1) in text
    assert fmt.de(m["training"]["train_tokens"]) in text
    assert fmt.pct(m["models"]["target"]["real_words"]["share"], 0) in text


def test_no_page_calls_the_engines_model_untrained():
    # the nine engine pages said „untrainiert … Unsinn“ while the engine served random weights
    said = [p.name for p in (ROOT / "pages").glob("*.md")
            if re.search(r"untrainiert|Text ist also Unsinn|zufällige Gewichte", p.read_text(encoding="utf-8"))]
    assert said == []
