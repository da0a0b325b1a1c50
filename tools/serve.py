"""Serve a built Probierlabor folder on loopback: what `make serve` runs and what a school can run.

Python's http.server alone guesses wrong types for .mjs and .wasm in some setups, and a browser
refuses a module script or streams no WebAssembly without the right type; hence this small wrapper.

    python tools/serve.py [FOLDER] [--port 8000] [--host 127.0.0.1]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import io
import os
import re
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import ClassVar

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
# The site's Content-Security-Policy as a header: the build writes it into this file of the site
# (mkdocs_hooks/csp.py, which also puts it into every page as a meta tag, less what only a header can
# say); read from there, the bundle, which has no build code, sends the very same policy.
POLICY_FILE = "content-security-policy.txt"
# Seconds a client has to send its whole request (line and headers): a browser sends it at once, in
# one packet, so only a stalled or hostile client meets the limit. It counts from the connection's
# start, not per read: a client dripping one byte every few seconds is cut off all the same.
REQUEST_TIMEOUT_S = 10
# Seconds one write of the answer (64 KiB) may wait for a client that stopped reading; a browser that
# reads meets it only on a network slower than about 2 KiB/s.
SEND_TIMEOUT_S = 30
# Connections served at once. Chromium opens at most 6 per host (Firefox likewise), so the page and its
# service worker, in a few browsers on the same computer, stay far below; every connection holds a
# thread, and without a cap 1 000 stalled ones would hold 1 000. Beyond the cap a connection waits
# (at most REQUEST_TIMEOUT_S, by which time a stalled one has been cut off) and then gets a 503.
MAX_CONNECTIONS = 64
# The first byte of a TLS handshake: a browser asked for https:// on this plain-HTTP port.
TLS_HANDSHAKE = b"\x16"
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\n"
        b"X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        b"Der Server ist gerade ausgelastet. Bitte die Seite gleich noch einmal laden.\n")


class _Deadline(io.RawIOBase):
    """The socket's reading side, with one deadline for everything read through it."""

    def __init__(self, connection: socket.socket, seconds: float, send_timeout: float):
        self._connection, self._send_timeout = connection, send_timeout
        self._end = time.monotonic() + seconds

    def readable(self):
        return True

    def readinto(self, buffer):
        left = self._end - time.monotonic()
        if left <= 0:
            raise TimeoutError("Anfrage nicht rechtzeitig vollständig")
        self._connection.settimeout(left)
        try:
            return self._connection.recv_into(buffer)
        finally:
            self._connection.settimeout(self._send_timeout)


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    # http.server answers a request line without a readable version as HTTP/0.9 (a body, no status line,
    # no headers); no client of this century speaks that, so every answer carries its status.
    default_request_version = "HTTP/1.0"
    timeout = SEND_TIMEOUT_S  # set on the socket by StreamRequestHandler.setup; reading has its deadline

    def setup(self):
        super().setup()
        # http.server answers one request per connection (HTTP/1.0), so all that is ever read is the
        # request line and the headers: one deadline for them.
        self.rfile.close()  # the socket stays open; only this reader of it goes
        self.rfile = io.BufferedReader(_Deadline(self.connection, self.server.request_timeout, self.timeout))

    def handle_one_request(self):
        # http.server answers a request line it cannot read (HTTP/9.9, no version, over 64 KiB) before it
        # has set the path, and end_headers reads it: without a path that answer would be a traceback.
        self.path = ""
        try:
            first = self.rfile.peek(1)[:1]
        except OSError:  # the deadline, or a reset: the read below meets it again and ends cleanly
            first = b""
        if first == TLS_HANDSHAKE:
            # Nothing a TLS client could read: close at once (a browser then says the connection failed)
            # instead of reading its binary hello as a request line, and tell the teacher why.
            self.close_connection = True
            self.log_message("%s", "Anfrage über https:// abgelehnt: Dieser Server spricht nur http://.")
            return
        super().handle_one_request()

    def send_head(self):
        try:
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors="strict")
        except UnicodeDecodeError:
            path = None
        # "/%ff" is no UTF-8, and a NUL would go on to open(): http.server raises on both (a traceback, no answer).
        if path is None or "\0" in path:
            self.send_error(400, "Ungültige Adresse")
            return None
        # A name with a leading dot is never part of the site (.env, .git, .htaccess of a copied folder);
        # split at the backslash too, which Windows reads as a separator.
        if any(part.startswith(".") for part in re.split(r"[/\\]", path)):
            self.send_error(404)
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
        # a browser must never guess another type than the one sent (a text file run as a script)
        self.send_header("X-Content-Type-Options", "nosniff")
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
    request_queue_size = MAX_CONNECTIONS  # while every slot is taken, the next ones wait in the kernel

    def process_request(self, request, client_address):
        if not self.slots.acquire(timeout=self.request_timeout):
            self._refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: nobody else gives the slot back
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def _refuse(self, request):
        try:
            request.settimeout(1)
            request.sendall(BUSY)
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request, client_address):
        # A browser that closes a connection early (a page change, a cancelled download) is normal use,
        # not a server fault worth a traceback in the teacher's terminal.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


def site_policy(folder: Path) -> str | None:
    found = Path(folder) / POLICY_FILE
    return found.read_text(encoding="utf-8").strip() if found.is_file() else None


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 8000, verbose: bool = False,
                timeout: float = REQUEST_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS):
    handler = functools.partial(Handler, directory=str(folder))
    server = Server((host, port), handler)
    server.verbose = verbose
    server.request_timeout = timeout
    server.slots = threading.BoundedSemaphore(max_connections)
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
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
