"""`make bundle`: the built site as one zip for a school computer or a USB stick.

    python tools/bundle.py [SITE] [--out dist]

The zip holds one folder ``probierlabor-<version>/`` (the version of the site's service worker, see
mkdocs_hooks/offline.py) with the site, start scripts for Windows (start.bat), Linux and macOS
(start.sh, start.command), the launcher start.py with tools/serve.py (right MIME types for .wasm,
.mjs, .webmanifest) and a German LIESMICH.txt. The zip is reproducible: same site, same bytes.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import stat
import sys
import zipfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
STAMP = (1980, 1, 1, 0, 0, 0)  # fixed time in the zip: the archive depends on the content only
PACKED = {".zip", ".whl", ".png", ".gz", ".woff2", ".woff", ".jpg"}  # compressed already: stored as is

START_SH = """#!/bin/sh
# Startet Probierlabor auf diesem Rechner (Linux, macOS). Beenden mit Strg+C.
cd "$(dirname "$0")" || exit 1
for py in python3 python; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 8))' 2>/dev/null; then
    exec "$py" start.py "$@"
  fi
done
echo "Python 3 wurde nicht gefunden. Bitte installieren (https://www.python.org/downloads/) und erneut starten." >&2
exit 1
"""

# Plain ASCII: cmd.exe reads batch files in the old OEM code page.
START_BAT = """@echo off
rem Startet Probierlabor auf diesem Rechner (Windows). Das Fenster offen lassen; Schliessen beendet es.
cd /d "%~dp0"
py -3 --version >nul 2>&1
if not errorlevel 1 (
  py -3 start.py %*
  goto ende
)
python --version >nul 2>&1
if not errorlevel 1 (
  python start.py %*
  goto ende
)
echo Python 3 wurde nicht gefunden. Bitte von https://www.python.org/downloads/ installieren
echo (dabei "Add python.exe to PATH" ankreuzen) und start.bat erneut doppelklicken.
:ende
pause
"""

LIESMICH = """Probierlabor {version} – Maschinelles Lernen und Sprachmodelle zum Ausprobieren
==========================================================================

Starten
-------
Windows:       start.bat doppelklicken.
macOS:         start.command doppelklicken (beim ersten Mal: Rechtsklick > Öffnen).
Linux, macOS:  im Terminal in diesem Ordner  sh start.sh  eingeben.

Das Startprogramm braucht Python 3 (ab 3.8, https://www.python.org/downloads/). Es startet einen kleinen
Webserver nur für diesen Rechner und öffnet im Browser http://127.0.0.1:8000/ (ist der Anschluss 8000
belegt, den nächsten freien). Das Fenster des Startprogramms offen lassen; Schließen beendet den Server.

