"""Beam search on the article's tree and on the tree with an end token (CONCEPTS.md §21)."""

import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from page_states import unmarked_roundings
from probierlabor.concepts import beam_search as bs
from probierlabor.kit import api, fmt

F = Fraction


def result(width, tree="artikel", alpha=0.0):
    seq, p = bs.search(tree, width, alpha)["result"]
    return bs.name(seq), p


def test_width_2_keeps_a_and_b_drops_c_and_ends_at_aa():
    run = bs.search("artikel", 2)
    first = run["steps"][0]["fates"]
    assert first == {("A",): "behalten", ("B",): "behalten", ("C",): "verworfen"}
    assert result(2) == ("AA", F("0.18"))
    second = [(bs.name(s), p) for s, p in run["steps"][1]["ranked"][:2]]
    assert second == [("AA", F("0.18")), ("BA", F("0.175"))]  # the P step-2 beam of the catalogue


def test_width_3_finds_ca():
    assert result(3) == ("CA", F("0.198"))
    r = bs.compute(width=3)
    assert r["found_optimum"] and r["optimum"] == "CA"


def test_width_1_is_greedy():
    assert result(1) == ("AA", F("0.18"))


def test_scores_are_summed_logs():
    r = bs.compute(width=2)
    assert round(r["result_ln"], 4) == -1.7148 and round(r["optimum_ln"], 4) == -1.6195
    assert math.isclose(r["result_ln"], math.log(0.45) + math.log(0.4))
    assert r["optimum"] == "CA" and not r["found_optimum"]


def test_the_completion_respects_the_article_constraint():
    c = bs.constraint()
    assert c["max_after_B"] < c["bound"] and round(c["bound"], 4) == 0.5143
    for tree in bs.TREES.values():
        for dist in tree.values():
            assert sum(q for _, q in dist) == 1


def test_the_tree_optimum_is_the_most_probable_complete_sequence():
    seqs = bs.all_sequences("artikel")
    assert len(seqs) == 9 and sum(p for _, p in seqs) == 1
    assert max(seqs, key=lambda s: s[1]) == (("C", "A"), F("0.198"))


def test_end_token_tree_pure_probability_prefers_the_empty_answer():
    assert result(2, "ende", 0.0) == ("‹Ende›", F("0.3"))
    assert result(3, "ende", 0.0) == ("‹Ende›", F("0.3"))
    # width 1 never sees the end token: it is not among the first width candidates
    assert result(1, "ende", 0.0) == ("AA", F("0.25"))


def test_length_penalty_divides_by_length_to_the_alpha():
    r = bs.compute(width=2, tree="ende", alpha=1.0)
    assert r["result"] == "AA" and math.isclose(r["result_score"], math.log(0.25) / 2)
    ende = next(s for s in r["sequences"] if s["seq"] == "‹Ende›")
    assert ende["len"] == 1 and math.isclose(ende["score"], math.log(0.3))


def test_the_crossover_alpha():
    c = bs.crossover()
    assert (c["short"], c["long"]) == ("‹Ende›", "AA")
    assert math.isclose(math.log(0.3), math.log(0.25) / 2 ** c["alpha"])
    assert result(2, "ende", c["alpha"] - 0.01)[0] == "‹Ende›"
    assert result(2, "ende", c["alpha"] + 0.01)[0] == "AA"


def test_length_penalty_does_not_matter_when_all_lengths_agree():
    for width, alpha in product([1, 2, 3], [-1.0, 0.0, 0.5, 3.0]):
        assert result(width, "artikel", alpha) == result(width, "artikel", 0.0)


def test_a_finished_candidate_frees_its_place_in_the_beam():
    fates = bs.search("ende", 2)["steps"][0]["fates"]
    assert fates == {("A",): "behalten", ("$",): "fertig", ("B",): "behalten"}
    values = {r["key"]: r["value"] for r in api.run("beam-search", {"tree": "ende"})["readouts"]}
    assert values["kept1"] == "A, B; fertig: ‹Ende›" and values["dropped1"] == "nichts"


def exhaustive_beam(tree, width):
    """Independent implementation for trees without an end token: prune to width by probability."""
    t = bs.TREES[tree]
    beam = [((), F(1))]
    for _ in range(2):
        cands = [((*s, tok), p * q) for s, p in beam for tok, q in t[s]]
        cands.sort(key=lambda c: -c[1])
        beam = cands[:width]
    return beam[0]


def test_matches_an_independent_implementation():
    for width in (1, 2, 3):
        assert bs.search("artikel", width)["result"] == exhaustive_beam("artikel", width)


