"""A hostile trace in the browser: nothing of it becomes an element or an attribute.

A trace is data that anyone could put beside the site. A number field that holds markup, or a size
that would allocate gigabytes, is refused by the loader (static/js/replay/trace-check.js with the engine's
schema) with a German message; a text field that holds markup but is otherwise valid (an id, an
emitted token's text, a title) is shown as text. Either way no injected element, attribute or script
reaches the page, and the live experiment keeps working.
"""

from __future__ import annotations

import json

from replay_helpers import traces_tab

from recorder import tracer

SCHEMA = tracer.schema()

# Marked so that the test can look for it: any element this creates, or any handler it runs, is found.
IMG = '<img src=x class=pl-pwned onerror="window.plPwned=1">'
BOLD = "<b class=pl-pwned>x</b>"
FOUND = "() => ({ pwned: window.plPwned === 1, nodes: document.querySelectorAll('.pl-pwned, [onerror]').length })"


def _tiles(trace, value):
    for step in trace["steps"]:
        for e in step["events"]:
            if e["type"] == "tile":
                e["layer"] = value


def _rename(trace, old, new):
    """Every mention of request ``old`` becomes ``new`` (the trace stays consistent)."""
    text = json.dumps(trace)
    return json.loads(text.replace(json.dumps(old), json.dumps(new)))


REFUSED = [  # (page, trace, change, words of the message, case)
    ("flash-attention", "flash-attention-tiles", lambda t: _tiles(t, IMG), "Format der Engine", "tile layer"),
    ("speculative-decoding", "speculative-decoding-pq", lambda t: t["config"].update(k=IMG), "Format der Engine",
     "k"),
    ("gqa", "gqa-kv-gqa", lambda t: t["model"].update(num_heads=IMG, num_kv_heads=BOLD), "Format der Engine",
     "heads"),
    ("continuous-batching", "continuous-batching-article",
     lambda t: t["config"].update(max_num_batched_tokens=IMG), "Format der Engine", "token budget"),
    ("paged-attention", "paged-attention-blocks", lambda t: t["config"].update(num_blocks=2**40), "Format der Engine",
     "2**40 blocks"),
    ("paged-attention", "paged-attention-blocks", lambda t: t["config"].update(num_blocks=10**9), "Format der Engine",
     "1e9 blocks"),
    ("paged-attention", "paged-attention-blocks", lambda t: t["config"].update(block_size="<b>4</b>"),
     "Format der Engine", "block size"),
    ("decode", "decode-toy", lambda t: " " * SCHEMA["x-max-bytes"] + json.dumps(t), "größer als 8 MB",
     "beyond the size bound"),
]


def _fault(change):
    def handler(route):
        response = route.fetch()
        trace = response.json()
        changed = change(trace)
        body = changed if isinstance(changed, str) else json.dumps(changed if changed is not None else trace)
        route.fulfill(response=response, body=body)
    return handler


def test_a_trace_with_markup_or_absurd_sizes_is_refused(visit, check):
    v, open_ = traces_tab(visit)
    for slug, name, change, words, case in REFUSED:
        with check(case):
            panel = open_(slug, name, _fault(change), "error")
            text = v.page.locator(f"{panel} .pl-replay-error").inner_text()
            assert words in text and "Rest der Seite" in text, text
            assert v.wait_state() == "ready"  # the live experiment is untouched
            assert v.page.evaluate(FOUND) == {"pwned": False, "nodes": 0}
    assert v.console_errors() == []


SHOWN = [  # valid traces whose text fields hold markup: drawn, as text (where the view shows the field)
    ("continuous-batching", "continuous-batching-article", lambda t: _rename(t, "A", BOLD), "request id", True),
    ("paged-attention", "paged-attention-blocks", lambda t: _rename(t, "hund", IMG[:60]), "long id", True),
    ("gqa", "gqa-kv-gqa", lambda t: t["model"].update(name=BOLD) or t["scenario"].update(title=IMG), "model name",
     False),  # the memory view shows neither today: this guards the day it does
    ("speculative-decoding", "speculative-decoding-pq",  # the view reads token texts from the header's table
     lambda t: [e.update(text=BOLD) for s in t["steps"] for e in s["events"] if e["type"] == "emit"]
     and t["model"]["tokens"].update(dict.fromkeys(t["model"]["tokens"], BOLD)) and None, "token text", True),
]


def test_markup_in_a_text_field_is_shown_as_text(visit, check):
    v, open_ = traces_tab(visit)
    for slug, name, change, case, displayed in SHOWN:
        with check(case):
            panel = v.page.locator(open_(slug, name, _fault(change), "ready"))
            length = panel.evaluate("el => window.probierlabor.player(el).length")
            as_text = False
            for index in range(length + 1):  # every step draws; none may create what the trace holds
                panel.evaluate(f"el => {{ window.probierlabor.player(el).reset(); window.probierlabor.player(el).step({index}); }}")
                assert v.page.evaluate(FOUND) == {"pwned": False, "nodes": 0}, index
                as_text = as_text or any(tag in panel.text_content() for tag in ("<b", "<img"))
            assert as_text == displayed, "the changed trace was not shown as text"
    assert v.console_errors() == []
