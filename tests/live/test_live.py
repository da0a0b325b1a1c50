"""„Eigener Lauf“ (probierlabor/live): a reader's settings → checked workload → the engine's trace."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from probierlabor.live import batching, fields, form, recording, runs, speculative
from probierlabor.pageblocks import live_block
from trace_equal import same

from recorder import scenarios, tracer

BASE = {"model": "GQA", "block_size": "4", "num_blocks": "16", "max_num_seqs": "2", "max_num_batched_tokens": "8",
        "chunked_prefill": "1", "prefix_caching": "1", "policy": "continuous"}


def with_requests(requests: str, **changes) -> dict:
    return BASE | {"requests": requests} | {k: str(v) for k, v in changes.items()}


def renamed(trace: dict, names: dict) -> dict:
    """The trace with its request ids replaced (the live run names requests A, B, C …)."""
    out = json.loads(json.dumps(tracer.without_measurements(trace)))
    for r in out["workload"]["requests"]:
        r["id"] = names[r["id"]]
    for step in out["steps"]:
        for e in step["events"]:
            if "seq" in e:
                e["seq"] = names[e["seq"]]
        for key in ("running", "waiting"):
            step["end"][key] = [names[s] for s in step["end"][key]]
    out["result"]["outputs"] = {names[k]: v for k, v in out["result"]["outputs"].items()}
    del out["scenario"], out["recorded"], out["workload"]["seed"]  # what the run is called, not what it did
    return out


# Every page's presets are recorded runs of the trained model: run live from the settings its header holds,
# each must be the same run, event for event (floats to their last bits: the file may come from another CPU).
PRESETS = sorted({name for _, names, _ in live_block.PAGES.values() for name in names
                  if not name.startswith("speculative-decoding")})


@pytest.mark.parametrize("name", PRESETS)
def test_a_recorded_run_as_settings_runs_again_event_for_event(name):
    recorded = tracer.load(scenarios.path_of(name))
    out = runs.run_settings(runs.settings_of_trace(recorded))
    assert out["notes"] == []
    names = {r["id"]: fields.NAMES[i] for i, r in enumerate(recorded["workload"]["requests"])}
    same(renamed(out["trace"], {n: n for n in names.values()}), renamed(recorded, names), name)


def test_a_live_trace_passes_the_full_check_and_names_no_git_revision():
    out = runs.run_settings(with_requests("hallo welt | 6 | 0\nguten tag | 3 | 2"), concept="paged-attention",
                            device="Browser")
    trace = out["trace"]
    tracer.validate(trace)
    assert trace["recorded"]["engine_revision"] == recording.REVISION
    assert trace["recorded"]["device"] == "Browser"
    assert trace["scenario"]["concepts"] == ["paged-attention"]
    assert [r["prompt_text"] for r in trace["workload"]["requests"]] == ["hallo welt", "guten tag"]
    assert [r["arrival_step"] for r in trace["workload"]["requests"]] == [0, 2]
    assert [len(o["tokens"]) for o in trace["result"]["outputs"].values()] == [6, 3]


def test_same_settings_same_trace():
    s = with_requests("7 | 5\n12 | 4 | 1\nkatze | 3 | 1")
    first, second = runs.run_settings(s)["trace"], runs.run_settings(s)["trace"]
    assert tracer.without_measurements(first) == tracer.without_measurements(second)
    # a bare number is a prompt of that many tokens, drawn from a fixed seed; text is tokenized
    assert [len(r["prompt"]) for r in first["workload"]["requests"]] == [7, 12, len(recording.tokenizer().encode("katze"))]


def test_a_prompt_given_as_a_length_has_that_many_tokens_and_its_text_gives_them_again():
    tok = recording.tokenizer()
    for length in range(1, fields.REQUEST["prompt"].hi + 1):
        (request,) = batching.parse(with_requests(f"{length} | 2", num_blocks=32)).requests
        assert len(request.prompt) == length and tuple(tok.encode(request.text)) == request.prompt


@pytest.mark.parametrize("text", ["Hallo Welt! Grüße aus Köln", "Ünïcödé @ 100 % – „Zitat“ 😀 中文", "  zwei  Leerzeichen"])
def test_any_text_is_a_prompt_as_typed(text):
    """The byte-level BPE knows every character: capitals, emoji, other scripts run, with no note."""
    out = runs.run_settings(with_requests(f"{text} | 3", num_blocks=32))
    assert out["notes"] == []
    (request,) = out["trace"]["workload"]["requests"]
    assert request["prompt_text"] == text and request["prompt"] == recording.tokenizer().encode(text)
    assert out["settings"]["requests"].startswith(text + " | 3")


def test_half_a_character_in_a_prompt_is_replaced_with_a_note_and_the_run_goes_on():
    """A lone surrogate (an emoji cut in two) ended the run „unerwartet abgebrochen (UnicodeEncodeError …)“."""
    out = runs.run_settings(with_requests("Hallo \ud800 Welt | 3", num_blocks=32))
    (request,) = out["trace"]["workload"]["requests"]
    assert request["prompt_text"] == "Hallo \ufffd Welt" and out["settings"]["requests"].startswith("Hallo \ufffd Welt |")
    assert out["notes"] == ["Anfrage A (Zeile 1): Der Prompt enthält ein halbes Schriftzeichen (zum Beispiel ein "
                            "zerschnittenes Emoji). Das Modell liest an seiner Stelle „\ufffd“."]
    spec = speculative.parse(SPEC | {"prompt": "es war \udfff einmal"})
    assert spec.prompt == "es war \ufffd einmal" and spec.notes[0].startswith("Prompt: Der Prompt enthält ein halbes")


@pytest.mark.parametrize("text", ["Das Modell liest die Seite und schreibt weiter. " * 8, "a😀" * 30, "ä" * 200])
def test_a_long_prompt_is_cut_to_its_tokens_with_a_note_and_its_text_gives_them_again(text):
    tok = recording.tokenizer()
    w = batching.parse(with_requests(f"{text} | 2", num_blocks=32))
    (request,) = w.requests
    cap = fields.REQUEST["prompt"].hi
    assert len(request.prompt) <= cap and text.startswith(request.text)
    assert tuple(tok.encode(request.text)) == request.prompt
    assert w.notes == (f"Anfrage A (Zeile 1): Der Prompt ergibt {len(tok.encode(text))} Tokens. "
                       f"Gerechnet wird mit den ersten {len(request.prompt)}.",)
    again = batching.parse(w.settings())
    assert again.requests == w.requests and again.notes == ()
    spec = speculative.parse(SPEC | {"prompt": text})
    assert spec.prompt == request.text and len(spec.notes) == 1 and spec.notes[0].startswith("Prompt: Der Prompt ergibt")

def test_settings_give_the_workload_back_also_for_a_prompt_that_ends_in_a_space():
    w = batching.parse(with_requests("heute trinke  | 4 | 1\nwir|3"))
    assert [r.text for r in w.requests] == ["heute trinke ", "wir"]
    again = batching.parse(w.settings())
    assert (again.requests, again.engine, again.model) == (w.requests, w.engine, w.model)


def test_progress_counts_every_step_up_to_the_dry_runs_count_and_stop_ends_the_run():
    w = batching.parse(with_requests("a | 6 | 0\na | 2 | 0\na | 2 | 1", prefix_caching=0))
    seen = []
    trace = batching.run(w, on_step=lambda done, total: seen.append((done, total)))
    n = trace["result"]["num_steps"]
    assert seen == [(i, n) for i in range(1, n + 1)] and w.expected_steps == n
    with pytest.raises(recording.Stopped):
        batching.run(w, should_stop=lambda: len(seen) > n + 2, on_step=lambda done, total: seen.append(done))
    assert len(seen) == n + 3


@pytest.mark.parametrize("requests, changes, words", [
    ("hallo | 4", {"num_blocks": 0}, ["Ohne Blöcke"]),
    ("hallo welt wie geht es | 30", {"num_blocks": 4}, ["Anfrage A passt nie", "11 Prompt-Tokens", "10 Blöcke", "nur 4"]),
    ("hallo | 4\nein langer prompt hier | 8", {"chunked_prefill": 0}, ["Anfrage B", "ohne Chunked Prefill",
                                                                          "Budget ist 8"]),
    ("", {}, ["Keine Anfrage"]),
    ("   \n  ", {}, ["Keine Anfrage"]),
    ("hallo | 4 | 0 | 9", {}, ["höchstens drei Teile"]),
    ("hallo | vier", {}, ["neue Tokens: „vier“ ist keine Zahl."]),
    ("hallo", {"max_num_seqs": "abc"}, ["Sequenzen pro Schritt: „abc“ ist keine Zahl."]),
    ("hallo", {"max_num_seqs": ""}, ["Sequenzen pro Schritt: Hier fehlt eine Zahl."]),
    ("hallo", {"model": "XXL"}, ["Modell „XXL“"]),
    ("hallo", {"policy": "zufall"}, ["Batching"]),
    ("hallo", {"prefix_caching": "vielleicht"}, ["Präfix-Cache", "weder an"]),
    (" | 4", {}, ["Prompt ist leer"]),
])
def test_a_bad_workload_is_refused_in_german_before_anything_runs(requests, changes, words):
    with pytest.raises(form.WorkloadError) as caught:
        batching.parse(with_requests(requests, **changes))
    for word in words:
        assert word in str(caught.value)


def test_every_problem_of_a_workload_is_named_at_once():
    with pytest.raises(form.WorkloadError) as caught:
        batching.parse(with_requests("hallo | 4\n | x\nwelt | 3 | später", max_num_seqs="abc", policy="zufall"))
    assert caught.value.problems == (
        "Anfrage B (Zeile 2): Der Prompt ist leer. Schreibe Text oder eine Länge wie 12.",
        "Anfrage B (Zeile 2), neue Tokens: „x“ ist keine Zahl.",
        "Anfrage C (Zeile 3), Ankunft: „später“ ist keine Zahl.",
        "Sequenzen pro Schritt: „abc“ ist keine Zahl.",
        "Batching „zufall“ gibt es nicht; möglich sind continuous und static.")
    assert form.check(with_requests("hallo | 4\n | x\nwelt | 3 | später", max_num_seqs="abc")) == \
        list(caught.value.problems[:-1])  # the page's early check: the same words, without the engine
    with pytest.raises(form.WorkloadError) as caught:
        batching.parse(with_requests("eins eins eins | 30\nzwei zwei zwei | 30", num_blocks=4))
    assert [p[:20] for p in caught.value.problems] == ["Anfrage A passt nie ", "Anfrage B passt nie "]


@pytest.mark.parametrize("typed, ran, note", [("2", 2, False), ("2,0", 2, False), ("2.0", 2, False), ("2,5", 3, True),
                                              (" 3,4 ", 3, True), ("+2", 2, False)])
def test_a_whole_number_field_takes_a_german_or_english_decimal(typed, ran, note):
    w = batching.parse(with_requests("hallo", max_num_seqs=typed))
    assert w.engine["max_num_seqs"] == ran
    assert any("keine ganze Zahl, gerechnet wird mit" in n for n in w.notes) == note


def test_absurd_sizes_are_capped_and_the_notes_say_so():
    w = batching.parse(with_requests("\n".join(["x" * 600 + " | 99 | 500"] + ["a | 2"] * 19),
                            num_blocks=100000, block_size=0, max_num_seqs=99, max_num_batched_tokens=-3))
    assert len(w.requests) == 16
    first = w.requests[0]
    assert (len(first.prompt), first.max_new_tokens, first.arrival_step) == (64, 32, 64)
    assert [w.engine[k] for k in fields.NUMBERS] == [1, 256, 16, 1]  # block size, blocks, sequences, budget
    text = " ".join(w.notes)
    for word in ("ersten 16 von 20", f"nach {fields.PROMPT_CHARS} von 600 Zeichen",
                 f"Der Prompt ergibt {len(recording.tokenizer().encode('x' * fields.PROMPT_CHARS))} Tokens. Gerechnet "
                 "wird mit den ersten 64.", "99 liegt außerhalb von 1 bis 32",
                 "500 liegt außerhalb von 0 bis 64", "100\u202f000 liegt außerhalb", "Blockgröße: 0",
                 "Token-Budget pro Schritt: \u22123"):  # numbers as fmt writes them: grouped, with a real minus
        assert word in text


def test_the_largest_capped_workload_runs():
    most = {name: p.hi for name, p in (fields.REQUEST | fields.ENGINE).items() if p.kind == "int"}
    w = batching.parse(with_requests("\n".join([f"{most['prompt']} | {most['max_new_tokens']}"] * fields.MAX_REQUESTS),
                                     num_blocks=most["num_blocks"], max_num_seqs=most["max_num_seqs"],
                                     max_num_batched_tokens=most["max_num_batched_tokens"]))
    trace = batching.run(w)
    assert all(len(o["tokens"]) == most["max_new_tokens"] for o in trace["result"]["outputs"].values())


LONGEST = " | ".join(str(fields.REQUEST[key].hi) for key in ("prompt", "max_new_tokens", "arrival_step"))  # all at the top
SLOWEST = {"max_num_seqs": 1, "max_num_batched_tokens": 1}  # one token per step


@pytest.mark.parametrize("count, changes", [
    (fields.MAX_REQUESTS, {"block_size": 1, "num_blocks": 96}),
    (batching.TILE_REQUESTS, {"num_blocks": 256, "tile_size": 1}),  # every key a tile of its own
], ids=["a token per step", "tiles of one key"])
def test_the_total_work_of_a_run_is_capped_and_the_note_says_so(count, changes):
    """Within the form's bounds these took 0,5–0,9 s of CPU (6–7 s in a browser): now the first
    requests that fit MAX_WORK run, and a note says how many of how many."""
    lines = [LONGEST] * count
    w = batching.parse(with_requests("\n".join(lines), **SLOWEST, **changes))
    kept = len(w.requests)
    assert 1 <= kept < count and w.work <= batching.MAX_WORK
    assert any(f"Alle {count} Anfragen zusammen wären" in n and f"erlaubt sind {batching.MAX_WORK}. Gerechnet werden "
               f"die ersten {kept}." in n for n in w.notes), w.notes
    one_more = batching.parse(with_requests("\n".join(lines[:kept + 1]), **SLOWEST, **changes))
    assert len(one_more.requests) == kept  # the longest first part that fits
    assert batching.parse(w.settings()).notes == ()  # the settings as they ran are within the cap


@pytest.mark.parametrize("changes", [{"block_size": 1, "num_blocks": 96}, {"num_blocks": 256, "tile_size": 1}],
                         ids=["a token per step", "tiles of one key"])
def test_one_request_at_every_upper_bound_fits_the_cap(changes):
    w = batching.parse(with_requests(LONGEST, **SLOWEST, **changes))
    assert w.notes == () and w.work <= batching.MAX_WORK


# Any text in any field: a workload within the limits, or a WorkloadError; never another exception.
_text = st.text(max_size=12) | st.integers(-10**6, 10**6).map(str) | st.sampled_from(["", " ", "1", "0", "²", "٣", "9" * 5000])
_lines = st.lists(st.tuples(st.text(alphabet=" abcäß|09?Z@\t", max_size=10), _text, _text), max_size=20).map(
    lambda rows: "\n".join(" | ".join(row) for row in rows))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests=_lines | _text, model=_text | st.sampled_from(fields.MODELS), policy=_text | st.sampled_from(["static"]),
       numbers=st.fixed_dictionaries(dict.fromkeys(fields.NUMBERS, _text)),
       switches=st.fixed_dictionaries(dict.fromkeys(fields.SWITCHES, _text)), tiles=st.none() | _text)
def test_any_settings_give_a_workload_within_the_limits_or_a_german_refusal(requests, model, policy, numbers, switches,
                                                                            tiles):
    tile = {} if tiles is None else {"tile_size": tiles}
    try:
        w = batching.parse({"requests": requests, "model": model, "policy": policy, **numbers, **switches, **tile})
    except form.WorkloadError as refused:
        assert str(refused) and str(refused)[0].isupper()
        return
    assert 1 <= len(w.requests) <= fields.MAX_REQUESTS
    for r in w.requests:
        assert 1 <= len(r.prompt) <= fields.REQUEST["prompt"].hi
        assert 1 <= r.max_new_tokens <= fields.REQUEST["max_new_tokens"].hi
        assert 0 <= r.arrival_step <= fields.REQUEST["arrival_step"].hi
    for key in fields.NUMBERS:
        low, high = fields.ENGINE[key].lo, fields.ENGINE[key].hi
        assert low <= w.engine[key] <= high
    assert w.expected_steps >= 1 and w.work <= batching.MAX_WORK
    if tiles is not None:
        assert fields.ENGINE["tile_size"].lo <= w.tile_size <= fields.ENGINE["tile_size"].hi
        assert len(w.requests) <= batching.TILE_REQUESTS
    again = batching.parse(w.settings())
    assert (again.requests, again.engine, again.model, again.tile_size, again.notes) == \
        (w.requests, w.engine, w.model, w.tile_size, ())


# ----------------------------------------------------------------------------- FlashAttention's tiles
def test_tiles_change_how_attention_is_computed_not_what_comes_out():
    """Any tile size gives the dense run's tokens; each step's tiles cover its query's keys once."""
    s = with_requests("kacheln | 4\nonline softmax | 3 | 1", max_num_seqs=1)
    dense = runs.run_settings(s)["trace"]
    for tile_size in (1, 3, 16):
        trace = runs.run_settings(s | {"tile_size": str(tile_size)})["trace"]
        tracer.validate(trace)
        assert trace["config"]["kernel"] == f"tiled_{tile_size}"
        assert trace["result"]["outputs"] == dense["result"]["outputs"]
        for step in trace["steps"]:
            tiles = [e for e in step["events"] if e["type"] == "tile"]
            keys = tiles[0]["query"] + 1
            assert [e["keys"] for e in tiles] == [[a, min(a + tile_size, keys)] for a in range(0, keys, tile_size)]
            assert "out" in tiles[-1]


