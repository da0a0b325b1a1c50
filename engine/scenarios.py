"""The recorded runs the inference pages replay: the articles' examples and realistic workloads.

Each scenario builds an engine (or a speculative pair), submits its requests, runs it to the end and
returns the trace (``tracer.py``). Everything is seeded, so recording a scenario twice gives the same
trace apart from the measured step times. ``python -m engine record-all`` writes them all to
``static/traces/<name>.json``; names start with the slug of the page that shows them first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import pretrained, tracer
from engine.backends import NUMPY, Backend
from engine.engine import LLMEngine
from engine.sampler import GREEDY, SamplingParams
from engine.speculative import speculative_generate
from engine.tile_trace import TileRecorder
from engine.toy import ARTICLE_P, ARTICLE_Q, ConstantModel, RunningMeanModel, ToyDecodeModel

TRACES_DIR = Path(__file__).resolve().parent.parent / "static" / "traces"


def model(kind: str = "GQA"):
    """The site's trained language model (engine/pretrained.py), which every scenario with a
    language model runs; MHA and MQA are its K/V heads regrouped."""
    return pretrained.engine_model(kind)


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str  # German, shown by the replay panel
    description: str  # German: what to watch for
    concepts: tuple[str, ...]
    build: Callable[[dict], dict]  # scenario metadata -> trace
    twin: str | None = None  # a scenario recorded for side-by-side comparison
    torch: bool = False  # runs the trained Llama model, so it can be recorded on the torch backend too

    def meta(self) -> dict:
        meta = {"name": self.name, "title": self.title, "description": self.description,
                "concepts": list(self.concepts)}
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


def scenario(name, title, description, concepts, twin=None, torch=False):
    def register(build):
        SCENARIOS[name] = Scenario(name, title, description, tuple(concepts), build, twin, torch)
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
                              backend=backend.name, device=backend.device_text())


def text_request(req_id, text: str, max_new_tokens: int, arrival_step: int = 0) -> dict:
    return {"id": req_id, "prompt": model().tokenizer.encode(text), "max_new_tokens": max_new_tokens,
            "arrival_step": arrival_step, "eos_id": None}


# --------------------------------------------------------------------------- the articles' examples
@scenario("decode-toy", "Decode mit dem Spielzeugmodell",
          "Prompt A B, dann greedy: A, B, A, … Jeder Schritt rechnet K/V nur für die neue Position; "
          "der Cache wächst um genau eine Position pro Schritt.", ["decode", "kv-cache"])
def _decode_toy(meta):
    model = ToyDecodeModel()
    engine = LLMEngine(model, num_blocks=4, block_size=2, max_num_seqs=1, max_num_batched_tokens=4)
    prompt = model.tokenizer.encode("AB")
    return run_engine(meta, engine, [{"id": "A B", "prompt": prompt, "max_new_tokens": 6}])


@scenario("kv-cache-growth", "Der KV-Cache wächst mit jedem Token",
          "Ein Prompt, elf neue Tokens mit dem trainierten Sprachmodell der Seite (GQA): Prefill schreibt K "
          "und V aller Prompt-Positionen auf einmal, danach kommt pro Schritt eine Position dazu, alle vier "
          "Positionen ein neuer Block.",
          ["kv-cache", "decode"])
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


@scenario("prefill-mean-whole", "Prefill in einem Durchgang",
          "Werte 2, 4, 8, 10 in einem Schritt: jede Position mittelt über die sichtbaren Werte, "
          "Ausgaben 2; 3; 14/3; 6.", ["prefill"], twin="prefill-mean-chunks")
def _prefill_whole(meta):
    return _prefill_mean(meta, 4)


@scenario("prefill-mean-chunks", "Prefill in Stücken zu zwei Positionen",
          "Dieselben Werte mit einem Token-Budget von 2: der zweite Schritt liest die Positionen 0 und 1 "
          "aus dem Cache und kommt auf dieselben Ausgaben 14/3 und 6.", ["prefill"], twin="prefill-mean-whole")
def _prefill_chunks(meta):
    return _prefill_mean(meta, 2)


@scenario("prefill-interleaved", "Chunked Prefill zwischen Decode-Schritten",
          "Drei kurze Anfragen decodieren schon, als ein langer Prompt ankommt. Mit einem Budget von "
          "8 Tokens pro Schritt läuft sein Prefill in Stücken, die sich den Schritt mit den Decodes teilen.",
          ["prefill", "continuous-batching", "ttft"])
def _prefill_interleaved(meta):
    engine = LLMEngine(model(), num_blocks=32, block_size=4, max_num_seqs=4, max_num_batched_tokens=8)
    requests = [text_request("kurz 1", "Hallo", 8), text_request("kurz 2", "Guten Tag", 8),
                text_request("kurz 3", "Moin", 8),
                text_request("lang", "Ein langer Prompt wird in Stücken vorgefüllt, während die kurzen Anfragen "
                             "weiter Tokens erzeugen.", 4, arrival_step=2)]
    return run_engine(meta, engine, requests)


@scenario("paged-attention-blocks", "Blocktabellen wachsen blockweise",
          "Zwei Anfragen mit Blöcken zu 4 Positionen: Position 4 braucht einen zweiten Block, und die "
          "Blöcke einer Anfrage liegen nicht nebeneinander im Pool.", ["paged-attention", "kv-cache"])
def _paged_blocks(meta):
    engine = LLMEngine(model(), num_blocks=8, block_size=4, max_num_seqs=2, max_num_batched_tokens=16)
    requests = [text_request("hund", "Der Hund", 6), text_request("katze", "Die Katze", 6, arrival_step=1)]
    return run_engine(meta, engine, requests)


@scenario("prefix-caching-article", "Präfix-Cache: A … H, dann X an jeder Stelle",
          "Erst wird ABCDEFGH gerechnet (der Tokenizer macht aus jedem Buchstaben ein Token) und in Blöcken zu 2 zwischengespeichert. "
          "Dann ersetzt X nacheinander jede Position: X an Stelle H nutzt 6 Tokens aus dem Cache, X an Stelle A "
          "keines.",
          ["prefix-caching"])
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


@scenario("continuous-batching-article", "Continuous Batching: zwei Plätze, A, B und C",
          "A braucht 6 Runden, B 2, C kommt bei Runde 1 an und braucht 2. Sobald B fertig ist, rückt C nach "
          "und läuft in den Runden 2 bis 4.", ["continuous-batching"], twin="continuous-batching-article-static")
def _cb_article(meta):
    return _section_13(meta, "continuous")


@scenario("continuous-batching-article-static", "Statisches Batching: dieselben drei Anfragen",
          "Eine neue Gruppe beginnt erst, wenn die ganze alte fertig ist: C wartet auf A und läuft in den "
          "Runden 6 bis 8.", ["continuous-batching"], twin="continuous-batching-article")
def _cb_article_static(meta):
    return _section_13(meta, "static")


# --------------------------------------------------------------------------- FlashAttention tiles
TILE = 4


# the pages count layers and heads from 1 (the trace itself from 0)
@scenario("flash-attention-tiles", "Online-Softmax Kachel für Kachel",
          f"Das trainierte Sprachmodell rechnet mit Kacheln zu {TILE} Keys. Gezeigt: Schicht 1, Kopf 1, die "
          "jeweils letzte Position – laufendes Maximum m, Summe l und Zähler u nach jeder Kachel; u/l am "
          "Ende ist genau die dichte Attention.", ["flash-attention"])
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


@scenario("speculative-decoding-pq", "Speculative Decoding mit dem Beispielpaar p und q",
          "Zielmodell p = [0,2; 0,5; 0,3], Entwurf q = [0,6; 0,3; 0,1] an jeder Position, k = 2 Vorschläge "
          "pro Runde. A wird nur mit Wahrscheinlichkeit 1/3 angenommen; nach einer Ablehnung kommt die "
          "Korrektur aus max(0, p − q), also B oder C.", ["speculative-decoding"])
def _spec_pq(meta):
    target, draft = ConstantModel(ARTICLE_P), ConstantModel(ARTICLE_Q)
    return speculative_trace(meta, target, draft, target.tokenizer.encode("A"), 60, k=2,
                             params=SamplingParams(temperature=1.0), seed=0, tokenizer=target.tokenizer)


@scenario("speculative-decoding-tiny", "Speculative Decoding mit dem trainierten Modellpaar",
          "Zielmodell: das trainierte Sprachmodell der Seite; Entwurf: ein etwa neunmal kleineres Modell, das von ihm "
          "gelernt hat. Greedy mit k = 4: angenommen wird, was das Zielmodell selbst gewählt hätte – die Ausgabe "
          "ist Token für Token die des Zielmodells.",
          ["speculative-decoding"])
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


# The trained model has 8 query heads over 2 K/V heads; MHA and MQA are its heads regrouped.
for _kind, _slug, _text, _how in (
        ("MHA", "gqa", "acht K/V-Köpfe, einer pro Query-Kopf",
         "Jeder K/V-Kopf des trainierten Modells ist für jeden Query-Kopf seiner Gruppe kopiert: dieselben Tokens, "
         "viermal so viel Cache."),
        ("GQA", "gqa", "zwei K/V-Köpfe für acht Query-Köpfe", "So ist das Sprachmodell der Seite trainiert."),
        ("MQA", "mqa", "ein K/V-Kopf für alle acht Query-Köpfe",
         "Die zwei K/V-Köpfe des trainierten Modells sind gemittelt, ohne Nachtraining: halb so viel Cache, "
         "aber der Text ändert sich.")):
    scenario(f"{_slug}-kv-{_kind.lower()}", f"{_kind}: {_text}",
             f"Dieselben drei Anfragen; wie viele Bytes der KV-Cache pro Token braucht, hängt nur an der Zahl "
             f"der K/V-Köpfe. {_how}", ["gqa", "mqa"])(lambda meta, kind=_kind: _kv_heads(meta, kind))


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


@scenario("continuous-batching-realistic", "16 Anfragen, gemischte Längen, gestaffelte Ankunft",
          "Continuous Batching mit höchstens 4 Sequenzen und 16 Tokens pro Schritt: Anfragen steigen ein, sobald "
          "ein Platz frei wird, und verlassen den Batch, sobald sie fertig sind; lange Prompts laufen in Stücken.",
          ["continuous-batching", "ttft", "paged-attention", "prefill"], twin="continuous-batching-realistic-static",
          torch=True)
def _realistic_cont(meta, backend=NUMPY):
    from engine import workloads
    return run_workload(meta, workloads.realistic(seed=0, tokenizer=model().tokenizer), backend=backend, policy="continuous",
                        max_num_batched_tokens=BUDGET)


@scenario("continuous-batching-realistic-static", "Dieselben 16 Anfragen, statisches Batching",
          "Eine neue Gruppe startet erst, wenn die letzte ganz fertig ist: kurze Anfragen warten auf lange.",
          ["continuous-batching", "ttft"], twin="continuous-batching-realistic", torch=True)
def _realistic_static(meta, backend=NUMPY):
    from engine import workloads
    return run_workload(meta, workloads.realistic(seed=0, tokenizer=model().tokenizer), backend=backend, policy="static",
                        max_num_batched_tokens=BUDGET)


@scenario("prefix-caching-shared", "Gemeinsamer System-Prompt",
          "Alle Anfragen beginnen mit demselben System-Prompt. Die erste rechnet ihn, alle späteren finden "
          "seine vollen Blöcke im Präfix-Cache und rechnen nur ihren eigenen Teil.", ["prefix-caching"], torch=True)
def _shared(meta, backend=NUMPY):
    from engine import workloads
    return run_workload(meta, workloads.shared_prompt(seed=0, tokenizer=model().tokenizer), backend=backend)


@scenario("paged-attention-pressure", "Speicherdruck: Verdrängen und neu rechnen",
          "Der Block-Pool ist zu klein für alle laufenden Anfragen. Wenn Blöcke fehlen, wird die zuletzt "
          "aufgenommene Anfrage verdrängt, ihre Blöcke werden frei, später rechnet sie ihren Text neu.",
          ["paged-attention", "continuous-batching"], torch=True)
def _pressure(meta, backend=NUMPY):
    from engine import workloads
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
