"""Claims a content review found wrong or imprecise (issue 30 §4), held in their corrected form: each row
names where the text lives, what it said and what it says now. A claim that can be computed is tested in
its concept's own test file instead (flash-attention's blocks, rope's 180°, the lesson checks)."""

from pathlib import Path

import pytest

from probierlabor.pageblocks import glossary, live_block, realmodel_block, realmodel_loss_block
from probierlabor.concepts import continuous_batching, graph, prefix_caching

ROOT = Path(__file__).resolve().parents[1]


def page(slug):
    return " ".join((ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8").split())


def term(name):
    return next(t for t in glossary.TERMS if t.term == name).explanation


LESSON = {module.SLUG: " ".join([*module.LESSON.teacher, *module.LESSON.misconceptions])
          for module in (prefix_caching, continuous_batching)}

CLAIMS = [
    # (where, what it said, what it says now)
    (page("beam-search"), "Jeder Summand ist negativ", "Kein Summand ist größer als 0"),
    (term("Newton-Verfahren"), "Nullstelle", "höchsten oder tiefsten Punkt"),
    (term("Positional Encoding"), "wird zum Token addiert", "zum Embedding des Tokens addiert"),
    (LESSON["prefix-caching"], "Es spart nur Prefill", "kommt das erste Token früher"),
    (LESSON["prefix-caching"], "Keys und Values einer Position hängen vom ganzen", "in der ersten nur vom Token"),
    (LESSON["continuous-batching"], "nur die Wartezeit wird kürzer", "muss aber nicht"),
    (page("experience-replay"), "", "Long-Ji Lin"),
    (page("prefill"), "und damit das Ergebnis ändern sich nicht", "das mathematische Ergebnis"),
    (page("pass-at-k"), "", "nur eine einzige Gruppe"),
    # p is the reference on every page (kl-divergence, speculative-decoding): here the teacher
    (page("knowledge-distillation"), r"D_{\mathrm{KL}}\bigl(q(T)", r"D_{\mathrm{KL}}\bigl(p(T)"),
    # das Token: one token per letter is „eines“
    (page("prefix-caching"), "Tokens, einen je Buchstabe", "Tokens, eines je Buchstaben"),
    # numpy is named for what it is
    (realmodel_block.INTRO, "auf numpy", "mit der Python-Bibliothek numpy"),
    (realmodel_loss_block.INTRO, "auf numpy", "mit der Python-Bibliothek numpy"),
    (live_block.INTRO, "auf numpy", "mit der Python-Bibliothek numpy"),
]


@pytest.mark.parametrize("where, wrong, right", CLAIMS, ids=[right for _, _, right in CLAIMS])
def test_the_corrected_claim_stands(where, wrong, right):
    assert right in where and (not wrong or wrong not in where)


def test_distillation_links_its_temperature_not_to_sampling():
    """The temperature has its own page now, which explains it for sampling and distillation alike."""
    assert glossary.by_term()["Temperatur"].page == "softmax-temperatur"
    assert "softmax-temperatur" in graph.READ_FIRST["knowledge-distillation"]
    assert all(name != "Temperatur" for name, _ in graph.TERMS["knowledge-distillation"])
