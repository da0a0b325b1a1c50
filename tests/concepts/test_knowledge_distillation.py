"""Knowledge distillation: every figure of CONCEPTS.md §30, temperature, losses, the T² argument, invariants."""

import itertools
import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from probierlabor.concepts import knowledge_distillation as kd
from probierlabor.kit import api


def run(label=None, **params):
    raw = dict(api.preset_values("knowledge-distillation", label)) if label else {}
    raw.update(params)
    return api.run("knowledge-distillation", raw)


# -- the article's figures (CONCEPTS.md §30 checklist) ------------------------------------

def test_the_teacher_gives_0_60_0_35_0_05_and_sums_to_exactly_1():
    assert (Fraction(3, 5), Fraction(7, 20), Fraction(1, 20)) == kd.TEACHER
    assert sum(kd.TEACHER) == 1


def test_the_hard_label_is_a_one_hot_a():
    assert kd.LABEL == (1, 0, 0)
    assert run()["result"]["label"] == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("T, expected", [
    (2.0, (0.487225, 0.372125, 0.140650)),
    (4.0, (0.414728, 0.362445, 0.222827)),
])
def test_softened_teacher_with_logits_ln_p(T, expected):
    soft = kd.soften(kd.TEACHER, T)
    assert tuple(round(x, 6) for x in soft) == expected
    assert abs(math.fsum(soft) - 1) < 1e-15


def test_at_t_1_the_soft_targets_are_the_teacher_exactly():
    assert kd.soften(kd.TEACHER, 1.0) == kd.TEACHER
    assert run()["result"]["teacher_T"] == [0.6, 0.35, 0.05]


def test_presets_t2_and_t4_show_the_checklist_values():
    assert [round(x, 6) for x in run("T = 2")["result"]["teacher_T"]] == [0.487225, 0.372125, 0.14065]
    assert [round(x, 6) for x in run("T = 4")["result"]["teacher_T"]] == [0.414728, 0.362445, 0.222827]
    shown = {r["key"]: r["value"] for r in run("T = 2")["readouts"]}
    assert shown["teacher_T"] == "0,487 · 0,372 · 0,141"


# -- what the experiment lets one discover ------------------------------------------------------

def test_the_label_cannot_tell_b_from_c_but_the_soft_targets_can():
    like = run("Schüler wie Lehrer")["result"]
    swapped = run("B und C vertauscht")["result"]
    assert like["student_exact"] == ["3/5", "7/20", "1/20"]
    assert swapped["student_exact"] == ["3/5", "1/20", "7/20"]
    assert like["hard"] == swapped["hard"] == pytest.approx(-math.log(0.6))
    assert like["soft_kl"] == 0
    assert swapped["soft_kl"] == pytest.approx(0.3 * math.log(7), rel=1e-12)  # 0.35·ln 7 + 0.05·ln(1/7)


def test_a_student_equal_to_the_teacher_has_zero_soft_loss_at_every_temperature():
    for T in (1.0, 1.5, 2.0, 3.7, 5.0):
        r = run("Schüler wie Lehrer", T=T)["result"]
        assert r["soft_kl"] < 1e-15 and r["soft_gradient"] < 1e-15
        assert r["soft_ce"] == pytest.approx(r["teacher_entropy"], abs=1e-15)


def test_the_t_squared_keeps_the_soft_signal_comparable():
    ts = [1.0, 2.0, 3.0, 4.0, 5.0]
    raw = [run(T=T)["result"] for T in ts]
    kls = [r["soft_kl"] for r in raw]
    assert all(b < a for a, b in itertools.pairwise(kls))  # KL itself shrinks with T …
    assert kls[-1] < kls[0] / 10
    scaled = [r["soft_kl_scaled"] for r in raw]
    assert max(scaled) / min(scaled) < 1.5  # … while T²·KL stays of the same size
    grads = [r["soft_gradient"] for r in raw]
    assert grads[-1] < grads[0] / 10  # the raw gradient falls roughly as 1/T²
    scaled_grads = [r["soft_gradient_scaled"] for r in raw]
    assert max(scaled_grads) / min(scaled_grads) < 1.6


