"""Loss masking: counted positions change with the mask, the input and the links do not."""

import itertools
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from probierlabor.concepts import loss_masking as lm
from probierlabor.kit import api

MASKS = list(itertools.product([True, False], repeat=3))


def test_the_transcript():
    assert lm.N == 15
    assert [role for role, _ in lm.SEGMENTS] == ["user", "agent", "tool", "agent"]
    assert [t for t, (role, _) in enumerate(lm.TOKENS, 1) if role == "agent"] == [5, 6, 7, 11, 12, 13, 14, 15]


def test_default_scores_only_the_agent():
    r = lm.compute()
    assert r["scored"] == [5, 6, 7, 11, 12, 13, 14, 15]
    assert r["scored_count"] == 8
    assert Fraction(r["weight_exact"]) == Fraction(1, 8)
    assert r["formula"] == "L = (ℓ₅ + ℓ₆ + ℓ₇ + ℓ₁₁ + … + ℓ₁₅) / 8"


def test_everything_on_scores_all_but_the_first_token():
    r = lm.compute(user=True, agent=True, tool=True)
    assert r["scored"] == list(range(2, 16))
    assert r["formula"] == "L = (ℓ₂ + … + ℓ₁₅) / 14"


def test_with_the_tool_result():
    r = lm.compute(tool=True)
    assert r["scored_count"] == 11
    assert r["scored_by_role"] == {"user": 0, "agent": 8, "tool": 3}


def test_nothing_scored_means_no_loss_and_valid_json():
    r = lm.compute(agent=False)
    assert r["scored"] == [] and r["weight"] is None
    assert "kein Verlust" in r["formula"]
    assert r["unscored_but_read_count"] == 0


@pytest.mark.parametrize("user, agent, tool", MASKS)
def test_the_mask_changes_the_scored_positions_but_never_the_input_or_the_links(user, agent, tool):
    r = lm.compute(user=user, agent=agent, tool=tool)
    base = lm.compute()
    assert r["visible"] == 15 and [t["text"] for t in r["tokens"]] == [t["text"] for t in base["tokens"]]
    assert r["links"] == base["links"] == 15 * 14 // 2
    assert r["focus_reads"] == base["focus_reads"]
    on = {"user": user, "agent": agent, "tool": tool}
    assert r["scored"] == [t for t in range(2, 16) if on[lm.TOKENS[t - 1][0]]]
    if r["scored"]:
        assert sum(Fraction(1, r["scored_count"]) for _ in r["scored"]) == 1  # weights sum to 1


def test_unscored_tokens_are_still_read_by_scored_predictions():
    r = lm.compute(focus=13)
    assert r["focus_token"] == "18"
    assert r["focus_reads"] == list(range(1, 13))
    assert r["focus_reads_by_role"] == {"user": 4, "agent": 5, "tool": 3}
    assert r["focus_reads_unscored"] == 7
    assert r["focus_scored"]
    assert r["unscored_but_read"] == [1, 2, 3, 4, 8, 9, 10]


def test_the_tool_call_reads_the_question():
    r = lm.compute(focus=5)
    assert r["focus_token"] == "wetter("
    assert r["focus_reads_by_role"] == {"user": 4, "agent": 0, "tool": 0}


@pytest.mark.parametrize("scored, text", [
    ([3], "L = ℓ₃"), ([2, 3], "L = (ℓ₂ + ℓ₃) / 2"), ([2, 3, 4, 5], "L = (ℓ₂ + … + ℓ₅) / 4"),
    ([2, 4, 6], "L = (ℓ₂ + ℓ₄ + ℓ₆) / 3"),
])
def test_loss_formula(scored, text):
    assert lm.loss_formula(scored) == text


def test_readouts_in_german():
    values = {r.key: r.value for r in lm.view(lm.compute()).readouts}
    assert values["scored_count"] == "8"
    assert values["weight"] == "1/8 = 0,125"
    assert values["links"] == "105 (immer gleich)"
    values = {r.key: r.value for r in lm.view(lm.compute(tool=True)).readouts}
    assert values["weight"] == "1/11 ≈ 0,091"


