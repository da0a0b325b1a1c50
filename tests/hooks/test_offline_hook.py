"""mkdocs_hooks/offline.py: the service worker lists every built file, its version follows the content,
the manifest is relative and its icons exist."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("offline_hook", ROOT / "mkdocs_hooks" / "offline.py")
offline = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(offline)


def _worker_files(site: Path):
    text = (site / "sw.js").read_text(encoding="utf-8")
    version = re.match(r'const VERSION = "([0-9a-f]{12})";\nconst FILES = (.*);\n', text)
    return version.group(1), json.loads(version.group(2))


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "site"
    for name, data in {"index.html": "<p>Start</p>", "ewc/index.html": "<p>EWC</p>", "static/a b.js": "1;",
                       ".hidden": "x", "sw.js": "old"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(data)
    return root


def test_the_worker_lists_every_file_with_size_and_hash(site):
    offline.write_service_worker(site)
    version, files = _worker_files(site)
    assert [f[0] for f in files] == ["ewc/index.html", "index.html", "static/a b.js"]  # not sw.js, no hidden files
    for path, size, digest in files:
        data = (site / path).read_bytes()
        assert size == len(data) and digest == hashlib.sha256(data).hexdigest()[:16]
    assert version == offline.version_of(files)


def test_the_worker_answers_with_the_policy_the_server_sends(site):
    """Every answer of the offline copy carries the site's Content-Security-Policy (a Web Worker from the
    cache would run unconfined without it): the same text tools/serve.py reads from the file the build writes."""
    from tools import serve

    offline.write_service_worker(site)
    assert "const POLICY = null;" in (site / "sw.js").read_text(encoding="utf-8")  # a page without one
    (site / serve.POLICY_FILE).write_text("default-src 'self'; connect-src 'self'\n", encoding="utf-8")
    offline.write_service_worker(site)
    policy = serve.site_policy(site)
    assert policy == "default-src 'self'; connect-src 'self'"
    assert f"const POLICY = {json.dumps(policy)};" in (site / "sw.js").read_text(encoding="utf-8")


def test_the_worker_serves_each_file_with_the_type_of_its_name(site):
    """The type the server sends, for every ending the site has; never a stored copy's own header."""
    (site / "static" / "x.WASM").write_bytes(b"\0asm")
    (site / "static" / "snapshot.bin.gz").write_bytes(b"\x1f\x8b")
    offline.write_service_worker(site)
    types = json.loads(re.search(r"^const TYPES = (.*);$", (site / "sw.js").read_text(encoding="utf-8"), re.M).group(1))
    assert types == {".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm",
                     ".gz": "application/gzip"}


def test_the_version_changes_with_any_file_and_only_then(site, tmp_path):
    first = offline.write_service_worker(site)
    assert offline.write_service_worker(site) == first
    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    assert offline.write_service_worker(copy) == first  # the folder's name or place does not count
    (copy / "ewc" / "index.html").write_text("<p>EWC, neu</p>")
    assert offline.write_service_worker(copy) != first


def test_the_written_worker_is_valid_javascript(site):
    if not shutil.which("node"):
        pytest.skip("node fehlt")
    offline.write_service_worker(site)
    result = subprocess.run(["node", "--check", str(site / "sw.js")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_manifest_is_relative_german_and_its_icons_exist():
    manifest = offline.manifest({"site_name": "Probierlabor", "site_description": "Zum Ausprobieren"})
    assert manifest["start_url"] == "./" and manifest["scope"] == "./" and manifest["lang"] == "de"
    assert manifest["short_name"] == "Probierlabor"
    purposes = set()
    for icon in manifest["icons"]:
        path = ROOT / icon["src"]
        assert path.exists(), icon["src"]
        purposes.add(icon["purpose"])
        if icon["type"] == "image/png":
            data = path.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert f"{width}x{height}" == icon["sizes"]
    assert purposes == {"any", "maskable"}
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}  # what browsers ask for to install
