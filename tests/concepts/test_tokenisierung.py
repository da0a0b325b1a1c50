"""Tokenisierung: the page runs the site model's own tokenizer; every state of the merge slider is what
a ByteBPE with only the first k merges gives (the engine's own code, rebuilt per k), the curve counts
exactly, nothing the reader types fails, and the workshop script recomputes the tokens by its own BPE.

All numbers are counts: exact integers, bytes per token an exact fraction."""

import itertools
import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import PAGES, solved_by_the_page, unmarked_roundings
from probierlabor.concepts import tokenisierung as tok
from probierlabor.kit import api, fmt, lesson
from probierlabor.pageblocks import glossary, model_facts

from engine import pretrained
from engine.bpe import ByteBPE

SAMPLES = [*list(tok.ROWS.values()), "Grüß Gott, 12345 Äpfel!", "x", "  zwei  Leerzeichen", "日本語 ✓ 👋🏽"]


def fewer(k: int) -> ByteBPE:
    return ByteBPE(tok.TOKENIZER.merges[:k], tok.TOKENIZER.pattern)


def test_the_page_runs_the_trained_models_tokenizer():
    model_tokenizer = pretrained.load_tokenizer()  # checked against MANIFEST.json's sha256
    assert tok.TOKENIZER.merges == model_tokenizer.merges and tok.TOKENIZER.pattern == model_tokenizer.pattern
    assert tok.MERGES == 768 and tok.TOKENIZER.vocab_size == 1024
    assert tok.PARAMS[0].hi == tok.MERGES and tok.PARAMS[0].default == tok.MERGES


def test_the_pages_numbers():
    haus = tok.compute()
    assert haus["tokens"] == ["H", "aus"] and haus["count"] == 2 and haus["bytes"] == 4
    strasse = tok.compute(row="strasse")
    assert (strasse["chars"], strasse["bytes"], strasse["count"]) == (22, 23, 11)
    assert Fraction(strasse["bytes_per_token"]) == Fraction(23, 11)
    assert strasse["tokens"] == ["S", "tra", "ß", "en", "b", "ah", "n", "hal", "te", "st", "elle"]  # the page names three
    assert tok.compute(row="strasse", merges=0)["count"] == 23
    assert tok.compute(row="strasse", merges=100)["count"] == 17
    # the first merge is e + n
    assert tok.compute(row="strasse", merges=0)["next"] == {"number": 1, "id": 256, "left": "e", "right": "n",
                                                             "token": "en"}


def test_frequent_words_are_one_token_and_the_space_belongs_to_the_next_word():
    r = tok.compute(row="schaltflaeche")
    assert r["tokens"] == ["K", "li", "ck", "e", "␣auf", "␣die", "␣Schaltfläche", "."]
    assert tok.compute(text=" Schaltfläche")["count"] == 1
    assert tok.compute(text="Schaltfläche")["count"] == 4


def test_an_emoji_costs_four_byte_tokens_and_nothing_is_unknown():
    r = tok.compute(row="emoji")
    pieces = [t for t in r["tokens"] if t.startswith("‹")]
    assert pieces == ["‹F0›", "‹9F›", "‹98›", "‹80›"] and r["byte_pieces"] == 4 and r["wide_chars"] == ["😀"]
    assert "nur ein Byte eines Zeichens" in api.run(tok.SLUG, {"row": "emoji"})["summary"]


@pytest.mark.parametrize("text", SAMPLES)
def test_every_k_is_the_tokenizer_with_the_first_k_merges(text):
    r = tok.compute(text=text)
    for k in sorted({0, 1, 2, 10, 100, 255, 500, tok.MERGES} | {m["number"] for m in (r["last"],) if m}):
        ids = fewer(k).encode(text)
        got = tok.compute(merges=k, text=text)
        assert got["ids"] == ids and got["count"] == len(ids) == r["curve"][k], k
        assert b"".join(tok.TOKENIZER.token_bytes(i) for i in got["ids"]) == text.encode("utf-8")
        assert got["vocab"] == 256 + k


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=tok.LONGEST).filter(str.isprintable), st.integers(0, tok.MERGES))
def test_the_curve_and_any_state_match_the_engine(text, k):
    r = tok.compute(merges=k, text=text)
    assert r["ids"] == fewer(k).encode(text)
    curve = r["curve"]
    assert curve[0] == r["bytes"] and curve[-1] == r["count_full"] == len(tok.TOKENIZER.encode(text))
    assert all(a >= b for a, b in itertools.pairwise(curve))
    assert curve[k] == r["count"]
    # the curve steps exactly where a merge acts on this text
    for probe in {k, max(0, k - 1)}:
        assert curve[probe] == len(fewer(probe).encode(text))


