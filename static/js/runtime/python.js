// The page's one Python service: what static/py/boot.py hands over once the tab's Pyodide has loaded
// the page's package (api.run_json and three helpers), or why it could not. Every feature asks here:
// `runtime` holds the calls (null until ready), onReady/onFailure say when; static/js/runtime/start.js
// starts Python and passes connect/fail to boot.py.
export const runtime = { run: null, failure: null, started: performance.now() };

const ready = [];
const failed = [];
let resolveReady;
// The calls, with plain values in and out (the JSON between the page and Python is this file's
// business). Each needs Python ready: a feature asks ready() first, or waits with onReady/whenReady.
//   compute(slug, raw, layout) → api.run's result for the controls' raw values (or {error})
//   workshopScript(slug, values) → {script} or {error}: kit/workshop.fill for „Im Code nachrechnen“
//   checkWorkload(values) → [problem, …]: probierlabor/live/form.check for „Eigener Lauf“
//   systemcheck() → Promise of the report of static/py/boot.py's systemcheck (numpy and matplotlib loaded)
// Runs that must not block the page (the reader's code, the engine's own run) go to the tab's Python
// worker instead: static/js/runtime/worker.js.
export const python = Object.freeze({
  ready: () => Boolean(runtime.run),
  compute: (slug, raw, layout) => JSON.parse(runtime.run(slug, JSON.stringify(raw), layout)),
  workshopScript: (slug, values) => JSON.parse(runtime.workshop(slug, JSON.stringify(values))),
  checkWorkload: (values) => JSON.parse(runtime.liveCheck(JSON.stringify(values))),
  systemcheck: async () => JSON.parse(await runtime.systemcheck()),
});

// For a feature that waits once: resolved when Python is first ready.
export const whenReady = new Promise((resolve) => { resolveReady = resolve; });

export function connect(run, systemcheck, workshop, liveCheck) {
  runtime.run = run;
  runtime.systemcheck = systemcheck;
  runtime.workshop = workshop;  // kit/workshop.fill_json, for static/js/workshop/workshop.js
  runtime.liveCheck = liveCheck;  // probierlabor/live/form.check, for static/js/live/live.js
  runtime.readyAt = performance.now();
  resolveReady();
  for (const listener of ready) listener();
}

export function fail(message) {
  if (runtime.run || runtime.failure) return;
  runtime.failure = message;
  for (const listener of failed) listener(message);
}

// `listener` runs once Python is ready, at once if it is already; again after a test's connect().
export function onReady(listener) {
  ready.push(listener);
  if (runtime.run) queueMicrotask(listener);
}

export function onFailure(listener) {
  failed.push(listener);
  if (runtime.failure) queueMicrotask(() => listener(runtime.failure));
}

// A missing or corrupt runtime file would otherwise leave an endless spinner. The memory snapshot may
// be missing: Python then starts the usual way (static/js/runtime/python-start.mjs).
const OPTIONAL = /\/python-snapshot\.bin\.gz$/;
if ("PerformanceObserver" in window) {
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.responseStatus >= 400 && /\/static\/(vendor|py)\//.test(entry.name) && !OPTIONAL.test(entry.name.split("?")[0])) {
          const file = entry.name.split("?")[0].split("/").pop();
          fail(`Die Datei ${file} fehlt (HTTP ${entry.responseStatus}).`);
        }
      }
    }).observe({ type: "resource", buffered: true });
  } catch (_) { /* old browsers: the error events below still apply */ }
}
const runtimeError = (reason) => {
  const text = String((reason && (reason.message || reason)) || "");
  if (!runtime.run && /pyodide|wasm|WebAssembly|python/i.test(text)) {
    fail(`Fehler beim Start: ${text.split("\n")[0].slice(0, 200)}`);
  }
};
window.addEventListener("unhandledrejection", (e) => runtimeError(e.reason));
window.addEventListener("error", (e) => runtimeError(e.error || e.message));
