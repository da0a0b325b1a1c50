"""„Am echten Modell“ in the browser (pageblocks/realmodel_block.py, static/js/realmodel/decoding.js, the Python
worker): closed, the block loads nothing; opened, the model loads in the worker with a visible status, the
reader's prompt shows its tokens and ten bars and the rest, two steps give the tokens CPython computes for the
same settings (probierlabor/realmodel), the page's address brings the same text back, an empty prompt gets its
German note, and on a phone nothing scrolls sideways."""

from __future__ import annotations

import time

import pytest
from probierlabor.realmodel import fields, models, views

pytestmark = pytest.mark.browser

BLOCK = ".pl-realmodel"
FIRST_RUN_MS = 180_000  # a fresh worker: Pyodide and numpy on a busy 2-core machine
PROMPT = "Der Hund läuft über die Straße"
STATUSES = """() => { const line = document.querySelector('.pl-realmodel [data-realmodel-status]');
    window.__statuses = []; new MutationObserver(() => window.__statuses.push(line.textContent))
      .observe(line, { childList: true, characterData: true, subtree: true }); }"""


# font sizes in px: a paragraph of the page's text, the block's parts, its heading and „Im Code nachrechnen“'s
SIZES = """() => { const px = (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
    return { mode: document.documentElement.classList.contains('pl-present'), body: px('.md-content .md-typeset > p'),
      intro: px('.pl-realmodel-intro'), label: px('.pl-realmodel-label'), status: px('.pl-realmodel-status'),
      bar: px('.pl-realmodel-bar .pl-realmodel-chip'), summary: px('.pl-realmodel > summary'),
      workshop: px('.pl-workshop > summary') }; }"""
TYPING_MS = 400  # decoding.js: a prompt runs once the reader pauses this long


def wait_run(page, generated: int | None = None, timeout=30_000):
    """Until no run is under way (and, if given, so many tokens are generated)."""
    count = "true" if generated is None else (
        f"document.querySelectorAll('.pl-realmodel [data-realmodel-generated] button').length === {generated}")
    page.wait_for_function(f"""() => {{ const b = document.querySelector('.pl-realmodel');
        return b.getAttribute('aria-busy') === 'false' && {count}; }}""", timeout=timeout)


def titles(page, area: str) -> list[str]:
    return page.eval_on_selector_all(f"{BLOCK} [data-realmodel-{area}] .pl-realmodel-chip", "els => els.map(e => e.title)")


