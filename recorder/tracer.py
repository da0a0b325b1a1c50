"""Recorded runs: the engine's step records as one schema-versioned JSON document.

A trace is what the inference pages replay. It must say everything a replay needs without the
engine's code: who arrived, what ran with which positions, every block reference taken and dropped
(``block_pool`` emits ``unref`` for shared blocks so reference counts replay exactly), the tokens
with their text, and the state at each step's end. The logical step is the replay's clock; the
measured ``wall_time_s`` of a step belongs to the machine in the header (backend, device) and is
the only field that differs between two recordings of the same scenario.

Layout (``trace.schema.json`` is the contract, ``SCHEMA_VERSION`` its version)::

    {"schema": "probierlabor-engine-trace", "schema_version": 1,
     "scenario": {name, title, description, concepts},
     "recorded": {engine_revision, backend, device, dtype, python, numpy},
     "model": {...}, "config": {...engine settings...},
     "workload": {seed, requests: [{id, prompt, prompt_text, max_new_tokens, arrival_step, eos_id}]},
     "steps": [{step, wall_time_s, events: [...], end: {...}}],
     "result": {num_steps, outputs: {id: {tokens, text, span}}, wall_time_s}}

Event types, in the order they are listed within a step: ``arrive``, ``preempt``, ``schedule``,
``block`` (op allocate / evict / hit / cache / free / unref, in the pool's order), ``tile``
(online-softmax state, FlashAttention scenarios), ``output`` (a model's per-position value, the
prefill scenario), ``verify`` (speculative decoding), ``emit``, ``finish``.
"""

from __future__ import annotations

import json
import math
import platform
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from engine.block_pool import short_hash

SCHEMA = "probierlabor-engine-trace"
SCHEMA_VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("trace.schema.json")
ROOT = Path(__file__).resolve().parent.parent

# Fields that differ between two recordings of the same scenario on the same code.
MEASURED = ("wall_time_s",)


# ----------------------------------------------------------------------------- header
def engine_revision() -> str:
    """The git commit the engine ran at (``+dirty`` with uncommitted changes to the engine or the recorder)."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "engine", "recorder"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unbekannt"
    return rev + ("+dirty" if dirty else "")


def describe_cpu() -> str:
    """The CPU model, as /proc/cpuinfo names it, with the core count."""
    name = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os
    return f"CPU: {name} ({os.cpu_count()} Kerne)"


def recorded(backend: str = "numpy", device: str | None = None, dtype: str = "float64",
             revision: str | None = None) -> dict:
    return {"engine_revision": revision or engine_revision(), "backend": backend, "device": device or describe_cpu(),
            "dtype": dtype, "python": platform.python_version(), "numpy": np.__version__}


def model_info(model) -> dict:
    """The model's configuration for the header, named, with its attention kind (MHA / GQA / MQA)."""
    if model is None:
        return {"name": "dry-run"}
    info = model.config.to_dict()
    kind = getattr(model.config, "attention_kind", None)
    info.setdefault("name", getattr(model, "name", None) or (f"tiny-llama-{kind.lower()}" if kind else type(model).__name__))
    if kind:
        info["attention"] = kind
    return info


def _token_ids(trace: dict) -> set[int]:
    ids = {t for r in trace["workload"]["requests"] for t in r["prompt"]}
    for step in trace["steps"]:
        for e in step["events"]:
            if e["type"] == "schedule":
                ids.update(e["token_ids"])
            elif e["type"] == "emit":
                ids.add(e["token"])
            elif e["type"] == "verify":
                ids.update(e["proposals"] + e["emitted"])
    for out in trace["result"]["outputs"].values():
        ids.update(out["tokens"])
    return ids


def with_token_texts(trace: dict, tokenizer) -> dict:
    """``trace`` with ``model.tokens``: the text of every token id it names, so a replay shows text for
    each one (a draft's rejected proposals too) without the tokenizer. With subword tokens a prompt's
    text does not split into its tokens by characters, so the replay reads them here."""
    if tokenizer is not None and hasattr(tokenizer, "token_text"):
        trace["model"]["tokens"] = {str(i): tokenizer.token_text(i) for i in sorted(_token_ids(trace))}
    return trace


# ----------------------------------------------------------------------------- steps
def _sid(seq) -> str:
    return str(seq)


