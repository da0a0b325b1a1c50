"""mkdocs_hooks/traces.py: every committed trace passes the engine's full checks at build time, and a
broken one stops the build with a message naming the trace and the step."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from recorder import tracer

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("traces_hook", ROOT / "mkdocs_hooks" / "traces.py")
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)

NAME = "prefix-caching-shared"  # shared prefix blocks: hits, unrefs and a cache, so every kind of event


def first_step(trace, test):
    return next(s["step"] for s in trace["steps"] if test(s))


def running_and_waiting(trace):
    """Checked only in Python before: a request both running and waiting at a step's end."""
    n = first_step(trace, lambda s: s["end"]["running"])
    trace["steps"][n]["end"]["waiting"].append(trace["steps"][n]["end"]["running"][0])
    return f"Schritt {n}:"


def blocks_kept_at_the_end(trace):
    """Checked only in Python before: the run ends with a request still holding a block."""
    n = len(trace["steps"]) - 1
    last = trace["steps"][n]
    seq = trace["workload"]["requests"][0]["id"]
    block = next(b for b in range(trace["config"]["num_blocks"]) if b not in
                 {e["block"] for s in trace["steps"] for e in s["events"] if e["type"] == "block"})
    last["events"].append({"type": "block", "op": "allocate", "block": block, "seq": seq, "hash": "-"})
    last["end"]["blocks_used"] += 1
    return f"Am Ende (nach Schritt {n})"


def double_allocate(trace):
    n = first_step(trace, lambda s: any(e["type"] == "block" and e["op"] == "allocate" for e in s["events"]))
    events = trace["steps"][n]["events"]
    i = next(i for i, e in enumerate(events) if e["type"] == "block" and e["op"] == "allocate")
    events.insert(i + 1, dict(events[i]))
    return f"Schritt {n}:"


def token_vanishes(trace):
    n = first_step(trace, lambda s: any(e["type"] == "emit" for e in s["events"]))
    trace["steps"][n]["events"] = [e for e in trace["steps"][n]["events"] if e["type"] != "emit"]
    return "Schritt "  # found where the next token comes out of order, or at the end


@pytest.mark.parametrize("breakage", [running_and_waiting, blocks_kept_at_the_end, double_allocate, token_vanishes])
def test_a_broken_trace_stops_the_build_naming_trace_and_step(tmp_path, breakage):
    trace = json.loads((hook.TRACES / f"{NAME}.json").read_text(encoding="utf-8"))
    for other in sorted(hook.TRACES.glob("*.json"))[:2]:
        shutil.copy(other, tmp_path / other.name)  # valid neighbours: only the broken one is named
    step = breakage(trace)  # how the message must name the step
    (tmp_path / f"{NAME}.json").write_text(tracer.dumps(trace), encoding="utf-8")
    with pytest.raises(PluginError) as caught:
        hook.check_all(tmp_path)
    message = str(caught.value)
    assert f"static/traces/{NAME}.json" in message and "ungültig" in message, message
    assert step in message, message
    assert f"python -m recorder record {NAME}" in message


def test_a_number_json_does_not_have_stops_the_build(tmp_path):
    trace = tracer.dumps(json.loads((hook.TRACES / f"{NAME}.json").read_text(encoding="utf-8")))
    (tmp_path / f"{NAME}.json").write_text(re.sub(r'"wall_time_s":[0-9.e-]+', '"wall_time_s":NaN', trace, count=1))
    with pytest.raises(PluginError, match=rf"static/traces/{NAME}\.json ist ungültig: enthält NaN, das ist keine Zahl"):
        hook.check_all(tmp_path)


def test_not_json_is_named_too(tmp_path):
    (tmp_path / "kaputt.json").write_text('{"schema": ', encoding="utf-8")
    with pytest.raises(PluginError, match=r"static/traces/kaputt\.json ist kein gültiges JSON"):
        hook.check_all(tmp_path)


def test_every_committed_trace_passes_and_the_hook_is_registered():
    assert hook.check_all() == len(list(hook.TRACES.glob("*.json"))) > 0
    hooks = re.search(r"^hooks:\n((?:  - .*\n)+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert "mkdocs_hooks/traces.py" in hooks.group(1)
