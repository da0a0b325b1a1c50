"""The recorded runs the inference pages replay: the articles' examples and realistic workloads.

Each scenario builds an engine (or a speculative pair), submits its requests, runs it to the end and
returns the trace (``tracer.py``). Everything is seeded, so recording a scenario twice gives the same
trace apart from the measured step times. ``python -m recorder record-all`` writes them all to
``static/traces/<name>.json``. A scenario is a name and a run; how the pages present it (its German title,
what to watch for, which pages show it) is the page side's table (probierlabor/pageblocks/replays.py),
which the header carries so that a trace says what it is wherever it is replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from probierlabor.pageblocks.replays import REPLAYS

from engine import pretrained
from engine.backends import NUMPY, Backend
from engine.engine import LLMEngine
from engine.sampler import GREEDY, SamplingParams
from engine.speculative import speculative_generate
from recorder import tracer
from recorder.tile_trace import TileRecorder
from recorder.toy import ARTICLE_P, ARTICLE_Q, ConstantModel, RunningMeanModel, ToyDecodeModel

TRACES_DIR = Path(__file__).resolve().parent.parent / "static" / "traces"


def model(kind: str = "GQA"):
    """The site's trained language model (engine/pretrained.py), which every scenario with a
    language model runs; MHA and MQA are its K/V heads regrouped."""
    return pretrained.engine_model(kind)


@dataclass(frozen=True)
class Scenario:
    name: str
    build: Callable[[dict], dict]  # scenario metadata -> trace
    twin: str | None = None  # a scenario recorded for side-by-side comparison
    torch: bool = False  # runs the trained Llama model, so it can be recorded on the torch backend too

    def meta(self) -> dict:
        shown = REPLAYS[self.name]
        meta = {"name": self.name, "title": shown.title, "description": shown.description,
                "concepts": list(shown.concepts)}
        if self.twin:
            meta["twin"] = self.twin
        return meta

    def check_backend(self, backend: Backend) -> None:
        if backend.name != "numpy" and not self.torch:
            raise ValueError(f"Szenario {self.name!r} läuft nur mit numpy (Spielzeugmodell oder Artikelbeispiel); "
                             f"mit torch: {', '.join(n for n, s in SCENARIOS.items() if s.torch)}")

    def record(self, backend: Backend = NUMPY) -> dict:
        self.check_backend(backend)
        if backend.name == "numpy":
            return self.build(self.meta())
        return self.build(self.meta(), backend=backend)


SCENARIOS: dict[str, Scenario] = {}


def scenario(name, twin=None, torch=False):
    def register(build):
        SCENARIOS[name] = Scenario(name, build, twin, torch)
        return build
    return register


def get(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise ValueError(f"unbekanntes Szenario {name!r}; vorhanden: {', '.join(sorted(SCENARIOS))}") from None


# --------------------------------------------------------------------------- helpers
def run_engine(meta: dict, engine: LLMEngine, requests: list[dict], *, seed=None, per_step=None,
               backend: Backend = NUMPY) -> dict:
    """Submit ``requests`` (dicts: id, prompt, max_new_tokens, arrival_step, eos_id), run, trace."""
    specs = []
    for r in requests:
        engine.add_request(r["prompt"], r["max_new_tokens"], req_id=r["id"], arrival_step=r.get("arrival_step", 0),
                           eos_id=r.get("eos_id"))
        specs.append(tracer.request_spec(r["id"], r["prompt"], r["max_new_tokens"], r.get("arrival_step", 0),
                                         r.get("eos_id"), engine.tokenizer))
    while engine.has_unfinished():
        record = engine.step()
        if per_step is not None:
            record["extra_events"] = per_step(record)
    return tracer.from_engine(engine, scenario=meta, requests=specs, seed=seed,
                              backend=backend.name, device=backend.gpu())


def text_request(req_id, text: str, max_new_tokens: int, arrival_step: int = 0) -> dict:
    return {"id": req_id, "prompt": model().tokenizer.encode(text), "max_new_tokens": max_new_tokens,
            "arrival_step": arrival_step, "eos_id": None}


# --------------------------------------------------------------------------- the articles' examples
@scenario("decode-toy")
def _decode_toy(meta):
    model = ToyDecodeModel()
    engine = LLMEngine(model, num_blocks=4, block_size=2, max_num_seqs=1, max_num_batched_tokens=4)
    prompt = model.tokenizer.encode("AB")
    return run_engine(meta, engine, [{"id": "A B", "prompt": prompt, "max_new_tokens": 6}])


@scenario("kv-cache-growth")
def _kv_cache_growth(meta):
    engine = LLMEngine(model(), num_blocks=16, block_size=4, max_num_seqs=1, max_num_batched_tokens=32)
    return run_engine(meta, engine, [text_request("r", "Der Cache wächst mit jedem", 11)])


def _mean_outputs(model: RunningMeanModel):
    def per_step(record):
        positions, values = model.outputs[-1]
        seq = record["scheduled"][0]["seq"]
        return [{"type": "output", "seq": str(seq), "position": int(p), "value": float(v)}
                for p, v in zip(positions, values, strict=True)]
    return per_step


def _prefill_mean(meta, budget: int):
    model = RunningMeanModel()
    engine = LLMEngine(model, num_blocks=4, block_size=2, max_num_seqs=1, max_num_batched_tokens=budget,
                       chunked_prefill=True, prefix_caching=False)
    return run_engine(meta, engine, [{"id": "2 4 8 10", "prompt": [2, 4, 8, 10], "max_new_tokens": 1}],
                      per_step=_mean_outputs(model))


@scenario("prefill-mean-whole", twin="prefill-mean-chunks")
def _prefill_whole(meta):
    return _prefill_mean(meta, 4)


@scenario("prefill-mean-chunks", twin="prefill-mean-whole")
def _prefill_chunks(meta):
    return _prefill_mean(meta, 2)


@scenario("prefill-interleaved")
def _prefill_interleaved(meta):
    engine = LLMEngine(model(), num_blocks=32, block_size=4, max_num_seqs=4, max_num_batched_tokens=8)
    requests = [text_request("kurz 1", "Hallo", 8), text_request("kurz 2", "Guten Tag", 8),
                text_request("kurz 3", "Moin", 8),
                text_request("lang", "Ein langer Prompt wird in Stücken vorgefüllt, während die kurzen Anfragen "
                             "weiter Tokens erzeugen.", 4, arrival_step=2)]
    return run_engine(meta, engine, requests)


@scenario("paged-attention-blocks")
def _paged_blocks(meta):
    engine = LLMEngine(model(), num_blocks=8, block_size=4, max_num_seqs=2, max_num_batched_tokens=16)
    requests = [text_request("hund", "Der Hund", 6), text_request("katze", "Die Katze", 6, arrival_step=1)]
    return run_engine(meta, engine, requests)


@scenario("prefix-caching-article")
def _prefix_article(meta):
    engine = LLMEngine(model(), num_blocks=48, block_size=2, max_num_seqs=1, max_num_batched_tokens=16)
    base = "ABCDEFGH"
    requests = [text_request(base, base, 1)]
    for i in range(len(base) - 1, -1, -1):  # H → X first, as the article starts
        text = base[:i] + "X" + base[i + 1:]
        requests.append(text_request(text, text, 1, arrival_step=len(requests)))
    return run_engine(meta, engine, requests)


def _section_13(meta, policy):
    engine = LLMEngine(model(), num_blocks=16, block_size=4, max_num_seqs=2, max_num_batched_tokens=8,
                       policy=policy)
    requests = [text_request("A", "Das", 6), text_request("B", "Das", 2), text_request("C", "Das", 2, arrival_step=1)]
    return run_engine(meta, engine, requests)


@scenario("continuous-batching-article", twin="continuous-batching-article-static")
def _cb_article(meta):
    return _section_13(meta, "continuous")


@scenario("continuous-batching-article-static", twin="continuous-batching-article")
def _cb_article_static(meta):
    return _section_13(meta, "static")


# --------------------------------------------------------------------------- FlashAttention tiles
TILE = 4


@scenario("flash-attention-tiles")
def _flash_tiles(meta):
    tiles = TileRecorder(TILE)
    engine = LLMEngine(model(), num_blocks=8, block_size=4, max_num_seqs=1, max_num_batched_tokens=32,
                       kernel=tiles.kernel)
    return run_engine(meta, engine, [text_request("r", "Die Kacheln rechnen Stück für Stück", 3)], per_step=tiles.events)


# --------------------------------------------------------------------------- speculative decoding
def speculative_trace(meta, target, draft, prompt, max_new_tokens, *, k, params, seed, tokenizer) -> dict:
    """A speculative run as a trace: one step per round (k draft proposals, one target pass)."""
    rng = None if params.greedy else np.random.default_rng(seed)
    run = speculative_generate(target, draft, prompt, max_new_tokens, k=k, params=params, rng=rng)
    return tracer.from_speculative(run, target=target, draft=draft, prompt=prompt, max_new_tokens=max_new_tokens,
                                   k=k, params=params, seed=seed, tokenizer=tokenizer, scenario=meta)


@scenario("speculative-decoding-pq")
def _spec_pq(meta):
    target, draft = ConstantModel(ARTICLE_P), ConstantModel(ARTICLE_Q)
    return speculative_trace(meta, target, draft, target.tokenizer.encode("A"), 60, k=2,
                             params=SamplingParams(temperature=1.0), seed=0, tokenizer=target.tokenizer)


@scenario("speculative-decoding-tiny")
def _spec_tiny(meta):
    target = model()
    draft, _ = pretrained.load("draft", target.config.dtype)
    return speculative_trace(meta, target, draft, target.tokenizer.encode("Die Katze"), 24, k=4, params=GREEDY,
                             seed=None, tokenizer=target.tokenizer)


# --------------------------------------------------------------------------- GQA / MQA
def _kv_heads(meta, kind):
    engine = LLMEngine(model(kind), num_blocks=24, block_size=4, max_num_seqs=4, max_num_batched_tokens=32)
    requests = [text_request("a", "Wie viele Köpfe", 8), text_request("b", "Teilen sich K und V?", 8),
                text_request("c", "GQA spart Speicher", 8, arrival_step=2)]
    return run_engine(meta, engine, requests)


# The trained model has 8 query heads over 2 K/V heads (GQA); MHA and MQA are its heads regrouped.
for _name, _kind in (("gqa-kv-mha", "MHA"), ("gqa-kv-gqa", "GQA"), ("mqa-kv-mqa", "MQA")):
    scenario(_name)(lambda meta, kind=_kind: _kv_heads(meta, kind))


# --------------------------------------------------------------------------- realistic workloads
def run_workload(meta: dict, workload, served=None, backend: Backend = NUMPY, **engine_overrides) -> dict:
    """A ``workloads.Workload`` on the trained model with the engine settings it was shaped for."""
    served = backend.model(served if served is not None else model())
    engine = LLMEngine(served, **(workload.engine | engine_overrides))
    requests = [{"id": str(r.req_id), "prompt": list(r.prompt), "max_new_tokens": r.max_new_tokens,
                 "arrival_step": r.arrival_step, "eos_id": r.eos_id} for r in workload.requests]
    return run_engine(meta, engine, requests, seed=workload.seed, backend=backend)


# A token budget below the longest prompts, so that long prefills run in chunks next to decodes.
BUDGET = 16


@scenario("continuous-batching-realistic", twin="continuous-batching-realistic-static", torch=True)
def _realistic_cont(meta, backend=NUMPY):
    from recorder import workloads
    return run_workload(meta, workloads.realistic(seed=0, tokenizer=model().tokenizer), backend=backend, policy="continuous",
                        max_num_batched_tokens=BUDGET)


@scenario("continuous-batching-realistic-static", twin="continuous-batching-realistic", torch=True)
def _realistic_static(meta, backend=NUMPY):
    from recorder import workloads
    return run_workload(meta, workloads.realistic(seed=0, tokenizer=model().tokenizer), backend=backend, policy="static",
                        max_num_batched_tokens=BUDGET)


@scenario("prefix-caching-shared", torch=True)
def _shared(meta, backend=NUMPY):
    from recorder import workloads
    return run_workload(meta, workloads.shared_prompt(seed=0, tokenizer=model().tokenizer), backend=backend)


@scenario("paged-attention-pressure", torch=True)
def _pressure(meta, backend=NUMPY):
    from recorder import workloads
    return run_workload(meta, workloads.memory_pressure(seed=0, tokenizer=model().tokenizer), backend=backend)


# --------------------------------------------------------------------------- files
def path_of(name: str, directory: Path = TRACES_DIR) -> Path:
    return directory / f"{name}.json"


def record(name: str, directory: Path = TRACES_DIR, backend: Backend = NUMPY) -> Path:
    trace = get(name).record(backend)
    tracer.validate(trace)
    path = path_of(name, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tracer.dumps(trace), encoding="utf-8")
    return path
