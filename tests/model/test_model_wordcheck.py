"""The real-word share against Debian's wngerman list (`make words` installs it, `make test` first)."""

import random

import pytest

from model.site_prose import page_texts
from model.wordcheck import real_word_share, words

GERMAN = ("Ein Sprachmodell verlängert seine Antwort Schritt für Schritt. Das erste Stück der Antwort steht schon da. "
          "Das nächste muss dazu passen: Nach „Heute trinke ich Tee“ geht ein Satz anders weiter als nach "
          "„Heute trinke ich Wasser“. Die Kinder spielten gestern lange im Garten, bis es dunkel wurde.")


def test_real_german_sentences_are_almost_all_known():
    share, counted, known = real_word_share(GERMAN)
    assert counted == len(words(GERMAN)) > 30
    assert share >= 0.9 and known == round(share * counted)


def test_letter_salad_is_almost_never_known():
    rng = random.Random(31)
    letters = "abcdefghijklmnopqrstuvwxyzäöüß"
    salad = " ".join("".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(500))
    share, counted, _ = real_word_share(salad)
    assert counted == 500 and share <= 0.1


def test_a_page_of_the_site_is_mostly_real_words():
    share, counted, _ = real_word_share(" ".join(dict(page_texts())["pages/kv-cache.md"]))
    assert counted > 300 and share >= 0.8  # English terms of the trade (Query, Prefill) are not in the list


def test_counting_rules():
    # hyphens and digits separate words; one and two letters are not counted
    assert words("KV-Cache, 3er-Block, an in Haus") == ["Cache", "Block", "Haus"]
    # case is ignored: a capitalised noun, a sentence start, capitals and a noun in lower case all match
    assert real_word_share("Haus haus HAUS Die") == (1.0, 4, 4)
    assert real_word_share("Straße Strasse")[2] == 1  # ß is kept, not folded to ss
    assert real_word_share("") == (0.0, 0, 0)
    assert real_word_share("xqzt Tee Garten")[1:] == (3, 2)


def test_a_missing_list_says_how_to_get_it(tmp_path):
    with pytest.raises(RuntimeError, match="make words"):
        real_word_share("Haus", path=tmp_path / "ngerman")
