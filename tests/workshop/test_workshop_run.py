"""static/py/workshop_run.py, the runner inside the workshop's Web Worker, here in CPython with the
pinned matplotlib (the browser's version): what the reader sees after „Ausführen“."""

import base64
import importlib.util
import json
from pathlib import Path

import pytest
from probierlabor.kit import workshop

RUNNER = Path(__file__).resolve().parents[2] / "static" / "py" / "workshop_run.py"
STYLE = json.dumps({"palette": [[0, 0.4, 0.63, 1], [0.7, 0.35, 0, 1]], "ink": [0, 0, 0, 0.87],
                    "muted": [0.35, 0.35, 0.35, 1], "background": [1, 1, 1, 1]})


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


@pytest.fixture(scope="module")
def run(monkeypatch_module):
    import matplotlib
    import matplotlib.pyplot as plt

    # the runner owns its worker's matplotlib; in this test process it must leave no trace
    saved, show, backend = matplotlib.rcParams.copy(), plt.show, matplotlib.get_backend()
    monkeypatch_module.setenv("MPLBACKEND", "agg")  # the runner sets it; undone after these tests
    spec = importlib.util.spec_from_file_location("workshop_run", RUNNER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield lambda code: json.loads(module.run(code, STYLE))
    plt.close("all")
    plt.show = show
    matplotlib.rcParams.update(saved)
    matplotlib.use(backend)


def test_a_script_prints_and_draws_one_png(run):
    out = run(workshop.template("top-p-sampling"))
    assert out["error"] is None
    assert "Zeile 1: Kern: A, B\n" in out["output"]
    assert len(out["figures"]) == 1
    assert base64.b64decode(out["figures"][0]).startswith(b"\x89PNG")


def test_the_error_names_the_line_of_the_readers_code_not_of_a_library(run):
    out = run("import numpy as np\n\ndef f(x):\n    return np.zeros(x).reshape(5)\n\nprint('vorher')\nf(3)\n")
    assert out["error"]["line"] == 4 and out["error"]["kind"] == "ValueError"
    assert out["output"] == "vorher\n"  # what it printed before the error stays
    out = run("x = 1\nprint(y)\n")
    assert out["error"] == {"line": 2, "kind": "NameError", "message": "name 'y' is not defined"}


def test_a_syntax_error_names_its_line(run):
    out = run("x = 1\nif x\n    print(x)\n")
    assert out["error"]["line"] == 2 and out["error"]["kind"] == "SyntaxError"


def test_exit_ends_quietly_but_exit_with_a_message_is_an_error(run):
    assert run("print(1)\nexit()\nprint(2)\n") == {"output": "1\n", "figures": [], "error": None}
    assert run("import sys\nsys.exit('kaputt')\n")["error"]["message"] == "kaputt"


def test_figures_do_not_leak_into_the_next_run_and_the_style_is_the_sites(run):
    import matplotlib

    assert len(run("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.figure()\n")["figures"]) == 2
    assert run("print(1)\n")["figures"] == []
    run("import matplotlib\nmatplotlib.rcParams['font.size'] = 30\n")  # a reader's change is undone next run
    run("")
    assert matplotlib.rcParams["font.size"] == 13 and matplotlib.rcParams["font.family"] == ["DejaVu Sans"]


def test_a_bad_colour_fails_when_drawn_and_is_reported(run):
    out = run("import matplotlib.pyplot as plt\nplt.plot([1, 2], color='keinefarbe')\n")
    assert out["error"]["kind"] == "ValueError" and out["error"]["line"] == 2
