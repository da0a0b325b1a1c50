"""Continual learning: a real, seeded softmax classifier; the claims of CONCEPTS.md §8 as assertions
on the trained numbers, golden values of this generator, and checks of the training maths."""

import itertools
import json
import math
import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import continual_learning as cl
from probierlabor.concepts import continual_learning_messages as cm
from probierlabor.kit import api, fmt

SLUG = "continual-learning"


def at(variant, epochs=cl.DEFAULT_EPOCHS, hint=False, **kw):
    return cl.compute(epochs=epochs, variant=variant, hint=hint, **kw)["now"]


# -- the data --------------------------------------------------------------------------

def test_sizes_match_the_article_100_messages_per_test_and_20_kept():
    for dep in cl.DEPARTMENTS:
        assert len(cm.TRAIN[dep]) == 30
    assert len(cm.TEST[cm.DELIVERY]) + len(cm.TEST[cm.RETURN]) == 100
    assert len(cm.TEST[cm.COMPLAINT]) == 100
    assert cl.compute()["keep"] == 20 and len(cl.stored_sample(20, cl.DEFAULT_SEED)) == 20


def test_no_message_appears_twice_and_no_test_message_is_trained_on():
    train = [t for dep in cl.DEPARTMENTS for t in cm.TRAIN[dep]]
    test = [t for dep in cl.DEPARTMENTS for t in cm.TEST[dep]]
    assert len(set(train)) == len(train) and len(set(test)) == len(test)
    assert not set(train) & set(test)
    assert "Wo ist mein Paket?" in cm.TRAIN[cm.DELIVERY]


def test_the_stored_sample_comes_from_the_old_training_messages_only():
    pool = set(cl.old_training())
    for seed in range(20):
        sample = cl.stored_sample(20, seed)
        assert len(set(sample)) == 20 and set(sample) <= pool
        assert all(y in cl.OLD for _, y in sample)
    assert cl.stored_sample(20, 1) != cl.stored_sample(20, 2)
    assert set(cl.stored_sample(60, 5)) == pool


# -- the training maths ------------------------------------------------------------------

def _mean_cross_entropy(W, data):
    total = 0.0
    for x, y in data:
        s = [sum(Wc[j] for j in x) for Wc in W]
        top = max(s)
        total += -(s[y] - top - math.log(sum(math.exp(v - top) for v in s)))
    return total / len(data)


def test_one_batch_step_is_gradient_descent_on_the_mean_cross_entropy():
    rng = random.Random(4)
    W = [[rng.uniform(-0.5, 0.5) for _ in range(cl.size())] for _ in range(3)]
    batch = cl.old_training()[:5] + cl._data()[1][2][:5]  # ten messages: exactly one batch
    after = [row[:] for row in W]
    cl._epoch(after, batch, random.Random(0))
    h = 1e-6
    for c, j in [(0, cl.size() - 1), (2, cl.size() - 1)] + [(c, j) for c in range(3) for j in batch[0][0][:3]]:
        plus = [row[:] for row in W]
        plus[c][j] += h
        minus = [row[:] for row in W]
        minus[c][j] -= h
        grad = (_mean_cross_entropy(plus, batch) - _mean_cross_entropy(minus, batch)) / (2 * h)
        assert math.isclose(after[c][j], W[c][j] - cl.LEARNING_RATE * grad, abs_tol=1e-7)


def test_the_fisher_diagonal_is_the_expected_squared_gradient_under_the_model():
    W, F, data = cl.old_model(), cl.fisher(), cl.old_training()
    for c, j in [(0, cl.size() - 1), (1, 3), (2, cl.size() - 1), (2, 0), (0, 7)]:
        direct = 0.0
        for x, _ in data:
            s = [sum(Wc[i] for i in x) for Wc in W]
            p = [math.exp(v - max(s)) for v in s]
            p = [v / sum(p) for v in p]
            xj = 1.0 if j in x else 0.0
            direct += sum(p[y] * (xj * ((y == c) - p[c])) ** 2 for y in range(3)) / len(data)
        assert math.isclose(F[c][j], direct, rel_tol=1e-9, abs_tol=1e-15)


def test_fisher_is_zero_for_words_the_old_task_never_saw():
    _vocab, _train, _ = cl._data()
    old_words = {j for x, _ in cl.old_training() for j in x}
    F = cl.fisher()
    for j in range(cl.size()):
        for c in range(3):
            assert (F[c][j] > 0) == (j in old_words)


