"""Serve a built Probierlabor folder on loopback: what `make serve` runs and what a school can run.

Python's http.server alone guesses wrong types for .mjs and .wasm in some setups, and a browser
refuses a module script or streams no WebAssembly without the right type; hence this small wrapper.

    python tools/serve.py [FOLDER] [--port 8000] [--host 127.0.0.1]
"""

from __future__ import annotations

import argparse
import functools
import html
import http.server
import os
import re
import sys
import urllib.parse
from pathlib import Path

TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".woff2": "font/woff2",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}
# The build writes the site's Content-Security-Policy into every page (mkdocs_hooks/csp.py); the
# server repeats it as a header, which also covers workers and sw.js, read from the page so that the
# bundle, which has no build code, sends the very same policy.
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
# Seconds a connection may stay silent; a browser sends its request at once, so only a stalled or
# hostile client meets it, and each such connection would otherwise keep a thread forever.
REQUEST_TIMEOUT_S = 30


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def setup(self):
        self.timeout = self.server.request_timeout  # read by StreamRequestHandler.setup
        super().setup()

    def send_head(self):
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors="surrogatepass")
        # http.server would pass the NUL on to open(), which raises ValueError (a traceback, no answer).
        if "\0" in path:
            self.send_error(400, "Ungültige Adresse")
            return None
        if not self._inside(self.translate_path(self.path)):
            self.send_error(404)
            return None
        return super().send_head()

    def _inside(self, target: str) -> bool:
        # A symlink in the served folder must not publish what it points to outside (a link to /etc).
        # A folder's answer is its index.html, which may be such a link itself.
        if os.path.isdir(target):
            target = os.path.join(target, "index.html")
        root = os.path.realpath(self.directory)
        try:
            return os.path.commonpath([root, os.path.realpath(target)]) == root
        except ValueError:  # Windows: a link to another drive has no common path with the folder
            return False

    def list_directory(self, path):
        # No listings: the site links every file it needs, and a listing only shows what was never meant
        # to be browsed (a teacher's other files in a copied folder).
        self.send_error(404)
        return None

    def end_headers(self):
        # Pages must revalidate (a rebuilt site shows at once); the vendored runtime never changes
        # under the same name within a build, so it may be reused for a day without asking.
        if self.server.policy:
            self.send_header("Content-Security-Policy", self.server.policy)
        if "/static/vendor/" in self.path or "/static/py/probierlabor-" in self.path:
            self.send_header("Cache-Control", "public, max-age=86400")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_error(self, code, message=None, explain=None):
        # A missing address gets the site's own 404 page (German, with navigation and search), as on a
        # web server configured for MkDocs; anything else keeps http.server's plain answer.
        page = Path(self.directory) / "404.html"
        if code != 404 or self.command != "GET" or not page.is_file():
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        if self.server.verbose:
            super().log_message(fmt, *args)


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser that closes a connection early (a page change, a cancelled download) is normal use,
        # not a server fault worth a traceback in the teacher's terminal.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


def site_policy(folder: Path) -> str | None:
    start = Path(folder) / "index.html"
    found = POLICY_META.search(start.read_text(encoding="utf-8")) if start.is_file() else None
    return html.unescape(found.group(1)) if found else None


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False,
                timeout: float = REQUEST_TIMEOUT_S):
    handler = functools.partial(Handler, directory=str(folder))
    server = Server((host, port), handler)
    server.verbose = verbose
    server.request_timeout = timeout
    server.policy = site_policy(folder)
    server.daemon_threads = True
    return server


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", default=str(Path(__file__).resolve().parent.parent / "site"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "index.html").exists():
        print(f"{folder} enthält keine gebaute Website (index.html fehlt). Erst `make site` ausführen.", file=sys.stderr)
        return 1
    server = make_server(folder, args.host, args.port, verbose=True)
    print(f"Probierlabor läuft auf http://{args.host}:{server.server_port}/  (Beenden mit Strg+C)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
