"""The Python the browser gets (mkdocs_hooks/assemble.py): one zip with the probierlabor package and the engine
modules it imports; the page imports the engine's plain-Python ``acceptance`` from it, without numpy or
the rest of the engine, and the Python worker runs „Eigener Lauf“ from the same zip."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import zipfile
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("assemble_hook", ROOT / "mkdocs_hooks" / "assemble.py")
assemble_hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(assemble_hook)

def built_zip() -> Path:
    found = sorted((ROOT / "site" / "static" / "py").glob("probierlabor-*.zip"))
    if not found:
        pytest.skip("site not built (`make site`)")
    assert len(found) == 1, found
    return found[0]


def _shipped_name(name: str) -> str:
    """A source's name in the zip: bytecode, except the workshop scripts (read as text, never imported) and data."""
    script = name.startswith("probierlabor/workshop/") and not name.endswith("__init__.py")
    return name if script or not name.endswith(".py") else name[:-3] + ".pyc"


def test_the_zip_holds_the_package_and_exactly_the_engine_modules_it_imports():
    names = {n for n in zipfile.ZipFile(built_zip()).namelist() if not n.startswith("stdlib/")}
    assert {_shipped_name(name) for _, name in assemble_hook.bundle_files()} == names
    assert not any(n.startswith("probierlabor/pageblocks/") for n in names)
    graph = grimp.build_graph("probierlabor", "engine", "recorder")
    shipped = {m for m in graph.modules if m.startswith("probierlabor") and not m.startswith("probierlabor.pageblocks")}
    imported = {m for m in set().union(*map(graph.find_upstream_modules, shipped)) if m.startswith(("engine.", "recorder."))}
    assert {n for n in names if n.startswith(("engine/", "recorder/")) and n.endswith(".pyc")} == {
        "engine/__init__.pyc", "recorder/__init__.pyc"} | {m.replace(".", "/") + ".pyc" for m in imported}
    # besides code only the tokenizer's merges, which kit/site_tokenizer.py reads at import
    assert {n for n in names if not n.endswith((".pyc", ".py"))} == {"model/weights/tokenizer.json"}
    # one zip of our code: the Python worker's „Eigener Lauf“ takes its engine from it too
    assert [p.name for p in built_zip().parent.glob("*.zip")] == [built_zip().name]


def test_the_zip_name_follows_the_shared_engine_module(tmp_path, monkeypatch):
    before = assemble_hook._package_hash()
    for name in assemble_hook.ENGINE_FOR_BROWSER:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes((assemble_hook.ENGINE / name).read_bytes())
    monkeypatch.setattr(assemble_hook, "ENGINE", tmp_path)
    assert assemble_hook._package_hash() == before
    with (tmp_path / "acceptance.py").open("a") as f:
        f.write("# changed\n")
    assert assemble_hook._package_hash() != before  # a new name: no browser keeps the old math from its cache


# In Pyodide under Node.js, as in the browser's boot.py: the zip imported in place, its stdlib/ next.
NODE_PROBE = """
import { loadPyodide } from %(mjs)s;
import { readFileSync } from "node:fs";
const py = await loadPyodide({ indexURL: %(dir)s });
py.FS.writeFile("/home/pyodide/b.zip", new Uint8Array(readFileSync(%(zip)s)));
console.log(py.runPython(`
import json, sys
sys.path[0:0] = ["/home/pyodide/b.zip", "/home/pyodide/b.zip/stdlib"]
from probierlabor.kit import api
import dataclasses, fractions
out = api.run("speculative-decoding")
json.dumps({"api": api.__file__, "dataclasses": dataclasses.__file__, "fractions": fractions.__file__,
            "final": out["result"]["final_exact"], "figure": out["figure"],
            "modules": sorted(m for m in sys.modules if m.split(".")[0] in ("engine", "numpy")),
            "tokens": api.run("tokenisierung", {"row": "strasse", "merges": 100})["figure"],
            "modules_after": sorted(m for m in sys.modules if m.split(".")[0] in ("engine", "numpy"))})
`));
"""


def test_pyodide_imports_the_bytecode_and_computes_what_cpython_computes(tmp_path):
    pyodide = ROOT / "static" / "vendor" / "pyodide"
    script = tmp_path / "probe.mjs"
    script.write_text(NODE_PROBE % {"mjs": json.dumps((pyodide / "pyodide.mjs").as_uri()),
                                    "dir": json.dumps(str(pyodide) + "/"), "zip": json.dumps(str(built_zip()))})
    seen = json.loads(subprocess.run(["node", str(script)], capture_output=True, text=True, check=True,
                                     timeout=180).stdout.strip().splitlines()[-1])
    assert seen["api"] == "/home/pyodide/b.zip/probierlabor/kit/api.pyc"
    # the standard library's sources in Pyodide, compiled once at build time by the same Pyodide
    assert seen["dataclasses"] == "/home/pyodide/b.zip/stdlib/dataclasses.pyc"
    assert seen["fractions"] == "/home/pyodide/b.zip/stdlib/fractions.pyc"
    # speculative decoding shares the engine's plain-Python acceptance rule, and nothing else of it
    assert seen["modules"] == ["engine", "engine.acceptance"]
    from probierlabor.kit import api
    expected = api.run("speculative-decoding")
    assert (seen["final"], seen["figure"]) == (expected["result"]["final_exact"], expected["figure"])
    # the tokenizer page reads the trained merges from the zip and needs the byte-level BPE, no numpy
    assert seen["tokens"] == api.run("tokenisierung", {"row": "strasse", "merges": 100})["figure"]
    assert seen["modules_after"] == ["engine", "engine.acceptance", "engine.bpe"]


def test_every_module_is_bytecode_and_the_stdlib_part_comes_from_pyodides_own_sources():
    bundle = zipfile.ZipFile(built_zip())
    names = set(bundle.namelist())
    assert {n for n in names if n.endswith(".py")} == {  # only the scripts stay text
        n for n in names if n.startswith("probierlabor/workshop/") and n.endswith(".py")}
    stdlib = zipfile.ZipFile(ROOT / "static" / "vendor" / "pyodide" / "python_stdlib.zip")
    shipped = {n for n in names if n.startswith("stdlib/")}
    assert {"stdlib/dataclasses.pyc", "stdlib/fractions.pyc", "stdlib/statistics.pyc"} <= shipped
    assert {n[len("stdlib/"):-1] for n in shipped} <= set(stdlib.namelist())
    magic = {bundle.read(n)[:4] for n in names if n.endswith(".pyc")}
    assert len(magic) == 1  # one interpreter compiled them all