def test_readouts_and_summary():
    out = api.run("beam-search", {})
    values = {r["key"]: r["value"] for r in out["readouts"]}
    assert values == {"kept1": "A, B", "dropped1": "C", "result": "AA: 0,18", "score": "−1,715",
                      "optimum": "CA: 0,198"}
    assert out["summary"].startswith("Breite 2 behält nach Schritt 1 A und B und verwirft C. Der Beam endet bei AA mit 0,18.")
    early = api.run("beam-search", {"step": 1})
    assert {r["key"]: r["value"] for r in early["readouts"]}["result"] == "noch offen"


@settings(max_examples=60, deadline=None)
@given(st.integers(-2, 5), st.sampled_from(["artikel", "ende"]), st.floats(-5, 5, allow_nan=False),
       st.sampled_from([0, 1, 2]), st.integers(1, 4), st.lists(st.floats(0, 100), max_size=4))
def test_any_setting_runs_and_draws_valid_svg(width, tree, alpha, step, depth, chances):
    out = api.run("beam-search", {"width": width, "tree": tree, "alpha": alpha, "step": step, "depth": depth,
                                  "after_a": chances})
    json.dumps(out, allow_nan=False)  # valid JSON: no NaN or infinity
    ET.fromstring(out["figure"])
    ET.fromstring(out["extra"])
    r = out["result"]
    assert math.isfinite(r["result_score"]) and 0 < r["result_prob"] <= 1
    # the optimum is at least as good as the beam's answer under the same criterion
    assert r["optimum_score"] >= r["result_score"] - 1e-12


def test_alpha_one_step_below_the_flip_keeps_the_short_answer():
    """Near miss of the first task: at α = 0,2 the one-token answer still wins, so nothing is solved yet."""
    out = api.run("beam-search", {"tree": "ende", "alpha": 0.2})
    assert out["result"]["result"] == "‹Ende›"
    assert "long_wins" not in out["lesson"]["solved"]
    late = api.run("beam-search", {"tree": "ende", "alpha": 0.4})
    assert late["result"]["result"] == "AA" and "long_wins" not in late["lesson"]["solved"]


def test_workshop_script_recomputes_the_beam():
    """The numpy script (workshop/beam_search.py) at the default and three presets: same answers, same scores."""
    from workshop_check import number, run_states

    states = [{}] + [api.preset_values(bs.SLUG, p) for p in ("Breite 3 (Beispiel)", "Ende-Token, α = 0",
                                                              "Ende-Token, α = 1")]
    states.append({"tree": "ende", "width": 1})  # ‹Ende› ranks second: it drops out, not finishes
    states += [{"depth": 3, "width": 4}, {"tree": "ende", "depth": 3, "alpha": 1.0, "first": "0,2; 0,5; 0,3"},
               {"first": "1; 0; 1", "after_c": "0,6; 0,3; 0,1", "depth": 3, "width": 1}]
    for state, out in zip(states, run_states(bs.SLUG, states)):
        r = api.run(bs.SLUG, state)["result"]
        assert out["figures"] == 1
        for label, key in (("Beam-Antwort", "result"), ("Beste Antwort", "optimum")):
            assert f"{label}: {r[key]}\n" in out["stdout"]
            assert number(out["stdout"], f"{label}, Wahrscheinlichkeit") == pytest.approx(r[f"{key}_prob"], abs=5e-5)
            assert number(out["stdout"], f"{label}, Wertung") == pytest.approx(r[f"{key}_score"], abs=5e-5)


# -- own chances, width up to 4, depth up to 3 ---------------------------------------------------------

def own_beam(first, rows, width, depth):
    """An independent beam over a tree given as the chances at the start and after each token (no end token):
    keep the best `width` candidates per step, answer the best of the last step."""
    beam = [("", F(1))]
    for _ in range(depth):
        beam = sorted([(s + tok, p * q) for s, p in beam for tok, q in (rows[s[-1]] if s else first).items() if q],
                      key=lambda c: -c[1])[:width]
    return beam[0]