def test_tile_size_and_requests_are_capped_with_notes():
    w = batching.parse(with_requests("\n".join(["ab | 2"] * 6), tile_size=40))
    assert w.tile_size == fields.ENGINE["tile_size"].hi and len(w.requests) == batching.TILE_REQUESTS
    assert any("Kachelgröße: 40" in n for n in w.notes) and any("ersten 4 von 6" in n for n in w.notes)
    with pytest.raises(form.WorkloadError, match="Kachelgröße: „vier“ ist keine Zahl"):
        batching.parse(with_requests("ab", tile_size="vier"))


# ----------------------------------------------------------------------------- speculative decoding
from engine.generate import greedy_recompute  # noqa: E402

SPEC = {"prompt": "es war einmal", "model": "GQA", "max_new_tokens": "20", "k": "3", "temperature": "0,8",
        "top_k": "0", "top_p": "1", "seed": "3", "block_size": "4"}


@pytest.mark.parametrize("name", ["speculative-decoding-pq", "speculative-decoding-tiny"])
def test_a_recorded_speculative_run_as_settings_runs_again_event_for_event(name):
    recorded = tracer.load(scenarios.path_of(name))
    out = runs.run_settings(runs.settings_of_trace(recorded))
    assert out["notes"] == []
    strip = lambda t: {k: v for k, v in tracer.without_measurements(t).items() if k not in ("scenario", "recorded")}  # noqa: E731
    same(strip(out["trace"]), strip(recorded), name)


