"""What the memory replay views show: the block pool and block tables (PagedAttention, prefix caching),
the growing KV cache (Decode, KV cache) and the cache's bytes with MHA, GQA and MQA.

Numbers are read from the trace a panel plays (static/traces/*.json) and looked up in what the browser
renders for that step; the articles' values are pinned as well: "hund" needs a second block for
position 4, x instead of h reuses 6 prompt tokens and x instead of a none, the toy decode computes 7
K/V with the cache against 27 by full recompute, and MHA holds 2× the bytes of GQA and 4× those of MQA.
"""

from __future__ import annotations

import re

import pytest
from conftest import header_hidden, picture
from replay_helpers import ROOT, SHOTS, SITE, TRACES, go, open_panel, trace  # noqa: F401


def number(text: str) -> int:
    """'12\u202f288' (German thousands, as kit/fmt.py groups them) → 12288; '1536' stays ungrouped."""
    m = re.search(r"\d[\d\u202f]*", text)
    assert m, f"keine Zahl in {text!r}"
    return int(m.group(0).replace("\u202f", ""))


def table_blocks(panel, seq: str) -> list[int]:
    """The physical blocks a sequence's block table shows, in logical order."""
    slots = panel.locator(f'.pl-rm-table[data-seq="{seq}"] .pl-rm-slot .pl-rm-pid')
    return [int(slots.nth(k).inner_text()) for k in range(slots.count())]


def index_after(t: dict, predicate) -> int:
    """The replay index (steps done) right after the first step whose events satisfy predicate."""
    return next(s["step"] + 1 for s in t["steps"] if any(predicate(e) for e in s["events"]))


# ------------------------------------------------------------------------------ blocks: PagedAttention
def test_paged_attention_hund_gets_its_second_block_for_position_4(reader):
    t = trace("paged-attention-blocks")
    v, panel = open_panel(reader, "paged-attention", "paged-attention-blocks")
    at4 = index_after(t, lambda e: e["type"] == "schedule" and e["seq"] == "hund" and e["positions"][0] == 4)
    assert at4 == 3  # prompt „Der Hund“: 3 tokens, then one position per step
    go(panel, at4 - 1)
    assert table_blocks(panel, "hund") == [0]
    go(panel, at4)
    row = panel.locator('.pl-rm-table[data-seq="hund"]')
    assert table_blocks(panel, "hund") == [0, 2]
    assert "2 Blöcke" in row.locator(".pl-rm-count").inner_text()
    assert "Position 4" in row.locator(".pl-rm-seqmeta").inner_text()
    # the new block is highlighted as allocated, in the table and in the pool, where it is hund's
    assert "+" in row.locator('.pl-rm-slot[data-logical="1"] .pl-rm-marks').inner_text()
    cell = panel.locator('.pl-rm-pool .pl-rm-block[data-block="2"]')
    assert "pl-rm-ev-allocate" in cell.get_attribute("class")
    assert cell.locator(".pl-rm-owner").inner_text() == "hund"
    # block 1 went to katze a step earlier: hund's blocks are not side by side in the pool
    assert table_blocks(panel, "katze") == [1, 3]
    # block 0 filled up with position 3 and carries its short hash; free blocks are empty
    hash0 = next(e["hash"] for s in t["steps"][:at4] for e in s["events"] if e.get("op") == "cache" and e["block"] == 0)
    assert panel.locator('.pl-rm-block[data-block="0"] .pl-rm-hash').inner_text() == f"#{hash0[:4]}"
    assert panel.locator('.pl-rm-block[data-block="7"]').inner_text().strip() == "7"
    go(panel, 6)
    assert table_blocks(panel, "hund") == [0, 2]
    assert table_blocks(panel, "katze") == [1, 3]
    assert panel.locator('.pl-rm-table[data-seq="hund"] .pl-rm-status').inner_text() == "fertig"
    assert panel.locator('.pl-rm-table[data-seq="hund"]').get_attribute("data-blocks") == "0"
    assert "Nach Schritt 6" in panel.locator(".pl-replay-summary").inner_text()
    assert not v.console_errors()


