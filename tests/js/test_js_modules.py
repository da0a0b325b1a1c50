"""The browser side is a package of ES modules (static/js/main.js is the one entry): files share code by
import, never by a window global or a value stored on a DOM element for another file to read.

``document.currentScript`` names the running script only during a classic script's first synchronous
run: read later (a busy machine delays code past it), it names no script or another one, and a path built
on it points into the wrong folder. A module knows its own address (import.meta.url, static/js/site.js).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"


def _code() -> dict[str, str]:
    return {p.relative_to(JS).as_posix(): re.sub(r"//[^\n]*", "", p.read_text(encoding="utf-8"))
            for p in sorted(JS.rglob("*.js")) + sorted(JS.rglob("*.mjs"))}


def test_no_script_reads_current_script():
    assert [name for name, text in _code().items() if "currentScript" in text] == []


def test_no_window_global_is_shared_between_files():
    """main.js's read-only debug handle for tests (window.probierlabor, read by no file) is the one name
    the site puts on window, and no other probierlabor… name appears in the code at all, however it would
    be reached (e.g. Object.defineProperty(root, "probierlaborTrusted", …), where an import would do)."""
    code = _code()
    on_window = {name: sorted(set(re.findall(r"\b(?:window|self|globalThis)\.(probierlabor\w*)", text)))
                 for name, text in code.items()}
    assert {name: names for name, names in on_window.items() if names} == {"main.js": ["probierlabor"]}
    others = {name: sorted(set(re.findall(r"\bprobierlabor[A-Z$]\w*", text))) for name, text in code.items()}
    assert {name: names for name, names in others.items() if names} == {}


def test_no_value_on_a_dom_element_is_read_by_another_file():
    """A module keeps what it knows of an element in its own WeakMap or answers through an exported
    function (classroom/handles.js, experiment/mount.js lastRun): an expando (el.plSomething) lives in one file."""
    owners: dict[str, set[str]] = {}
    for name, text in _code().items():
        for expando in set(re.findall(r"\.(pl[A-Z]\w*)", text)):
            owners.setdefault(expando, set()).add(name)
    shared = {expando: sorted(files) for expando, files in owners.items() if len(files) > 1}
    assert shared == {}


# experiment/mount.js still keeps its values on the experiment's element while it is taken apart
def test_no_module_stores_a_value_on_an_element():
    """Not even a file's own: state on an element (el.plRun = …, stage.plrsWidth = …) is visible to every
    script and to the tests as if it were an interface, and outlives the module's idea of it. A module
    keeps it in a WeakMap or WeakSet; an element's data-* attributes are markup, read by CSS too."""
    stored = {name: sorted(set(re.findall(r"(?<!dataset)\.(pl[a-z]*[A-Z]\w*)\s*=(?!=)", text)))
              for name, text in _code().items()}
    assert {name: found for name, found in stored.items() if found} == {}


def test_every_module_is_small_enough_to_hold_one_idea():
    """A file over ~350 lines has been holding several ideas; split it by concern, each module named for its one."""
    lines = {p.relative_to(JS).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in JS.rglob("*.js")}
    assert {name: n for name, n in lines.items() if n > 350} == {}


def test_an_experiment_keeps_its_state_in_its_object_not_on_its_elements():
    """Each experiment's state is one object per root (experiment/mount.js, in a WeakMap), handed to the
    other files of its folder: none of them stores a value on an element (el.plSomething)."""
    found = {name: sorted(set(re.findall(r"\.(pl[A-Z]\w*)", text)))
             for name, text in _code().items() if name.startswith("experiment/")}
    assert {name: names for name, names in found.items() if names} == {}


def test_every_file_is_a_module():
    for name, text in _code().items():
        assert re.search(r"^(import|export) ", text, re.M), name


def test_the_trusted_types_gate_runs_before_every_other_module():
    """The gate is the first module of the page (modules run in document order once it is parsed), before
    main.js and the theme's bundle, deferred behind it, can write markup. A module graph of its own, with
    no import: a module of main.js that fails to load stops only main.js's graph, not the gate."""
    page = (ROOT / "overrides" / "main.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*\ssrc=[^>]*>", page) == [
        """<script type="module" src="{{ 'static/js/trusted.js' | url }}">""",
        """<script type="module" src="{{ 'static/js/main.js' | url }}">"""]
    gate = _code()["trusted.js"]
    assert re.search(r"^export function fragment\(", gate, re.M)
    assert not re.search(r"""^import\b|\bimport\(""", gate, re.M)


def test_every_relative_import_names_a_file_that_is_there():
    """A moved module with a stale path fails only when a reader opens the feature (an editor that looks
    for CodeMirror in the wrong folder): every static and dynamic import is checked here."""
    vendor = ROOT / "static" / "vendor"
    missing = []
    for name, text in _code().items():
        for target in re.findall(r"""(?:\bfrom|\bimport\(?)\s*["'](\.{1,2}/[^"']+)["']""", text):
            path = (JS / name).parent / target
            if vendor in path.resolve().parents and not vendor.is_dir():
                continue  # static/vendor is built by `make vendor`
            if not path.resolve().is_file():
                missing.append(f"{name}: {target}")
    assert missing == []