def test_an_own_greedy_speculative_run_is_the_target_models_own_text():
    out = runs.run_settings(SPEC | {"temperature": "0", "model": "MQA", "k": "5"}, concept="speculative-decoding")
    trace = out["trace"]
    tracer.validate(trace)
    target = greedy_recompute(recording.model("MQA"), recording.tokenizer().encode("es war einmal"), 20).tokens
    assert trace["result"]["outputs"]["r"]["tokens"] == target
    assert trace["config"]["k"] == 5 and trace["config"]["sampling"]["greedy"]
    assert any(e["op"] == "free" for s in trace["steps"][:-1] for e in s["events"] if e["type"] == "block")


def test_speculative_settings_come_back_and_the_seed_decides_the_draws():
    first = runs.run_settings(SPEC)
    assert first["settings"] == SPEC | {"temperature": "0.8"}
    again = runs.run_settings(first["settings"])
    assert tracer.without_measurements(again["trace"]) == tracer.without_measurements(first["trace"])
    other = runs.run_settings(SPEC | {"seed": "4"})
    assert other["trace"]["result"]["outputs"] != first["trace"]["result"]["outputs"]


def test_speculative_progress_and_stop():
    seen = []
    trace = speculative.run(speculative.parse(SPEC), on_step=lambda d, t: seen.append((d, t)))
    rounds = trace["result"]["num_steps"]
    assert [d for d, _ in seen] == list(range(1, rounds + 1)) and seen[-1] == (rounds, rounds)
    assert all(t >= d for d, t in seen)
    with pytest.raises(recording.Stopped):
        speculative.run(speculative.parse(SPEC), should_stop=lambda: True)