def test_a_huge_ewc_penalty_holds_every_weight_the_old_task_used():
    F, old = cl.fisher(), cl.old_model()
    W = [list(row) for row in old]
    prox = cl.proximal_factors(1e9)
    for _ in range(5):
        cl._epoch(W, cl._data()[1][2], random.Random(0), prox)
    held = [abs(W[c][j] - old[c][j]) for c in range(3) for j in range(cl.size()) if F[c][j] > 0]
    assert max(held) < 1e-5
    free = [abs(W[2][j] - old[2][j]) for j in range(cl.size()) if F[2][j] == 0]
    assert max(free) > 0.1  # words only complaints use still learn


def test_the_proximal_step_minimises_penalty_plus_distance():
    keep, pull = cl.proximal_factors(100)
    F, old = cl.fisher(), cl.old_model()
    for c, j in [(0, cl.size() - 1), (2, cl.size() - 1), (1, 0)]:
        v = 0.7
        w = v * keep[c][j] + pull[c][j]
        lr, lam = cl.LEARNING_RATE, 100
        # derivative of (λ/2)·F·(w − w*)² + (w − v)²/(2·lr) vanishes at w
        assert math.isclose(lam * F[c][j] * (w - old[c][j]) + (w - v) / lr, 0, abs_tol=1e-12)


def test_training_is_deterministic():
    assert cl.old_model.__wrapped__() == cl.old_model()
    assert cl.train("replay", 100, 20, 7) == cl.train("replay", 100, 20, 7)
    assert cl.train("replay", 100, 20, 7) != cl.train("replay", 100, 20, 8)


def test_the_stored_table_is_what_training_gives_today():
    # If this fails after a change to the messages or the training: tools/train_continual_learning.py
    from probierlabor.concepts.continual_learning_trajectories import TRAJECTORIES

    assert sorted(TRAJECTORIES) == sorted(cl.table_keys())
    for key, stored in TRAJECTORIES.items():
        assert cl.train(*key) == stored, key


def test_opening_the_page_trains_nothing():
    cl.trajectory.cache_clear()
    calls = []
    original = cl.train
    cl.train = lambda *a: calls.append(a) or original(*a)
    try:
        for lam, _ in cl.LAMS:
            for keep, _ in cl.KEEPS:
                cl.compute(lam=lam, keep=keep)
        assert calls == []
        cl.compute(seed=12345)
        assert calls == [("replay", 100.0, 20, 12345)]
    finally:
        cl.train = original


# -- golden values of this seeded generator (CPython and Pyodide compute the same) ----------

def test_golden_values_after_20_rounds():
    r = cl.compute()
    assert r["before"] == {"old": 86, "delivery": 43, "returns": 43, "new": 0, "old_as_new": 0}
    assert r["table"]["none"] == {"old": 6, "delivery": 1, "returns": 5, "new": 100, "old_as_new": 94}
    assert r["table"]["replay"] == {"old": 57, "delivery": 23, "returns": 34, "new": 99, "old_as_new": 37}
    assert r["table"]["ewc"] == {"old": 83, "delivery": 40, "returns": 43, "new": 44, "old_as_new": 2}
    assert r["stored"] == {"delivery": 8, "returns": 12}
    assert at("none", hint=True)["old"] == 83
    assert cl.sample_study() == {"samples": 51, "min_old": 50, "max_old": 65, "median_old": 59}


# -- the claims of CONCEPTS.md §8 and of the page, as assertions on the trained numbers ---------

def test_the_old_model_knows_the_old_departments_and_not_the_new_one():
    before = at("none", epochs=0)
    assert before["old"] >= 80 and before["new"] == 0


def test_without_protection_old_accuracy_collapses_step_by_step():
    olds = [e["old"] for e in cl.compute(variant="none")["curve"]]
    assert olds[0] >= 80 and olds[cl.DEFAULT_EPOCHS] <= 15 and olds[-1] <= 15
    assert olds[5] < olds[0] and olds[20] < olds[5]  # gradual, not in one step
    assert at("none")["new"] >= 95
    assert at("none")["old_as_new"] >= 80  # nearly everything is now called a complaint


def test_replay_keeps_the_old_task_better_but_learns_reklamationen_worse_than_no_protection():
    # the only surviving constraint of the lost table (CONCEPTS.md D5)
    none, replay = at("none"), at("replay")
    assert replay["old"] >= none["old"] + 30
    assert replay["new"] < none["new"]
    assert 35 <= 100 - replay["old"] <= 50  # „fast die Hälfte“ is lost
    assert replay["old_as_new"] > (100 - replay["old"]) / 2  # most errors are called complaints