def step_events(record: dict) -> list[dict]:
    """An engine step record (``LLMEngine.steps``) as the trace's ordered event list."""
    events: list[dict] = [{"type": "arrive", "seq": _sid(s)} for s in record["arrived"]]
    events += [{"type": "preempt", "seq": _sid(s)} for s in record["preempted"]]
    for c in record["scheduled"]:
        e = {"type": "schedule", "seq": _sid(c["seq"]), "kind": c["kind"], "positions": list(c["positions"]),
             "num_tokens": c["num_tokens"], "token_ids": [int(t) for t in c["token_ids"]],
             "recompute": bool(c["recompute"])}
        if "num_cached_tokens" in c:
            e["num_cached_tokens"] = c["num_cached_tokens"]
        events.append(e)
    events += [{"type": "block", "op": b["kind"], "block": b["block"], "seq": _sid(b["seq"]), "hash": b["hash"]}
               for b in record["blocks"]]
    for e in record.get("extra_events", ()):
        events.append(e)
    for e in record["emitted"]:
        item = {"type": "emit", "seq": _sid(e["seq"]), "token": int(e["token"]), "position": e["position"]}
        if "text" in e:
            item["text"] = e["text"]
        events.append(item)
    events += [{"type": "finish", "seq": _sid(f["seq"]), "reason": f["reason"]} for f in record["finished"]]
    return events


def step_end(record: dict) -> dict:
    return {"num_batched_tokens": record["num_batched_tokens"], "blocks_used": record["blocks_used"],
            "blocks_cached": record["blocks_cached"], "running": [_sid(s) for s in record["running"]],
            "waiting": [_sid(s) for s in record["waiting"]]}


def trace_step(record: dict) -> dict:
    return {"step": record["step"], "wall_time_s": round(float(record["wall_time_s"]), 6),
            "events": step_events(record), "end": step_end(record)}


# ----------------------------------------------------------------------------- whole run
def request_spec(req_id, prompt, max_new_tokens: int, arrival_step: int = 0, eos_id=None, tokenizer=None) -> dict:
    spec = {"id": _sid(req_id), "prompt": [int(t) for t in prompt], "max_new_tokens": int(max_new_tokens),
            "arrival_step": int(arrival_step), "eos_id": eos_id}
    if tokenizer is not None:
        spec["prompt_text"] = tokenizer.decode(spec["prompt"])
    return spec


def from_engine(engine, *, scenario: dict, requests: Iterable[dict], seed: int | None = None,
                backend: str = "numpy", device: str | None = None, revision: str | None = None) -> dict:
    """The trace of a finished ``LLMEngine`` run (``engine.run()`` has returned). ``revision``: the
    header's instead of asking git (a run in the browser has no repository)."""
    model_config = model_info(engine.model)
    outputs = {}
    for rid, seq in engine.sequences.items():
        tokens = [int(t) for t in seq.output]
        item = {"tokens": tokens, "span": list(seq.span)}
        if engine.tokenizer is not None and engine.model is not None:
            item["text"] = engine.tokenizer.decode(tokens)
        outputs[_sid(rid)] = item
    steps = [trace_step(r) for r in engine.steps]
    return with_token_texts({
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION,
        "scenario": scenario,
        "recorded": recorded(backend, device, model_config.get("dtype", "float64"), revision),
        "model": model_config,
        "config": engine.config,
        "workload": {"seed": seed, "requests": list(requests)},
        "steps": steps,
        "result": {"num_steps": len(steps), "outputs": outputs,
                   "wall_time_s": round(sum(s["wall_time_s"] for s in steps), 6)},
    }, engine.tokenizer if engine.model is not None else None)


