"""Runs inside Pyodide (mkdocs_hooks/bytecode.mjs): /in.zip (sources) → /out.zip (bytecode).

Every module of the bundle becomes its .pyc (the workshop scripts, read as text, stay .py); the
standard-library modules that the
concepts import and a fresh interpreter has not loaded yet are compiled from Pyodide's own
python_stdlib.zip into stdlib/. Importing every concept and running its default state finds them,
lazy imports inside functions included."""

import py_compile
import sys
import zipfile

STAMP = (1980, 1, 1, 0, 0, 0)  # fixed entry dates: the same sources give the same zip
loaded_at_start = set(sys.modules)

source = zipfile.ZipFile("/in.zip")
source.extractall("/src")
sys.path.insert(0, "/src")
from probierlabor import SLUGS  # noqa: E402
from probierlabor.kit import api, workshop  # noqa: E402

for slug in SLUGS:
    api.run_json(slug, "{}")
    workshop.fill_json(slug, "{}")  # static/py/boot.py imports it on first use

stdlib = {}
for name in sorted(set(sys.modules) - loaded_at_start):
    module = sys.modules[name]
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
    if origin.startswith("/lib/python") and ".zip/" in origin and origin.endswith(".py"):
        stdlib[name] = origin


def compiled(path: str, shown_as: str) -> bytes:
    # Unchecked hash: no source timestamp to compare, so zipimport takes the bytecode as it is.
    py_compile.compile(path, cfile="/tmp/out.pyc", dfile=shown_as, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open("/tmp/out.pyc", "rb") as handle:
        return handle.read()


def entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


with zipfile.ZipFile("/out.zip", "w") as out:
    for info in source.infolist():
        # The workshop scripts are read as text (kit/workshop.py), never imported; their package is.
        script = info.filename.startswith("probierlabor/workshop/") and not info.filename.endswith("__init__.py")
        if info.filename.endswith(".py") and not script:
            # Bytecode only: the browser never shows a module's source (an error reaches the reader as a
            # German message), and the sources would add a quarter to the download.
            out.writestr(entry(info.filename[:-3] + ".pyc"), compiled("/src/" + info.filename, info.filename))
        else:
            out.writestr(entry(info.filename), source.read(info))
    stdlib_zip = zipfile.ZipFile(next(p for p in sys.path if p.endswith(".zip") and "/lib/python" in p))
    for origin in stdlib.values():
        inner = origin.split(".zip/", 1)[1]
        with open("/tmp/std.py", "wb") as handle:
            handle.write(stdlib_zip.read(inner))
        out.writestr(entry("stdlib/" + inner[:-3] + ".pyc"), compiled("/tmp/std.py", inner))
