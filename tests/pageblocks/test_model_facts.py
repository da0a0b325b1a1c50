"""What the pages say about the site's language model (pageblocks/model_facts.py) agrees with the model the
traces ran, and no page whose engine runs it calls it untrained any more."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.kit import api, fmt, site_tokenizer, vocabulary
from probierlabor.pageblocks import live_block, model_facts
from probierlabor.realmodel import views as realmodel_views

from engine import pretrained
from tests.browser.conftest import SITE

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name,kind", [("gqa-kv-mha", "MHA"), ("gqa-kv-gqa", "GQA"), ("mqa-kv-mqa", "MQA")])
def test_kv_bytes_per_token_are_the_traced_models(name, kind):
    model = json.loads((ROOT / "static/traces" / f"{name}.json").read_text(encoding="utf-8"))["model"]
    assert model["attention"] == kind and model["dtype"] == "float64"
    assert model_facts.kv_bytes(kind) == 2 * model["num_layers"] * model["num_kv_heads"] * model["head_dim"] * 8
    assert model_facts.fact("kv_bytes", kind) == fmt.de(model_facts.kv_bytes(kind))


def test_the_paragraph_gives_the_manifests_numbers():
    m = pretrained.manifest()
    text = model_facts.paragraph()
    assert fmt.de(m["models"]["target"]["parameters"] / 1e6, 2) + " Millionen" in text
    assert fmt.de(m["models"]["target"]["heldout_perplexity"], 1) in text
    assert fmt.de(m["training"]["train_tokens"]) in text
    assert fmt.pct(m["models"]["target"]["real_words"]["share"], 0) in text


def test_no_page_calls_the_engines_model_untrained():
    # the nine engine pages said „untrainiert … Unsinn“ while the engine served random weights
    said = [p.name for p in (ROOT / "pages").glob("*.md")
            if re.search(r"untrainiert|Text ist also Unsinn|zufällige Gewichte", p.read_text(encoding="utf-8"))]
    assert said == []


# ------------------------------------------------------------------------------ what the model read


def _data_md_train_bytes(source: str) -> int:
    """The train size model/DATA.md's source table gives (its row ``source``), in bytes."""
    row = next(line for line in (ROOT / "model/DATA.md").read_text(encoding="utf-8").splitlines()
               if line.startswith(f"| {source} |"))
    return int(re.search(r"\| ([\d ]+) B, [\d ]+ Wörter \| [\d ]+ B", row).group(1).replace(" ", ""))


def test_the_paragraph_says_truly_what_the_weights_were_trained_on():
    """The weights read the pinned prose of an earlier site (model/site-prose.json.gz), which has none of the
    pages under „Grundlagen“, and that prose is less than a tenth of the training text: the rest, most of it,
    is the LibreOffice help."""
    from model import corpus, site_prose

    pinned = {name for name, _ in site_prose.pinned_texts() if name.startswith("pages/")}
    today = {f"pages/{p.name}" for p in (ROOT / "pages").glob("*.md")}
    foundations = {f"pages/{slug}.md" for slug in SLUGS if api.concept(slug).GROUP == "Grundlagen"}
    assert foundations and today - pinned == foundations and not foundations & pinned

    site_train = corpus.build(corpus.documents(external=False)).train
    assert len(site_train.encode("utf-8")) == _data_md_train_bytes("`site`")  # DATA.md's table is this prose's
    assert _data_md_train_bytes("`site`") < _data_md_train_bytes("zusammen") / 10
    # the paragraph counts the training text in tokens, so the tenth holds in tokens as well
    assert len(site_tokenizer.TOKENIZER.encode(site_train)) < pretrained.manifest()["training"]["train_tokens"] / 10

    for tense in model_facts.LEAD:
        text = model_facts.paragraph(tense)
        assert "vor allem aus der deutschen Hilfe des Büroprogramms LibreOffice" in text
        assert "Weniger als ein Zehntel stammt aus einer früheren Fassung dieser Website" in text
        assert "ohne die Seiten unter „Grundlagen“" in text
        assert "aus dem Text dieser Website" not in text


def test_rounded_model_numbers_carry_the_approx_sign():
    for name in ("parameters", "draft_parameters", "perplexity", "real_words"):
        assert model_facts.fact(name).startswith(fmt.APPROX), name
    for exact in ("layers", "heads", "kv_heads", "head_dim", "kv_bytes"):
        assert "≈" not in model_facts.fact(exact), exact


def test_no_page_writes_a_second_approx_sign_before_a_rounded_model_number():
    before = re.compile(r"≈\s*\{\{\s*model_fact\(\"(\w+)\"")
    doubled = [(page.name, name) for page in (ROOT / "pages").glob("*.md")
               for name in before.findall(page.read_text(encoding="utf-8"))
               if model_facts.fact(name).startswith(fmt.APPROX)]
    assert doubled == []


def test_after_a_sentence_that_names_the_model_the_paragraph_does_not_name_it_again():
    present = model_facts.paragraph("present")
    assert present.startswith("Es ist ein kleines Llama-Modell") and "Gerechnet hat" not in present
    assert present.split("Parametern. ", 1)[1] == model_facts.paragraph().split("Parametern. ", 1)[1]
    for slug in ("decode", "speculative-decoding"):
        text = (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8")
        before, _ = text.split('{{ about_model("present") }}')
        assert "Sprachmodell dieser Website" in before.rstrip().splitlines()[-1], slug  # what „Es“ refers to
        assert text.count("about_model(") == 1, slug


# ------------------------------------------------------------------------------ the built pages


def _built_text(slug: str) -> str:
    path = SITE / slug / "index.html"
    if not path.exists():
        pytest.skip(f"{path} fehlt: erst die Website bauen")
    body = re.sub(r"<script.*?</script>", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))  # U+202F stays


