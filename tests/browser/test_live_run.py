"""„Eigener Lauf“ in the browser (pageblocks/live_block.py, static/js/live/live.js, the Python worker).

A run on the page must be the run CPython computes for the same settings (probierlabor/live), replayed
by the page's own view; a bad workload gets its German message and no run. numpy and the trained model's
files load only on the first „Starten“, the engine comes in the page's one zip, and every request stays on
the site's origin.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from probierlabor.live import batching, fields, form, runs
from probierlabor.pageblocks import live_block
from probierlabor.realmodel import models
from trace_equal import same

pytestmark = pytest.mark.browser

SECTION = ".pl-live"
FIRST_RUN_MS = 180_000  # a fresh worker: Pyodide and numpy on a busy 2-core machine
SETTINGS = {"requests": "Hallo Welt | 6 | 0\nGuten Tag, 😀 | 3 | 1\n9 | 4 | 2", "model": "GQA", "block_size": "4",
            "num_blocks": "12", "max_num_seqs": "2", "max_num_batched_tokens": "8", "chunked_prefill": "1",
            "prefix_caching": "1", "policy": "continuous"}


def all_requests(v):
    """Requests of the page and of its Web Workers (page.on('request') does not see a worker's)."""
    seen = []
    v.page.context.on("request", lambda r: seen.append(r.url))
    return seen


def notes(page) -> list[str]:
    return page.locator(f"{SECTION} [data-live-notes] li").all_text_contents()


def start_and_wait(page) -> str:
    page.click(f"{SECTION} [data-live-start]")
    page.wait_for_function("""() => { const s = document.querySelector('.pl-live');
        return s.getAttribute('aria-busy') !== 'true'; }""", timeout=FIRST_RUN_MS)
    return page.text_content(f"{SECTION} [data-live-status]")


def test_a_linked_workload_runs_in_the_page_and_replays_and_a_bad_one_gets_the_german_message(visit, origin, check):
    query = urlencode({f"lauf.{k}": v for k, v in SETTINGS.items()})
    v = visit(f"/continuous-batching/?{query}", service_workers="block")
    requests = all_requests(v)
    v.wait_state()
    page = v.page
    # the link filled the form; numpy has not loaded yet
    assert page.input_value(f"{SECTION} [data-live-field=requests]") == SETTINGS["requests"]
    assert page.input_value(f"{SECTION} [data-live-field=max_num_seqs]") == "2"
    assert page.text_content(f"{SECTION} [data-live-status]").startswith("Dieser Link bringt einen eigenen Lauf mit")
    assert not [u for u in requests if "numpy-" in u or "/engine/weights/" in u]

    # typos: every one named at once, by the page's own Python, before the engine loads
    typos = {"requests": "hallo | 4\n | x", "max_num_seqs": "abc", "max_num_batched_tokens": "8,0"}
    for key, text in typos.items():
        page.fill(f"{SECTION} [data-live-field={key}]", "")
        page.locator(f"{SECTION} [data-live-field={key}]").press_sequentially(text)
    with check("letters and a decimal comma arrive as typed"):
        assert page.input_value(f"{SECTION} [data-live-field=max_num_seqs]") == "abc"
        assert page.input_value(f"{SECTION} [data-live-field=max_num_batched_tokens]") == "8,0"
    status = start_and_wait(page)
    problems = form.check(SETTINGS | typos)
    assert problems == ["Anfrage B (Zeile 2): Der Prompt ist leer. Schreibe Text oder eine Länge wie 12.",
                        "Anfrage B (Zeile 2), neue Tokens: „x“ ist keine Zahl.",
                        "Sequenzen pro Schritt: „abc“ ist keine Zahl."]
    with check("all problems at once, before the engine loads"):
        assert notes(page) == problems
        assert status == "So kann der Lauf nicht starten. Ändere diese 3 Angaben:"
        assert not [u for u in requests if "numpy-" in u]
    for key in typos:
        page.fill(f"{SECTION} [data-live-field={key}]", SETTINGS[key])

    status = start_and_wait(page)
    assert status.startswith("Fertig nach "), status
    expected = runs.run_settings(SETTINGS)["trace"]
    panel = f"{SECTION} [data-live-result] .pl-replay"
    page.wait_for_selector(f'{panel}[data-state="ready"]')
    # the arrow keys step the replay the reader used last: „Dein Lauf“, not the first recording (§5)
    recorded = ".pl-replay[data-replay]"
    first_before = page.text_content(f"{recorded} .pl-r-counter")
    page.keyboard.press("ArrowRight")
    with check("→ after „Starten“ steps „Dein Lauf“"):
        assert page.text_content(f"{panel} .pl-r-counter").startswith("1 von ")
        assert page.text_content(f"{recorded} .pl-r-counter") == first_before
    page.click(f"{recorded} .pl-replay-desc")
    page.keyboard.press("ArrowRight")
    with check("→ after a click in a recording steps that one"):
        assert page.text_content(f"{recorded} .pl-r-counter").startswith("1 von ")
        assert page.text_content(f"{panel} .pl-r-counter").startswith("1 von ")
    page.click(f"{SECTION} [data-live-field=requests]")
    page.click(f"{SECTION} .pl-live-intro")
    page.keyboard.press("ArrowLeft")
    with check("← after working in the form steps „Dein Lauf“"):
        assert page.text_content(f"{panel} .pl-r-counter").startswith("0 von ")
        assert page.text_content(f"{recorded} .pl-r-counter").startswith("1 von ")
    seen = page.evaluate(f"""() => {{ const r = window.probierlabor.player(document.querySelector('{panel}'));
        return {{ length: r.length, outputs: r.model.trace.result.outputs,
                  steps: r.model.trace.steps.map((s) => s.events) }}; }}""")
    assert seen["length"] == expected["result"]["num_steps"]
    assert seen["outputs"] == expected["result"]["outputs"]
    assert seen["steps"] == [s["events"] for s in expected["steps"]]
    # the page's own view plays it: the slots of requests A, B, C, stepping forward
    page.click(f"{panel} .pl-r-reset")
    page.click(f"{panel} .pl-r-next")
    assert page.text_content(f"{panel} .pl-r-counter") == f"1 von {expected['result']['num_steps']}"
    assert page.text_content(f"{panel} .pl-replay-summary")
    assert "Pyodide" in page.text_content(f"{panel} .pl-replay-machine")
    # one zip of our code, the page's, for the page and the worker: the engine comes once
    bundle = page.get_attribute('meta[name="probierlabor-bundle"]', "content").rsplit("/", 1)[1]
    assert {u.rsplit("/", 1)[1] for u in requests if "/static/py/" in u and u.endswith(".zip")} == {bundle}
    assert any("numpy-" in u for u in requests)
    with check("the trained model's files came with the first run, each once, from the site"):
        weights = sorted(u.rsplit("/", 1)[1] for u in requests if "/engine/weights/" in u)
        assert weights == sorted(name.rsplit("/", 1)[1] for name in models.PATHS)

    # a workload only the engine can refuse: probierlabor/live's German messages, all of them, and the last
    # run's replay goes, so that no result stands under the error
    bad = "ein langer prompt | 8\nnoch ein langer prompt | 8"
    page.fill(f"{SECTION} [data-live-field=requests]", bad)
    page.uncheck(f"{SECTION} [data-live-field=chunked_prefill]")
    status = start_and_wait(page)
    with pytest.raises(form.WorkloadError) as refused:
        batching.parse(SETTINGS | {"requests": bad, "chunked_prefill": "0"})
    assert len(refused.value.problems) == 2
    with check("the engine's refusal: every problem, no old result"):
        assert status == "So kann der Lauf nicht starten. Ändere diese 2 Angaben:"
        assert notes(page) == list(refused.value.problems)
        assert page.get_attribute(f"{SECTION} [data-live-status]", "data-kind") == "error"
        assert page.locator(panel).count() == 0
    assert "lauf.requests=ein+langer" in page.url  # the workload is in the address, as every setting

    # a preset, then „Abbrechen“ during a run: the page says so and can start again
    page.locator(f"{SECTION} [data-live-preset]").nth(2).click()
    assert page.input_value(f"{SECTION} [data-live-field=max_num_batched_tokens]") == "16"
    # both in one task: a warm worker finished this run (0,6 s) before a second click came (CI, once)
    page.evaluate(f"""() => {{ document.querySelector('{SECTION} [data-live-start]').click();
                               document.querySelector('{SECTION} [data-live-stop]').click(); }}""")
    assert page.text_content(f"{SECTION} [data-live-status]").startswith("Abgebrochen.")
    status = start_and_wait(page)
    assert status.startswith("Fertig nach "), status

    assert page.locator(".pl-error, .py-error").count() == 0
    assert not v.console_errors(), v.console_errors()
    foreign = [u for u in requests if not (u.startswith((origin + "/", "data:", "blob:")))]
    assert not foreign, foreign


SPECULATIVE = {"prompt": "es war einmal", "model": "MHA", "max_new_tokens": "24", "k": "4", "temperature": "0.9",
               "top_k": "0", "top_p": "0.95", "seed": "11", "block_size": "2"}


def test_a_linked_speculative_run_samples_as_cpython_does_and_gives_rejected_blocks_back(reader):
    """Sampled, so the page must draw what CPython draws; the target cache's blocks of rejected
    proposals go back in the round that rejects them. In the shared tab: its worker may have run before."""
    query = urlencode({f"lauf.{k}": v for k, v in SPECULATIVE.items()})
    v = reader(f"/speculative-decoding/?{query}")
    v.wait_state()
    page = v.page
    assert page.input_value(f"{SECTION} [data-live-field=prompt]") == SPECULATIVE["prompt"]
    assert page.input_value(f"{SECTION} [data-live-field=k]") == "4"
    # a German decimal typed key by key stays one (Chromium's number field made „0,7“ „07“, run as T = 2)
    temperature = page.locator(f"{SECTION} [data-live-field=temperature]")
    temperature.fill("")
    temperature.press_sequentially("0,7")
    assert temperature.input_value() == "0,7"
    status = start_and_wait(page)
    assert status.startswith("Fertig nach "), status
    assert notes(page) == []  # nothing out of range
    expected = runs.run_settings(SPECULATIVE | {"temperature": "0,7"})["trace"]
    assert expected["config"]["sampling"]["temperature"] == 0.7
    assert "lauf.temperature=0.7" in page.url
    assert temperature.input_value() == "0,7"  # the finished run's settings, written back with a comma
    panel = f"{SECTION} [data-live-result] .pl-replay"
    page.wait_for_selector(f'{panel}[data-state="ready"]')
    assert page.get_attribute(panel, "data-view") == "speculative"
    steps = page.evaluate(f"window.probierlabor.player(document.querySelector('{panel}')).model.trace.steps.map((s) => s.events)")
    same(steps, [s["events"] for s in expected["steps"]])
    rejected = [s for s in expected["steps"][:-1] if any(e["type"] == "verify" and e["rejected"] for e in s["events"])]
    assert rejected and any(e["type"] == "block" and e["op"] == "free" for s in rejected for e in s["events"])
    page.click(f"{panel} .pl-r-next")
    assert page.text_content(f"{panel} .pl-r-counter") == f"1 von {expected['result']['num_steps']}"

    # the article's model pair knows only A, B and C: its German message, before anything runs
    page.select_option(f"{SECTION} [data-live-field=model]", fields.ARTICLE)
    status = start_and_wait(page)
    with pytest.raises(form.WorkloadError) as refused:
        runs.run_settings(SPECULATIVE | {"model": fields.ARTICLE})
    assert status == "So kann der Lauf nicht starten. Ändere diese Angabe:"
    assert notes(page) == list(refused.value.problems) and "A, B, C" in refused.value.problems[0]
    assert page.locator(panel).count() == 0  # the run before is gone, not left under the error
    assert "lauf.model=PQ" in page.url
    assert not v.console_errors(), v.console_errors()


@pytest.mark.parametrize("slug", sorted(live_block.PAGES))
def test_every_engine_page_runs_its_first_preset_and_plays_it_in_its_own_view(reader, slug):
    v = reader(f"/{slug}/")
    page = v.page
    status = start_and_wait(page)
    assert status.startswith("Fertig nach "), status
    expected = runs.run_settings(live_block.presets(slug)[0][1])["trace"]
    n = expected["result"]["num_steps"]
    panel = f"{SECTION} [data-live-result] .pl-replay"
    page.wait_for_selector(f'{panel}[data-state="ready"]')
    assert page.get_attribute(panel, "data-view") == live_block.PAGES[slug][0]
    assert page.text_content(f"{panel} .pl-r-counter") == f"0 von {n}"
    outputs = page.evaluate(f"window.probierlabor.player(document.querySelector('{panel}')).model.trace.result.outputs")
    assert outputs == expected["result"]["outputs"]
    summaries = set()
    for i in sorted({1, n // 2, n} - {0}):  # the view draws any step of the run, to its end (a 3-step run too)
        page.evaluate(f"i => window.probierlabor.player(document.querySelector('{panel}')).step(i - window.probierlabor.player(document.querySelector('{panel}')).index)", i)
        assert page.text_content(f"{panel} .pl-r-counter") == f"{i} von {n}"
        summaries.add(page.text_content(f"{panel} .pl-replay-summary"))
    assert len(summaries) > 1 and all(summaries)
    assert page.locator(f"{panel} .pl-replay-error").count() == 0
    assert not v.console_errors(), v.console_errors()