def test_paged_attention_pressure_shows_each_preemption(reader):
    t = trace("paged-attention-pressure")
    v, panel = open_panel(reader, "paged-attention", "paged-attention-pressure")
    preemptions = [(s["step"] + 1, e["seq"]) for s in t["steps"] for e in s["events"] if e["type"] == "preempt"]
    assert len(preemptions) >= 3  # the pool runs out again and again
    for index, seq in preemptions:
        go(panel, index)
        banner = panel.locator(".pl-rm-banner")
        assert banner.get_attribute("data-preempted") == seq
        assert seq in banner.inner_text()
        row = panel.locator(f'.pl-rm-table[data-seq="{seq}"]')
        assert row.locator(".pl-rm-status").inner_text() == "verdrängt"
        freed = [e["block"] for s in t["steps"][index - 1:index] for e in s["events"]
                 if e["type"] == "block" and e["op"] == "free" and e["seq"] == seq]
        assert row.locator(".pl-rm-slot.pl-rm-gone").count() == len(freed) > 0
        assert row.get_attribute("data-blocks") == "0"
        assert seq in panel.locator(".pl-rm-waiting").inner_text()
        assert f"Verdrängt: {seq}" in panel.locator(".pl-replay-summary").inner_text()
    # a preempted request comes back, recomputes, and finds some of its tokens in the prefix cache
    again = next(e for s in t["steps"] for e in s["events"]
                 if e["type"] == "schedule" and e["recompute"] and e["num_cached_tokens"] > 0)
    seq, cached = again["seq"], again["num_cached_tokens"]
    back = index_after(t, lambda e: e is again)
    go(panel, back)
    meta = panel.locator(f'.pl-rm-table[data-seq="{seq}"] .pl-rm-seqmeta').inner_text()
    assert "rechnet neu" in meta and f"{cached} Tokens aus dem Cache" in meta
    size = t["config"]["block_size"]
    assert panel.locator(f'.pl-rm-table[data-seq="{seq}"] .pl-rm-slot.pl-rm-ev-hit').count() == cached // size
    # the pool's count of used blocks is the trace's at every step
    for index in (1, 14, 24, len(t["steps"])):
        go(panel, index)
        used = panel.locator(".pl-rm-block.pl-rm-owned").count()
        assert used == t["steps"][index - 1]["end"]["blocks_used"]
    assert not v.console_errors()


# ------------------------------------------------------------------------------ blocks: prefix caching
def test_prefix_article_reuses_6_tokens_for_h_to_x_and_none_for_a_to_x(reader):
    t = trace("prefix-caching-article")
    v, panel = open_panel(reader, "prefix-caching", "prefix-caching-article")
    go(panel, 1)
    # a b c d e f g h is in the cache: four free blocks, each marked with its hash
    cached = [e for e in t["steps"][0]["events"] if e.get("op") == "cache"]
    for e in cached:
        cell = panel.locator(f'.pl-rm-block[data-block="{e["block"]}"]')
        assert "pl-rm-cachedfree" in cell.get_attribute("class")
        assert cell.get_attribute("data-hash") == e["hash"]
        assert cell.locator(".pl-rm-hash").inner_text() == f"#{e['hash'][:4]}"
    go(panel, 2)  # H → X
    row = panel.locator('.pl-rm-hitrow[data-seq="ABCDEFGX"]')
    assert re.fullmatch(r"6 von 8 aus dem Cache", row.locator(".pl-rm-hitnum").inner_text().strip())
    assert row.locator(".pl-rm-tc-hit").count() == 6
    assert table_blocks(panel, "ABCDEFGX") == [0, 1, 2, 4]
    assert panel.locator('.pl-rm-table[data-seq="ABCDEFGX"] .pl-rm-slot.pl-rm-ev-hit').count() == 3
    assert "ABCDEFGX: 6 Tokens aus dem Cache" in panel.locator(".pl-replay-summary").inner_text()
    go(panel, len(t["steps"]))
    expected = {e["seq"]: e["num_cached_tokens"] for s in t["steps"] for e in s["events"] if e["type"] == "schedule"}
    assert expected["ABCDEFGX"] == 6 and expected["XBCDEFGH"] == 0
    for seq, n in expected.items():
        text = panel.locator(f'.pl-rm-hitrow[data-seq="{seq}"] .pl-rm-hitnum').inner_text()
        assert number(text) == n, (seq, text)
    assert [number(x) for x in panel.locator(".pl-rm-hitnum").all_inner_texts()] == [0, 6, 6, 4, 4, 2, 2, 0, 0]
    assert not v.console_errors()


