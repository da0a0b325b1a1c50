"""„Eigener Lauf“ on the batching pages: a reader's own workload, checked, run through the engine, written as a trace.

The inference pages let a reader describe a workload in a small form; the same settings arrive here
as plain strings (from the form or from the page's URL), in CPython for the tests and in the
browser's Pyodide for the page. ``parse`` turns them into a ``LiveWorkload`` or refuses them with a
German ``WorkloadError`` before anything is computed; ``run`` drives the engine's ``LLMEngine`` step by
step and returns a trace in the schema the replay panels already play (``recorder/tracer.py``).

Requests are written one per line, ``prompt | new tokens | arrival step``; the prompt is any text,
through the trained model's byte-level tokenizer, or a bare number for a prompt of that many tokens of
everyday words. The model is the site's trained target (``recording.model``) with the K/V heads the
reader chose. A trace of a live run depends only on the settings: the same settings give the same trace in
CPython and in Pyodide, event for event (``tests/live/test_live_pyodide.py``).

Sizes are capped (the ``Param``s of fields.py), and so is a run's total work (``MAX_WORK``), so that a run stays short
in a browser; anything capped is said in a note, anything that can never run is an error naming the
request and the numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from engine.block_pool import BlockPool
from engine.engine import LLMEngine
from engine.scheduler import POLICIES
from recorder import tracer, workloads
from recorder.tile_trace import TileRecorder

from . import form, recording
from .fields import ENGINE, NAMES, NUMBERS, SEPARATOR, SWITCHES
from .form import WorkloadError
from .recording import REVISION, SCENARIO, SEED, Stopped

# With FlashAttention's tiles every step carries layer 0's tiles of its last query (up to 96 keys at
# tile size 1): so many requests keep a trace far below the replay's size bound.
TILE_REQUESTS = 4
# A finished run of any capped workload takes far fewer steps; more means something is stuck.
MAX_STEPS = 5000
# What a run of the trained model costs, counted on its dry run, in rounds of the tiled kernel's loop: a
# step that computes is one pass of the whole model (16 rounds), a scheduled chunk its attention calls (2), a token its
# rows through four layers and the 1024-token head (3,5), a tile one round (and one event in the trace
# the page replays). Fitted by least squares to ten extreme workloads, CPython on one core here (one
# BLAS thread): each workload within 20 % of its fit.
WORK = {"steps": 16, "chunks": 2, "tokens": 3.5, "tiles": 1}
# One request at every upper bound always fits (6602 with tiles of one key); the worst capped runs take
# 0,5–0,6 s of CPU in CPython (the tiny random model's cap allowed 0,2–0,3 s).
MAX_WORK = 7000


@dataclass(frozen=True)
class LiveWorkload:
    requests: tuple[workloads.RequestSpec, ...]
    engine: dict  # keyword arguments for LLMEngine besides the model
    model: str  # MHA, GQA or MQA
    notes: tuple[str, ...] = ()  # German: what was capped or adjusted
    expected_steps: int = 0  # of a dry run: the progress bar's length
    work: int = 0  # of the dry run (``WORK``), at most MAX_WORK
    tile_size: int | None = None  # FlashAttention's tiled kernel, its tiles in the trace; None: dense

    def settings(self) -> dict:
        """The settings that give this workload again (``parse(w.settings())`` ≡ w, without notes)."""
        return settings_of(self.requests, self.model, self.engine, self.tile_size)


def settings_of(requests, model: str, engine: Mapping, tile_size: int | None = None) -> dict:
    """Settings as strings, the way a form and a URL hold them."""
    tiles = {} if tile_size is None else {"tile_size": str(tile_size)}
    return {"requests": format_requests(requests), "model": model, **{k: str(engine[k]) for k in NUMBERS},
            **{k: "1" if engine[k] else "0" for k in SWITCHES}, "policy": engine["policy"], **tiles}


# ----------------------------------------------------------------------------- parsing
def format_requests(requests) -> str:
    return "\n".join(f"{r.text} {SEPARATOR} {r.max_new_tokens} {SEPARATOR} {r.arrival_step}" for r in requests)


def parse(settings: Mapping, folder: str | None = None) -> LiveWorkload:
    """Page settings (strings, as a form or a URL holds them) → a workload that can run, with notes;
    a ``WorkloadError`` with every problem found. ``folder``: the weight files' (``recording.model``)."""
    problems = form.Problems()
    read = problems.take(form.read, settings) or {}
    policy = str(settings.get("policy", ENGINE["policy"].default)).strip()
    if policy not in POLICIES:
        problems.found.append(f"Batching „{policy[:20]}“ gibt es nicht; möglich sind continuous und static.")
    problems.raise_any()
    notes = read["notes"]
    tok = recording.tokenizer(folder)
    rng = np.random.default_rng(SEED)  # prompts given as a length are drawn in the order of the requests
    requests = []
    for i, (written, new, arrival) in enumerate(read["requests"]):
        where = f"Anfrage {NAMES[i]} (Zeile {i + 1})"
        ids, text = recording.prompt_ids(recording.prompt_text(written, rng, tok), where, notes, tok)
        requests.append(workloads.RequestSpec(NAMES[i], ids, new, arrival, text=text))
    requests = tuple(requests)
    engine: dict = {"policy": policy, **{key: read[key] for key in (*NUMBERS, *SWITCHES)}}
    tile_size = read.get("tile_size")
    if tile_size is not None and len(requests) > TILE_REQUESTS:
        notes.append(f"Mit Kacheln werden nur die ersten {TILE_REQUESTS} von {len(requests)} Anfragen gerechnet.")
        requests = requests[:TILE_REQUESTS]
    _check_fits(requests, engine)
    steps, work = _dry_run(requests, engine, tile_size)
    if work > MAX_WORK:
        kept = _most_requests_within(requests, engine, tile_size)
        notes.append(f"Zu viel Rechnung für einen Lauf: Alle {len(requests)} Anfragen zusammen wären {work} "
                     f"Rechenschritte, erlaubt sind {MAX_WORK}. Gerechnet werden die ersten {len(kept)}.")
        requests = kept
        steps, work = _dry_run(requests, engine, tile_size)
    return LiveWorkload(requests, engine, model=read["model"], notes=tuple(notes), expected_steps=steps, work=work,
                        tile_size=tile_size)


