"""What the scheduling replay views show: continuous batching's slots, TTFT phases, prefill.

Every number asserted is read from the trace the panel plays (static/traces/*.json) and looked up in
what the browser renders for that step; the article's values are pinned as well (C runs from 2 to 4
with continuous batching and from 6 to 8 in a fixed group, makespans 6 and 8, outputs 2; 3; 14/3; 6).
"""

from __future__ import annotations

import re
import statistics
from decimal import ROUND_HALF_UP, Decimal

import pytest
from conftest import picture
from replay_helpers import ROOT, SHOTS, SITE, TRACES, go, open_panel, trace  # noqa: F401


def de(x: float, digits: int) -> str:
    """German number as toLocaleString('de-DE') prints it (shortest decimal of the float, halves up)."""
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{q:f}".replace(".", ",")


def ms_value(text: str) -> float:
    """'12,34 ms' → 12.34 (milliseconds)."""
    m = re.fullmatch(r"\s*([\d\u202f]+,\d+) ms\s*", text)
    assert m, f"keine Millisekunden: {text!r}"
    return float(m.group(1).replace("\u202f", "").replace(",", "."))


def scheduled_steps(t: dict, seq: str) -> list[int]:
    return [s["step"] for s in t["steps"] if any(e["type"] == "schedule" and e["seq"] == seq for e in s["events"])]


def first_step(t: dict, seq: str, kind: str) -> int:
    return next(s["step"] for s in t["steps"] if any(e["type"] == kind and e.get("seq") == seq for e in s["events"]))


def shown_steps(panel, trace_name: str, seq: str, kinds: str) -> list[int]:
    """The engine steps a Gantt row shows as work of the given kinds (segments are [from, to))."""
    segs = panel.locator(f'svg.pl-rs-gantt[data-trace="{trace_name}"] rect[data-seq="{seq}"]')
    out = []
    for k in range(segs.count()):
        seg = segs.nth(k)
        if seg.get_attribute("data-kind") in kinds.split():
            out += range(int(seg.get_attribute("data-from")), int(seg.get_attribute("data-to")))
    return sorted(out)


def mean_latency(t: dict) -> float:
    arrival = {r["id"]: r["arrival_step"] for r in t["workload"]["requests"]}
    finish = {e["seq"]: s["step"] for s in t["steps"] for e in s["events"] if e["type"] == "finish"}
    return statistics.mean(finish[k] + 1 - arrival[k] for k in arrival)


# ------------------------------------------------------------------------------ continuous batching


def test_slots_show_c_running_2_to_4_continuous_and_6_to_8_in_the_fixed_group(reader):
    cont, static = trace("continuous-batching-article"), trace("continuous-batching-article-static")
    assert scheduled_steps(cont, "C") == [2, 3] and scheduled_steps(static, "C") == [6, 7]  # the article
    v, panel = open_panel(reader, "continuous-batching", "continuous-batching-article")
    assert panel.evaluate("el => window.probierlabor.player(el).length") == 8

    go(panel, 3)  # after steps 0, 1, 2: C has just taken B's slot, but only with continuous batching
    assert shown_steps(panel, cont["scenario"]["name"], "C", "pre chunk dec") == [2]
    assert shown_steps(panel, cont["scenario"]["name"], "C", "wait") == [1]
    assert shown_steps(panel, static["scenario"]["name"], "C", "pre chunk dec") == []
    assert shown_steps(panel, static["scenario"]["name"], "C", "wait") == [1, 2]
    caps = panel.locator(".pl-rs-timeline figcaption")
    assert "Schritt 2: im Batch A, C" in caps.nth(0).inner_text()
    assert "Schritt 2: im Batch A · wartet C" in caps.nth(1).inner_text()
    # the step just computed is framed in both timelines
    assert panel.locator("svg.pl-rs-gantt rect.pl-rs-now").count() == 2

    go(panel, 8)
    for t, steps in ((cont, [2, 3]), (static, [6, 7])):
        name = t["scenario"]["name"]
        assert shown_steps(panel, name, "C", "pre chunk dec") == steps == scheduled_steps(t, "C")
        assert shown_steps(panel, name, "A", "pre dec") == scheduled_steps(t, "A") == list(range(6))
        assert panel.locator(f'svg.pl-rs-gantt[data-trace="{name}"] text.pl-rs-cell').count() == 6 + 2 + 2  # P/D letters
    assert shown_steps(panel, static["scenario"]["name"], "C", "wait") == [1, 2, 3, 4, 5]
    # makespans 6 vs 8, mean latency (steps from arrival to the last token) 11/3 vs 5
    stats = panel.locator("table.pl-rs-stats")
    for t, makespan, latency in ((cont, 6, "3,67"), (static, 8, "5")):
        row = stats.locator(f'tr[data-trace="{t["scenario"]["name"]}"]')
        assert t["result"]["num_steps"] == makespan
        assert row.locator('td[data-col="makespan"]').inner_text() == f"{makespan} Schritte"
        assert row.locator('td[data-col="latency"]').inner_text() == f"{latency} Schritte"
        assert row.locator('td[data-col="done"]').inner_text() == "3 von 3"
    assert "fertig nach 6 Schritten" in panel.locator(".pl-replay-summary").inner_text()
    assert not v.foreign_requests() and not v.console_errors()