def test_ewc_keeps_more_of_the_old_task_than_no_protection():
    assert at("ewc")["old"] >= at("none")["old"] + 50


def test_ewc_trades_old_against_new_as_lambda_grows():
    olds = [at("ewc", lam=lam)["old"] for lam, _ in cl.LAMS]
    news = [at("ewc", lam=lam)["new"] for lam, _ in cl.LAMS]
    assert all(b >= a for a, b in itertools.pairwise(olds)) and olds[-1] > olds[0] + 40
    assert all(b <= a for a, b in itertools.pairwise(news)) and news[0] - news[-1] > 50
    balanced = at("ewc", lam=30)
    assert balanced["old"] > 65 and balanced["new"] > 85


def test_more_kept_messages_help_but_never_restore_the_old_score():
    olds = [at("replay", keep=k)["old"] for k, _ in cl.KEEPS]
    assert all(b > a for a, b in itertools.pairwise(olds))
    assert olds[-1] < at("replay", epochs=0)["old"]  # three departments are harder than two


def test_a_good_average_hides_that_delivery_suffers_more():
    replay = at("replay")
    assert replay["delivery"] < replay["returns"] - 5


def test_which_messages_are_kept_matters():
    study = cl.sample_study()
    assert study["max_old"] - study["min_old"] >= 10


def test_the_task_hint_makes_the_test_easier_everywhere():
    for variant, _ in cl.VARIANTS:
        for lam, _ in cl.LAMS[::2]:
            plain = cl.compute(variant=variant, lam=lam)["curve"]
            hinted = cl.compute(variant=variant, lam=lam, hint=True)["curve"]
            for p, h in zip(plain, hinted):
                assert h["old"] >= p["old"]  # the hint can only remove the wrong department
                assert h["new"] == 100  # one department left for a new message: a gift
    assert at("none", hint=True)["old"] >= at("none")["old"] + 60


def test_the_hint_rescues_at_most_the_messages_called_complaints():
    for variant, _ in cl.VARIANTS:
        plain = cl.compute(variant=variant)["curve"]
        hinted = cl.compute(variant=variant, hint=True)["curve"]
        for p, h in zip(plain, hinted):
            assert p["old"] <= h["old"] <= p["old"] + p["old_as_new"]


# -- the page ----------------------------------------------------------------------------

def test_readouts_in_german():
    values = {r.key: r.value for r in cl.view(cl.compute()).readouts}
    assert values == {"old": "57/100", "new": "99/100", "delivery": "23/50", "returns": "34/50",
                      "before": "86/100", "stored": "8 Lieferung + 12 Rücksendungen"}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, cl.MAX_EPOCHS), st.sampled_from([v for v, _ in cl.VARIANTS]),
       st.sampled_from([k for k, _ in cl.KEEPS]), st.sampled_from([lam for lam, _ in cl.LAMS]),
       st.booleans(), st.integers(0, 2**31 - 1))
def test_any_setting_gives_valid_results_and_figures(epochs, variant, keep, lam, hint, seed):
    out = api.run(SLUG, {"epochs": epochs, "variant": variant, "keep": keep, "lam": lam, "hint": hint,
                         "seed": seed})
    assert out["notes"] == []
    json.dumps(out, allow_nan=False)
    r = out["result"]
    assert len(r["curve"]) == cl.MAX_EPOCHS + 1
    assert 0 <= r["now"]["old"] <= 100 and 0 <= r["now"]["new"] <= 100
    assert r["now"]["old"] == r["now"]["delivery"] + r["now"]["returns"]
    assert r["stored"]["delivery"] + r["stored"]["returns"] == keep
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    assert [x["key"] for x in out["readouts"]] == ["old", "new", "delivery", "returns", "before", "stored"]


def test_unused_parameters_do_not_retrain():
    assert cl._key("none", 1, 5, 9) == cl._key("none", 1000, 60, 3)
    assert cl._key("ewc", 30, 5, 9) == cl._key("ewc", 30, 60, 3)
    assert cl._key("replay", 1, 60, 9) == cl._key("replay", 1000, 60, 3)


def test_presets_are_the_described_cases():
    assert api.preset_values(SLUG, "Vor dem Update")["epochs"] == 0
    assert api.preset_values(SLUG, "Nur Reklamationen")["variant"] == "none"
    assert api.preset_values(SLUG, "Mit 20 gespeicherten")["keep"] == 20
    assert api.preset_values(SLUG, "Mit Hinweis")["hint"] is True