def _check_fits(requests, engine: dict) -> None:
    """The engine's own refusals (scheduler.add_request), in German and before anything runs."""
    pool = BlockPool(engine["num_blocks"], engine["block_size"])
    problems = form.Problems()
    for r in requests:
        need = pool.blocks_for(r.max_positions)
        if need > engine["num_blocks"]:
            problems.found.append(
                f"Anfrage {r.req_id} passt nie in den Cache: {len(r.prompt)} Prompt-Tokens und {r.max_new_tokens} neue "
                f"brauchen bis zu {r.max_positions} Positionen, also {need} Blöcke zu {engine['block_size']}. "
                f"Der Pool hat nur {engine['num_blocks']}. Nimm mehr Blöcke oder eine kürzere Anfrage.")
        elif not engine["chunked_prefill"] and r.max_positions > engine["max_num_batched_tokens"]:
            problems.found.append(
                f"Anfrage {r.req_id} braucht ohne Chunked Prefill bis zu {r.max_positions} Tokens in einem Schritt "
                f"(nach einer Verdrängung rechnet sie alles neu), das Token-Budget ist {engine['max_num_batched_tokens']}. "
                "Schalte Chunked Prefill ein oder erhöhe das Budget.")
    problems.raise_any()


# ----------------------------------------------------------------------------- running
def run(workload: LiveWorkload, *, concept: str = "eigener-lauf", on_step: Callable[[int, int], None] | None = None,
        should_stop: Callable[[], bool] | None = None, device: str | None = None, folder: str | None = None) -> dict:
    """The workload through ``LLMEngine``; the trace. ``on_step(done, expected)`` after every step,
    ``expected`` the step count of a dry run (the same schedule without numbers: exact unless
    prefix hits depend on generated tokens)."""
    expected = workload.expected_steps
    tiles = None if workload.tile_size is None else TileRecorder(workload.tile_size)
    kernel = {} if tiles is None else {"kernel": tiles.kernel}
    engine = LLMEngine(recording.model(workload.model, folder), **workload.engine, **kernel)
    specs = []
    for r in workload.requests:
        engine.add_request(list(r.prompt), r.max_new_tokens, req_id=r.req_id, arrival_step=r.arrival_step)
        specs.append(tracer.request_spec(r.req_id, r.prompt, r.max_new_tokens, r.arrival_step, None, engine.tokenizer))
    while engine.has_unfinished():
        if should_stop is not None and should_stop():
            raise Stopped
        record = engine.step()
        if tiles is not None:
            record["extra_events"] = tiles.events(record)
        if on_step is not None:
            on_step(engine.step_index, max(expected, engine.step_index))
    scenario = dict(SCENARIO, concepts=[concept])
    return tracer.from_engine(engine, scenario=scenario, requests=specs, seed=SEED, device=device,
                              revision=REVISION)


def _dry_run(requests, engine_settings: dict, tile_size: int | None) -> tuple[int, int]:
    """The schedule without numbers (cheap): its steps and its work (``WORK``). A workload that would
    not finish is refused here."""
    engine = LLMEngine(None, **engine_settings)
    workloads.submit(engine, requests)
    try:
        engine.run(MAX_STEPS)
    except RuntimeError:
        raise WorkloadError(f"Dieser Lauf würde mehr als {MAX_STEPS} Schritte brauchen. "
                            "Nimm weniger oder kürzere Anfragen.") from None
    chunks = [c for record in engine.steps for c in record["scheduled"]]
    # the tiled kernel walks each chunk's keys (0 … its last position) in tiles
    tiles = 0 if tile_size is None else sum(-(-c["positions"][1] // tile_size) for c in chunks)
    passes = sum(1 for record in engine.steps if record["scheduled"])  # a step waiting for arrivals costs nothing
    work = (WORK["steps"] * passes + WORK["chunks"] * len(chunks)
            + WORK["tokens"] * sum(c["num_tokens"] for c in chunks) + WORK["tiles"] * tiles)
    return len(engine.steps), round(work)


def _most_requests_within(requests, engine_settings: dict, tile_size: int | None) -> tuple:
    """The longest first part of the requests whose run stays within MAX_WORK (bisection on the dry
    run; one request always fits, tests/live/test_live.py checks the worst)."""
    low, high = 1, len(requests) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if _dry_run(requests[:middle], engine_settings, tile_size)[1] <= MAX_WORK:
            low = middle
        else:
            high = middle - 1
    return requests[:low]


# ----------------------------------------------------------------------------- presets
def settings_of_trace(trace: Mapping) -> dict:
    """A recorded run's workload as live settings: the page's presets are the runs it replays."""
    requests = [workloads.RequestSpec(r["id"], tuple(r["prompt"]), r["max_new_tokens"], r["arrival_step"],
                                      text=r["prompt_text"]) for r in trace["workload"]["requests"]]
    kernel = trace["config"].get("kernel", "")
    tile_size = int(kernel.removeprefix("tiled_")) if kernel.startswith("tiled_") else None
    return settings_of(requests, trace["model"].get("attention", "GQA"), trace["config"], tile_size)