def test_realistic_slots_show_both_makespans_and_who_waits(reader):
    cont, static = trace("continuous-batching-realistic"), trace("continuous-batching-realistic-static")
    v, panel = open_panel(reader, "continuous-batching", "continuous-batching-realistic")
    length = max(cont["result"]["num_steps"], static["result"]["num_steps"])
    assert panel.evaluate("el => window.probierlabor.player(el).length") == length
    stats = panel.locator("table.pl-rs-stats")
    for t in (cont, static):
        row = stats.locator(f'tr[data-trace="{t["scenario"]["name"]}"]')
        assert row.locator('td[data-col="makespan"]').inner_text() == f"{t['result']['num_steps']} Schritte"
        assert row.locator('td[data-col="latency"]').inner_text() == f"{de(mean_latency(t), 2)} Schritte"
    assert cont["result"]["num_steps"] < static["result"]["num_steps"]

    go(panel, 60)
    for t in (cont, static):
        name = t["scenario"]["name"]
        done = sum(1 for s in t["steps"][:60] for e in s["events"] if e["type"] == "finish")
        row = stats.locator(f'tr[data-trace="{name}"]')
        assert row.locator('td[data-col="done"]').inner_text() == f"{done} von 16"
        running = [e["seq"] for e in t["steps"][59]["events"] if e["type"] == "schedule"]
        cap = panel.locator(f'.pl-rs-timeline[data-trace="{name}"] figcaption').inner_text()
        assert f"Schritt 59: im Batch {', '.join(running)} ·" in cap
        # every request's work up to now, cell by cell, as the trace has it
        for req in t["workload"]["requests"]:
            seq = req["id"]
            assert shown_steps(panel, name, seq, "pre chunk dec") == [s for s in scheduled_steps(t, seq) if s < 60]
    # the last request r15 waits in the fixed group from its arrival until its group starts
    r15 = next(r for r in static["workload"]["requests"] if r["id"] == "r15")
    start = min(first_step(static, "r15", "schedule"), 60)
    assert start - r15["arrival_step"] >= 10  # the fixed group makes it wait long
    assert shown_steps(panel, static["scenario"]["name"], "r15", "wait") == list(range(r15["arrival_step"], start))
    go(panel, length)
    assert f"Fertig nach {cont['result']['num_steps']} Schritten" in panel.locator(".pl-rs-timeline figcaption").nth(0).inner_text()
    assert not v.foreign_requests() and not v.console_errors()


# ------------------------------------------------------------------------------ TTFT


