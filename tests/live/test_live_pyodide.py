"""The same workload in CPython and in the browser's Pyodide (Node.js, the vendored Pyodide and its
numpy wheel, the site's one zip with the page package and the engine, the trained model's files where the
worker puts them) gives the identical trace, event for event."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from probierlabor.live import batching, form, runs
from probierlabor.realmodel import models
from trace_equal import same

from recorder import scenarios, tracer

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
_spec = importlib.util.spec_from_file_location("assemble_hook", ROOT / "mkdocs_hooks" / "assemble.py")
assemble_hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(assemble_hook)

# The worker's copy of the trained model's files: each at its path in the site under the worker's home
# (static/js/runtime/worker.js weights()).
HOME = "/home/pyodide/"
FOLDER = HOME + models.SITE_FOLDER

# One Pyodide with numpy (Node.js) for both checks below, as static/js/runtime/python-worker.js starts it.
# First a live run: the zip and the model's files in place, as the worker runs one.
NODE_RUN = """
import { loadPyodide } from %(mjs)s;
import { readFileSync, writeFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: %(dir)s });
await py.loadPackage(["numpy"], { messageCallback: () => {} });
py.FS.mkdirTree(%(folder)s);
for (const [path, source] of %(weights)s) py.FS.writeFile(%(home)s + path, new Uint8Array(readFileSync(source)));
py.FS.writeFile("/home/pyodide/page.zip", new Uint8Array(readFileSync(%(page)s)));
py.FS.writeFile("/home/pyodide/settings.json", readFileSync(%(settings)s));
const out = py.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide/page.zip")
from probierlabor.live import runs
settings = json.load(open("/home/pyodide/settings.json"))
json.dumps({"traces": [runs.run_settings(s, ${JSON.stringify(%(folder)s)}, device="Pyodide")["trace"] for s in settings],
            "runs": runs.__file__, "numpy": sys.modules["numpy"].__version__})
`);
writeFileSync(%(out)s, out);
// Then Python as fresh as the worker starts it (nothing of ours imported, no zip on the path) for NODE_RUNNER.
py.runPython(`
import importlib, sys
sys.path.remove("/home/pyodide/page.zip")
for name in [m for m in sys.modules if m.split(".")[0] in ("engine", "probierlabor")]:
    del sys.modules[name]
