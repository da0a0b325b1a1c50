# The browser side of Probierlabor, run once per tab by static/js/runtime/start.js in the page's Pyodide.
# It loads the probierlabor package (the same code the tests and the build run) and hands
# api.run_json to the page's Python service (static/js/runtime/python.js), which every experiment uses.
# probierlabor_page is that service's end for Python (registered by start.js): the package's bytes,
# connect() and fail().
import sys

import js as window
import probierlabor_page as page
from pyodide import ffi


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


async def _systemcheck():
    """For school IT (pages/systemcheck.md): load the heavy packages from this server, draw one
    matplotlib figure, and show that an unshipped package fails at once instead of hanging."""
    import base64
    import io
    import json
    import time

    import pyodide_js

    report = {"python": sys.version.split()[0], "pyodide": str(pyodide_js.version)}
    start = time.perf_counter()
    await pyodide_js.loadPackage("numpy")
    import numpy

    report["numpy"] = {"version": numpy.__version__, "seconds": time.perf_counter() - start}
    start = time.perf_counter()
    await pyodide_js.loadPackage("matplotlib")
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(4.8, 2.6), dpi=100, layout="constrained")
    temps = numpy.linspace(15, 35, 81)
    axes.plot(temps, 220 - 0.83 * (temps - 30) ** 2, color="#0066a1", linewidth=2.5)
    axes.set(xlabel="Temperatur (°C)", ylabel="Kugeln", title="matplotlib läuft")
    comma = matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}".replace(".", ","))
    axes.xaxis.set_major_formatter(comma)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    plt.close(figure)
    report["matplotlib"] = {"version": matplotlib.__version__, "seconds": time.perf_counter() - start,
                            "png": base64.b64encode(buffer.getvalue()).decode()}
    from pyodide.ffi import JsException

    start = time.perf_counter()
    report["unshipped"] = {"name": "scipy", "missing": True}
    try:
        await pyodide_js.loadPackage("scipy")  # the shipped lock does not know it: refused at once
    except JsException as refusal:
        report["unshipped"]["refusal"] = str(refusal)
    try:
        import scipy  # noqa: F401 - must not be there
        report["unshipped"]["missing"] = False
    except ModuleNotFoundError:
        pass
    report["unshipped"]["seconds"] = time.perf_counter() - start
    return json.dumps(report)

def _workshop(slug, raw_json):
    """„Im Code nachrechnen“ (static/js/workshop/workshop.js): the page's script with the experiment's values.
    Imported on first use, so a page's cold start does not pay for it."""
    from probierlabor.kit import workshop

    return workshop.fill_json(slug, raw_json)


def _live_check(settings_json):
    """„Eigener Lauf“ (static/js/live/live.js): every problem of a workload that the form shows without the
    engine, as a JSON list, at once; the worker loads numpy and the engine only for a workload without."""
    import json

    from probierlabor.live import form

    return json.dumps(form.check(json.loads(settings_json)), ensure_ascii=False)


try:
    # The zip carries bytecode (mkdocs_hooks/bytecode.py) and is imported in place: nothing to unpack,
    # nothing to compile. Its stdlib/ folder holds bytecode of the few standard modules the bare runtime
    # has not loaded; they come from Pyodide's own sources, compiled by the same Pyodide at build time.
    data = await page.bundleData  # noqa: F704 - runPythonAsync allows top-level await
    if getattr(data, "error", None):
        raise RuntimeError(f"{page.bundle} antwortet mit {data.error}")
    BUNDLE = "/home/pyodide/probierlabor.zip"
    with open(BUNDLE, "wb") as handle:
        handle.write(data.to_bytes())
    sys.path[0:0] = [BUNDLE, BUNDLE + "/stdlib"]
    from probierlabor.kit import api

    page.connect(ffi.create_proxy(api.run_json), ffi.create_proxy(_systemcheck),
                 ffi.create_proxy(_workshop), ffi.create_proxy(_live_check))
except Exception as error:
    page.fail(f"Das Python-Paket der Seite konnte nicht geladen werden ({type(error).__name__}: {error}).")