def from_speculative(run, *, target, draft, prompt, max_new_tokens: int, k: int, params, seed: int | None,
                     tokenizer, scenario: dict, device: str | None = None, revision: str | None = None) -> dict:
    """The trace of a finished ``speculative.SpeculativeRun``: one step per round (the target's pass,
    its verdict on the proposals, the target cache's blocks, the emitted tokens)."""
    seq_id = "r"
    steps = []
    position = len(prompt)
    tokens = list(prompt)
    rounds = zip(run.verifications, run.round_times, run.target_blocks, run.target_blocks_used, strict=True)
    for n, (v, wall, blocks, used) in enumerate(rounds):
        d = v.to_dict()
        events = []
        if n == 0:
            events.append({"type": "arrive", "seq": seq_id})
        # The target's pass: what its cache lacks (the whole prompt at first, then the last emitted
        # token), plus the proposals.
        computed = run.target_forward_tokens[n]
        end = position + len(v.proposals)
        context = tokens + v.proposals
        events.append({"type": "schedule", "seq": seq_id, "kind": "verify", "positions": [end - computed, end],
                       "num_tokens": computed, "token_ids": context[end - computed:], "recompute": False})
        block_events = [{"type": "block", "op": b.kind, "block": b.block_id, "seq": seq_id,
                         "hash": short_hash(b.block_hash)} for b in blocks]
        # Blocks for the pass are taken before the verdict; those of rejected proposals go after it.
        events += [e for e in block_events if e["op"] == "allocate"]
        events.append({"type": "verify", "seq": seq_id, **{key: d[key] for key in (
            "position", "proposals", "accepted", "rejected", "correction", "bonus", "accept_probs",
            "draft_probs", "target_probs", "uniforms", "emitted")}})
        events += [e for e in block_events if e["op"] != "allocate"]
        for token in v.emitted:
            e = {"type": "emit", "seq": seq_id, "token": int(token), "position": position}
            if tokenizer is not None:
                e["text"] = tokenizer.token_text(int(token))
            events.append(e)
            position += 1
            tokens.append(int(token))
        last = n == len(run.verifications) - 1
        if last:
            events.append({"type": "finish", "seq": seq_id, "reason": "length"})
        steps.append({"step": n, "wall_time_s": round(wall, 6), "events": events,
                      "end": {"num_batched_tokens": computed, "blocks_used": used, "blocks_cached": 0,
                              "running": [] if last else [seq_id], "waiting": []}})
    out = [int(t) for t in run.tokens]
    result = {"tokens": out, "span": [0, len(steps)]}
    if tokenizer is not None:
        result["text"] = tokenizer.decode(out)
    spec = request_spec(seq_id, prompt, max_new_tokens, 0, None, tokenizer)
    config = {"num_blocks": run.num_blocks, "block_size": run.block_size, "k": k, "sampling": params.to_dict(),
              "draft": model_info(draft), "target_calls": run.target_calls,
              "acceptance_rate": run.acceptance_rate, "tokens_per_target_call": run.tokens_per_target_call}
    return with_token_texts({
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION, "scenario": scenario,
        "recorded": recorded("numpy", device, target.config.dtype, revision), "model": model_info(target),
        "config": config, "workload": {"seed": seed, "requests": [spec]}, "steps": steps,
        "result": {"num_steps": len(steps), "outputs": {seq_id: result},
                   "wall_time_s": round(sum(s["wall_time_s"] for s in steps), 6)}}, tokenizer)


# ----------------------------------------------------------------------------- files
def dumps(trace: dict) -> str:
    """Compact JSON, one step per line: small files with readable diffs. A NaN or an infinity is
    refused (``ValueError``): JSON has no such numbers and the browser's parser rejects them."""
    head = {k: v for k, v in trace.items() if k != "steps"}
    lines = [json.dumps(s, ensure_ascii=False, separators=(",", ":"), allow_nan=False) for s in trace["steps"]]
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text[:-1] + ',"steps":[\n' + ",\n".join(lines) + "\n]}\n"


def parse(text: str | bytes) -> dict:
    """JSON text as a trace may hold it: Python's parser also reads NaN, Infinity and 1e999 (which JSON
    does not have; a replay's arithmetic would turn them into nonsense) and stops at an integer of
    more than ``sys.int_info.default_max_str_digits`` digits with an English message; both become a
    ``TraceError`` here. A syntax error stays a ``json.JSONDecodeError``."""
    return json.loads(text, parse_constant=_not_a_number, parse_float=_finite, parse_int=_integer)


def _not_a_number(word: str):
    raise TraceError(f"enthält {word}, das ist keine Zahl: Eine Aufzeichnung hat nur endliche Zahlen")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise TraceError(f"die Zahl {text[:20]} ist zu groß für eine Gleitkommazahl, das ist keine Aufzeichnung der Engine")
    return value


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > sys.int_info.default_max_str_digits:  # also where the interpreter's own limit is lifted
        raise TraceError(f"eine ganze Zahl mit {digits} Ziffern, das ist keine Aufzeichnung der Engine")
    return int(text)


def load(path: str | Path) -> dict:
    """A trace file, parsed (``parse``); refused with a ``TraceError`` before parsing when it is larger
    than the schema's ``x-max-bytes`` (the browser's loader uses the same bound), or nested too deep to
    parse."""
    path = Path(path)
    limit = schema()["x-max-bytes"]
    with path.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TraceError(f"{path}: größer als {limit} Bytes, das ist keine Aufzeichnung der Engine")
    try:
        return parse(data.decode("utf-8"))
    except TraceError as e:
        raise TraceError(f"{path}: {e}") from None
    except UnicodeDecodeError:
        raise TraceError(f"{path}: kein UTF-8-Text") from None
    except json.JSONDecodeError as e:
        raise TraceError(f"{path}: kein gültiges JSON ({e})") from None
    except RecursionError:
        raise TraceError(f"{path}: zu tief verschachtelt, das ist keine Aufzeichnung der Engine") from None