def test_prefix_shared_system_prompt_blocks_are_shared_with_reference_counts(reader):
    t = trace("prefix-caching-shared")
    v, panel = open_panel(reader, "prefix-caching", "prefix-caching-shared")
    go(panel, 6)
    refs = t["steps"][5]["end"]["running"]
    cell = panel.locator('.pl-rm-block[data-block="0"]')
    assert "pl-rm-shared" in cell.get_attribute("class")
    assert cell.locator(".pl-rm-refs").inner_text() == f"×{len(refs)}"
    assert cell.get_attribute("data-refs") == str(len(refs))
    row = panel.locator('.pl-rm-hitrow[data-seq="u5"]')
    assert number(row.locator(".pl-rm-hitnum").inner_text()) == 32
    assert row.get_attribute("data-total") == str(len(t["workload"]["requests"][5]["prompt"]))
    assert table_blocks(panel, "u5")[:8] == list(range(8))
    # blocks the run never touches are folded into one cell
    touched = max(e["block"] for s in t["steps"] for e in s["events"] if e["type"] == "block")
    assert panel.locator(".pl-rm-pool .pl-rm-block:not(.pl-rm-rest)").count() == touched + 1
    assert f"{touched + 1}–{t['config']['num_blocks'] - 1}" in panel.locator(".pl-rm-rest").inner_text()
    assert not v.console_errors()


# ------------------------------------------------------------------------------ cache growth
def test_decode_counter_against_full_recompute(reader):
    t = trace("decode-toy")
    v, panel = open_panel(reader, "decode", "decode-toy")
    go(panel, 1)
    seq = panel.locator('.pl-rm-seq[data-seq="A B"]')
    assert seq.locator(".pl-rm-pos-now").count() == 2  # the prefill computes A and B
    assert seq.locator(".pl-rm-pos-pending .pl-rm-tok").all_inner_texts() == ["A"]  # chosen, not yet processed
    n = len(t["steps"])
    go(panel, n)
    assert seq.locator(".pl-rm-kv").inner_text() == "7"
    assert seq.locator(".pl-rm-full").inner_text() == "27"
    assert seq.locator(".pl-rm-computed").inner_text() == "7"
    toks = seq.locator(".pl-rm-pos:not(.pl-rm-pos-slot) .pl-rm-tok").all_inner_texts()
    assert "".join(toks) == "ABABABAB"
    assert seq.locator(".pl-rm-pos-pending").get_attribute("data-pos") == "7"
    assert seq.locator(".pl-rm-pos-now").get_attribute("data-pos") == "6"
    summary = panel.locator(".pl-replay-summary").inner_text()
    assert "bisher 7" in summary and "wären es 27" in summary
    # in between: one new position per step, full recompute grows by the context length
    go(panel, 3)
    assert (seq.locator(".pl-rm-kv").inner_text(), seq.locator(".pl-rm-full").inner_text()) == ("4", "9")
    assert not v.console_errors()


def test_kv_cache_growth_bytes_and_blocks(reader):
    t = trace("kv-cache-growth")
    m = t["model"]
    per_position = m["num_layers"] * 2 * m["num_kv_heads"] * m["head_dim"] * 8
    assert per_position == 4096  # 4 layers, 2 K/V heads of 32 numbers, float64
    v, panel = open_panel(reader, "kv-cache", "kv-cache-growth")
    seq = panel.locator('.pl-rm-seq[data-seq="r"]')
    go(panel, 1)  # prefill: the 10 prompt positions, 3 blocks of 4
    assert len(t["workload"]["requests"][0]["prompt"]) == 10
    assert seq.locator(".pl-rm-pos-now").count() == 10
    assert number(seq.locator(".pl-rm-bytesval").inner_text()) == 10 * per_position == 40960
    assert "in 3 Blöcken" in seq.locator(".pl-rm-cachestat").inner_text()
    go(panel, 2)  # position 10 still fits block 3
    assert "in 3 Blöcken" in seq.locator(".pl-rm-cachestat").inner_text()
    assert seq.locator(".pl-rm-pos-now").get_attribute("data-pos") == "10"
    go(panel, 4)  # position 12 opens block 4
    assert "in 4 Blöcken" in seq.locator(".pl-rm-cachestat").inner_text()
    n = len(t["steps"])
    go(panel, n)
    computed = t["steps"][-1]["events"][0]["positions"][1]
    assert computed == 20  # 10 prompt positions and 11 new tokens, the last never computed
    assert number(seq.locator(".pl-rm-bytesval").inner_text()) == computed * per_position == 81920
    assert "81\u202f920 Byte" in panel.locator(".pl-replay-summary").inner_text()
    assert number(seq.locator(".pl-rm-full").inner_text()) == sum(
        e["positions"][1] for s in t["steps"] for e in s["events"] if e["type"] == "schedule")
    assert not v.console_errors()


