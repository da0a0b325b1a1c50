"""`make bundle` (tools/bundle.py) on a small stand-in site: what the zip holds, and that its start
script really serves the site on loopback with the MIME types a browser insists on."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tools import bundle

ROOT = Path(__file__).resolve().parents[2]

WASM = b"\0asm\x01\0\0\0" + bytes(range(256)) * 40


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "site"
    files = {
        "index.html": b"<!doctype html><title>Start</title>",
        "ewc/index.html": b"<!doctype html><title>EWC</title>",
        "sw.js": b'const VERSION = "0123456789ab";\nconst FILES = [];\n',
        "manifest.webmanifest": b'{"name": "Probierlabor"}',
        "static/vendor/pyodide/pyodide.asm.wasm": WASM,
        "static/vendor/pyodide/pyodide.mjs": b"export const x = 1;\n",
        "static/py/probierlabor-abc.zip": b"PK\x05\x06" + bytes(18),
    }
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_the_zip_holds_the_site_the_start_scripts_and_the_readme(site, tmp_path):
    target = bundle.build(site, tmp_path / "dist")
    assert target.name == "probierlabor-0123456789ab.zip"
    top = "probierlabor-0123456789ab/"
    with zipfile.ZipFile(target) as z:
        names = set(z.namelist())
        site_files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
        extras = ("LIESMICH.txt", "start.bat", "start.sh", "start.command", "start.py", "serve.py")
        assert names == {top + n for n in extras} | {top + "site/" + n for n in site_files}
        for name in site_files:
            assert z.read(top + "site/" + name) == (site / name).read_bytes(), name
        # start.sh and start.command must stay executable after unzipping; start.bat needs CRLF
        for name in ("start.sh", "start.command"):
            assert (z.getinfo(top + name).external_attr >> 16) & 0o111 == 0o111, name
        bat = z.read(top + "start.bat")
        assert b"\r\n" in bat and b"\n" not in bat.replace(b"\r\n", b"") and bat.isascii()
        assert b"start.py" in bat and b"start.py" in z.read(top + "start.sh")
        readme = z.read(top + "LIESMICH.txt").decode("utf-8")
        assert "file://" in readme and "WebAssembly" in readme and "start.bat" in readme and "0123456789ab" in readme
        assert z.read(top + "serve.py") == (ROOT / "tools" / "serve.py").read_bytes()
    # reproducible: the same site gives the same bytes
    first = target.read_bytes()
    assert bundle.build(site, tmp_path / "dist").read_bytes() == first


def test_a_folder_without_a_built_service_worker_is_refused(site, tmp_path):
    (site / "sw.js").unlink()
    with pytest.raises(SystemExit, match="make site"):
        bundle.build(site, tmp_path / "dist")


def test_the_unpacked_start_script_serves_wasm_and_modules_with_the_right_types(site, tmp_path):
    target = bundle.build(site, tmp_path / "dist")
    with zipfile.ZipFile(target) as z:
        z.extractall(tmp_path / "unpacked")
    folder = tmp_path / "unpacked" / "probierlabor-0123456789ab"
    process = subprocess.Popen(["sh", "start.sh", "--port", "0", "--kein-browser"], cwd=folder,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        line = process.stdout.readline().decode("utf-8")
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        origin = found.group(0)

        def get(path):
            with urllib.request.urlopen(origin + path, timeout=10) as response:
                return response.headers.get_content_type(), response.read()

        assert get("static/vendor/pyodide/pyodide.asm.wasm") == ("application/wasm", WASM)
        assert get("static/vendor/pyodide/pyodide.mjs")[0] == "text/javascript"
        assert get("manifest.webmanifest")[0] == "application/manifest+json"
        assert get("ewc/") == ("text/html", b"<!doctype html><title>EWC</title>")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def test_a_link_in_the_site_is_refused_not_followed(site, tmp_path):
    # a link to /etc would otherwise put the school computer's files on every USB stick made from it
    outside = tmp_path / "draussen"
    outside.mkdir()
    (outside / "passwd").write_text("root:x:0:0", encoding="utf-8")
    for link, target in (("static/passwd", outside / "passwd"), ("etc", outside)):
        (site / link).symlink_to(target)
        with pytest.raises(SystemExit, match=f"{link}.*Verknüpfung"):
            bundle.build(site, tmp_path / "dist")
        assert not list((tmp_path / "dist").glob("*"))
        (site / link).unlink()
    assert bundle.build(site, tmp_path / "dist").exists()


def _names(target):
    with zipfile.ZipFile(target) as z:
        return {name.split("/site/", 1)[1] for name in z.namelist() if "/site/" in name}


def test_names_with_a_leading_dot_stay_out_of_the_zip_at_any_depth(site, tmp_path, capsys):
    # a teacher's .env beside the site went onto every USB stick; tools/serve.py does not serve them either
    for name in (".env", "static/.git/config", "ewc/.notiz.html", ".well/index.html"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("TOKEN=geheim", encoding="utf-8")
    names = _names(bundle.build(site, tmp_path / "dist"))
    assert "index.html" in names and not [name for name in names if "/." in "/" + name]
    notes = capsys.readouterr().err
    assert "ausgelassen: .env" in notes and "ausgelassen: static/.git" in notes


def test_a_fifo_is_left_out_with_a_note_not_waited_for(site, tmp_path, capsys):
    fifo = site / "static" / "warteschlange"
    os.mkfifo(fifo)
    results = []
    packing = threading.Thread(target=lambda: results.append(bundle.build(site, tmp_path / "dist")), daemon=True)
    packing.start()
    packing.join(timeout=10)
    if packing.is_alive():  # a build that reads the FIFO blocks: let it go before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("bundle.build waits on a FIFO")
    assert "static/warteschlange" not in _names(results[0]) and "index.html" in _names(results[0])
    assert "ausgelassen: static/warteschlange (keine normale Datei" in capsys.readouterr().err


def test_a_hard_link_out_of_the_site_is_refused_one_within_is_packed_under_each_name(site, tmp_path):
    private = tmp_path / "privat.txt"
    private.write_text("root:x:0:0", encoding="utf-8")
    os.link(private, site / "static" / "notiz.txt")
    with pytest.raises(SystemExit, match=r"static/notiz.txt ist ein harter Link.*außerhalb"):
        bundle.build(site, tmp_path / "dist")
    assert not list((tmp_path / "dist").glob("*"))
    (site / "static" / "notiz.txt").unlink()
    os.link(site / "index.html", site / "start.html")
    target = bundle.build(site, tmp_path / "dist")
    with zipfile.ZipFile(target) as z:
        top = "probierlabor-0123456789ab/site/"
        assert z.read(top + "start.html") == z.read(top + "index.html") == (site / "index.html").read_bytes()