def test_own_chances_and_a_third_step_match_an_independent_beam():
    first = {"A": F(1, 4), "B": F(1, 4), "C": F(1, 2)}
    rows = {"A": {"A": F(4, 10), "B": F(35, 100), "C": F(25, 100)}, "B": {"A": F(1, 2), "B": F(3, 10), "C": F(1, 5)},
            "C": {"A": F(2, 10), "B": F(3, 10), "C": F(5, 10)}}
    for width, depth in product((1, 2, 3, 4), (2, 3)):
        out = api.run(bs.SLUG, {"first": "1; 1; 2", "after_c": "0,2; 0,3; 0,5", "width": width, "depth": depth})
        seq, p = own_beam(first, rows, width, depth)
        assert (out["result"]["result"], F(out["result"]["result_prob_exact"])) == (seq, p), (width, depth)
    out = api.run(bs.SLUG, {"first": "1; 1; 2", "after_c": "0,2; 0,3; 0,5"})
    assert out["notes"] == ["„Eigene Verteilung am Start“: Die Werte ergaben zusammen 4; sie wurden durch 4 geteilt."]
    assert out["url"] == {"first": "1_1_2", "after_c": "0.2_0.3_0.5"}  # the typed numbers: the link divides again
    assert out["summary"].endswith("Eigene Verteilung am Start, nach C.")


def test_width_4_on_three_steps_keeps_four_and_draws_every_leaf():
    r = api.run(bs.SLUG, {"depth": 3, "width": 4})["result"]
    assert [len(s["kept"]) for s in r["steps"]] == [3, 4, 0]
    assert len(r["sequences"]) == 27 and r["result"] == "CAA" and r["optimum"] == "ACA"
    for layout in ("wide", "narrow"):
        ET.fromstring(bs.view(r, layout).figure)


def test_zero_chances_drop_out_a_fourth_value_is_cut_and_a_row_the_tree_lacks_is_said():
    out = api.run(bs.SLUG, {"first": "1; 0; 0; 5", "tree": "artikel"})
    assert out["notes"] == ["„Eigene Verteilung am Start“: Es gehen höchstens 3 Werte, der letzte wurde weggelassen."]
    assert out["result"]["result"] == "AA" and out["result"]["n_candidates"] == [1, 3]
    assert "2 Tokens mit Wahrscheinlichkeit 0 fallen weg" in out["summary"]
    ende = api.run(bs.SLUG, {"tree": "ende", "after_c": "1; 1; 1"})
    assert "Im Baum mit Ende-Token gibt es kein C; die Wahrscheinlichkeiten nach C bleiben unbenutzt." in ende["summary"]
    assert ende["result"]["result"] == "‹Ende›"


def test_the_lesson_speaks_of_the_trees_as_they_are():
    assert "wide_enough" in api.run(bs.SLUG, {"width": 3})["lesson"]["solved"]
    assert "wide_enough" not in api.run(bs.SLUG, {"width": 3, "depth": 3})["lesson"]["solved"]
    assert "wide_enough" not in api.run(bs.SLUG, {"width": 3, "after_b": "1; 1; 1"})["lesson"]["solved"]


def _boxes(figure: str):
    """Every text's box (tests/figure_text.py) and every node's box; a token inside its own node is no clash."""
    from figure_text import NS as ns
    from figure_text import font_sizes, text_boxes
    texts = [(text, box) for text, box, _ in text_boxes(figure, font_sizes("pl-tree-"))]
    root, nodes = ET.fromstring(figure), []
    for shape in root.iter():
        if "pl-tree-node" in (shape.get("class") or ""):
            if shape.tag == ns + "circle":
                x, y, r = (float(shape.get(k)) for k in ("cx", "cy", "r"))
            else:
                r = float(shape.get("width")) / 2
                x, y = float(shape.get("x")) + r, float(shape.get("y")) + r
            nodes.append(((x, y), (x - r, y - r, x + r, y + r)))
    return texts, nodes