def test_the_soft_gradient_matches_a_finite_difference():
    s = kd.student(0.8, 0.3)
    logits = [math.log(float(x)) for x in s]
    for T in (1.0, 2.5, 4.0):
        q = kd.soften(kd.TEACHER, T)

        def loss(v, T=T, q=q):  # this T's loss, bound now
            z = [x / T for x in v]
            m = max(z)
            e = [math.exp(x - m) for x in z]
            st_ = [x / sum(e) for x in e]
            return kd.cross_entropy(q, st_)

        h = 1e-6
        grad = []
        for i in range(3):
            up, dn = list(logits), list(logits)
            up[i] += h
            dn[i] -= h
            grad.append((loss(up) - loss(dn)) / (2 * h))
        assert math.sqrt(sum(g * g for g in grad)) == pytest.approx(kd.soft_gradient(s, T), rel=1e-5)


def test_the_total_combines_hard_and_soft_with_alpha_and_t_squared():
    r = run(T=3.0, alpha=0.25)["result"]
    assert r["total"] == pytest.approx(0.75 * r["hard"] + 0.25 * 9 * r["soft_kl"], rel=1e-12)
    assert run(alpha=0.0)["result"]["total"] == pytest.approx(-math.log(0.9))


def test_readouts_and_summary_are_german():
    out = run()
    shown = {r["key"]: r["value"] for r in out["readouts"]}
    assert shown["teacher_T"] == "0,600 · 0,350 · 0,050"
    assert shown["hard"] == "0,105"
    assert "T = 1" in out["summary"] and "0,60 · 0,35 · 0,05" in out["summary"]


@pytest.mark.parametrize("raw", [{"T": 4.0}, {"alpha": 0.0}, {"s_a": 0.6, "split": 0.125, "T": 2.5}])
def test_readout_labels_and_emphasis_never_change(raw):
    # the page only swaps readout values, so labels must not depend on the parameters
    fixed = lambda out: [(r["key"], r["label"], r["emphasis"]) for r in out["readouts"]]  # noqa: E731
    assert fixed(run(**raw)) == fixed(run())


# -- invariants over the whole parameter space --------------------------------------------------

temps = st.integers(10, 50).map(lambda i: i / 10)
shares_a = st.integers(1, 98).map(lambda i: i / 100)
splits = st.integers(1, 199).map(lambda i: i * 5 / 1000)


@settings(max_examples=200, deadline=None)
@given(temps, shares_a, splits)
def test_distributions_sum_to_one_and_keep_their_order(T, a, split):
    s = kd.student(a, split)
    assert sum(s) == 1 and all(x > 0 for x in s)  # exact
    for dist in (kd.TEACHER, s):
        soft = kd.soften(dist, T)
        assert abs(math.fsum(soft) - 1) < 1e-12
        order = sorted(range(3), key=lambda i: dist[i])
        assert sorted(range(3), key=lambda i: soft[i]) == order  # temperature never reorders
    q = kd.soften(kd.TEACHER, T)
    assert q[0] > q[1] > q[2]  # B stays ahead of C


@settings(max_examples=200, deadline=None)
@given(temps, temps)
def test_higher_temperature_is_softer(t1, t2):
    lo, hi = sorted((t1, t2))
    a, b = kd.soften(kd.TEACHER, lo), kd.soften(kd.TEACHER, hi)
    assert kd.entropy(b) >= kd.entropy(a) - 1e-12
    assert b[0] <= a[0] + 1e-12 and b[2] >= a[2] - 1e-12