def without_measurements(trace: dict) -> dict:
    """The deterministic part: measured times and the machine/revision they came from removed."""
    out = json.loads(json.dumps(trace))
    out["recorded"] = {k: v for k, v in out["recorded"].items() if k in ("backend", "dtype")}
    out["result"].pop("wall_time_s", None)
    for step in out["steps"]:
        step.pop("wall_time_s", None)
    return out


# ----------------------------------------------------------------------------- checking
class TraceError(ValueError):
    """A trace that is malformed or whose events contradict each other."""


def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def validate(trace: dict) -> None:
    """Schema check, then the replay's invariants; raises ``TraceError`` with the first problem."""
    import jsonschema  # only needed where traces are checked (tests, CLI), not to record them

    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(trace), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(Wurzel)"
        raise TraceError(f"Schema verletzt bei {where}: {_shorten(e.message)}")
    try:
        replay(trace)
    except (KeyError, TypeError, IndexError) as e:  # a field that only some event types carry, missing
        raise TraceError(f"passt nicht zur Wiedergabe ({type(e).__name__}: {_shorten(str(e))})") from None


def _shorten(text: str, limit: int = 200) -> str:
    """One readable line: a schema message quotes the offending value, which can be megabytes long."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def replay(trace: dict) -> dict:
    """Rebuild the engine's state from the events alone and check every step against the trace.

    The one copy of these checks (the browser's replay.js only folds the events; mkdocs_hooks/traces.py
    runs ``validate`` on every committed trace at build time): a block is handed out only while free,
    reference counts never go negative and match the block tables, a freed block leaves its table back
    to front, every request's tokens come in order, each step's end state (blocks used and cached,
    running, waiting) is what the events imply, and nothing is held at the end. Returns the final state.
    """
    num_blocks = trace["config"].get("num_blocks", 0)
    refs = [0] * num_blocks
    cached: dict[int, str] = {}
    tables: dict[str, list[int]] = {}
    output: dict[str, list[int]] = {}
    known = {r["id"]: r for r in trace["workload"]["requests"]}
    arrived: set[str] = set()
    finished: set[str] = set()

    def fail(step, msg):
        raise TraceError(f"Schritt {step}: {msg}")

    for expect_step, step in enumerate(trace["steps"]):
        n = step["step"]
        preempted: set[str] = set()
        if n != expect_step:
            fail(n, f"erwartet Schritt {expect_step}")
        for e in step["events"]:
            t, seq = e["type"], e.get("seq")
            if seq is not None and seq not in known:
                fail(n, f"unbekannte Anfrage {seq!r}")
            if t == "arrive":
                if known[seq]["arrival_step"] != n or seq in arrived:
                    fail(n, f"{seq} kommt zur falschen Zeit an")
                arrived.add(seq)
            elif t == "block":
                b, op = e["block"], e["op"]
                if not 0 <= b < num_blocks:
                    fail(n, f"Block {b} liegt außerhalb des Pools (0 … {num_blocks - 1})")
                table = tables.setdefault(seq, [])
                if op == "allocate":
                    if refs[b] != 0:
                        fail(n, f"Block {b} wird vergeben, ist aber belegt ({refs[b]} Referenzen)")
                    if b in cached:
                        fail(n, f"Block {b} wird vergeben, ohne vorher verdrängt zu werden")
                    refs[b] = 1
                    table.append(b)
                elif op == "hit":
                    if cached.get(b) != e["hash"]:
                        fail(n, f"Cache-Treffer auf Block {b}, der diesen Inhalt nicht hält")
                    refs[b] += 1
                    table.append(b)
                elif op == "evict":
                    if refs[b] != 0 or b not in cached:
                        fail(n, f"Block {b} wird verdrängt, ist aber belegt oder nicht im Cache")
                    del cached[b]
                elif op == "cache":
                    if b not in table or b in cached:
                        fail(n, f"Block {b} wird registriert, gehört aber nicht {seq} oder ist schon registriert")
                    cached[b] = e["hash"]
                elif op in ("free", "unref"):
                    if not table or table[-1] != b:
                        fail(n, f"{seq} gibt Block {b} nicht von hinten frei")
                    table.pop()
                    refs[b] -= 1
                    if refs[b] < 0 or (op == "free") != (refs[b] == 0):
                        fail(n, f"Referenzzähler von Block {b} passt nicht ({refs[b]} nach {op})")
                    if not table:
                        del tables[seq]
            elif t == "emit":
                out = output.setdefault(seq, [])
                if e["position"] != len(known[seq]["prompt"]) + len(out):
                    fail(n, f"Token von {seq} an Position {e['position']} kommt außer der Reihe")
                out.append(e["token"])
            elif t == "finish":
                if seq in finished:
                    fail(n, f"{seq} endet zweimal")
                finished.add(seq)
                if seq in tables:
                    fail(n, f"{seq} endet, hält aber noch Blöcke {tables[seq]}")
            elif t == "preempt":
                preempted.add(seq)  # recompute keeps its tokens; its blocks are released below
        for seq in preempted:
            if seq in tables and not any(e["type"] == "schedule" and e["seq"] == seq for e in step["events"]):
                fail(n, f"{seq} wurde verdrängt, hält aber noch Blöcke {tables[seq]}")
        end = step["end"]
        if num_blocks:
            used = sum(1 for r in refs if r > 0)
            if end["blocks_used"] != used:
                fail(n, f"{end['blocks_used']} belegte Blöcke gemeldet, die Ereignisse ergeben {used}")
            if end["blocks_cached"] != len(cached):
                fail(n, f"{end['blocks_cached']} Blöcke im Cache gemeldet, die Ereignisse ergeben {len(cached)}")
        for seq, table in tables.items():
            if sum(1 for b in table if refs[b] <= 0):
                fail(n, f"{seq} hält einen Block ohne Referenz")
        if set(end["running"]) & set(end["waiting"]):
            fail(n, "eine Anfrage läuft und wartet zugleich")
    last = len(trace["steps"]) - 1
    for seq, item in trace["result"]["outputs"].items():
        if output.get(seq, []) != item["tokens"]:
            raise TraceError(f"Am Ende (nach Schritt {last}): Ausgabe von {seq} laut Ereignissen {output.get(seq)} "
                             f"≠ Ergebnis {item['tokens']}")
    if any(tables.values()):
        raise TraceError(f"Am Ende (nach Schritt {last}) halten noch Anfragen Blöcke: {tables}")
    return {"refs": refs, "cached": cached, "outputs": output, "finished": sorted(finished)}


# ----------------------------------------------------------------------------- Chrome / Perfetto
def to_chrome(trace: dict) -> dict:
    """The trace in the Chrome Trace Event format (opens in Perfetto and chrome://tracing).

    Time axis: the measured step times laid end to end, in microseconds. Thread 0 is the engine's
    step loop; every request gets its own thread with one slice per step it took part in, so the
    batch composition reads off the timeline; counters show blocks used, running and waiting.
    """
    rec = trace["recorded"]
    pid = 1
    ids = [r["id"] for r in trace["workload"]["requests"]]
    tid = {rid: i + 1 for i, rid in enumerate(ids)}
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": f"Probierlabor-Engine: {trace['scenario']['name']} ({rec['backend']}, {rec['device']})"}},
              {"ph": "M", "name": "thread_name", "pid": pid, "tid": 0, "args": {"name": "Schritte"}}]
    events += [{"ph": "M", "name": "thread_name", "pid": pid, "tid": tid[r], "args": {"name": f"Anfrage {r}"}}
               for r in ids]
    t = 0.0
    for step in trace["steps"]:
        dur = max(step["wall_time_s"] * 1e6, 1.0)
        events.append({"ph": "X", "name": f"Schritt {step['step']}", "pid": pid, "tid": 0, "ts": t, "dur": dur,
                       "args": step["end"]})
        for e in step["events"]:
            if e["type"] == "schedule":
                events.append({"ph": "X", "name": e["kind"], "pid": pid, "tid": tid[e["seq"]], "ts": t, "dur": dur,
                               "args": {"positions": e["positions"], "num_tokens": e["num_tokens"]}})
            elif e["type"] in ("arrive", "preempt", "finish", "emit", "verify"):
                args = {k: v for k, v in e.items() if k not in ("type", "seq")}
                events.append({"ph": "i", "s": "t", "name": e["type"], "pid": pid,
                               "tid": tid.get(e.get("seq"), 0), "ts": t + (dur if e["type"] != "arrive" else 0),
                               "args": args})
        end = step["end"]
        events.append({"ph": "C", "name": "KV-Blöcke", "pid": pid, "ts": t,
                       "args": {"belegt": end["blocks_used"], "im Cache": end["blocks_cached"]}})
        events.append({"ph": "C", "name": "Anfragen", "pid": pid, "ts": t,
                       "args": {"laufend": len(end["running"]), "wartend": len(end["waiting"])}})
        t += dur
    return {"traceEvents": events, "displayTimeUnit": "ms",
            "otherData": {"schema_version": trace["schema_version"], **rec}}