def test_a_prompt_steps_twice_like_cpython_and_the_link_brings_the_text_back(visit, check):
    v = visit("/top-k-sampling/", service_workers="block")
    v.wait_state()
    page = v.page
    with check("closed, nothing of it loads"):
        assert [u for u in v.requests if "realmodel" in u] == []
    page.evaluate(STATUSES)
    page.click(f"{BLOCK} > summary")
    page.wait_for_function("() => document.querySelectorAll('.pl-realmodel .pl-realmodel-bar').length === 11",
                           timeout=FIRST_RUN_MS)
    wait_run(page)
    with check("the model's loading is shown"):
        assert "Modell wird geladen …" in page.evaluate("window.__statuses")

    page.fill(f"{BLOCK} [data-realmodel-field=prompt]", PROMPT)
    expected = views.run("top-k-sampling", {"prompt": PROMPT, "steps": "0"})
    chips = ".pl-realmodel [data-realmodel-prompt-tokens] .pl-realmodel-chip"
    page.wait_for_function(f"() => document.querySelectorAll('{chips}').length === {len(expected['prompt'])}",
                           timeout=30_000)
    wait_run(page)
    with check("the prompt's tokens, the ten tokens top-k keeps, and what it cut to 0 apart from them"):
        assert titles(page, "prompt-tokens") == [f"Token {t['id']}" for t in expected["prompt"]]
        cut = expected["next"]["cut"]
        assert cut == expected["vocab_size"] - 10 and expected["next"]["rest_count"] == 0  # k = 10
        bars = page.locator(f"{BLOCK} .pl-realmodel-bar").all_text_contents()
        assert len(bars) == 11 and bars[10] == f"abgeschnitten: {cut} Tokens0\u202f%", bars
        assert all(text.endswith("\u202f%") and "," in text for text in bars[:10])

    for n in (1, 2):
        page.click(f"{BLOCK} [data-realmodel-step]")
        wait_run(page, generated=n)
    settings = {"prompt": PROMPT, "k": "10", "temperature": "1", "seed": "1", "steps": "2"}
    two = views.run("top-k-sampling", settings)
    with check("two steps, the tokens CPython draws"):
        assert titles(page, "generated") == [f"Token {t['id']}" for t in two["tokens"]]
    page.click(f"{BLOCK} [data-realmodel-generated] button >> nth=0")
    with check("a generated token shows its distribution"):
        title = page.text_content(f"{BLOCK} [data-realmodel-dist-title]")
        assert title.startswith("Vor Token 1 („") and title.endswith(f"“): {two['shown']}"), title
        assert page.locator(f"{BLOCK} .pl-realmodel-bar[data-kind=chosen]").count() == 1
    link = page.url
    assert "m.steps=2" in link and "m.prompt=" in link

    # a new prompt, then at once „Ganzer Text“ (a paste, or a click within the typing pause) or Enter: the
    # whole text of the new prompt, also once the typing pause is over (CPython's text for the first only)
    for prompt, send in (("Heute lernen wir", lambda: page.click(f"{BLOCK} [data-realmodel-all]")),
                         ("Die Katze", lambda: page.press(f"{BLOCK} [data-realmodel-field=prompt]", "Enter"))):
        page.fill(f"{BLOCK} [data-realmodel-field=prompt]", prompt)
        typed = time.monotonic()
        send()
        whole = views.run("top-k-sampling", settings | {"prompt": prompt, "steps": str(fields.MAX_NEW_TOKENS)}) \
            if prompt == "Heute lernen wir" else None
        wait_run(page, generated=fields.MAX_NEW_TOKENS)
        page.wait_for_timeout(max(0, TYPING_MS + 100 - 1000 * (time.monotonic() - typed)))
        wait_run(page)
        with check(f"„{prompt}“ at once: the whole text of the new prompt, also as one line to read"):
            tokens = models.load("target")[1].encode(prompt)
            assert titles(page, "prompt-tokens") == [f"Token {t}" for t in tokens]
            assert len(titles(page, "generated")) == fields.MAX_NEW_TOKENS
            line = page.text_content(f"{BLOCK} [data-realmodel-text]")
            assert line.startswith(prompt) and len(line) > len(prompt), line
            if whole:
                assert titles(page, "generated") == [f"Token {t['id']}" for t in whole["tokens"]]
                assert line == whole["prompt_text"] + whole["text"]

    # projected, the block reads at the page's size and its heading as large as „Im Code nachrechnen“'s
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("p")
    sizes = page.evaluate(SIZES)
    with check("presentation mode scales the block like the page"):
        assert sizes["mode"], "no presentation mode"
        body = sizes.pop("body")
        for name in ("intro", "label", "status", "bar"):
            assert sizes[name] == body, sizes
        assert sizes["summary"] == sizes["workshop"], sizes
    page.keyboard.press("p")

    page.fill(f"{BLOCK} [data-realmodel-field=prompt]", "")
    page.wait_for_function("""() => document.querySelector('.pl-realmodel [data-realmodel-status]').dataset.kind
        === 'error'""", timeout=30_000)
    with check("an empty prompt: the German note, no result"):
        assert page.text_content(f"{BLOCK} [data-realmodel-status]").startswith("Der Prompt ist leer.")
        assert page.is_hidden(f"{BLOCK} [data-realmodel-result]")
    assert v.console_errors() == [] and v.foreign_requests() == []

    # the shared link, in a fresh tab on a phone: the block opens by itself and shows the same text
    shared = visit(link.removeprefix(v.origin), width=360, height=740, service_workers="block")
    shared.page.wait_for_function("() => document.querySelectorAll('.pl-realmodel [data-realmodel-generated] button')"
                                  ".length === 2", timeout=FIRST_RUN_MS)
    with check("the link gives the same text"):
        assert titles(shared.page, "generated") == [f"Token {t['id']}" for t in two["tokens"]]
        assert shared.page.input_value(f"{BLOCK} [data-realmodel-field=prompt]") == PROMPT
    with check("on a phone nothing scrolls sideways"):
        wide = shared.page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 360, f"die Seite ist {wide} px breit"
    assert shared.console_errors() == [] and shared.foreign_requests() == []