@settings(max_examples=150, deadline=None)
@given(st.floats(1, 5), st.floats(0.01, 0.98), st.floats(0.005, 0.995), st.floats(0, 1))
def test_any_setting_runs_and_gives_valid_json_and_svg(T, a, split, alpha):
    out = run(T=T, s_a=a, split=split, alpha=alpha)
    assert out["notes"] == []
    json.loads(json.dumps(out, allow_nan=False))
    r = out["result"]
    for key in ("hard", "soft_kl", "soft_ce", "total", "soft_gradient", "soft_gradient_scaled"):
        assert math.isfinite(r[key]) and r[key] >= 0
    assert r["soft_ce"] == pytest.approx(r["soft_kl"] + r["teacher_entropy"], abs=1e-12)
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])


@pytest.mark.parametrize("raw", [{"T": "0"}, {"T": "99"}, {"s_a": "1"}, {"split": "0"}, {"alpha": "x"}])
def test_tampered_values_are_clamped_with_a_note(raw):
    out = api.run("knowledge-distillation", raw)
    assert len(out["notes"]) == 1 and "verwendet wird" in out["notes"][0]
    json.dumps(out, allow_nan=False)


def test_lesson_copy_teacher_needs_the_teachers_exact_split():
    # one slider step away from the teacher (0,87 instead of 0,875) leaves a small soft loss: not solved
    near = run(s_a=0.6, split=0.87)
    assert 0 < near["result"]["soft_kl"] < 1e-4
    assert "copy_teacher" not in near["lesson"]["solved"]
    assert "copy_teacher" in run(s_a=0.6, split=0.875)["lesson"]["solved"]


def test_workshop_script_recomputes_the_losses():
    """The numpy script (workshop/knowledge_distillation.py) at the default and two presets: same soft targets
    and losses."""
    from workshop_check import number, run_states

    states = [{}, api.preset_values(kd.SLUG, "Schüler wie Lehrer"), api.preset_values(kd.SLUG, "T = 4")]
    for state, out in zip(states, run_states(kd.SLUG, states)):
        result = api.run(kd.SLUG, state)["result"]
        assert out["figures"] == 1
        for label, key in (("Harter Verlust", "hard"), ("Weicher Verlust (KL)", "soft_kl"),
                           ("T² · KL", "soft_kl_scaled"), ("Gesamt", "total")):
            assert number(out["stdout"], label) == pytest.approx(result[key], abs=1e-6)
        for token, q in zip(kd.TOKENS, result["teacher_T"]):
            assert number(out["stdout"], f"Lehrer bei T, {token}") == pytest.approx(q, abs=1e-6)


# -- an own teacher (kit/distribution.py) ------------------------------------------------------

def plain_losses(teacher, s, T, alpha):
    """The losses written out on floats: soften both with the same T, KL(teacher‖student), −ln s_A."""
    def soft(d):
        w = [x ** (1 / T) if x > 0 else 0.0 for x in d]
        return [x / sum(w) for x in w]
    q, st = soft(teacher), soft(s)
    kl = sum(a * math.log(a / b) for a, b in zip(q, st) if a > 0)
    hard = -math.log(s[0])
    return hard, kl, (1 - alpha) * hard + alpha * T * T * kl


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=8).filter(lambda xs: sum(xs) > 0), temps, shares_a, splits)
def test_an_own_teacher_gives_the_losses_of_the_plain_formula(weights, T, a, split):
    out = run(teacher=" ".join(map(str, weights)), T=T, s_a=a, split=split, alpha=0.3)
    r = out["result"]
    teacher = [w / sum(weights) for w in weights]
    assert r["teacher"] == [float(Fraction(w, sum(weights))) for w in weights]  # divided by the sum, exactly
    n = len(weights)
    # the student: A s_A, B the share r of the rest, C… the remainder as the teacher splits it among them
    if n == 2:
        s = [a, 1 - a]
    else:
        others = teacher[2:] if sum(teacher[2:]) > 0 else [1.0] * (n - 2)
        s = [a, split * (1 - a)] + [(1 - split) * (1 - a) * w / sum(others) for w in others]
    assert r["student"] == pytest.approx(s, abs=1e-12) and sum(Fraction(x) for x in r["student_exact"]) == 1
    assert r["label"] == [1.0] + [0.0] * (n - 1) and r["tokens"] == list("ABCDEFGH"[:n])
    hard, kl, total = plain_losses(teacher, s, T, 0.3)
    assert r["hard"] == pytest.approx(hard, rel=1e-9)
    assert r["soft_kl"] == pytest.approx(kl, rel=1e-6, abs=1e-12)
    assert r["total"] == pytest.approx(total, rel=1e-6, abs=1e-12)
    json.loads(json.dumps(out, allow_nan=False))
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])