# ------------------------------------------------------------------------------ K/V bytes
@pytest.mark.parametrize("slug, main", [("gqa", "GQA"), ("mqa", "MQA")])
def test_kvbytes_mha_holds_four_times_gqa_and_eight_times_mqa(reader, slug, main):
    name = {"gqa": "gqa-kv-gqa", "mqa": "mqa-kv-mqa"}[slug]
    t = trace(name)
    v, panel = open_panel(reader, slug, name)
    cards = panel.locator(".pl-rm-kvcard")
    assert [cards.nth(k).get_attribute("data-config") for k in range(3)] == ["MHA", "GQA", "MQA"]
    assert panel.locator(".pl-rm-kvcard.pl-rm-main").get_attribute("data-config") == main
    per_token = [number(cards.nth(k).locator(".pl-rm-kvtok").inner_text()) for k in range(3)]
    assert per_token == [16384, 4096, 2048]  # 2 · 4 layers · 8, 2, 1 K/V heads · 32 numbers · 8 bytes
    # query heads vs K/V heads as drawn
    assert [cards.nth(k).locator("circle.pl-rm-qhead").count() for k in range(3)] == [8, 8, 8]
    assert [cards.nth(k).locator("rect.pl-rm-kvhead").count() for k in range(3)] == [8, 2, 1]
    for index in range(1, len(t["steps"]) + 1):
        go(panel, index)
        mha, gqa, mqa = (number(cards.nth(k).locator(".pl-rm-kvbytes").inner_text()) for k in range(3))
        assert mha == 8 * mqa == 4 * gqa
        assert mqa == t["steps"][index - 1]["end"]["blocks_used"] * 4 * 2048
    go(panel, 7)
    blocks = t["steps"][6]["end"]["blocks_used"]
    assert [number(x) for x in panel.locator(".pl-rm-kvbytes").all_inner_texts()] == [
        blocks * 4 * b for b in per_token]
    assert not v.console_errors()


# ------------------------------------------------------------------------------ looks
PANELS = [("paged-attention", "paged-attention-pressure", 2), ("prefix-caching", "prefix-caching-article", 2),
          ("decode", "decode-toy", 3), ("kv-cache", "kv-cache-growth", 5), ("gqa", "gqa-kv-gqa", 6),
          ("mqa", "mqa-kv-mqa", 6)]


@pytest.mark.parametrize("slug, name, index", PANELS, ids=[p[0] for p in PANELS])
def test_phone_and_dark_screenshots_without_overflow(reader, slug, name, index):
    for width, scheme, suffix in ((1280, "light", ""), (390, "light", "-390"), (390, "dark", "-dark")):
        v, panel = open_panel(reader, slug, name, width=width, color_scheme=scheme)
        go(panel, index)
        assert v.page.evaluate("document.documentElement.scrollWidth") <= width
        view = panel.locator(".pl-replay-view")
        assert view.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the view must fit without sideways scroll"
        # no text in the view below 12 px
        smallest = view.evaluate("""el => Math.min(...Array.from(el.querySelectorAll('*'))
            .filter((n) => Array.from(n.childNodes).some((c) => c.nodeType === 3 && c.textContent.trim()))
            .map((n) => parseFloat(getComputedStyle(n).fontSize)))""")
        assert smallest >= 12, smallest
        with header_hidden(v.page):
            picture(panel, f"replay-{slug}{suffix}")
        assert not v.console_errors()