def _clash(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


OWN = ({}, {"first": "0,5; 0,3; 0,2"}, {"first": "1; 1; 1", "after_a": "0,35; 0,35; 0,3"},
       {"after_b": "0,1; 0,8; 0,1", "after_c": "0,3333; 0,0001; 0,6666"}, {"first": "0; 1; 2", "after_c": "0; 0; 1"},
       {"after_a": "7; 0,005; 33", "after_b": "0,0001; 3; 1"}, {"after_b": "0,0025; 99,9975; 0", "after_c": "1; 1; 1"})


@pytest.mark.parametrize("layout", ["narrow", "wide"])
@pytest.mark.parametrize("own", OWN)
def test_no_label_of_a_three_step_tree_overlaps_another_or_a_node(own, layout):
    """On a phone a third step's labels ran into the nodes (AB over its chance 0,35)."""
    raw = {"depth": 3, "width": 4} | own
    texts, nodes = _boxes(api.run(bs.SLUG, raw, layout=layout)["figure"])
    for i, (a, box) in enumerate(texts):
        for b, other in texts[i + 1:]:
            assert not _clash(box, other), (raw, layout, a, b)
        for centre, node in nodes:
            inside = node[0] <= (box[0] + box[2]) / 2 <= node[2] and node[1] <= box[3] - 4 <= node[3]
            assert inside or not _clash(box, node), (raw, layout, a, centre)


# -- a tie with the best of the tree ------------------------------------------------------------------

TIE = {"width": 1, "first": "0,4; 0,5; 0,1", "after_a": "0,5; 0,25; 0,25", "after_b": "0,4; 0,3; 0,3"}


def test_a_beam_answer_as_good_as_the_best_of_the_tree_is_a_tie_not_a_miss():
    """Greedy goes to B and ends at BA 0,2; AA 0,2 comes first in the tree's listing."""
    out = api.run(bs.SLUG, TIE)
    r = out["result"]
    assert (r["result"], r["result_prob_exact"], r["found_optimum"], r["tied"]) == ("BA", "1/5", True, ["AA"])
    assert out["summary"].endswith("Der Beam endet bei BA mit 0,2 – das ist auch das Beste im ganzen Baum, gleichauf mit AA: "
                                   "beide haben denselben Score. Eigene Verteilung am Start, nach A, nach B.")
    assert {x["key"]: x["value"] for x in out["readouts"]}["optimum"] == "BA: 0,2"


ROW = st.lists(st.integers(0, 3), min_size=3, max_size=3).filter(any)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.sampled_from([2, 3]), ROW, ROW, ROW, ROW)
def test_the_beam_misses_the_best_only_when_a_sequence_scores_strictly_higher(width, depth, first, after_a, after_b, after_c):
    """At α = 0 the score is the exact probability: ties between typed chances are frequent here."""
    typed = {"first": first, "after_a": after_a, "after_b": after_b, "after_c": after_c}
    out = api.run(bs.SLUG, {"width": width, "depth": depth} | {k: "; ".join(map(str, v)) for k, v in typed.items()})
    r = out["result"]
    chances = {k: {t: F(x, sum(v)) for t, x in zip("ABC", v) if x} for k, v in typed.items()}
    after = {"": chances["first"], "A": chances["after_a"], "B": chances["after_b"], "C": chances["after_c"]}
    probs = {"": F(1)}
    for _ in range(depth):
        probs = {s + t: p * q for s, p in probs.items() for t, q in after[s[-1:]].items()}
    best = max(probs.values())
    answer = F(r["result_prob_exact"])
    assert r["found_optimum"] == (answer == best)
    named = r["result"] if answer == best else r["optimum"]  # the best sequence the sentence names
    assert set(r["tied"]) == {s for s, p in probs.items() if p == best and s != named}
    assert ("Das Beste im ganzen Baum wäre" in out["summary"]) == (answer < best)
    assert ("gleichauf mit" in out["summary"]) == bool(r["tied"])


def test_the_key_sentence_names_the_step_where_the_best_sequence_fell_out_only_when_the_beam_misses_it():
    narrow = api.run("beam-search", {"width": 2})["summary"]
    assert "Das Beste im ganzen Baum wäre CA mit 0,198: Sein Anfang C fiel nach Schritt 1 heraus." in narrow
    wide = api.run("beam-search", {"width": 3})["summary"]
    assert "Der Beam endet bei CA mit 0,198 – das ist auch das Beste im ganzen Baum." in wide
    assert "fiel" not in wide and "nichts fällt heraus" in wide
    # three tokens: greedy keeps AA and loses ACA one step later
    deep = api.run("beam-search", {"width": 1, "depth": 3})
    r = deep["result"]
    assert r["optimum"] == "ACA" and not r["found_optimum"]
    assert deep["summary"].endswith("Sein Anfang AC fiel nach Schritt 2 heraus.")


# -- ties of different lengths, exactly ----------------------------------------------------------------

def finished_in_the_end_tree(rows: dict, depth: int) -> dict:
    """Every finished sequence of the tree with an end token ("$") and its exact chance, by brute force:
    a sequence ends at "$" or after `depth` tokens; the chances after a token are those of its row."""
    done, open_ = {}, {"": F(1)}
    while open_:
        s, p = open_.popitem()
        for tok, q in rows[s[-1:]].items():
            seq = s + tok
            (done if tok == "$" or len(seq) == depth else open_)[seq] = p * q
    return done


def not_beaten(chances: dict, alpha: int) -> set:
    """The sequences no other beats on ln P / L^α, for a whole α ≥ 0 without a logarithm:
    ln p / L^α > ln q / M^α  ⟺  M^α ln p > L^α ln q  ⟺  p^(M^α) > q^(L^α)."""
    def beats(a, b):
        return chances[a] ** (len(b) ** alpha) > chances[b] ** (len(a) ** alpha)
    return {s for s in chances if not any(beats(t, s) for t in chances)}


