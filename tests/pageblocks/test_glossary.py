"""One terminology on every page: the glossary's spellings, the e-form imperatives of weak
verbs and one observations heading, checked on the built pages, experiments included."""

import re
from pathlib import Path

import pytest
from probierlabor import SLUGS
from probierlabor.concepts import graph
from probierlabor.pageblocks import glossary

from tools.sentences import blocks

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
PAGES = [p.stem for p in sorted((ROOT / "pages").glob("*.md")) if p.stem != "glossar"]


def _rules():
    rules = [(re.compile(rx), t.term) for t in glossary.TERMS for rx in t.avoid]
    rules += [(re.compile(rx), instead) for rx, instead in glossary.PHRASES]
    return [*rules, (glossary.IMPERATIVE, "Imperativ in der e-Form (Stelle, Schiebe, Wähle …)")]


def findings(texts: list[str]) -> list[str]:
    """Every forbidden variant in these text blocks, with the rule it breaks and its context."""
    found = []
    for text in texts:
        for rule, term in _rules():
            for m in rule.finditer(text):
                if glossary.ENGLISH_NOTE.search(text[max(0, m.start() - 12):m.start()]):
                    continue
                context = text[max(0, m.start() - 40):m.end() + 40]
                found.append(f"„{m.group(0).strip()}“ statt {term}: …{context}…")
    return found


def _built(slug: str) -> str:
    page = SITE / ("index.html" if slug == "index" else f"{slug}/index.html")
    if not page.exists():
        pytest.skip("site/ fehlt: erst `make site`")
    return page.read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", PAGES)
def test_page_uses_the_glossary_spelling(slug):
    assert findings(blocks(_built(slug), experiments=True)) == [], slug


@pytest.mark.parametrize("planted, rule", [
    ("Der KV Cache wächst.", "KV-Cache"),
    ("Dann kommt der nächste Token.", "Token"),
    ("Es nimmt einen vorgeschlagenen A-Token an.", "Token"),
    ("Es bleiben zwei Token übrig.", "Token"),
    ("Jedes Etikett zählt.", "Label"),
    ("Beim Fine-tuning lernt es.", "Fine-Tuning"),
    ("Der Verlust ist die Cross-Entropy.", "Kreuzentropie"),
    ("Erst kommt der Prefill.", "Prefill"),
    ("Wie Top-p Sampling schneidet.", "Top-p-Sampling"),
    ("Nach fünf Trainingsrunden.", "Runde"),
    ("Die Chance bei zwei Stunden ist 50 %.", "Wahrscheinlichkeit"),
    ("Die Log-Chance fällt.", "Wahrscheinlichkeit"),
    ("Die Erfolgschancen steigen.", "Wahrscheinlichkeit"),
    ("Mit den richtigen Labelen.", "Label"),
    ("Die Zahlen der Gerade bleiben.", "Gerade"),
    ("Dann doch zur Gerade wechseln.", "Gerade"),
    ("Maskierte Token bleiben sichtbar.", "Token"),
    ("Welche Token jede Vorhersage liest.", "Token"),
    ("Im Lehrtext steht nur A.", "Vorlage"),
    ("Im Artikelbeispiel verschenkt Greedy viel.", "Vorlage"),
    ("Leer: die Zahlen des Artikels.", "Vorlage"),
    ("Jede K/V wird einmal berechnet.", "K/V-Paar"),
    ("Jede Gruppe hat einen eigenen K/V-Satz.", "K/V-Kopf"),
    ("MHA speichert acht K/V-Sätze.", "K/V-Kopf"),
    ("Kopf 4 (K/V-Gruppe 1)", "K/V-Kopf"),
    ("Der Verlust ist 2,478 Nats.", "Nat"),
    ("Im Mittel 1,6 nats je Token.", "Nat"),
    ("D(p‖q) in nat", "Nat"),
    ("Ainslie und Kollegen bauen um.", "et al."),
    ("Vaswani und andere, 2017", "et al."),
    ("Gut. Stell den Regler auf 3.", "Imperativ"),
    ("Dann schieb ihn nach rechts.", "Imperativ"),
    ("Dreh die beiden Queries.", "Imperativ"),
    ("Dann bekommt B den größten Logit.", "Logit"),
    ("Er hat einen Logit von 3.", "Logit"),
    ("Das gibt den größte Logit für B.", "Logit"),
])
def test_a_planted_variant_is_found(planted, rule):
    found = findings([planted])
    assert len(found) == 1 and rule in found[0], found


@pytest.mark.parametrize("fine", [
    "Das Token und die Tokens, dem Token, den Tokens, des Tokens, Token für Token, die Token-IDs.",
    "Der KV-Cache und das Prefill; im Prefill, dem Prefill, die Prefill-Phase.",
    "Die Kreuzentropie (englisch cross-entropy) ist ein Verlust.",
    "Stelle den Regler. Schiebe ihn. Wähle, vergleiche. Der Vergleich zeigt es. Lies, sieh, nimm.",
    "Top-p-Sampling und Top-k-Sampling; die Labels, das Label.",
    "Die Wahrscheinlichkeit, ihre Odds und Log-Odds; im Code heißt sie greedy_chance oder chance_all_old.",
    "Die Gerade, der Geraden, zur Geraden; gerade Linien. Jedes K/V-Paar, die K/V-Köpfe, Sale-Artikel.",
    "Der K/V-Kopf, einen K/V-Kopf, die K/V-Köpfe; ein Satz Keys und Values; die Gruppe teilt ihn.",
    "Maskierte Tokens, jedes eigene Token, welche Tokens.",
    "Das größte Logit, dem größten Logit, ein Logit, die Logits, den Logits; Drehe die Query.",
])
def test_correct_text_is_not_flagged(fine):
    assert findings([fine]) == []


def test_every_term_without_a_page_is_a_glossary_entry():
    entries = glossary.by_term()
    for slug, terms in graph.TERMS.items():
        for term, _ in terms:
            assert term in entries, f"{slug}: „{term}“ fehlt im Glossar"


def test_entries_are_complete_and_unique():
    anchors = [t.anchor for t in glossary.TERMS]
    assert len(anchors) == len(set(anchors))
    for t in glossary.TERMS:
        assert t.article in ("", "der", "die", "das"), t.term
        assert t.explanation.endswith(".") and len(t.explanation.split()) <= 40, t.term
        assert not t.page or t.page in SLUGS, t.term
        # A rule must not flag the term's own spelling.
        assert findings([t.term, t.plural]) == [], t.term


def test_glossary_page_lists_every_entry_with_its_anchor():
    html = _built("glossar")
    for t in glossary.TERMS:
        assert f'id="{t.anchor}"' in html, t.term


@pytest.mark.parametrize("slug", SLUGS)
def test_one_heading_for_the_observations(slug):
    headings = re.findall(r"^## (.+?)\s*$", (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8"), re.M)
    assert headings.count(glossary.FINDINGS) == 1, (slug, headings)
    assert not [h for h in headings if re.match(r"Was (man|du) entdeck|Beobachtung", h) and h != glossary.FINDINGS]


@pytest.mark.parametrize("slug", PAGES)
def test_the_page_source_has_none_of_the_wrong_phrases(slug):
    """The built pages leave out the sources, so the phrases are checked in the Markdown as well: a
    remark about the text a page was written from is as wrong in „Quellen“ as anywhere else."""
    text = (ROOT / "pages" / f"{slug}.md").read_text(encoding="utf-8")
    assert [m.group(0) for rx, _ in glossary.PHRASES for m in re.finditer(rx, text)] == [], slug
