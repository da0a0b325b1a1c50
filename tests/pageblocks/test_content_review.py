"""Claims a content review found wrong or imprecise, held in their corrected form: each row
names where the text lives, what it said and what it says now. A claim that can be computed is tested in
its concept's own test file instead (flash-attention's blocks, rope's 180°, the lesson checks)."""

from pathlib import Path

import pytest
from probierlabor.concepts import continuous_batching, embeddings, graph, kreuzentropie_perplexitaet, prefix_caching
from probierlabor.kit import api
from probierlabor.pageblocks import glossary, live_block, realmodel_block, realmodel_loss_block

ROOT = Path(__file__).resolve().parents[2]


def page(slug):
    return " ".join((ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8").split())


LOSS_JS = (ROOT / "static/js/realmodel/loss.js").read_text(encoding="utf-8")


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
    # the foundation pages
    (page("attention"), "ist die Länge der Vektoren", "ist die Zahl der Einträge (die Dimension) von Query und Key"),
    (page("attention"), "Das hält die Scores klein", "hält diese Streuung gleich"),
    (page("attention"), "bekommt jedes Token genau", "bekommt jedes der sichtbaren Tokens genau"),
    (page("attention"), "andere auf das erste Token oder auf sich selbst", "Ein Kopf (Schicht 2, Kopf 8) schaut vor allem"),
    (page("attention"), "Vaswani und andere", "Vaswani et al. 2017"),
    (page("attention"), r"{\sqrt{d}}\right) V", r"{\sqrt{d}} + M\right) V"),
    (page("attention"), "", "Hier fragt jedes Token mit derselben Query"),
    (page("attention"), "Nur bei gleichen Scores und hinter der Maske", "wenn alle sichtbaren Scores gleich sind"),
    (page("embeddings"), "Senkrecht heißt unabhängig", "Senkrecht heißt: kein gemeinsamer Anteil"),
    (page("embeddings"), "an ähnlichen Stellen im Text", "in ähnlicher Umgebung"),
    (page("embeddings"), "ist ihr Abstand 0", "ist ihr Positionsabstand 0"),
    (page("embeddings"), "die Seiten dieser Website und die Hilfe", "eine frühere Fassung dieser Website (ohne die Grundlagen-Seiten)"),
    (page("embeddings"), "Modell dieser Seite", "Modell dieser Website"),
    (page("embeddings"), "Millionen Gewichte", "model_fact(\"parameters\") }} Parameter"),
    (page("embeddings"), "Mikolov und Kollegen", "Mikolov et al."),
    (page("embeddings"), "ist sie {{", "ist sie ≈ {{"),
    (page("embeddings"), "", "die Nummer des Zahlenpaars"),
    (embeddings.TEASER, "Modell dieser Seite", "Modell dieser Website"),
    (" ".join(embeddings.LESSON.misconceptions), "ähnliche Zahlen an derselben Stelle", "Jede einzelne Zahl im Embedding"),
    (" ".join(embeddings.LESSON.teacher), "Modell der Seite (2 Millionen Gewichte", "Modell der Website (rund 2 Millionen Parameter"),
    (api.run("embeddings", {"b": "-1; 3"})["summary"], "nichts gemeinsam", "keinen gemeinsamen Anteil"),
    (embeddings.LESSON.tasks[2].explain, "Der Abstand ist", "Der Positionsabstand ist"),
    (page("kreuzentropie-perplexitaet"), "sind es {{", "sind es ≈ {{"),
    (page("kreuzentropie-perplexitaet"), "kostet {{", "kostet ≈ {{"),
    (page("kreuzentropie-perplexitaet"), "im Mittel {{", "im Mittel ≈ {{"),
    (page("kreuzentropie-perplexitaet"), "steigt sie auf {{", "steigt sie auf ≈ {{"),
    (page("kreuzentropie-perplexitaet"), "trägt {{", "trägt ≈ {{"),
    (page("kreuzentropie-perplexitaet"), "Text dieser Website und der deutschen Hilfe", "aus einer früheren Fassung dieser Website (ohne die Grundlagen-Seiten)"),
    (page("kreuzentropie-perplexitaet"), "liest alles davor.", 'liest alles davor, hier bis zu {{ model_fact("prompt_tokens") }} Tokens'),
    (page("kreuzentropie-perplexitaet"), "tausende Tokens", '{{ model_fact("vocab_sizes") }}'),
    (page("kreuzentropie-perplexitaet"), "nats", "Nat"),
    (page("kreuzentropie-perplexitaet"), r"H \;=\;", r"H(p_{\text{Text}},\, p_{\text{Modell}})"),
    (page("kreuzentropie-perplexitaet"), "", r"Die **Entropie** \(H(p)\)"),
    (page("kreuzentropie-perplexitaet"), "Zählen tut sie", "Aussagekräftig ist sie erst"),
    (kreuzentropie_perplexitaet.TEASER, "−log p", "−ln p"),
    (" ".join(kreuzentropie_perplexitaet.LESSON.teacher), "Deshalb gibt die Softmax", "Die Softmax gibt jedem Token mehr als 0 – gut so"),
    (" ".join(kreuzentropie_perplexitaet.LESSON.misconceptions), "seltene Wörter bestimmen", "unerwartete Tokens (kleines p) bestimmen"),
    (LOSS_JS, "nie gesehen hat (${de(", "lange Abschnitte ` +\n    `zurückgehaltenen Textes"),
    (LOSS_JS, "nats", "Nat"),
    (LOSS_JS, "zwischen ${de(data.perplexity, 1)}", "zwischen ${between(data.perplexity)}"),  # rounded, no „≈“
]


@pytest.mark.parametrize("where, wrong, right", CLAIMS, ids=[right[:50] for _, _, right in CLAIMS])
def test_the_corrected_claim_stands(where, wrong, right):
    assert right in where and (not wrong or wrong not in where)


def test_distillation_links_its_temperature_not_to_sampling():
    """The temperature has its own page now, which explains it for sampling and distillation alike."""
    assert glossary.by_term()["Temperatur"].page == "softmax-temperatur"
    assert "softmax-temperatur" in graph.READ_FIRST["knowledge-distillation"]
    assert all(name != "Temperatur" for name, _ in graph.TERMS["knowledge-distillation"])