@pytest.mark.parametrize("changes,words", [
    ({"model": "PQ", "prompt": "AXB"}, "kennt nur die Tokens A, B, C"),
    ({"model": "gpt"}, "Modellpaar „GPT“ gibt es nicht"),
    ({"temperature": "warm"}, "Temperatur: „warm“ ist keine Zahl"),
    ({"temperature": "0,7,1"}, "Temperatur: „0,7,1“ ist keine Zahl"),
    ({"k": "zwei"}, r"Vorschläge pro Runde \(γ\): „zwei“ ist keine Zahl"),
    ({"prompt": ""}, "Der Prompt ist leer"),
])
def test_a_bad_speculative_workload_is_refused_in_german(changes, words):
    with pytest.raises(form.WorkloadError, match=words):
        runs.run_settings(SPEC | changes)


def test_speculative_sizes_are_capped_with_notes():
    w = speculative.parse(SPEC | {"max_new_tokens": "1000", "k": "0", "temperature": "5", "top_p": "0",
                                       "model": "pq", "prompt": "abba"})
    assert (w.max_new_tokens, w.k, w.temperature, w.top_p, w.prompt) == (64, 1, 2.0, 0.05, "ABBA")
    assert any("Neue Tokens: 1000 liegt außerhalb von 1 bis 64" in n for n in w.notes)
    assert any("Temperatur: 5 liegt außerhalb von 0 bis 2, gerechnet wird mit 2." in n for n in w.notes)
    assert len(w.notes) == 4