Warum nicht einfach index.html doppelklicken?
---------------------------------------------
Dann öffnet der Browser die Seite als Datei (file://…). So darf eine Seite ihre eigenen Dateien nicht
nachladen: Die Python-Laufzeit (WebAssembly), die JavaScript-Module und das Python-Paket der Seite werden
per fetch geholt, und das ist für file:// aus Sicherheitsgründen gesperrt – ebenso der Offline-Speicher
(Service Worker). Die Texte wären lesbar, aber kein Experiment würde rechnen. Darum der kleine Webserver.

Offline
-------
Die Website lädt nichts aus dem Internet. Nach dem ersten Besuch speichert der Browser die ganze Website
(„Offline bereit“ oben rechts, Einzelheiten auf der Seite Systemcheck). Danach öffnet derselbe Browser
http://127.0.0.1:8000/ sogar ohne laufendes Startprogramm – aber nur unter genau dieser Adresse; mit
einem anderen Anschluss beginnt das Vorladen neu.

Auf einem Schulserver
---------------------
Den Ordner site/ auf einen beliebigen Webserver kopieren (nginx, Apache, IIS, NAS), in jeden Unterordner.
Der Server sollte .wasm als application/wasm und .mjs als text/javascript ausliefern und zu jeder Antwort
die Kopfzeilen Content-Security-Policy (der Wert steht in site/content-security-policy.txt) und
X-Content-Type-Options: nosniff senden; Beispiele für nginx, Apache und IIS stehen in der README.md des
Projekts. Den Offline-Speicher erlauben Browser nur über https:// oder auf dem Rechner selbst (127.0.0.1);
über http:// mit einer Netzwerkadresse funktioniert die Seite, solange der Server erreichbar ist.
Am besten bekommt Probierlabor eine eigene Adresse: einen eigenen Hostnamen oder Port. Ein Unterordner
neben anderen Apps reicht nicht. Der Browser trennt den Offline-Speicher nach Adresse, nicht nach Ordner.
Eine fremde App unter derselben Adresse könnte sonst Dateien hineinlegen.
"""


def site_version(site: Path) -> str:
    """The version the build wrote into sw.js (mkdocs_hooks/offline.py)."""
    worker = site / "sw.js"
    found = re.match(r'const VERSION = "([0-9a-f]+)";', worker.read_text(encoding="utf-8")) if worker.exists() else None
    if not (site / "index.html").exists() or not found:
        raise SystemExit(f"{site} ist keine vollständig gebaute Website (index.html oder sw.js fehlt). "
                         "Erst `make site` ausführen.")
    return found.group(1)


def site_files(site: Path) -> list[Path]:
    """Every file of the site, in a fixed order.

    Left out, with a note: names with a leading dot at any depth (.env, .git: never part of a built site,
    and tools/serve.py does not serve them either) and whatever is no regular file (reading a FIFO would
    wait forever). Refused, never followed: a symlink (a link to /etc would put the packing computer's
    files into the zip), and likewise a hard link whose other name lies outside the site (a link to a
    private file looks like any file; only its link count gives it away). Hard links within the site
    are packed under each name: each is an address the site may ask for.
    """
    files, names_of = [], collections.Counter()
    for folder, subfolders, names in os.walk(site):
        subfolders[:] = sorted(name for name in subfolders if _kept(site, Path(folder, name)))
        for name in sorted(names):
            path = Path(folder, name)
            if not _kept(site, path):
                continue
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                _note(site, path, "keine normale Datei, etwa eine FIFO")
                continue
            files.append(path)
            names_of[info.st_dev, info.st_ino] += 1
    for path in files:
        info = path.lstat()
        if info.st_nlink > names_of[info.st_dev, info.st_ino]:
            raise SystemExit(f"{path.relative_to(site).as_posix()} ist ein harter Link: dieselbe Datei hat einen "
                             "Namen außerhalb der Website. Das Paket nimmt nur Dateien der Website auf; `make site` neu bauen.")
    return sorted(files)


def _kept(site: Path, path: Path) -> bool:
    if path.name.startswith("."):
        _note(site, path, "Name mit Punkt, gehört nicht zur Website")
        return False
    if path.is_symlink():
        raise SystemExit(f"{path.relative_to(site).as_posix()} ist eine Verknüpfung (Symlink); das Paket nimmt nur "
                         "echte Dateien auf. Verknüpfung entfernen oder `make site` neu bauen.")
    return True


def _note(site: Path, path: Path, why: str) -> None:
    print(f"bundle: ausgelassen: {path.relative_to(site).as_posix()} ({why})", file=sys.stderr)


def _add(bundle: zipfile.ZipFile, name: str, data: bytes, *, executable: bool = False, packed: bool = False) -> None:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_STORED if packed else zipfile.ZIP_DEFLATED
    info.external_attr = (0o100755 if executable else 0o100644) << 16  # unzip and macOS keep the x bit
    bundle.writestr(info, data)


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode("utf-8")


def build(site: Path, out: Path) -> Path:
    """Writes ``out/probierlabor-<version>.zip`` and returns its path."""
    version = site_version(site)
    top = f"probierlabor-{version}"
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{top}.zip"
    partial = target.with_suffix(".zip.part")
    files = site_files(site)  # before the zip is opened: a refused link leaves nothing behind
    with zipfile.ZipFile(partial, "w", compresslevel=9) as bundle:
        _add(bundle, f"{top}/LIESMICH.txt", _crlf(LIESMICH.format(version=version)))
        _add(bundle, f"{top}/start.bat", _crlf(START_BAT))
        _add(bundle, f"{top}/start.sh", START_SH.encode(), executable=True)
        _add(bundle, f"{top}/start.command", START_SH.encode(), executable=True)
        _add(bundle, f"{top}/start.py", (TOOLS / "bundle_start.py").read_bytes())
        _add(bundle, f"{top}/serve.py", (TOOLS / "serve.py").read_bytes())
        for path in files:
            rel = path.relative_to(site).as_posix()
            _add(bundle, f"{top}/site/{rel}", path.read_bytes(), packed=path.suffix in PACKED)
    partial.replace(target)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--out", default=str(ROOT / "dist"))
    args = parser.parse_args(argv)
    target = build(Path(args.site), Path(args.out))
    print(f"{target} ({target.stat().st_size / 1048576:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
