"""MkDocs hook: makes the built site installable and usable without a network.

After every other build step (the search index, the Python package zip) it writes to the site root
- ``manifest.webmanifest``: German name, relative start_url and scope, the icons from static/icons/;
- ``sw.js``: the service worker (template ``offline_sw.js``) with the list of every built file, its
  size and SHA-256 prefix; its version is the hash of that list, so any changed file makes a new
  version and an unchanged build keeps the old one. It also carries the headers every answer of the
  worker needs, as tools/serve.py sends them: the site's Content-Security-Policy, from the file csp.py writes
  (without it a Web Worker served from the offline copy runs unconfined), and the content type
  of each file name's ending (a stored copy's own type could be forged by any script of the origin).

The service worker must sit at the site root to control every page (scope ``./``).
Under ``mkdocs serve`` a cache-first worker would hide every edit, so there sw.js only removes itself
and its caches.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import mimetypes
from pathlib import Path
from posixpath import splitext
from urllib.parse import urlparse

from mkdocs.plugins import event_priority

TEMPLATE = Path(__file__).with_name("offline_sw.js")
SERVE = Path(__file__).resolve().parent.parent / "tools" / "serve.py"
SW_NAME = "sw.js"
MANIFEST_NAME = "manifest.webmanifest"
THEME_COLOUR = "#4051b5"  # mkdocs-material's indigo, the colour of the header
ICONS = (
    ("static/icons/icon-192.png", "192x192", "image/png", "any"),
    ("static/icons/icon-512.png", "512x512", "image/png", "any"),
    ("static/icons/icon-maskable-512.png", "512x512", "image/png", "maskable"),
    ("static/icons/icon.svg", "any", "image/svg+xml", "any"),
)

DEV_WORKER = """// mkdocs serve: no offline copy, so every edit shows at once; removes what a real build stored.
self.addEventListener("install", (event) => event.waitUntil((async () => {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of pages) client.postMessage({ type: "dev" });
  await self.skipWaiting();
})()));
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith("probierlabor ")) await caches.delete(name);
  await self.registration.unregister();
  // pages still showing the stored copy load again, from the development server
  for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url).catch(() => {});
})()));
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "status") return;
  (event.ports[0] || event.source).postMessage({ type: "status", dev: true });
});
"""

_serving = False


def on_startup(command, dirty):
    global _serving
    _serving = command == "serve"


def precache_list(site: Path) -> list[list]:
    """[path, bytes, sha256 prefix] for every file the site serves, sw.js itself excepted."""
    entries = []
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        # Hidden files are never linked, and many servers refuse to serve them.
        if path.is_file() and rel != SW_NAME and not any(part.startswith(".") for part in rel.split("/")):
            entries.append([rel, path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest()[:16]])
    return entries


def version_of(entries: list[list]) -> str:
    return hashlib.sha256(json.dumps(entries, separators=(",", ":")).encode()).hexdigest()[:12]


def _serve():
    """tools/serve.py, by path: the build runs without tools/ on sys.path, and the worker must answer
    with the very headers the server sends."""
    spec = importlib.util.spec_from_file_location("probierlabor_serve", SERVE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def content_types(entries: list[list], serve) -> dict[str, str]:
    """The type tools/serve.py sends (http.server's choice) for each file-name ending in ``entries``."""
    types = {}
    for path, *_ in entries:
        ending = splitext(path)[1].lower()
        types[ending] = (serve.Handler.extensions_map.get(ending) or mimetypes.guess_type("file" + ending)[0]
                         or "application/octet-stream")
    return types


def write_service_worker(site: Path, built_root: str = "/") -> str:
    """Writes sw.js for the files now in ``site``; returns the version. ``built_root`` is the path of
    site_url, from which MkDocs writes 404.html's links (the worker moves them to where it is served)."""
    entries = precache_list(site)
    version = version_of(entries)
    serve = _serve()
    head = (f"const VERSION = {json.dumps(version)};\n"
            f"const FILES = {json.dumps(entries, separators=(',', ':'))};\n"
            f"const BUILT_ROOT = {json.dumps(built_root)};\n"
            f"const POLICY = {json.dumps(serve.site_policy(site))};\n"
            f"const TYPES = {json.dumps(content_types(entries, serve), sort_keys=True)};\n")
    (site / SW_NAME).write_text(head + TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    return version


def manifest(config) -> dict:
    return {
        "name": f"{config['site_name']} – Maschinelles Lernen zum Ausprobieren",
        "short_name": config["site_name"],
        "description": config.get("site_description") or "",
        "lang": "de",
        "dir": "ltr",
        # Relative to this file at the site root: works under any host, port and folder.
        "start_url": "./",
        "scope": "./",
        "display": "minimal-ui",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": [{"src": src, "sizes": sizes, "type": kind, "purpose": purpose}
                  for src, sizes, kind, purpose in ICONS],
    }


@event_priority(-100)  # last: the search plugin and mkdocs_hooks/assemble.py write files in on_post_build too
def on_post_build(config):
    site = Path(config["site_dir"])
    text = json.dumps(manifest(config), ensure_ascii=False, indent=2) + "\n"
    (site / MANIFEST_NAME).write_text(text, encoding="utf-8")
    if _serving:
        (site / SW_NAME).write_text(DEV_WORKER, encoding="utf-8")
    else:
        write_service_worker(site, urlparse(config["site_url"] or "/").path or "/")
