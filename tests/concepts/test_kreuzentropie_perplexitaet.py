"""Cross-entropy and perplexity: the table's rows are distributions, the losses are −ln p, the mean and the
perplexity follow their definitions, exact where the page says so; own sentences and probabilities, the
key sentence, the handles and the workshop script.

Logarithms are irrational: floats compared with a stated tolerance (1e-12 against a direct evaluation)."""

import json
import math
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import kreuzentropie_perplexitaet as ce
from probierlabor.kit import api, fmt

from tests.browser.conftest import SITE

TOL = 1e-12


def run(**raw):
    return api.run(ce.SLUG, raw)


def test_every_row_of_the_table_is_a_distribution_over_its_tokens():
    assert len(ce.VOCAB) == ce.VOCAB_SIZE == 16
    for context in ce.TABLE:
        dist = ce.row(context)
        assert set(dist) == set(ce.VOCAB)
        assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values()), context
    assert ce.row(ce.OTHER) == {t: Fraction(1, 16) for t in ce.VOCAB}
    assert ce.row("Hund")["miaut"] == Fraction(1, 104)  # the rest 1/8 over 13 tokens


def test_die_katze_schlaeft_costs_one_bit_per_token_and_has_perplexity_exactly_two():
    r = ce.compute()
    assert r["words"] == ["Die", "Katze", "schläft", "."]
    assert r["probs_exact"] == ["1/2"] * 4
    assert r["loss"] == pytest.approx([math.log(2)] * 4, abs=TOL)
    assert r["mean"] == pytest.approx(math.log(2), abs=TOL) and r["mean_bits"] == pytest.approx(1, abs=TOL)
    assert r["perplexity_exact"] == "2" and r["perplexity"] == 2


def test_mean_and_perplexity_follow_their_definitions():
    r = ce.compute(satz="miaut")
    assert r["probs_exact"] == ["1/4", "1/2", "1/104", "1/2"]
    want = -(math.log(1 / 4) + 3 * 0 + math.log(1 / 2) * 2 + math.log(1 / 104)) / 4
    assert r["mean"] == pytest.approx(want, abs=TOL)
    assert r["perplexity"] == pytest.approx(math.exp(want), rel=TOL)
    assert r["perplexity"] == pytest.approx((1 / 4 * 1 / 2 * 1 / 104 * 1 / 2) ** (-1 / 4), rel=TOL)
    assert r["perplexity_exact"] is None  # 1664 is no fourth power
    assert r["words"][r["worst"]] == "miaut" and r["worst_share"] > 0.5
    assert round(r["perplexity"], 2) == 6.39 and round(r["loss"][2], 2) == 4.64


def test_an_unknown_word_counts_as_the_tables_other_word_and_after_it_all_are_equal():
    r = ce.compute(satz="maus")
    assert r["tokens"] == ["die", ce.OTHER, "schläft", "."] and r["unknown"] == ["Maus"]
    assert r["probs_exact"] == ["1/2", "1/4", "1/16", "1/2"]
    assert r["perplexity_exact"] == "4" and r["expected"][2] == "keins, alle 1/16"


@settings(max_examples=80, deadline=None)
@given(st.lists(st.fractions(Fraction(1, 10000), 1).map(lambda x: x.limit_denominator(10000)), min_size=1,
                max_size=10))
def test_perplexity_is_the_inverse_geometric_mean_and_exact_only_where_it_is_exact(probs):
    probs = [p for p in probs if p > 0] or [Fraction(1)]
    ppl, exact = ce.perplexity(probs)
    direct = math.prod(float(p) for p in probs) ** (-1 / len(probs))
    assert ppl == pytest.approx(direct, rel=1e-9)
    assert ppl == pytest.approx(math.exp(sum(ce.losses(probs)) / len(probs)), rel=1e-9)
    assert ppl >= 1 - 1e-12
    if exact is not None:
        assert exact ** len(probs) * math.prod(probs) == 1