importlib.invalidate_caches()
`);
"""

WORKLOADS = [
    runs.settings_of_trace(tracer.load(scenarios.path_of("continuous-batching-realistic"))),
    runs.settings_of_trace(tracer.load(scenarios.path_of("paged-attention-pressure"))),
    runs.settings_of_trace(tracer.load(scenarios.path_of("prefix-caching-shared"))) | {"model": "MQA"},
    {"requests": "hallo welt | 12 | 0\n20 | 6 | 1\nhallo welt, wie geht es? | 9 | 3\n5 | 20 | 3", "model": "MHA",
     "block_size": "2", "num_blocks": "24", "max_num_seqs": "3", "max_num_batched_tokens": "5",
     "chunked_prefill": "1", "prefix_caching": "1", "policy": "static"},
    # decode: one request of the trained model as MQA, a token per step
    {"requests": "der hund läuft | 24", "model": "MQA", "block_size": "3", "num_blocks": "16", "max_num_seqs": "1",
     "max_num_batched_tokens": "64", "chunked_prefill": "1", "prefix_caching": "0", "policy": "continuous"},
    # flash-attention: tiles of 3 keys, their m, l and u in the trace
    runs.settings_of_trace(tracer.load(scenarios.path_of("flash-attention-tiles"))) | {
        "tile_size": "3", "requests": "online softmax | 5\nkacheln | 4 | 2"},
    # speculative decoding: sampled, so every draw and every ratio p/q must come out the same
    {"prompt": "es war einmal", "model": "MHA", "max_new_tokens": "30", "k": "3", "temperature": "0,8", "top_k": "20",
     "top_p": "0.95", "seed": "7", "block_size": "2"},
]


def test_same_fails_on_a_changed_token_and_on_a_float_beyond_rounding():
    trace = {"steps": [{"events": [{"type": "emit", "token": 3, "p": 0.1}]}]}
    same(trace, {"steps": [{"events": [{"type": "emit", "token": 3, "p": 0.1 + 1e-17}]}]})
    for changed in ({"type": "emit", "token": 4, "p": 0.1}, {"type": "emit", "token": 3, "p": 0.1 + 1e-9},
                    {"type": "emit", "token": "3", "p": 0.1}):
        with pytest.raises(AssertionError):
            same(trace, {"steps": [{"events": [changed]}]})


def test_pyodide_and_cpython_write_the_same_trace(pyodide_runs):
    seen = pyodide_runs["live"]
    assert seen["runs"] == "/home/pyodide/page.zip/probierlabor/live/runs.py"  # the shipped zip, not this checkout
    for workload, browser in zip(WORKLOADS, seen["traces"], strict=True):
        here = runs.run_settings(workload, device="CPython")["trace"]
        tracer.validate(browser)
        assert browser["recorded"]["device"] == "Pyodide" and browser["recorded"]["numpy"] == seen["numpy"]
        same(tracer.without_measurements(browser), tracer.without_measurements(here))
        assert sum(len(s["events"]) for s in browser["steps"]) > 50


# As the worker meets it after a workshop run: the page's zip on the path, a concept's engine module
# imported from it, then static/py/engine_run.py, called as python-worker.js calls it.
NODE_RUNNER = """
py.runPython("import sys; sys.path.insert(0, '/home/pyodide/page.zip'); import engine.acceptance");
const scope = py.globals.get("dict")();
py.runPython(readFileSync(%(runner)s, "utf8"), { globals: scope });
const told = [];
const runs = [%(good)s, %(bad)s, "[1]"].map((s) => JSON.parse(scope.get("run")(s, "ttft", %(folder)s, (m) => told.push(JSON.parse(m)))));
writeFileSync(%(runner_out)s, JSON.stringify({ runs, told, acceptance: py.runPython("import engine.acceptance as a; a.__file__") }));
"""
GOOD = WORKLOADS[0]
BAD = GOOD | {"num_blocks": "0"}


@pytest.fixture(scope="module")
def pyodide_runs(tmp_path_factory):
    """Both scripts in one Node process: Pyodide and numpy start once."""
    import zipfile

    if shutil.which("node") is None or not (PYODIDE / "pyodide.mjs").exists():
        pytest.skip("needs Node.js and the vendored Pyodide (make setup)")
    tmp = tmp_path_factory.mktemp("pyodide")
    page, settings, out, runner_out, script = (
        tmp / n for n in ("page.zip", "settings.json", "out.json", "runner.json", "run.mjs"))
    with zipfile.ZipFile(page, "w") as z:
        for path, name in assemble_hook.bundle_files():
            z.write(path, name)
    settings.write_text(json.dumps(WORKLOADS), encoding="utf-8")
    script.write_text((NODE_RUN + NODE_RUNNER) % {k: json.dumps(v) for k, v in {
        "mjs": (PYODIDE / "pyodide.mjs").as_uri(), "dir": str(PYODIDE) + "/", "page": str(page),
        "settings": str(settings), "out": str(out), "runner": str(ROOT / "static" / "py" / "engine_run.py"),
        "good": json.dumps(GOOD), "bad": json.dumps(BAD), "runner_out": str(runner_out), "folder": FOLDER,
        "home": HOME, "weights": [[path, str(source)] for path, source in models.SOURCES.items()]}.items()})
    done = subprocess.run(["node", str(script)], timeout=300, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1500:]  # the Python traceback is at the end
    return {"live": json.loads(out.read_text(encoding="utf-8")), "runner": json.loads(runner_out.read_text(encoding="utf-8"))}


def test_the_worker_runner_runs_the_page_zips_engine_and_reports_every_step(pyodide_runs):
    seen = pyodide_runs["runner"]
    assert seen["acceptance"] == "/home/pyodide/page.zip/engine/acceptance.py"
    ran, refused, broken = seen["runs"]
    here = runs.run_settings(GOOD, concept="ttft")
    assert tracer.without_measurements(ran["trace"]) == tracer.without_measurements(here["trace"])
    assert ran["trace"]["scenario"]["concepts"] == ["ttft"] and ran["notes"] == [] and ran["settings"] == here["settings"]
    n = here["trace"]["result"]["num_steps"]
    # the model loads on the first run only, said in the status line; then every step
    assert seen["told"] == [{"type": "status", "stage": "model"}, {"type": "status", "stage": "running"}] + [
        {"type": "progress", "done": i, "total": n} for i in range(1, n + 1)]
    with pytest.raises(form.WorkloadError) as caught:
        batching.parse(BAD)
    assert refused == {"error": str(caught.value), "problems": list(caught.value.problems)}
    # not settings at all (a bug of the page): a message instead of a run that never ends
    assert broken["error"].startswith("Die Engine ist unerwartet abgebrochen (AttributeError: ")
