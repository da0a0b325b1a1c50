"""The same workload in CPython and in the browser's Pyodide (Node.js, the vendored Pyodide and its
numpy wheel, the engine zip the build ships) gives the identical trace, event for event."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from engine import live, scenarios, tracer

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
_spec = importlib.util.spec_from_file_location("site_hook", ROOT / "mkdocs_hooks" / "site.py")
site_hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(site_hook)

# As static/js/python-worker.js does it: Pyodide, numpy from the vendored wheel, the engine zip in place.
NODE_RUN = """
import { loadPyodide } from %(mjs)s;
import { readFileSync, writeFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: %(dir)s });
await py.loadPackage(["numpy"], { messageCallback: () => {} });
py.FS.writeFile("/home/pyodide/engine.zip", new Uint8Array(readFileSync(%(zip)s)));
py.FS.writeFile("/home/pyodide/settings.json", readFileSync(%(settings)s));
const out = py.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide/engine.zip")
from engine import live
settings = json.load(open("/home/pyodide/settings.json"))
json.dumps({"traces": [live.run_settings(s, device="Pyodide")["trace"] for s in settings],
            "live": live.__file__, "numpy": sys.modules["numpy"].__version__})
`);
writeFileSync(%(out)s, out);
"""

WORKLOADS = [
    live.settings_of_trace(tracer.load(scenarios.path_of("continuous-batching-realistic"))),
    live.settings_of_trace(tracer.load(scenarios.path_of("paged-attention-pressure"))),
    live.settings_of_trace(tracer.load(scenarios.path_of("prefix-caching-shared"))) | {"model": "MQA"},
    {"requests": "hallo welt | 12 | 0\n20 | 6 | 1\nhallo welt, wie geht es? | 9 | 3\n5 | 20 | 3", "model": "MHA",
     "block_size": "2", "num_blocks": "24", "max_num_seqs": "3", "max_num_batched_tokens": "5",
     "chunked_prefill": "1", "prefix_caching": "1", "policy": "static"},
]


@pytest.mark.skipif(shutil.which("node") is None or not (PYODIDE / "pyodide.mjs").exists(),
                    reason="needs Node.js and the vendored Pyodide (make setup)")
def test_pyodide_and_cpython_write_the_same_trace(tmp_path):
    bundle, settings, out, script = (tmp_path / name for name in ("engine.zip", "settings.json", "out.json", "run.mjs"))
    site_hook.write_engine_zip(bundle)
    settings.write_text(json.dumps(WORKLOADS), encoding="utf-8")
    script.write_text(NODE_RUN % {k: json.dumps(v) for k, v in {
        "mjs": (PYODIDE / "pyodide.mjs").as_uri(), "dir": str(PYODIDE) + "/", "zip": str(bundle),
        "settings": str(settings), "out": str(out)}.items()})
    done = subprocess.run(["node", str(script)], timeout=300, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-1500:]  # the Python traceback is at the end
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["live"] == "/home/pyodide/engine.zip/engine/live.py"  # the shipped zip, not this checkout
    for workload, browser in zip(WORKLOADS, seen["traces"], strict=True):
        here = live.run_settings(workload, device="CPython")["trace"]
        tracer.validate(browser)
        assert browser["recorded"]["device"] == "Pyodide" and browser["recorded"]["numpy"] == seen["numpy"]
        assert tracer.without_measurements(browser) == tracer.without_measurements(here)
        assert sum(len(s["events"]) for s in browser["steps"]) > 50
