# The browser side of Probierlabor, started once per tab by the theme shell.
# It loads the probierlabor package (the same code the tests and the build run) and hands
# api.run_json to static/js/probierlabor.js, which mounts every experiment on every page.
import sys

from pyodide.http import pyfetch
from pyscript import ffi, window


class _ConsoleStream:
    """Python's stderr as console warnings: library chatter (e.g. matplotlib's
    'building the font cache') is not an error and must not alarm the reader."""

    def __init__(self, sink):
        self.sink, self.buffer = sink, ""

    def write(self, text):
        self.buffer += text
        *lines, self.buffer = self.buffer.split("\n")
        for line in lines:
            if line.strip():
                self.sink(line)
        return len(text)

    def flush(self):
        pass


sys.stderr = _ConsoleStream(window.console.warn)

try:
    response = await pyfetch(window.probierlaborConfig.bundle)  # noqa: F704 - PyScript allows top-level await
    if not response.ok:
        raise RuntimeError(f"{window.probierlaborConfig.bundle} antwortet mit HTTP {response.status}")
    await response.unpack_archive(extract_dir="/home/pyodide/lib", format="zip")  # noqa: F704
    sys.path.insert(0, "/home/pyodide/lib")
    from probierlabor import api

    window.probierlabor.connect(ffi.create_proxy(api.run_json))
except Exception as error:  # noqa: BLE001 - shown to the reader as a German message
    window.probierlabor.fail(f"Das Python-Paket der Seite konnte nicht geladen werden ({type(error).__name__}: {error}).")