@pytest.mark.parametrize("typed, value, note", [
    ("1,5", 1.5, None), ("1.5", 1.5, None), ("\u22120,5", 0.0, "Temperatur: \u22120,5 liegt außerhalb von 0 bis 2"),
    ("0,0000000001", 0.0000000001, None), ("2,0000001", 2.0, "Temperatur: 2,0000001 liegt außerhalb von 0 bis 2,"),
])
def test_a_typed_number_reads_as_the_contract_reads_it_and_a_note_writes_it_as_fmt_does(typed, value, note):
    """German and English decimals and the minus sign the pages print; in a note every digit the reader
    typed, never an exponent (1e-10) nor a rounding that reads like the bound (2 beside „bis 2“)."""
    notes = []
    assert form.bounded(typed, fields.SPECULATIVE["temperature"], notes) == value
    assert (notes == []) if note is None else (len(notes) == 1 and notes[0].startswith(note)), notes
    tiny = []
    form.bounded("0,0000000001", fields.SPECULATIVE["top_p"], tiny)
    assert tiny == ["Top-p: 0,0000000001 liegt außerhalb von 0,05 bis 1, gerechnet wird mit 0,05."]
    long = []
    form.prompt("x" * 12345, "Anfrage A", long)
    assert long == [f"Anfrage A: Prompt nach {fields.PROMPT_CHARS} von 12\u202f345 Zeichen abgeschnitten."]


_spec_text = st.text(max_size=8) | st.sampled_from(["", "0", "-3", "0,5", "1e3", "²", "99999999999"])


@settings(max_examples=100, deadline=None)
@given(values=st.fixed_dictionaries(dict.fromkeys(("prompt", "model", *fields.SPECULATIVE_NUMBERS), _spec_text)),
       model=st.sampled_from(tuple(v for v, _ in fields.SPECULATIVE["model"].choices)) | st.none())
def test_any_speculative_settings_give_a_workload_within_the_limits_or_a_german_refusal(values, model):
    if model is not None:
        values["model"] = model
    try:
        w = speculative.parse(values)
    except form.WorkloadError as refused:
        assert str(refused) and str(refused)[0].isupper()
        return
    for key in fields.SPECULATIVE_NUMBERS:
        low, high = fields.SPECULATIVE[key].lo, fields.SPECULATIVE[key].hi
        assert low <= getattr(w, key) <= high
    assert 1 <= len(w.prompt) <= fields.PROMPT_CHARS
    if w.model != fields.ARTICLE:
        assert 1 <= len(recording.tokenizer().encode(w.prompt)) <= fields.PROMPT_TOKENS
    again = speculative.parse(w.settings())
    assert again == dataclasses.replace(w, notes=())