def test_ttft_first_token_time_is_the_sum_of_measured_step_times(reader):
    t, twin = trace("continuous-batching-realistic"), trace("continuous-batching-realistic-static")
    v, panel = open_panel(reader, "ttft", "continuous-batching-realistic")
    assert t["recorded"]["device"] in panel.locator(".pl-rs-note").first.inner_text()
    wall = [s["wall_time_s"] for s in t["steps"]]
    elapsed = lambda k: sum(wall[:k]) * 1000  # noqa: E731 - ms before step k starts

    r7_first = first_step(t, "r7", "emit")
    go(panel, r7_first + 1)  # the step in which r7 gets its first token
    now = panel.locator("p.pl-rs-now-text")
    assert "r7" in now.get_attribute("data-fresh").split(",")
    assert f"Schritt {r7_first} dauerte {de(wall[r7_first] * 1000, 2)} ms" in now.inner_text()
    assert panel.locator('tr.pl-rs-fresh-row[data-seq="r7"]').count() == 1
    r8 = panel.locator('tr[data-seq="r8"]')
    if first_step(t, "r8", "emit") > r7_first:
        assert r8.locator('td[data-col="ttft"]').inner_text() == "…"

    go(panel, t["result"]["num_steps"])
    ttfts = []
    for req in t["workload"]["requests"]:
        seq, arrival = req["id"], req["arrival_step"]
        first, admitted = first_step(t, seq, "emit"), first_step(t, seq, "schedule")
        row = panel.locator(f'tr[data-seq="{seq}"]')
        first_at = row.locator('td[data-col="first-at"]').inner_text()
        step_text, _, ms_text = first_at.partition(" · ")
        assert step_text == f"Schritt {first}"
        assert abs(ms_value(ms_text) - sum(wall[: first + 1]) * 1000) <= 0.0051  # tokens are there at the step's end
        ttft = elapsed(first + 1) - elapsed(arrival)
        ttfts.append(ttft)
        assert abs(ms_value(row.locator('td[data-col="ttft"]').inner_text()) - ttft) <= 0.0051
        assert abs(ms_value(row.locator('td[data-col="queue"]').inner_text()) - (elapsed(admitted) - elapsed(arrival))) <= 0.0051
        assert abs(ms_value(row.locator('td[data-col="prefill"]').inner_text()) - (elapsed(first + 1) - elapsed(admitted))) <= 0.0051
        emits = [s["step"] for s in t["steps"] for e in s["events"] if e["type"] == "emit" and e["seq"] == seq]
        gap = (elapsed(emits[-1] + 1) - elapsed(emits[0] + 1)) / (len(emits) - 1)
        assert abs(ms_value(row.locator('td[data-col="gap"]').inner_text()) - gap) <= 0.0051
    stats = panel.locator(f'table.pl-rs-stats tr[data-trace="{t["scenario"]["name"]}"]')
    for col, value in (("mean", statistics.mean(ttfts)), ("median", statistics.median(ttfts)), ("max", max(ttfts))):
        assert abs(ms_value(stats.locator(f'td[data-col="{col}"]').inner_text()) - value) <= 0.0051
    assert stats.locator('td[data-col="count"]').inner_text() == "16 von 16"
    # the twin's TTFTs only once its clock got there
    twin_row = panel.locator('table.pl-rs-stats tr[data-trace="continuous-batching-realistic-static"]')
    twin_done = sum(1 for r in twin["workload"]["requests"] if first_step(twin, r["id"], "emit") < t["result"]["num_steps"])
    assert twin_row.locator('td[data-col="count"]').inner_text() == f"{twin_done} von 16"
    assert not v.foreign_requests() and not v.console_errors()


# ------------------------------------------------------------------------------ prefill


def outputs_shown(panel, name: str) -> list[str]:
    spans = panel.locator(f'.pl-rs-outputs[data-trace="{name}"] span[data-pos]')
    return [spans.nth(k).inner_text().split(" = ", 1)[1] for k in range(spans.count())]


def test_prefill_in_chunks_and_whole_give_2_3_14_thirds_6(reader):
    chunks, whole = trace("prefill-mean-chunks"), trace("prefill-mean-whole")
    for t in (chunks, whole):
        values = [e["value"] for s in t["steps"] for e in s["events"] if e["type"] == "output"]
        assert values == pytest.approx([2, 3, 14 / 3, 6])
    v, panel = open_panel(reader, "prefill", "prefill-mean-chunks")
    expected = ["2", "3", "14/3 ≈ 4,667", "6"]

    go(panel, 1)
    assert outputs_shown(panel, "prefill-mean-chunks") == expected[:2]
    assert outputs_shown(panel, "prefill-mean-whole") == expected
    assert panel.locator(".pl-rs-verdict").count() == 0

    go(panel, 2)  # the second chunk: positions 2 and 3 new, 0 and 1 read from the cache
    fig = panel.locator('figure[data-trace="prefill-mean-chunks"]')
    kinds = lambda row: [fig.locator(f'rect[data-row="{row}"][data-col="{c}"]').get_attribute("data-kind") for c in range(4)]  # noqa: E731
    assert kinds(2) == ["cache", "cache", "new", "mask"]
    assert kinds(3) == ["cache", "cache", "new", "new"]
    assert kinds(0) == ["done", "mask", "mask", "mask"]
    kv = fig.locator(".pl-rs-kv")
    assert [kv.nth(k).get_attribute("data-kind") for k in range(4)] == ["cache", "cache", "new", "new"]
    assert "liest Positionen 0–1 aus dem Cache" in fig.locator("figcaption").inner_text()
    for name in ("prefill-mean-chunks", "prefill-mean-whole"):
        assert outputs_shown(panel, name) == expected
    verdict = panel.locator(".pl-rs-verdict")
    assert verdict.get_attribute("data-same") == "true" and "14/3 ≈ 4,667" in verdict.inner_text()
    assert not v.foreign_requests() and not v.console_errors()


