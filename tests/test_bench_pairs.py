"""tools/bench.py's cold-start ratio: each page against the bare loads just around it."""

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