def test_halving_is_the_first_k_with_at_most_half_the_bytes():
    r = tok.compute(row="strasse")
    half = r["half"]
    assert 2 * len(fewer(half).encode(r["text"])) <= 23 < 2 * len(fewer(half - 1).encode(r["text"]))


def test_own_text_is_cleaned_and_cut_with_german_notes():
    out = api.run(tok.SLUG, {"text": "ab\tc\x07"})
    assert out["result"]["text"] == "abc" and "weggelassen" in " ".join(out["notes"])
    out = api.run(tok.SLUG, {"text": "ä" * (tok.LONGEST + 5)})
    assert out["result"]["chars"] == tok.LONGEST and out["notes"]
    out = api.run(tok.SLUG, {"merges": "9999"})
    assert out["result"]["merges"] == tok.MERGES and "außerhalb" in out["notes"][0]
    out = api.run(tok.SLUG, {"text": " Schaltfläche"})
    assert not out["notes"] and out["result"]["text"] == " Schaltfläche"  # the leading space counts
    assert out["summary"].startswith("Eigener Text:")


def test_the_emoji_guess_is_settled_by_any_text_with_the_emoji_at_the_full_tokenizer():
    def shown(**raw):
        return api.run(tok.SLUG, raw)["lesson"]["shown"]

    assert shown(text="😀") and shown(text="Ich 😀 dich") and shown(row="emoji")
    assert not shown(text="😀", merges=100) and not shown(text="Ich mag dich") and not shown()
    assert tok.compute(text="😀")["count"] == 4  # the answer the guess is judged against


def test_two_tokens_from_four_bytes_would_take_two_merges():
    """One merge of two of the emoji's bytes leaves three tokens; two tokens take a second merge."""
    one = ByteBPE([(0xF0, 0x9F)], tok.TOKENIZER.pattern)
    two = ByteBPE([(0xF0, 0x9F), (0x98, 0x80)], tok.TOKENIZER.pattern)
    assert len(one.encode("😀")) == 3 and len(two.encode("😀")) == 2
    why = tok.LESSON.prediction.why_not[1]
    assert "Merges hätten die vier Bytes zu zwei Stücken verschmolzen" in why and "Ein Merge hat" not in why


def test_no_preset_no_number_in_the_text_and_not_the_default_solves_a_task():
    assert solved_by_the_page(tok.SLUG) == {}
    assert unmarked_roundings(tok.SLUG) == []


def test_the_tasks_want_words_the_page_does_not_name_and_take_any_such_word():
    def solved(key, **raw):
        return key in api.run(tok.SLUG, raw)["lesson"]["solved"]

    # the page names „␣Schaltfläche“ and „Straßenbahnhaltestelle“: typed, they solve nothing
    assert not solved("one", text=" Schaltfläche") and not solved("apart", text="Straßenbahnhaltestelle")
    assert all(solved("one", text=word) for word in (" Datenbank", " Tabellen", " Dokument", " Symbolleiste"))
    assert all(solved("apart", text=word) for word in ("Eichhörnchen", "Donaudampfschiff", "Regenschirm"))
    for task in tok.LESSON.tasks:
        for value in task.example.values():
            assert str(value).strip() not in task.text, task.key
    # the smallest k for „höchstens 15 Tokens“ is no number a preset's sentence or the text prints
    answer = tok.LESSON.tasks[2].example["merges"]
    every_k = [k for k in range(tok.MERGES + 1)  # the check reads the result only: no figure per k
               if "few" in lesson.status(tok.LESSON, {}, tok.compute(row="strasse", merges=k))["solved"]]
    assert every_k == [answer] and solved("few", row="strasse", merges=answer)
    shown = " ".join(api.run(tok.SLUG, api.preset_values(tok.SLUG, p.label))["summary"] for p in tok.PRESETS)
    assert str(answer) not in shown + (PAGES / f"{tok.SLUG}.md").read_text(encoding="utf-8")


def test_the_page_says_what_the_tokenizer_read_and_where_byte_level_bpe_comes_from():
    page = " ".join((PAGES / f"{tok.SLUG}.md").read_text(encoding="utf-8").split())
    assert "vor allem an der deutschen Hilfe von LibreOffice gelernt" in page
    assert "früheren Fassung dieser Website (ohne die Grundlagen-Seiten" in page
    assert "Radford" in page and "Language Models are Unsupervised Multitask Learners" in page
    assert "maschinellen Übersetzung" in page and "BPE für Sprachmodelle" not in page
    bpe = glossary.by_term()["Byte-Pair-Encoding"].explanation
    assert bpe.startswith("Ein Verfahren") and "hier mit den 256 Bytes" in bpe
    assert "die meisten Emojis als vier" in page and "12 kB" in page and "KB" not in page
    assert page.count("**Merge**") == 1 and "Verschmelzung" in page and "Verschmelzungen" not in tok.PARAMS[0].help
    assert "␣Schaltfläche" in tok.PRESETS[4].help and "großes Modell wie GPT" in tok.LESSON.discussion[0]