@pytest.mark.parametrize("epochs", [0, 1, 20])
def test_summary_sentences(epochs):
    text = cl.view(cl.compute(epochs=epochs)).summary
    assert text.startswith("Vor dem Update" if epochs == 0 else "Mit Wiederholungen")
    assert ("1 Epoche" in text) == (epochs == 1)


def test_the_summary_names_every_setting_that_changes_the_picture():
    base = cl.compute(epochs=20)
    said = cl.view(base)
    heard = f"{said.summary} {said.answer}"  # the comparison answers the lesson's guess: said after it
    assert base["variant"] == "replay" and "ohne Schutz" not in said.summary
    # the other two ways of training, with their own setting, as the table shows them
    assert f"ohne Schutz {base['table']['none']['old']}" in heard
    assert f"EWC (λ = {fmt.de(base['lam'])}) {base['table']['ewc']['old']}" in heard
    for change in ({"lam": 1000}, {"keep": 5}):
        other = cl.compute(epochs=20, **change)
        seen = cl.view(other)
        assert (seen.figure, seen.extra) != (cl.view(base).figure, cl.view(base).extra)  # the table changes
        assert f"{seen.summary} {seen.answer}" != heard, change


def test_the_neighbouring_lambdas_miss_the_ewc_balance():
    def solved(**raw):
        return "ewc_balance" in api.run(SLUG, raw)["lesson"]["solved"]
    assert solved(variant="ewc", lam=30)  # 71 old, 92 new
    assert not solved(variant="ewc", lam=100)  # 83 old, but only 44 Reklamationen
    assert not solved(variant="ewc", lam=10)  # 100 Reklamationen, but only 54 old
    assert not solved(variant="ewc", lam=30, hint=True)  # the hint flatters the old messages


def test_workshop_script_retrains_and_gets_the_same_test_results():
    """The numpy script (workshop/continual_learning.py) trains its own softmax regression on the page's
    messages: the same test results without protection, with EWC, with another stored sample and with
    the task hint as the module's trajectories."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(cl.SLUG, "Nur Reklamationen"), api.preset_values(cl.SLUG, "EWC"),
              api.preset_values(cl.SLUG, "Mit Hinweis"), {"variant": "replay", "keep": 5, "seed": 9, "epochs": 4}]
    for state, out in zip(states, run_states(cl.SLUG, states)):
        now = api.run(cl.SLUG, state)["result"]["now"]
        assert out["figures"] == 1
        assert number(out["stdout"], "Alte Nachrichten richtig") == now["old"]
        assert number(out["stdout"], "Reklamationen richtig") == now["new"]
        assert number(out["stdout"], "Alte als Reklamation") == now["old_as_new"]


def test_the_lesson_counts_epochs_and_says_once_what_one_is():
    """A pass over the training data is an Epoche (glossary), not a Runde, and the lesson
    explains the word where it first uses it."""
    item = cl.LESSON
    texts = [item.prediction.question, item.prediction.explain, *item.prediction.choices,
             *(t.text for t in item.tasks), *(t.explain for t in item.tasks),
             *item.discussion, *item.teacher, *item.misconceptions]
    assert not [t for t in texts if "Runde" in t]
    first = next(t for t in texts if "Epoche" in t)
    assert "Eine Epoche ist ein Durchgang durch alle Trainingsbeispiele." in first


def test_the_key_sentence_weighs_what_a_protection_keeps_of_the_old_against_what_it_costs_of_the_new():
    def summary(**raw):
        out = api.run(SLUG, raw)
        return f"{out['summary']} {out['answer']}"
    bare = summary(variant="none")
    assert bare.startswith("Ohne Schutz erkennt das Modell nach 20 Epochen 6 von 100 alten Nachrichten (vorher 86) "
                           "und 100 von 100 Reklamationen. Das Neue verdrängt das Alte.")
    hinted = summary(variant="none", hint=True)
    assert "3 alte Nachrichten gehen verloren" in hinted and "verdrängt" not in hinted
    ewc = summary(variant="ewc")
    assert "Mit EWC (λ = 100) erkennt das Modell" in ewc
    assert "Der Schutz rettet 77 alte Nachrichten, kostet aber 56 Reklamationen." in ewc
    assert "Der Schutz rettet 51 alte Nachrichten, kostet aber 1 Reklamation." in summary(variant="replay")
    assert "kostet keine Reklamation" in summary(variant="ewc", lam=1)
    assert summary(epochs=0).endswith("0 von 100 Reklamationen: Diese Abteilung wurde noch nicht trainiert. ")
