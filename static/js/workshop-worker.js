// „Im Code nachrechnen“: a Web Worker with its own Pyodide that runs the reader's script
// (static/py/workshop_run.py). In a worker, a long or endless run never freezes the page, and
// static/js/workshop.js can end it by ending the worker. Everything loads from this site (offline),
// and nothing needs cross-origin isolation. A module worker: pyodide.mjs is an ES module.
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";

let runner = null;

async function start(tell, bundle) {
  tell({ type: "status", stage: "python" });
  const pyodide = await loadPyodide({
    indexURL: new URL("../vendor/pyodide/", import.meta.url).href,
    stdout: (line) => console.log("[werkstatt]", line),
    stderr: (line) => console.warn("[werkstatt]", line),
  });
  tell({ type: "status", stage: "packages" });
  await pyodide.loadPackage(["numpy", "matplotlib"], { messageCallback: () => {} });
  // The page's own Python package (a zip, imported in place as in static/py/boot.py): a script may read
  // a page's data from it, as continual learning reads its 290 messages instead of repeating them.
  const zip = await fetch(bundle);
  if (!zip.ok) throw new Error(`${bundle.split("/").pop()}: HTTP ${zip.status}`);
  pyodide.FS.writeFile("/home/pyodide/probierlabor.zip", new Uint8Array(await zip.arrayBuffer()));
  pyodide.runPython("import sys; sys.path.append('/home/pyodide/probierlabor.zip')");
  const response = await fetch(new URL("../py/workshop_run.py", import.meta.url));
  if (!response.ok) throw new Error(`workshop_run.py: HTTP ${response.status}`);
  pyodide.runPython(await response.text(), { filename: "workshop_run.py" });
  return pyodide.globals.get("run");
}

self.addEventListener("message", async (event) => {
  const { id, code, style, bundle } = event.data;
  const tell = (message) => self.postMessage({ id, ...message });
  let run;
  try {
    runner = runner || start(tell, bundle);
    run = await runner;
  } catch (error) {
    tell({ type: "failed", message: String((error && error.message) || error).split("\n")[0] });
    return;
  }
  tell({ type: "running" });  // from here on, the page's time limit counts
  const started = performance.now();
  const result = JSON.parse(run(code, JSON.stringify(style)));
  tell({ type: "done", seconds: (performance.now() - started) / 1000, ...result });
});
