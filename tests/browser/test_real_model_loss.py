"""„Am echten Modell“ on the cross-entropy page in the browser (pageblocks/realmodel_loss_block.py,
static/js/realmodel/loss.js, the Python worker): closed, the block loads nothing; opened, the reader's
sentence shows each token's p and −ln p and the mean CPython computes for the same sentence
(probierlabor/realmodel/loss.py), the link brings the sentence back, an empty one gets its German note,
and on a phone nothing scrolls sideways."""

from __future__ import annotations

import re

import pytest
from probierlabor.kit import fmt
from probierlabor.realmodel import loss

pytestmark = pytest.mark.browser

SLUG = "kreuzentropie-perplexitaet"
BLOCK = ".pl-realmodel-loss"
FIRST_RUN_MS = 180_000  # a fresh worker: Pyodide and numpy on a busy 2-core machine
SENTENCE = "Der Hund läuft über die Straße"
ROWS = f"{BLOCK} [data-realmodel-losses] tbody tr"


def wait_rows(page, n: int, timeout=30_000):
    page.wait_for_function(f"""() => document.querySelector('{BLOCK}').getAttribute('aria-busy') === 'false'
        && document.querySelectorAll('{ROWS}').length === {n}""", timeout=timeout)


def losses(page) -> list[float]:
    cells = page.eval_on_selector_all(f"{ROWS} td:nth-child(3)", "els => els.map(e => e.textContent)")
    return [float(c.replace(",", ".")) for c in cells if c.strip() and c[0].isdigit()]


def test_a_sentence_shows_each_tokens_loss_like_cpython_and_the_link_brings_it_back(visit, check):
    v = visit(f"/{SLUG}/", service_workers="block")
    v.wait_state()
    page = v.page
    with check("closed, nothing of it loads"):
        assert [u for u in v.requests if "realmodel" in u] == []
    page.click(f"{BLOCK} > summary")
    default = loss.run({"text": loss.DEFAULT_TEXT})
    wait_rows(page, len(default["tokens"]) + 1, timeout=FIRST_RUN_MS)

    page.fill(f"{BLOCK} [data-realmodel-field=text]", SENTENCE)
    expected = loss.run({"text": SENTENCE})
    wait_rows(page, len(expected["tokens"]) + 1)
    with check("each token's loss, as CPython computes it"):
        assert losses(page) == pytest.approx([round(t["loss"], 2) for t in expected["tokens"]], abs=0.011)
    with check("the summary: the mean, the perplexity and the manifest's held-out figures"):
        text = page.text_content(f"{BLOCK} [data-realmodel-summary]")
        mean = float(re.search(r"im Mittel ≈ (\d+,\d+) Nat", text).group(1).replace(",", "."))
        assert mean == pytest.approx(expected["mean"], abs=2e-3)
        assert f"≈ {fmt.de(expected['heldout']['loss'], 3)} Nat, Perplexität ≈ {fmt.de(expected['heldout']['perplexity'], 1)}" in text
    with check("the costliest token is marked"):
        assert page.locator(f"{ROWS}[data-kind=chosen]").count() == 1
    link = page.url
    assert "m.text=" in link

    page.fill(f"{BLOCK} [data-realmodel-field=text]", "")
    page.wait_for_function(f"""() => document.querySelector('{BLOCK} [data-realmodel-status]').dataset.kind
        === 'error'""", timeout=30_000)
    with check("an empty sentence: the German note, no result"):
        assert page.text_content(f"{BLOCK} [data-realmodel-status]").startswith("Der Satz ist leer.")
        assert page.is_hidden(f"{BLOCK} [data-realmodel-result]")
    assert v.console_errors() == [] and v.foreign_requests() == []

    # the shared link, in a fresh tab on a phone: the block opens by itself and shows the same sentence
    shared = visit(link.removeprefix(v.origin), width=360, height=740, service_workers="block")
    wait_rows(shared.page, len(expected["tokens"]) + 1, timeout=FIRST_RUN_MS)
    with check("the link gives the same sentence"):
        assert shared.page.input_value(f"{BLOCK} [data-realmodel-field=text]") == SENTENCE
    with check("on a phone nothing scrolls sideways"):
        wide = shared.page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 360, f"die Seite ist {wide} px breit"
    assert shared.console_errors() == [] and shared.foreign_requests() == []
