# „Eigener Lauf“: runs a reader's workload through the real engine (py/probierlabor/live) inside the tab's
# Python Web Worker (static/js/runtime/python-worker.js), on Pyodide's numpy, never on the page's main thread.
# Defines run(settings_json, slug, folder, tell) -> JSON {trace, notes, settings} or {error, problems}; progress
# goes out through tell while the engine steps. The site's trained model loads on the first run from folder
# (where the worker put its files), with a status line, and stays for the next ones (recording.model keeps it).
import json

from probierlabor.kit.model_files import DAMAGED
from probierlabor.live import recording, runs
from probierlabor.live.form import WorkloadError

from engine.pretrained import WeightsError

DEVICE = "Browser (Pyodide, WebAssembly)"
_loaded = set()


def run(settings_json, slug, folder, tell):
    def progress(done, total):
        tell(json.dumps({"type": "progress", "done": done, "total": total}))

    try:
        settings = json.loads(settings_json)
        if folder not in _loaded:  # the trained target (GQA: MHA and MQA regroup its heads) from its files
            tell(json.dumps({"type": "status", "stage": "model"}))
            recording.model("GQA", folder)
            _loaded.add(folder)
            tell(json.dumps({"type": "status", "stage": "running"}))
        out = runs.run_settings(settings, folder, concept=slug, on_step=progress, device=DEVICE)
    except WorkloadError as error:
        return json.dumps({"error": str(error), "problems": list(error.problems)}, ensure_ascii=False)
    except WeightsError:
        return json.dumps({"error": DAMAGED}, ensure_ascii=False)
    except Exception as error:
        return json.dumps({"error": f"Die Engine ist unerwartet abgebrochen ({type(error).__name__}: {error}). "
                                    "Das liegt an der Seite, nicht an deinen Anfragen."}, ensure_ascii=False)
    return json.dumps(out, ensure_ascii=False)