@given(st.fixed_dictionaries({
    "focus": st.one_of(st.integers(-5, 40), st.text(max_size=5), st.floats()),
    "user": st.sampled_from([True, False, "1", "0", "vielleicht"]),
    "agent": st.booleans(),
    "tool": st.booleans(),
}))
def test_api_run_never_fails(raw):
    out = api.run("loss-masking", raw)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert 2 <= out["result"]["focus"] <= 15
    assert out["summary"]


def test_scoring_user_and_agent_is_not_yet_the_most():
    """Near miss of the first task: user and agent give 11 positions, not the 14 of all three roles."""
    out = api.run("loss-masking", {"user": True})
    assert out["result"]["scored_count"] == 11
    assert "most_scored" not in out["lesson"]["solved"]


def test_the_first_scored_task_reads_a_state_without_scored_positions():
    """With no role scored there is no first scored prediction: the check says no instead of raising."""
    params = {"focus": 5, "user": False, "agent": False, "tool": False}
    task = next(t for t in lm.LESSON.tasks if t.key == "first_scored")
    assert task.solved(params, lm.compute(**params)) is False


def test_workshop_script_recomputes_the_mask():
    """The numpy script (workshop/loss_masking.py) at the default and three presets: same counts, same weight."""
    from workshop_check import number, run_states

    states = [{}] + [api.preset_values(lm.SLUG, p) for p in ("Alles bewerten", "Nichts bewerten", "Der Werkzeugaufruf")]
    for state, out in zip(states, run_states(lm.SLUG, states)):
        r = api.run(lm.SLUG, state)["result"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Bewertete Positionen") == r["scored_count"]
        assert number(out["stdout"], "Verbindungen") == r["links"]
        assert number(out["stdout"], "Gelesene Tokens") == r["focus_reads_count"]
        assert number(out["stdout"], "Davon ohne eigenen Verlust") == r["focus_reads_unscored"]
        assert number(out["stdout"], "Ohne Verlust, aber gelesen") == r["unscored_but_read_count"]
        if r["weight"] is None:
            assert "Gewicht" not in out["stdout"]
        else:
            assert number(out["stdout"], "Gewicht je Position") == pytest.approx(r["weight"], abs=5e-5)


def test_the_key_sentence_keeps_scoring_and_reading_apart():
    def summary(**raw):
        return api.run("loss-masking", raw)["summary"]
    agent = summary()
    assert agent.startswith("Im Verlust zählt nur die Rolle Agent: 8 von 15 Positionen, L = (ℓ₅ + ℓ₆ + ℓ₇ + ℓ₁₁ + … + ℓ₁₅) / 8.")
    assert "Token 13 („18“) zählt mit und liest 12 Tokens, 7 davon ohne eigenen Verlust. Unbewertet heißt also nicht wirkungslos." in agent
    # that every mask keeps the links answers the lesson's guess: a sentence of its own, held back until the guess
    assert api.run("loss-masking", {})["answer"] == "Das Raster behält bei jeder Maske seine 105 Verbindungen."
    assert "Verbindungen" not in agent
    both = api.run("loss-masking", api.preset_values("loss-masking", "Agent und Werkzeug"))["summary"]
    assert both.startswith("Im Verlust zählen nur die Rollen Agent und Werkzeugergebnis: 11 von 15 Positionen")
    early = summary(focus=3)
    assert "Token 3 („Köln“) zählt nicht, liest aber 2 Tokens" in early and "wirkungslos" not in early
    nothing = api.run("loss-masking", api.preset_values("loss-masking", "Nichts bewerten"))
    assert nothing["summary"].startswith("Nichts wird bewertet: Der Verlust hat keinen Summanden")
    assert "105 Verbindungen" in nothing["answer"]