@pytest.mark.parametrize("slug", [tok.SLUG, "softmax-temperatur"])
def test_vocabulary_sizes_in_the_one_phrase_of_the_site(slug):
    # the phrase itself is held for every page by test_model_facts's vocabulary test; here: these pages use it
    assert '{{ model_fact("vocab_sizes") }}' in (PAGES / f"{slug}.md").read_text(encoding="utf-8")
    assert model_facts.fact("vocab") == fmt.de(tok.VOCAB)


def test_the_key_sentence_follows_every_control():
    texts = {api.run(tok.SLUG, api.preset_values(tok.SLUG, p.label))["summary"] for p in tok.PRESETS}
    assert len(texts) == len(tok.PRESETS)
    # one step of the slider where a merge acts changes the sentence, and it names that merge
    r = tok.compute(row="strasse")
    first = r["curve"].index(r["curve"][0] - 1)  # the first k that saves a token on this text
    before = api.run(tok.SLUG, {"row": "strasse", "merges": first - 1})["summary"]
    after = api.run(tok.SLUG, {"row": "strasse", "merges": first})["summary"]
    assert before != after and f"Merge {first}:" in after and f"Nr. {first}:" in before
    assert "Ohne Merges" in api.run(tok.SLUG, {"merges": 0})["summary"]
    assert "Eigener Text" in api.run(tok.SLUG, {"text": "Hallo"})["summary"]


def test_chips_show_every_token_with_its_id_and_the_narrow_figure_fits():
    out = api.run(tok.SLUG, {"row": "emoji"})
    root = ET.fromstring(out["figure"])
    ns = "{http://www.w3.org/2000/svg}"
    ids = [t.text for t in root.iter(ns + "text") if "pl-tok-id" in t.get("class", "")]
    assert ids == [str(i) for i in out["result"]["ids"]]
    narrow = api.run(tok.SLUG, {"row": "katze", "merges": 0}, layout="narrow")
    width = float(ET.fromstring(narrow["figure"]).get("viewBox").split()[2])
    assert width <= 340
    for rect in ET.fromstring(narrow["figure"]).iter(ns + "rect"):
        assert float(rect.get("x")) + float(rect.get("width")) <= width


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=80)), st.one_of(st.integers(-5, 2000), st.text(max_size=5)),
       st.sampled_from([*list(tok.ROWS), "x"]))
def test_any_input_runs_and_draws_valid_svg(text, merges, row):
    raw = {"merges": merges, "row": row, **({"text": text} if text is not None else {})}
    out = api.run(tok.SLUG, raw)
    json.dumps(out, allow_nan=False)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    assert 0 <= r["merges"] <= tok.MERGES and 1 <= r["count"] <= r["bytes"]


def test_workshop_script_recomputes_the_tokens():
    from workshop_check import number, run_states

    states = [{}, api.preset_values(tok.SLUG, "Nach 100 Merges"), {"text": "Grüß Gott 👋", "merges": 300}]
    for state, out in zip(states, run_states(tok.SLUG, states)):
        r = api.run(tok.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Bytes") == r["bytes"]
        assert number(out["stdout"], "Tokens") == r["count"]
        assert out["stdout"].split("Nummern: ")[1].split("\n")[0] == " ".join(map(str, r["ids"]))
        half = out["stdout"].split("ab Merge: ")[1].split("\n")[0]
        assert half == (str(r["half"]) if r["half"] is not None else "nie")


def test_no_preset_or_help_text_answers_the_emoji_guess_before_it_is_made():
    answer = tok.compute(text="😀")["count"]
    words = {str(answer), {4: "vier"}.get(answer, str(answer))}
    shown = [p.help for p in tok.PRESETS] + [p.help for p in tok.PARAMS]
    assert not [text for text in shown if any(word in text for word in words)]


def test_no_hint_names_a_word_that_solves_its_task():
    """A hint points the way; a word it quotes, typed with or without the space before it, solves nothing.
    A space inside a quote is written „␣“, as everywhere on the page."""
    for task in tok.LESSON.tasks:
        for hint in task.hints:
            assert "„ " not in hint, hint
            for quoted in re.findall(r"„([^“]+)“", hint):
                word = quoted.replace("␣", " ")
                for text in {word, " " + word.lstrip()}:
                    assert task.key not in api.run(tok.SLUG, {"text": text})["lesson"]["solved"], (task.key, hint)