def test_interleaved_prefill_splits_the_token_budget_per_step(reader):
    t = trace("prefill-interleaved")
    budget = t["config"]["max_num_batched_tokens"]
    long = max(t["workload"]["requests"], key=lambda r: len(r["prompt"]))
    v, panel = open_panel(reader, "prefill", "prefill-interleaved")
    n = t["result"]["num_steps"]
    go(panel, n)
    bars = panel.locator("svg.pl-rs-budget rect[data-step]")
    for s in t["steps"]:
        k = s["step"]
        sched = [e for e in s["events"] if e["type"] == "schedule"]
        parts = {}
        for j in range(bars.count()):
            if bars.nth(j).get_attribute("data-step") == str(k):
                parts[bars.nth(j).get_attribute("data-part")] = int(bars.nth(j).get_attribute("data-tokens"))
        assert sum(parts.values()) == s["end"]["num_batched_tokens"] <= budget
        assert parts.get("dec", 0) == sum(e["num_tokens"] for e in sched if e["kind"] == "decode")
        assert parts.get("chunk", 0) == sum(e["num_tokens"] for e in sched if e["kind"] != "decode" and e["seq"] == long["id"])
    # the long prompt's progress, step by step
    for k in (3, 6, 9):
        go(panel, k)
        done = max([e["positions"][1] for s in t["steps"][:k] for e in s["events"]
                    if e["type"] == "schedule" and e["seq"] == long["id"] and e["kind"] != "decode"] or [0])
        prog = panel.locator(".pl-rs-progress-text")
        assert prog.get_attribute("data-done") == str(done)
        assert f"{done} von {len(long['prompt'])} Prompt-Positionen" in prog.inner_text()
        chunk = next(e for e in t["steps"][k - 1]["events"] if e["type"] == "schedule" and e["seq"] == long["id"])
        assert f"{long['id']}: Positionen {chunk['positions'][0]}–{chunk['positions'][1] - 1}" in \
            panel.locator("figure .pl-rs-now-text").inner_text()
    assert not v.foreign_requests() and not v.console_errors()


# ------------------------------------------------------------------------------ look


@pytest.mark.parametrize("slug, index", [("continuous-batching", 40), ("ttft", 30), ("prefill", 2)])
@pytest.mark.parametrize("width", [1280, 390])
def test_schedule_views_fit_and_stay_readable_in_dark_mode(reader, slug, index, width):
    v = reader(f"/{slug}/", width=width, height=900, color_scheme="dark")
    v.page.wait_for_function("""() => { const p = document.querySelectorAll('section.pl-replay');
        return p.length && [...p].every(el => el.dataset.state === 'ready'); }""", timeout=30_000)
    panels = v.page.locator("section.pl-replay")
    for k in range(panels.count()):
        panel = panels.nth(k)
        panel.evaluate(f"el => window.probierlabor.player(el).step({index})")
        smallest = panel.evaluate("""el => Math.min(...[...el.querySelectorAll('.pl-replay-view svg.pl-rs-svg text')]
            .map(t => parseFloat(getComputedStyle(t).fontSize) * (t.closest('svg').getBoundingClientRect().width / (t.closest('svg').viewBox.baseVal.width || 1))))""")
        assert smallest >= 12, f"text below 12 px in panel {k}"
        panel.scroll_into_view_if_needed()
        v.page.wait_for_timeout(100)
        picture(panel, f"replay-{slug}-{k}-{width}")
    assert v.page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways page scroll
    assert not v.foreign_requests() and not v.console_errors()