def tie_with_the_end(alpha: int, p_end: F, q_a: F) -> tuple[dict, str, str]:
    """Rows whose ‹Ende› (one token) and AA (two tokens) score exactly alike at α: P(AA) = P(‹Ende›)^(2^α).
    Typed exactly: as decimals where they end, else as whole numbers over a common denominator (the page
    divides a row by its sum)."""
    p_a = p_end ** (2**alpha) / q_a
    first, after_a = (p_a, p_end, 1 - p_a - p_end), (q_a, (1 - q_a) / 2, (1 - q_a) / 2)
    assert all(x > 0 for x in first + after_a)

    def typed(row):
        common = math.lcm(*(x.denominator for x in row))
        if common <= 100:
            return "; ".join(str(x * common) for x in row)
        assert all(fmt.decimal_places(x) is not None for x in row)
        return "; ".join(fmt.exact(x, None) for x in row)

    return ({"": dict(zip("A$B", first)), "A": dict(zip("AB$", after_a)), "B": {"A": F("0.9"), "B": F("0.05"), "$": F("0.05")}},
            typed(first), typed(after_a))


@pytest.mark.parametrize("alpha, p_end, q_a", [
    (1, F("0.4"), F(16, 45)), (1, F("0.45"), F("0.405")), (1, F("0.5"), F("0.6")), (2, F("0.7"), F("0.9604")),
    (2, F("0.6"), F("0.9")), (1, F("0.3"), F("0.5")),
])
@pytest.mark.parametrize("width", [1, 2, 3])
def test_a_tie_of_different_lengths_is_a_tie_as_exact_enumeration_finds(alpha, p_end, q_a, width):
    """‹Ende› alone against AA: ln P / L^α equal as numbers, unequal as floats (−0,916290731874155 against
    −0,9162907318741551 at 0,4 and 0,16). A beam answer as good as the best is no miss, and its equals are named."""
    rows, first, after_a = tie_with_the_end(alpha, p_end, q_a)
    out = api.run(bs.SLUG, {"tree": "ende", "alpha": alpha, "width": width, "first": first, "after_a": after_a})
    assert out["notes"] == [] or all("geteilt" in n for n in out["notes"]), out["notes"]
    r = out["result"]
    chances = finished_in_the_end_tree(rows, 2)
    assert {bs.name(s.replace("$", bs.END)): p for s, p in chances.items()} == {
        s["seq"]: F(s["prob_exact"]) for s in r["sequences"]}
    best = {bs.name(s.replace("$", bs.END)) for s in not_beaten(chances, alpha)}
    assert r["optimum"] in best
    assert r["found_optimum"] == (r["result"] in best)
    assert set(r["tied"]) == best - {r["result"] if r["found_optimum"] else r["optimum"]}
    assert ("gleichauf mit" in out["summary"]) == bool(r["tied"])


def test_the_constructed_tie_is_one_the_page_names():
    """0,4 alone and 0,16 in two tokens at α = 1: greedy ends at AA, and ‹Ende› is its equal, not better."""
    _, first, after_a = tie_with_the_end(1, F("0.4"), F(16, 45))
    out = api.run(bs.SLUG, {"tree": "ende", "alpha": 1, "width": 1, "first": first, "after_a": after_a})
    r = out["result"]
    assert (r["result"], r["result_prob_exact"], r["found_optimum"], r["tied"]) == ("AA", "4/25", True, ["‹Ende›"])
    assert "das ist auch das Beste im ganzen Baum, gleichauf mit ‹Ende›: beide haben denselben Score." in out["summary"]


def test_the_prose_marks_its_rounded_scores():
    """ln 0,18 ≈ −1,715 and ln 0,25 / 2 ≈ −0,693 are logarithms, never exact: „≈“ before each."""
    assert unmarked_roundings(bs.SLUG) == []


def test_a_missed_best_that_ties_with_another_is_not_called_the_one_best():
    """B and C both lead to A for sure: BA and CA tie at 0,25, and width 1 finds neither."""
    out = api.run(bs.SLUG, {"width": 1, "first": "0,5; 0,25; 0,25", "after_a": "0,4; 0,3; 0,3",
                            "after_b": "1; 0; 0", "after_c": "1; 0; 0"})
    r = out["result"]
    assert (r["result"], r["found_optimum"], r["optimum"], r["tied"]) == ("AA", False, "BA", ["CA"])
    assert "Das Beste im ganzen Baum wäre BA mit 0,25 (gleichauf mit CA): Sein Anfang B fiel" in out["summary"]