GENERATES = sorted(set(realmodel_views.pages("decoding")) | set(live_block.PAGES))


@pytest.mark.parametrize("slug", GENERATES)
def test_every_page_that_shows_the_models_text_says_what_to_expect(slug):
    text = _built_text(slug)
    expect = model_facts.EXPECT
    blocks = (slug in realmodel_views.pages("decoding")) + (slug in live_block.PAGES)
    assert text.count(expect) == blocks, slug
    assert "LibreOffice" in expect and "„Left“" in expect and "selten Sinn" in expect


def test_the_flash_attention_page_describes_the_run_its_trace_recorded():
    trace = json.loads((ROOT / "static/traces/flash-attention-tiles.json").read_text(encoding="utf-8"))
    events = [e for step in trace["steps"] for e in step["events"]]
    prefill = next(e for e in events if e["type"] == "schedule" and e["kind"] == "prefill")
    tile = next(e for e in events if e["type"] == "tile")
    assert len(tile["u"]) == trace["model"]["head_dim"] == pretrained.manifest()["models"]["target"]["config"]["head_dim"]
    text = _built_text("flash-attention")
    assert f"sieht sie die {prefill['num_tokens']} Keys des Prompts" in text
    assert f"Vektoren mit {len(tile['u'])} Zahlen" in text
    # counted from 1, as the attention page's heatmap counts them
    shown = f"Schicht {tile['layer'] + 1}, Kopf {tile['head'] + 1}"
    assert text.count(shown) >= 3 and "Schicht 0" not in text and "Kopf 0" not in text


@pytest.mark.parametrize("slug", ["beam-search", "greedy-decoding", "top-p-sampling", "softmax-temperatur",
                                  "tokenisierung", "kreuzentropie-perplexitaet"])
def test_vocabulary_sizes_use_the_one_phrase(slug):
    assert vocabulary.site_size() == pretrained.manifest()["models"]["target"]["config"]["vocab_size"]
    assert model_facts.fact("vocab_sizes") == vocabulary.sizes()
    assert fmt.de(vocabulary.site_size()) in vocabulary.sizes()
    text = _built_text(slug)
    assert vocabulary.sizes() in text
    assert not re.search(r"[Zz]ehntausend|[Tt]ausende |[Ee]in echtes Modell", text)


def test_no_older_page_gives_a_vocabulary_size_another_way():
    older = [p for p in (ROOT / "pages").glob("*.md")
             if p.stem not in SLUGS or api.concept(p.stem).GROUP != "Grundlagen"]
    said = [p.name for p in older if re.search(r"(?:[Zz]ehn|[Hh]undert)?[Tt]ausende[n]? Tokens|\d\d 000 Tokens|"
                                               r"Vokabulare? (?:hat|haben) [Zz]ehntausend", p.read_text(encoding="utf-8"))]
    assert said == []


def test_the_rounded_ends_of_the_vocabulary_range_carry_the_approx_sign():
    # LARGE is rounded (Llama 2 has 32 000 tokens, GPT-4o's tokenizer a few more than 200 000); the site's is exact
    large, site = vocabulary.sizes().split(", das Modell dieser Website: ")
    assert large == f"große Sprachmodelle: {fmt.APPROX}{fmt.de(vocabulary.LARGE[0])} bis " \
                    f"{fmt.APPROX}{fmt.de(vocabulary.LARGE[1])} Tokens"
    assert site == fmt.de(vocabulary.site_size())


def _replayed(slug: str) -> set[str]:
    """The models whose recordings a page plays (its ``replay("…")`` macros)."""
    names = re.findall(r'replay\("([^"]+)"', (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8"))
    return {json.loads((ROOT / "static/traces" / f"{n}.json").read_text(encoding="utf-8"))["model"].get("name")
            for n in names}


@pytest.mark.parametrize("slug", sorted(live_block.PAGES))
def test_the_own_run_claims_the_recordings_model_only_where_they_ran_it(slug):
    # decode's recording runs the hand-built toy model, the speculative page's first the constant pair p, q
    section = html.unescape(live_block.section(slug))
    intro = re.search(r'<p class="pl-live-intro">(.*?)</p>', section).group(1)
    others = {m for m in _replayed(slug) if not str(m).startswith("probierlabor-target")}
    if others:
        assert "demselben" not in intro and "rechnet mit dem trainierten Sprachmodell dieser Website" in intro, slug
    offers_pair = "Beispielpaar p und q" in section.split(intro, 1)[1]
    assert ("Beispielpaar p und q" in intro) == offers_pair, slug


def test_the_speculative_trace_sizes_the_draft_truly():
    words = {8: "acht", 9: "neun", 10: "zehn", 11: "elf", 12: "zwölf"}
    models = pretrained.manifest()["models"]
    ratio = models["target"]["parameters"] / models["draft"]["parameters"]
    said = json.loads((ROOT / "static/traces/speculative-decoding-tiny.json").read_text(encoding="utf-8"))
    said = said["scenario"]["description"]
    factor = re.search(r"ein (etwa )?(\w+)mal kleineres Modell", said)
    assert factor and factor.group(2) == words[round(ratio)], said
    assert bool(factor.group(1)) == (ratio != round(ratio)), said  # rounded, so „etwa“
