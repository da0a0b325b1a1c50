# „Am echten Modell“: the site's language model on the reader's text (py/probierlabor/realmodel), in the
# tab's Python Web Worker (static/js/runtime/python-worker.js) on Pyodide's numpy. The model loads on the
# first run, with a status line, and stays for the next ones (realmodel/models.py keeps it), as does a
# decoding page's last run, which „Nächstes Token“ takes one step further (realmodel/methods.py).
# Defines run(settings_json, slug, folder, tell) -> JSON: the data of the page's runner (realmodel/views.py),
# or {error, prompt: true} for a text the model cannot start from, {error} (German) for damaged model files.
import json
import time

from probierlabor.kit.model_files import DAMAGED
from probierlabor.realmodel import models, views
from probierlabor.realmodel.form import PromptError

from engine.pretrained import WeightsError

_loaded = set()


def run(settings_json, slug, folder, tell):
    """``folder``: where the worker put the trained models' files."""
    load_seconds = None
    try:
        view = views.of(slug)
        names = [(name, folder) for name in view.models]
        if not _loaded.issuperset(names):
            tell(json.dumps({"type": "status", "stage": "model"}))
            started = time.perf_counter()
            for name, where in names:
                models.load(name, where)
            _loaded.update(names)
            load_seconds = time.perf_counter() - started
        started = time.perf_counter()
        out = view.run(json.loads(settings_json), folder)
        out["compute_seconds"] = time.perf_counter() - started
    except PromptError as error:
        return json.dumps({"error": str(error), "prompt": True}, ensure_ascii=False)
    except WeightsError:
        return json.dumps({"error": DAMAGED}, ensure_ascii=False)
    except Exception as error:
        return json.dumps({"error": f"Das Modell ist unerwartet abgebrochen ({type(error).__name__}: {error}). "
                                    "Das liegt an der Seite, nicht an deinem Prompt."}, ensure_ascii=False)
    out["load_seconds"] = load_seconds
    return json.dumps(out, ensure_ascii=False)
