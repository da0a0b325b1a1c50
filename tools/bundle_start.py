"""Startet Probierlabor aus diesem Ordner: ein kleiner Webserver nur für diesen Rechner (127.0.0.1),
dann öffnet sich der Browser. (In the bundle made by tools/bundle.py this file is start.py, next to
serve.py and the folder site/; start.sh, start.command and start.bat call it.)

    python3 start.py [--port 8000] [--kein-browser]
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from pathlib import Path

from serve import make_server  # start.py runs as a script: serve.py lies beside it

HERE = Path(__file__).resolve().parent

TRIES = 10


def _free(port: int) -> bool:
    # A plain bind first: on Windows the server's SO_REUSEADDR would share a port that is in use.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _quiet(handle_error):
    # A browser that closes a tab mid-download resets the connection: no traceback in a teacher's window.
    def handle(request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            handle_error(request, client_address)
    return handle


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8000,
                        help="erster Anschluss, der probiert wird (0: irgendein freier)")
    parser.add_argument("--kein-browser", action="store_true", help="den Browser nicht öffnen")
    args = parser.parse_args(argv)
    site = HERE / "site"
    if not (site / "index.html").exists():
        print(f"Der Ordner {site} fehlt oder ist unvollständig. Bitte das Paket neu entpacken.", file=sys.stderr)
        return 1
    ports = [0] if args.port == 0 else range(args.port, args.port + TRIES)
    server = None
    for port in ports:
        if port and not _free(port):
            continue
        try:
            server = make_server(site, "127.0.0.1", port)
            break
        except OSError:
            continue
    if server is None:
        print(f"Die Anschlüsse {args.port} bis {args.port + TRIES - 1} sind belegt. Ein anderes Programm "
              "(oder Probierlabor) läuft schon? Mit --port 9000 einen anderen wählen.", file=sys.stderr)
        return 1
    server.handle_error = _quiet(server.handle_error)
    url = f"http://127.0.0.1:{server.server_port}/"
    print(f"Probierlabor läuft auf {url}", flush=True)
    print("Dieses Fenster offen lassen. Beenden: Strg+C oder das Fenster schließen.", flush=True)
    if not args.kein_browser:
        threading.Timer(0.5, webbrowser.open, [url]).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