@pytest.mark.parametrize("typed, root", [
    ("0,999999999999999", Fraction(10**15, 999999999999999)),  # 15 digits: a root guessed from a float missed it
    ("0,12345678901234566", Fraction(10**17, 12345678901234566)),
    ("0,0001", Fraction(10_000)), ("0,5; 0,25; 0,125", Fraction(4)),
])
def test_the_exact_perplexity_of_own_probabilities_is_the_exact_root(typed, root):
    """(p₁ · p₂ · p₃)^(−1/3) of three tokens where it is a fraction, however many digits the typed p has."""
    r = run(text="die katze schläft", p="; ".join([typed] * (3 // len(typed.split("; ")))))["result"]
    assert r["n"] == 3 and Fraction(r["perplexity_exact"]) == root and r["perplexity"] == float(root)


def test_p_one_costs_exactly_nothing():
    r = run(p="1; 1; 1; 1")["result"]
    assert r["loss"] == [0.0] * 4 and r["total"] == 0 and r["perplexity_exact"] == "1"
    assert "genau 1" in run(p="1; 1; 1; 1")["summary"]


def test_own_probabilities_replace_the_first_tokens_and_the_rest_keeps_the_table():
    out = run(p="0,25; 0,1")
    r = out["result"]
    assert not out["notes"] and r["own"]
    assert r["probs_exact"] == ["1/4", "1/10", "1/2", "1/2"] and r["changed"] == [0, 1]
    out = run(p="0,5; 0,5; 0,5; 0,5; 0,5")
    assert out["result"]["unused"] == 1 and "1 eigener Wert bleibt ohne Token." in out["summary"]


def test_a_dragged_bar_leaves_the_others_exact():
    """experiment/drag.js writes every bar's value when one is dragged: an untouched 1/104 comes back as its float."""
    out = run(satz="miaut", p="_".join(map(repr, (0.25, 0.4, 1 / 104, 0.5))))
    r = out["result"]
    assert r["probs_exact"] == ["1/4", "2/5", "1/104", "1/2"] and r["changed"] == [1]
    assert "„miaut“ mit p = 1/104" in out["summary"]
    assert "Hund 0,4" in out["readouts"][0]["value"]


def test_bad_probabilities_are_clamped_with_a_german_note():
    out = run(p="0; 2; x")
    note = " ".join(out["notes"])
    assert out["result"]["probs"][:2] == [ce.P_MIN, 1.0]
    assert "keine Zahl" in note and "begrenzt" in note and "0,0001 bis 1" in note
    assert math.isfinite(out["result"]["mean"])


def test_an_own_sentence_with_unknown_words_and_too_many_tokens():
    text = "Der Hund frisst gern Knochen und die Maus miaut auf Sofa."  # 12 tokens in 57 characters
    out = run(text=text)
    r = out["result"]
    assert not out["notes"] and r["sentence"] == text
    assert r["source"] == "eigen" and r["n"] == ce.MAX_TOKENS and r["cut"] == 2
    assert r["unknown"] == ["und", "Maus"]
    assert "„und“, „Maus“ kennt die Tabelle nicht: zählen als" in out["summary"]
    assert "nur die ersten 10 Tokens" in out["summary"]
    out = run(text="Hallo, Welt!")
    assert "gehen hier nicht" in out["notes"][0] and out["result"]["words"] == ["Hallo", "Welt"]


def test_the_key_sentence_follows_the_state():
    texts = {run(**api.preset_values(ce.SLUG, p.label))["summary"] for p in ce.PRESETS}
    assert len(texts) == len(ce.PRESETS)
    assert "Alle Tokens kosten gleich viel" in run()["summary"]
    assert "Am teuersten ist „miaut“" in run(satz="miaut")["summary"]
    # dragging one bar changes the sentence
    assert run(p="0,5; 0,5; 0,4; 0,5")["summary"] != run(p="0,5; 0,5; 0,3; 0,5")["summary"]


def test_the_p_bars_are_handles_that_set_their_entry():
    root = ET.fromstring(run(satz="fisch")["figure"])
    handles = [el for el in root.iter() if el.get("data-drag") is not None]
    assert len(handles) == 6
    assert all(h.get("data-drag-field") == "p" and h.get("data-drag-set") == "" for h in handles)
    assert [float(h.get("aria-valuenow")) for h in handles] == [0.5, 0.5, 0.25, 0.25, 0.25, 0.75]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([*list(ce.SENTENCES), "x"]), st.one_of(st.none(), st.text(max_size=70)),
       st.one_of(st.none(), st.text(max_size=30),
                 st.lists(st.floats(-1, 2), max_size=12).map(lambda v: "_".join(map(repr, v)))))
def test_any_input_runs_and_draws_valid_svg(satz, text, p):
    raw = {"satz": satz, **({"text": text} if text is not None else {}), **({"p": p} if p is not None else {})}
    for layout in ("wide", "narrow"):
        out = api.run(ce.SLUG, raw, layout=layout)
        json.dumps(out, allow_nan=False)
        ET.fromstring(out["figure"])
        ET.fromstring(out["extra"])
    r = out["result"]
    assert 1 <= r["n"] <= ce.MAX_TOKENS
    assert all(ce.P_MIN <= p <= 1 for p in r["probs"]) and math.isfinite(r["perplexity"])
    assert r["mean"] == pytest.approx(sum(r["loss"]) / r["n"], abs=TOL)


def test_workshop_script_recomputes_the_loss():
    from workshop_check import number, run_states

    states = [{}, {"satz": "maus"}, {"text": "Der Hund frisst gern Knochen und schläft.", "p": "0,9; 0,01"}]
    for state, out in zip(states, run_states(ce.SLUG, states)):
        r = api.run(ce.SLUG, state)["result"]
        assert out["figures"] == 1
        for word, loss in zip(r["words"], r["loss"]):
            assert number(out["stdout"], f"Verlust {word}") == pytest.approx(loss, abs=5e-6)
        assert number(out["stdout"], "Kreuzentropie (Nat)") == pytest.approx(r["mean"], abs=5e-6)
        assert number(out["stdout"], "Kreuzentropie (Bit)") == pytest.approx(r["mean_bits"], abs=5e-6)
        assert number(out["stdout"], "Perplexität") == pytest.approx(r["perplexity"], abs=5e-6)


def test_no_click_solves_a_task():
    """The untouched page, every preset and every number of the prose leave all tasks to the reader."""
    from page_states import solved_by_the_page

    assert solved_by_the_page(ce.SLUG) == {}


def test_own_probabilities_left_over_say_that_they_hold_for_the_chosen_sentence():
    """A preset's own probabilities stay when the reader picks a sentence: the key sentence says first that they,
    not the table's, are in force, for which tokens, and how to get the table back; emptied, the table holds."""
    left = run(satz="miaut", p="0,5; 0,5; 0,01; 0,5")
    assert left["summary"].startswith("Es gelten deine eigenen Wahrscheinlichkeiten, nicht die der Tabelle "
                                      "(anders bei „Der“, „miaut“). Leere „Eigene Wahrscheinlichkeiten“")
    assert "(Tabelle 1/104)" in left["extra"]  # the table under the figure shows what the table would give
    table = run(satz="miaut")
    assert "Eigene" not in table["summary"] and table["result"]["probs_exact"][2] == "1/104"
    same = run(satz="katze", p="0,5; 0,5")
    assert same["summary"].startswith("Eigene Wahrscheinlichkeiten, gleich denen der Tabelle.")


def test_one_token_carries_over_two_thirds_only_in_sentences_the_reader_builds():
    """No listed sentence passes two thirds („Der Hund miaut.“ ≈ 63 % is „Fast“); a typed one can."""
    for key in ce.SENTENCES:
        assert run(satz=key)["result"]["worst_share"] <= ce.DOMINANT, key
    assert run(satz="miaut")["lesson"]["near"] == ["surprise"]
    bellt = run(text="Die Katze bellt.")
    assert bellt["result"]["worst_share"] > ce.DOMINANT and "surprise" in bellt["lesson"]["solved"]
    assert "surprise" not in run(text="Die Katze bellt.", p="0,5; 0,5; 0,01; 0,5")["lesson"]["solved"]


def test_perplexity_four_with_unequal_probabilities_is_any_product_of_one_over_256():
    for p in ("0,5; 0,5; 0,125; 0,125", "1; 0,25; 0,0625; 0,25", "1; 1; 0,0625; 0,0625"):
        out = run(p=p)
        assert out["result"]["perplexity_exact"] == "4" and "four" in out["lesson"]["solved"], p
    assert run(satz="maus")["result"]["perplexity_exact"] == "4"  # the table's own: not typed, not the task
    assert "four" not in run(satz="maus")["lesson"]["solved"]
    assert run(p="0,25; 0,25; 0,25; 0,25")["lesson"]["near"] == ["four"]


def test_the_loss_is_zero_on_any_other_sentence_with_every_p_one():
    for raw in ({"satz": "hund", "p": "1; 1; 1; 1"}, {"satz": "fisch", "p": "1; 1; 1; 1; 1; 1"},
                {"text": "Die Katze frisst.", "p": "1; 1; 1; 1"}):
        out = run(**raw)
        assert out["result"]["total"] == 0 and "zero" in out["lesson"]["solved"], raw
    assert "zero" not in run(satz="fisch", p="1; 1; 1; 1")["lesson"]["solved"]  # two tokens still cost
    assert run(p="1; 1; 1; 1")["lesson"]["near"] == ["zero"]


def test_the_costliest_share_is_marked_as_rounded_unless_it_is_all():
    assert "(≈ 4,61 Nat, ≈ 69\u202f% des ganzen Verlusts)" in run(p="0,5; 0,5; 0,01; 0,5")["summary"]
    assert "(≈ 0,69 Nat, 100\u202f% des ganzen Verlusts)" in run(p="1; 1; 0,5; 1")["summary"]


def test_the_guess_explains_with_the_modules_own_numbers():
    r = run(p="0,5; 0,5; 0,01; 0,5")["result"]
    explain = ce.LESSON.prediction.explain
    assert f"≈ {r['mean']:.2f}".replace(".", ",") in explain and f"≈ {r['perplexity']:.1f}".replace(".", ",") in explain


def test_the_prose_reads_the_blocks_limit_and_writes_large_numbers_as_fmt_does():
    from probierlabor.pageblocks import model_facts
    from probierlabor.realmodel.fields import PROMPT_TOKENS

    assert model_facts.fact("prompt_tokens") == str(PROMPT_TOKENS)
    built = SITE / "kreuzentropie-perplexitaet/index.html"
    if not built.exists():
        pytest.skip(f"{built} fehlt: erst die Website bauen")
    text = re.sub(r"[ \n]+", " ", built.read_text(encoding="utf-8"))  # not \s: it takes U+202F too
    assert "große Sprachmodelle: ≈ 30\u202f000 bis ≈ 200\u202f000 Tokens, das Modell dieser Website: 1024" in text
    # the smallest own p as the field's help gives it, not rounded to „0,00“
    assert f"gehen von {ce.P_MIN:.4f} bis 1".replace(".", ",") in text and "gehen von 0,00 bis" not in text


def test_the_figure_writes_a_rounded_perplexity_with_approx_and_an_exact_one_with_equals():
    assert "Perplexität e^Mittel ≈ 5,32" in run(p="0,5; 0,5; 0,01; 0,5")["figure"]
    assert "Perplexität e^Mittel = 2<" in run()["figure"]


def test_a_share_of_exactly_two_thirds_is_not_more_than_two_thirds():
    # „die Maus“: −ln(1/2) and −ln(1/4), so „Maus“ carries 2 ln 2 of 3 ln 2; the floats give 0.6666666666666667
    r = run(text="die Maus")
    assert ce.exact_share([Fraction(1, 2), Fraction(1, 4)], 1) == Fraction(2, 3)
    assert "surprise" not in r["lesson"]["solved"] and r["lesson"]["near"] == ["surprise"]
    assert "≈ 67\u202f% des ganzen Verlusts" in r["summary"]


def test_an_exact_share_is_written_without_approx():
    # Die Maus schläft.: 1/2, 1/4, 1/16, 1/2 cost 1, 2, 4 and 1 times ln 2; „schläft“ carries exactly half
    assert "(≈ 2,77 Nat, 50\u202f% des ganzen Verlusts)" in run(satz="maus")["summary"]
    assert ce.exact_share([Fraction(1, 2), Fraction(1, 100)], 1) is None  # ln 100 / ln 200 is irrational


def test_a_rounded_perplexity_names_the_whole_numbers_around_it():
    assert "so unsicher wie zwischen 6 und 7 gleich guten Tokens" in run(satz="miaut")["summary"]
    assert "so unsicher wie zwischen 2 gleich guten Tokens" in run()["summary"]


def test_the_last_hint_leaves_the_number_to_the_reader():
    task = next(t for t in ce.LESSON.tasks if t.key == "high")
    typed = "; ".join(fmt.de(p, 3, trim=True) for p in task.example["p"])
    assert typed not in task.hints[-1] and f"1/{ce.HIGH ** 4}" in task.hints[-1]
