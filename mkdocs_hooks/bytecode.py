"""Bytecode for the browser's Python bundle, compiled at build time by the browser's own Pyodide.

Pyodide ships its standard library as .py sources, and a module imported in the browser is
compiled there first: measured in Pyodide, importing the kit and the overfitting concept from
sources took several times as long as from bytecode, and `dataclasses`, `fractions` and
`statistics` (which the bare runtime has not loaded) cost about 100 ms each on the 2-core machine.
That compile time lies on every page's cold start, between "Python is ready" and "the experiment
is ready". So the build compiles the bundle, and those standard-library modules, with the same
Pyodide in Node.js (the same interpreter, so the bytecode matches exactly) and ships the .pyc files
instead of the sources; the browser imports the zip in place (zipimport), without unpacking it.

The result is cached in .cache/bytecode by the hash of the source zip and of Pyodide's own files,
so only a change to the Python code pays the ~5–15 s of starting Pyodide in Node.js.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "static" / "vendor" / "pyodide"
CACHE = ROOT / ".cache" / "bytecode"
HERE = Path(__file__).resolve().parent


def _key(source_zip: Path) -> str:
    digest = hashlib.sha256(source_zip.read_bytes())
    for part in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.mjs"):
        digest.update(hashlib.sha256((PYODIDE / part).read_bytes()).digest())
    for part in ("bytecode.mjs", "bytecode_pyodide.py"):
        digest.update((HERE / part).read_bytes())
    return digest.hexdigest()[:24]


def compile_bundle(source_zip: Path, target: Path) -> None:
    """Write the bundle with bytecode to ``target`` (from the cache when the sources are unchanged)."""
    cached = CACHE / f"{_key(source_zip)}.zip"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out.zip"
            done = subprocess.run(["node", str(HERE / "bytecode.mjs"), str(PYODIDE), str(source_zip), str(out)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError("Pyodide in Node.js konnte das Python-Paket nicht übersetzen:\n"
                                   + done.stderr[-2000:])
            shutil.move(out, cached)
    shutil.copyfile(cached, target)
