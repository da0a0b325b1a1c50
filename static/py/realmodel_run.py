# „Am echten Modell“: the site's language model on the reader's prompt (py/probierlabor/realmodel), in the
# tab's Python Web Worker (static/js/runtime/python-worker.js) on Pyodide's numpy. The model loads on the
# first run, with a status line, and stays for the next ones (realmodel/models.py keeps it).
# Defines run(settings_json, slug, folder, tell) -> JSON: the data of methods.run (loss.run on the cross-entropy
# page), or {error, prompt: true} for a prompt the model cannot start from, {error} (German) for damaged model files.
import json
import time

from engine.pretrained import WeightsError
from probierlabor.kit.model_files import DAMAGED
from probierlabor.realmodel import heads, loss, methods, models
from probierlabor.realmodel.fields import PAGES
from probierlabor.realmodel.form import PromptError

_loaded = set()


def run(settings_json, slug, folder, tell):
    """``folder``: where the worker put the trained models' files."""
    models.FOLDER = folder
    names = ["target", "draft"] if PAGES.get(slug, ("",))[0] == "speculative" else ["target"]
    load_seconds = None
    try:
        if not _loaded.issuperset(names):
            tell(json.dumps({"type": "status", "stage": "model"}))
            started = time.perf_counter()
            for name in names:
                models.load(name)
            _loaded.update(names)
            load_seconds = time.perf_counter() - started
        started = time.perf_counter()
        settings = json.loads(settings_json)  # the pages with their own view, else a decoding page's method
        view = {loss.SLUG: loss.run, heads.PAGE: heads.run}.get(slug)
        out = view(settings) if view else methods.run(slug, settings)
        out["compute_seconds"] = time.perf_counter() - started
    except PromptError as error:
        return json.dumps({"error": str(error), "prompt": True}, ensure_ascii=False)
    except WeightsError:
        return json.dumps({"error": DAMAGED}, ensure_ascii=False)
    except Exception as error:  # noqa: BLE001 - a bug of ours must end the run with a message, not hang it
        return json.dumps({"error": f"Das Modell ist unerwartet abgebrochen ({type(error).__name__}: {error}). "
                                    "Das liegt an der Seite, nicht an deinem Prompt."}, ensure_ascii=False)
    out["load_seconds"] = load_seconds
    return json.dumps(out, ensure_ascii=False)
