// Starts the tab's one Python runtime: the first module the page's entry (static/js/main.js) imports,
// from <head>, ahead of the theme's bundle (overrides/main.html defers it), so Pyodide's downloads and
// WebAssembly compile run while the page is still being laid out. What Python hands over goes to the
// page's Python service (static/js/runtime/python.js); the features mount from there.
import { BASE, siteUrl } from "../site.js";
import { afterPause } from "./pause.js";
import { connect, fail } from "./python.js";

const meta = (name) => siteUrl(document.querySelector(`meta[name="${name}"]`).content);
// bundle: the page's Python package, which also carries the engine modules that the Python worker runs on a
// first „Eigener Lauf“ (static/js/live/live.js)
export const config = { bundle: meta("probierlabor-bundle") };
// The page's Python package is fetched now, while Pyodide downloads and compiles, and not after
// Python is ready (static/py/boot.py awaits it). It always resolves: to the bytes or to {error}.
const bundleData = fetch(config.bundle).then((response) => (
  response.ok ? response.arrayBuffer() : { error: `HTTP ${response.status}` }
)).catch((error) => ({ error: String((error && error.message) || error) }));

// ---- Python itself ----------------------------------------------------------------------
// Pyodide starts here and runs static/py/boot.py itself, with no framework in between: it starts as early
// as the page allows, nothing in the page's HTML is ever run as Python (one missed escape would be code),
// and the policy needs no 'unsafe-eval'.
//
// Every start, the first visit's too, begins from the memory snapshot the build ships (see
// static/js/runtime/python-start.mjs, shared with the Python worker): on plain http too, and offline the
// service worker serves it like any other file.
const indexURL = siteUrl("static/vendor/pyodide/");
const bootURL = siteUrl("static/py/boot.py");
// For tests and the bench: "none" until the snapshot has served ("restored") or is left aside ("off": the
// usual start follows).
config.snapshot = { state: "none" };

// This name in Cache Storage holds nothing the site reads (a 21 MB snapshot a browser may still keep from
// before the build shipped one): freed after a pause, so it takes none of the browser's storage.
if (window.caches && window.isSecureContext) {
  afterPause(() => { window.caches.delete("probierlabor-python " + new URL(BASE).pathname).catch(() => {}); });
}

// Not before the first paint, though: Pyodide's 1,2 MB of JavaScript and the WebAssembly compile
// would take the cores the first paint needs (the bench's first content went from ≤ 0,54 s to 0,8 s).
// The timer covers browsers without paint timing and a tab that does not paint (opened in the background).
const firstPaint = new Promise((resolve) => {
  setTimeout(resolve, 1000);
  try {
    new PerformanceObserver((list, observer) => {
      observer.disconnect();
      resolve();
    }).observe({ type: "paint", buffered: true });
  } catch (_) { /* no paint timing: the timer above */ }
});

// python-start.mjs is imported then, not with this module: a file that does not come is said in German.
config.pyodide = firstPaint.then(() => import("./python-start.mjs").catch(() => {
  throw Object.assign(new Error("python-start.mjs"), { german: "Die Datei python-start.mjs konnte nicht geladen werden." });
})).then((start) => start.startPython({ indexURL }, (file, error) => {
  fail(`Die Datei ${file} ist beschädigt (${String(error.message).slice(0, 120)}).`);
}, (restored) => {
  config.snapshot.state = restored ? "restored" : "off";
})).then((started) => started.py);
config.pyodide.catch((error) => {
  fail((error && error.german) || "Fehler beim Start: " + String((error && error.message) || error).split("\n")[0].slice(0, 200));
});

// boot.py reports to the service through probierlabor_page; what it cannot catch (a file that does not
// come, an error before its own try) is reported here. Fetched at once: it waits for Python, not Python for it.
const bootCode = fetch(bootURL).then((response) => {
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
});
bootCode.catch((error) => {
  fail(`Die Datei boot.py konnte nicht geladen werden (${String((error && error.message) || error)}).`);
});
Promise.all([config.pyodide, bootCode]).then(([py, code]) => {
  py.registerJsModule("probierlabor_page", { bundle: config.bundle, bundleData, connect, fail });
  return py.runPythonAsync(code, { filename: bootURL }).catch((error) => {
    fail("Fehler beim Start: " + String((error && error.message) || error).trim().split("\n").pop().slice(0, 200));
  });
}, () => { /* reported above */ });
