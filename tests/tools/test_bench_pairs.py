"""tools/bench.py's cold-start ratio: each page against the bare loads just around it."""

import random

from tools import bench


def test_every_page_sits_between_two_bare_loads_and_runs_alternate_direction():
    slugs = ["a", "b", "c", "d", "e"]
    for run in range(2):
        order = bench.load_order(slugs, run)
        assert order[0] == "bare" and order[-1] == "bare" and order.count("bare+numpy") == 1
        pages = [name for name in order if not name.startswith("bare")]
        assert pages == (slugs if run == 0 else slugs[::-1])
        between = "".join("|" if name == "bare" else "" if name.startswith("bare") else "p" for name in order)
        assert max(len(group) for group in between.split("|")) <= bench.PAIR


def test_a_slowing_machine_does_not_show_as_a_slow_page():
    # the machine gets twice as slow during the run; every page costs 1.1 × the bare runtime at that moment
    speed = [1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2]
    order = ["bare", "a", "b", "bare", "c", "d", "bare"]
    ready = [(name, 1000 * speed[i] * (1.0 if name == "bare" else 1.1)) for i, name in enumerate(order)]
    ratios = dict(bench.paired_ratios(ready))
    assert all(abs(ratios[name] - 1.1) < 0.15 for name in "abcd")
    # against the run's median bare load, as before, the last page looked 1.5 × slower than the first
    median_bare = 1400
    assert ready[5][1] / median_bare > 1.5 * ready[1][1] / median_bare


def test_side_by_side_loads_both_builds_of_each_page_in_turn_and_neither_always_first():
    for slugs in (["a", "b", "c"], ["a", "b", "c", "d"]):
        check_ab_order(slugs, bench.ab_order(slugs, rounds=2))


def check_ab_order(slugs, order):
    assert len(order) == 2 * 2 * len(slugs)
    for run in range(2):
        loads = order[run * 2 * len(slugs):(run + 1) * 2 * len(slugs)]
        pairs = [loads[i:i + 2] for i in range(0, len(loads), 2)]
        # page by page, both builds one after the other; every other round backwards
        assert [p[0][0] for p in pairs] == (slugs if run == 0 else slugs[::-1])
        assert all(p[0][0] == p[1][0] and {p[0][1], p[1][1]} == {bench.CURRENT, bench.REFERENCE} for p in pairs)
        # A B, B A, A B: the build that went second goes first on the next page
        assert all(pairs[i][1][1] == pairs[i + 1][0][1] for i in range(len(pairs) - 1))
    firsts = [order[i][1] for i in range(0, len(order), 2)]
    assert firsts.count(bench.CURRENT) == firsts.count(bench.REFERENCE)
    for slug in slugs:  # over the two rounds, each page has each build first once
        assert {order[i][1] for i in range(0, len(order), 2) if order[i][0] == slug} == {bench.CURRENT, bench.REFERENCE}


def test_side_by_side_names_the_ratio_per_page_the_median_and_the_worst_page():
    ms = lambda *values: [(v, v + 10) for v in values]  # noqa: E731 - (repainted, next frame)
    samples = {"fast": {bench.REFERENCE: ms(10, 12, 11), bench.CURRENT: ms(5, 6, 100)},
               "slow": {bench.REFERENCE: ms(40, 40, 40), bench.CURRENT: ms(60, 60, 61)},
               "mid": {bench.REFERENCE: ms(20, 20, 20), bench.CURRENT: ms(20, 20, 20)},
               "no slider": {bench.REFERENCE: [], bench.CURRENT: []}}
    compared = bench.side_by_side(samples)
    rows = {r["page"]: r for r in compared["rows"]}
    assert set(rows) == {"fast", "slow", "mid"}  # a page without samples is left out, not a zero
    assert rows["fast"]["repaint"][bench.CURRENT] == 6 and rows["fast"]["repaint"]["ratio"] == 6 / 11  # medians
    assert rows["slow"]["frame"]["ratio"] == 70 / 50
    summary = compared["summary"]["repaint"]
    assert summary[bench.REFERENCE]["median"] == 20 and summary[bench.CURRENT]["median"] == 20
    assert summary[bench.CURRENT]["worst"] == "slow" and summary[bench.CURRENT]["worst_ms"] == 60
    assert summary["slower"] == 1
    # the interval: with one wild sample in three, „fast“ cannot be told from the reference; „slow“ can
    assert rows["slow"]["frame"]["interval"][0] > 1 and rows["fast"]["frame"]["interval"][0] < 1 < rows["fast"]["frame"]["interval"][1]
    assert rows["mid"]["frame"]["interval"] == (1, 1)
    assert summary["beyond_noise"] == ["slow"]
    checks = dict(bench.reference_checks(compared))
    assert checks["slow: slider → next frame vs the reference (low end of the 95 % interval)"] > 1
    assert checks["slider → next frame, worst page vs the reference's worst"] == 70 / 50


def test_the_interval_tells_noise_from_a_slower_page():
    """Two samples of one distribution hold 1 in their interval; the same shifted by 20 % do not."""
    rng = random.Random(1)
    ref = [20 + rng.gauss(0, 3) for _ in range(36)]
    same = [20 + rng.gauss(0, 3) for _ in range(36)]
    low, high = bench.ratio_interval(ref, same)
    assert low <= 1 <= high
    low, _ = bench.ratio_interval(ref, [x * 1.2 for x in same])
    assert low > 1


def test_each_first_run_of_the_worker_sits_between_two_bare_starts_and_is_checked_against_them():
    """make bench's first „Ausführen“ and first model step: each in a fresh tab between two bare Pyodide
    starts, every kind once per round, every other round backwards; the target is its median ratio."""
    order = bench.first_run_order(2)
    assert order[0] == order[-1] == "bare"
    assert all(order[i] == "bare" for i in range(0, len(order), 2))
    runs = [name for name in order if name != "bare"]
    assert runs == list(bench.FIRST_RUNS) + list(bench.FIRST_RUNS[::-1])
    assert {"workshop", "realmodel"} <= set(bench.FIRST_RUNS)
    # the bare start doubles during the run; every first run takes 0.8 × the bare start of its moment
    measured = [(name, 1000 * (1 + i / len(order)) * (1 if name == "bare" else 0.8)) for i, name in enumerate(order)]
    ratios = bench.paired_ratios(measured)
    assert [name for name, _ in ratios] == runs and all(abs(r - 0.8) < 0.05 for _, r in ratios)
    figures = {"bare": {"ms": [1000]}, "slugs": {"workshop": "a", "realmodel": "b"},
               **{name: {"ms": [900, 800, 1200], "ratio": [0.9, 0.8, 1.2]} for name in bench.FIRST_RUNS}}
    figures["realmodel"]["ratio"] = [1.1, 1.3, 1.2]
    checks = dict(bench.first_run_checks(figures))
    assert len(checks) == 2
    assert checks["first „Ausführen“ of „Im Code nachrechnen“ vs 1.0 × a bare Pyodide start (median ratio)"] == 0.9
    assert checks["first step of „Am echten Modell“ vs 1.0 × a bare Pyodide start (median ratio)"] == 1.2