def test_the_attention_page_shows_the_head_the_reader_picks(visit, check):
    """attention: the block (pageblocks/heads_block.py, static/js/realmodel/heads.js) runs the reader's sentence
    once in the worker and draws the picked layer and head as a heatmap; a new pick draws without a new run."""
    from probierlabor.realmodel import heads

    v = visit("/attention/", service_workers="block")
    v.wait_state()
    page = v.page
    with check("closed, nothing of it loads"):
        assert [u for u in v.requests if "realmodel" in u] == []
    # a hand-edited link's layer and head the model does not have, read when the block opens
    page.evaluate("history.replaceState(null, '', location.pathname + '?m.layer=9&m.head=x')")
    page.click(f"{BLOCK} > summary")
    page.wait_for_selector(f"{BLOCK} table.pl-heads-table", timeout=FIRST_RUN_MS)
    wait_run(page)
    with check("a layer and head the model lacks: clamped, with the contract's note, and so in the link"):
        said = page.locator(f"{BLOCK} [data-realmodel-notes] li").all_text_contents()
        assert [note.split(":")[0] for note in said] == ["„Schicht“", "„Kopf“"], said
        assert page.input_value(f"{BLOCK} [data-realmodel-field=layer]") == "4"
        assert page.input_value(f"{BLOCK} [data-realmodel-field=head]") == "1"
        assert "m.layer=4" in page.url and "m.head=1" in page.url
    expected = heads.run({"prompt": heads.DEFAULT_SENTENCE})
    n = len(expected["tokens"])
    cells = f"{BLOCK} table.pl-heads-table tbody td"
    with check("one row per token, nothing above the diagonal"):
        assert page.locator(f"{BLOCK} table.pl-heads-table tbody tr").count() == n
        assert page.locator(f"{cells}[data-kind=masked]").count() == n * (n - 1) // 2
    page.select_option(f"{BLOCK} [data-realmodel-field=layer]", "3")
    page.select_option(f"{BLOCK} [data-realmodel-field=head]", "6")
    last = expected["maps"][2][5][-1]
    best = max(range(n), key=lambda j: (last[j], -j))
    with check("the picked head: its title, its sentence and the link"):
        assert page.text_content(f"{BLOCK} [data-realmodel-heads-title]").startswith("Schicht 3, Kopf 6:")
        said = page.text_content(f"{BLOCK} [data-realmodel-heads-summary]")
        assert f"das meiste Gewicht ({last[best]:.2f})".replace(".", ",") in said, said
        assert "m.layer=3" in page.url and "m.head=6" in page.url
        first = page.get_attribute(f"{cells} >> nth=0", "title")
        assert first.endswith(": 1,00"), first  # the first token can only look at itself

    # a pasted megabyte: the address keeps only the text the map shows, and a new head does not write it again
    page.eval_on_selector(f"{BLOCK} [data-realmodel-field=prompt]", """el => {
        el.value = 'Die Katze jagt die Maus. '.repeat(40000); el.dispatchEvent(new Event('input')); }""")
    page.wait_for_function("() => document.querySelector('.pl-realmodel [data-realmodel-notes]').textContent"
                           ".includes('000 Zeichen')", timeout=30_000)
    wait_run(page)
    page.select_option(f"{BLOCK} [data-realmodel-field=head]", "2")
    with check("a megabyte sentence: the note, and the link holds only what the map shows"):
        assert page.text_content(f"{BLOCK} [data-realmodel-notes]").startswith("Dein Satz hat 1\u202f000\u202f000 Zeichen.")
        address = page.evaluate("location.search")
        assert "m.head=2" in address and len(address) < 400, len(address)
    assert v.console_errors() == [] and v.foreign_requests() == []
