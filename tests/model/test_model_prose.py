"""The site's prose for the corpus: the Markdown cleaner on pieces of real pages, and the whole site's text."""

import re

from probierlabor import SLUGS
from probierlabor.pageblocks.glossary import TERMS

from model.prose import markdown_paragraphs
from model.site_prose import glossary_text, lesson_texts, page_texts, site_texts

# pages/decode.md, its front matter and first paragraphs as written
DECODE_HEAD = """---
title: Decode
description: Wie ein Sprachmodell seine Antwort Token für Token verlängert – an einem vollständig angegebenen Miniaturmodell mit KV-Cache.
---

# Decode

Ein Sprachmodell verlängert seine Antwort Token für Token. In der Phase **Decode** verarbeitet jeder
**Durchlauf** das zuletzt gewählte Token, und daraus wählt das Modell das nächste.

{{ read_first("decode") }}

## Probiere es aus

{{ experiment("decode") }}
"""


def test_front_matter_block_macros_and_markup_go_the_text_stays():
    assert markdown_paragraphs(DECODE_HEAD) == [
        "Decode",
        "Ein Sprachmodell verlängert seine Antwort Token für Token. In der Phase Decode verarbeitet jeder "
        "Durchlauf das zuletzt gewählte Token, und daraus wählt das Modell das nächste.",
        "Probiere es aus",
    ]


def test_a_sentence_with_an_inline_macro_is_dropped_its_neighbours_stay():
    # pages/decode.md: the number the build fills in would leave „Im Cache liegen aber erst Positionen“;
    # a line that starts with a macro is no macro line (the text up to the next macro stays)
    page = ('Das größte Logit gehört zu A – das erste Antworttoken ist A. Im Cache liegen aber erst\n'
            '{{ value("decode", "counter", 0) }} Positionen, die des Prompts.\n\n'
            '## Was du entdeckst\n\n'
            '{{ see_also("decode") }}\n')
    assert markdown_paragraphs(page) == ["Das größte Logit gehört zu A – das erste Antworttoken ist A.",
                                         "Was du entdeckst"]


def test_display_and_inline_math_go():
    # pages/decode.md
    page = ("Drei Tokens A, B und C mit den Vektoren \\(A = (1, 0)\\), \\(B = (0, 1)\\), \\(C = (-1, -1)\\). Query, Key und\n"
            "Value eines Tokens sind einfach sein Vektor. Eine einzige Attention mit dem Faktor \\(1/\\sqrt{2}\\):\n"
            "\n"
            "\\[\n"
            "\\begin{aligned}\n"
            "h &= (h_0, h_1) = \\textstyle\\sum_j w_j\\, v_j, \\\\\n"
            "\\end{aligned}\n"
            "\\]\n"
            "\n"
            "Greedy nimmt das Token mit dem größten Logit.\n"
            "Mit $$x^2$$ und $p$ geht es auch.\n")
    assert markdown_paragraphs(page) == [
        "Query, Key und Value eines Tokens sind einfach sein Vektor.",
        "Greedy nimmt das Token mit dem größten Logit.",
    ]


def test_html_tables_code_links_and_admonitions():
    page = """<section class="pl-check" data-systemcheck data-state="idle" markdown="0">
  <button type="button" class="md-button md-button--primary" disabled>Prüfung starten</button>
</section>

| Schutz | Gewichte (w₁; w₂) | Summe |
|---|---|---|
| EWC | ({{ value("ewc", "w.0", 2, mode="ewc") }}) | 1 |

Breite 1 ist [Greedy Decoding](greedy-decoding.md). Parameter `length_penalty` in Transformers.

```python
print("kein Text")
```

??? note "Genauer: fertige Folgen in Transformers"
    In Transformers zählt ein Kandidat, der mit dem Endtoken endet, nur unter einer Bedingung als fertige
    Antwort.

- **Ohne Schutz** rücken beide Gewichte gleich weit vor.
- *Gleiche Strafe* bremst beide.
"""
    assert markdown_paragraphs(page) == [
        "Prüfung starten",
        "Breite 1 ist Greedy Decoding.",
        "Genauer: fertige Folgen in Transformers",
        "In Transformers zählt ein Kandidat, der mit dem Endtoken endet, nur unter einer Bedingung als fertige "
        "Antwort.",
        "Ohne Schutz rücken beide Gewichte gleich weit vor.",
        "Gleiche Strafe bremst beide.",
    ]


def test_no_markup_is_left_in_the_whole_site():
    markup = re.compile(r"\{\{|\}\}|\{%|</?[a-z]+[ >]|\\\(|\\\[|\$|`|\]\(|\*\*|^\||\x00|^#|^-{3}")
    texts = site_texts()
    leftovers = [(name, p) for name, paragraphs in texts for p in paragraphs if markup.search(p)]
    assert leftovers == []
    assert all(p == p.strip() and "\n" not in p and "  " not in p for _, paragraphs in texts for p in paragraphs)


def test_every_page_lesson_and_glossary_entry_is_there():
    pages = dict(page_texts())
    assert "pages/decode.md" in pages and len(pages["pages/decode.md"]) > 10
    lessons = dict(lesson_texts())
    assert set(lessons) == {f"lesson:{slug}" for slug in SLUGS}
    # the gqa lesson's first task, as the page shows it (numbers filled in)
    assert any(s.startswith("Stelle") and "Finde die größte Gruppenzahl G" in s for s in lessons["lesson:gqa"])
    _name, entries = glossary_text()
    assert len(entries) == len(TERMS) and "das Token: " in " ".join(entries)