def test_an_own_teacher_of_four_tokens():
    out = run(teacher="0,5; 0,3; 0,1; 0,1", s_a=0.5, split=0.6)
    assert out["notes"] == [] and out["url"] == {"s_a": "0.5", "split": "0.6", "teacher": "0.5_0.3_0.1_0.1"}
    r = out["result"]
    assert r["student_exact"] == ["1/2", "3/10", "1/10", "1/10"]  # the student copies this teacher exactly
    assert r["soft_kl"] == 0 and r["hard"] == pytest.approx(math.log(2))
    assert {x["key"]: x["label"] for x in out["readouts"]}["teacher_T"] == "Weiche Ziele des Lehrers (A · B · C · D)"
    assert "copy_teacher" not in out["lesson"]["solved"]  # the task is about the article's teacher


def test_an_own_teacher_that_does_not_sum_to_1_is_divided_with_a_note():
    out = run(teacher="12; 7; 1")
    assert out["notes"] == ["„Eigener Lehrer“: Die Werte ergaben zusammen 20; sie wurden durch 20 geteilt."]
    assert out["result"]["teacher"] == [0.6, 0.35, 0.05]
    assert out["summary"] == run()["summary"]  # the article's teacher again


def test_a_too_long_own_teacher_keeps_the_first_eight():
    out = run(teacher="; ".join(["1"] * 12))
    (note,) = out["notes"]
    assert "höchstens 8 Werte, die letzten 4 wurden weggelassen" in note and "durch 8 geteilt" in note
    assert out["result"]["teacher"] == [0.125] * 8 and len(out["result"]["student"]) == 8


def test_workshop_script_recomputes_the_losses_of_an_own_teacher():
    from workshop_check import number, run_states

    states = [{"teacher": "0,5; 0,3; 0,1; 0,1", "T": 2.5}, {"teacher": "0,7; 0,3", "s_a": 0.4},
              {"teacher": "0,6; 0,2; 0; 0; 0,2", "split": 0.3, "T": 3.0}]
    for state, out in zip(states, run_states(kd.SLUG, states)):
        result = api.run(kd.SLUG, state)["result"]
        for label, key in (("Harter Verlust", "hard"), ("Weicher Verlust (KL)", "soft_kl"), ("Gesamt", "total")):
            assert number(out["stdout"], label) == pytest.approx(result[key], abs=1e-6)
        for token, q in zip(result["tokens"], result["teacher_T"]):
            assert number(out["stdout"], f"Lehrer bei T, {token}") == pytest.approx(q, abs=1e-6)


def test_the_key_sentence_says_what_each_loss_sees():
    """Under the bars: the label rewards a student who exaggerates A, cannot tell B and C apart, and
    only the soft loss vanishes for a student who matches the teacher."""
    default = run()["summary"]
    assert "0,60 · 0,35 · 0,05" in default and "0,90 · 0,05 · 0,05" in default
    assert "belohnt seine Übertreibung: harter Verlust 0,105, kleiner als bei einem Schüler, der den Lehrer trifft (0,511)" in default
    assert "KL 0,438" in default and "Gesamt 0,272" in default
    swapped = run(s_a=0.6, split=0.125)["summary"]
    assert "harte Verlust derselbe (0,511)" in swapped and "den Rest verteilt: 0,584" in swapped and "belohnt" not in swapped
    match = run(s_a=0.6, split=0.875, T=4)["summary"]
    assert "weiche Verlust 0" in match and "harter Verlust 0,511" in match
    low = run(s_a=0.3)["summary"]
    assert "weniger als der Lehrer: harter Verlust 1,204, mehr als" in low
