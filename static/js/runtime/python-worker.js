// A Web Worker with its own Pyodide, for Python that must not run on the page's main thread: the
// reader's script of „Im Code nachrechnen“ (static/py/workshop_run.py), the engine's „Eigener
// Lauf“ (static/py/engine_run.py) and the language model of „Am echten Modell“
// (static/py/realmodel_run.py). In a worker a long or endless run never freezes the page, and
// ending the worker ends the run (static/js/runtime/worker.js). Everything loads from this site (offline),
// and nothing needs cross-origin isolation. A module worker: pyodide.mjs is an ES module.
import { startPython } from "./python-start.mjs";

// What a task needs on top of Python: Pyodide packages, a zip of our code (its URL comes with the
// message: the page knows the built names) and a runner script that defines run(*args, tell).
// Each is loaded on the first run of a task that needs it, so a live engine run never pays for
// matplotlib.
// The packages load one by one, so the page can say which one it waits for (a phone takes most of a
// minute on the first run); stage: the status line while the zip loads, if any.
// tells: the runner gets the function that sends to the page (the engine's progress). The workshop
// runs the reader's own code, which could reach that function through Python's frames: it gets none.
const TASKS = {
  workshop: { packages: ["numpy", "matplotlib"], script: "workshop_run.py", tells: false },
  engine: { stage: "engine", packages: ["numpy"], script: "engine_run.py", tells: true },
  realmodel: { stage: "engine", packages: ["numpy"], script: "realmodel_run.py", tells: true },
};
// Messages one run may send (the engine reports each of its at most 5000 steps); more are dropped and
// counted, so that nothing floods the page's main thread.
const MESSAGES_PER_RUN = 6000;

// The page listens only on the MessagePort it sends first (static/js/runtime/worker.js), kept here out of
// reach of the reader's code; the worker's global postMessage, which that code could use, is removed
// (Pyodide then schedules with a MessageChannel of its own). Taken now, before any code of a run
// could replace them.
const post = MessagePort.prototype.postMessage;
const apply = Reflect.apply;
let port = null;
delete DedicatedWorkerGlobalScope.prototype.postMessage;

let pyodide = null;
const zips = {};  // bundle URL -> Promise, one download per worker
const runners = {};  // task -> Promise<run>

// What loads for a run (Python, a task's packages, our zip, the model's files) may have begun before the run
// was asked for (a warm start, see `prepare` in static/js/runtime/worker.js): its status lines go to every
// run of that task that waits (Python's to every run), and a run that comes in between gets the latest at once.
const waiting = new Map();  // the tell() of each run that waits for loading → its task
const loading = {};  // task ("" for Python itself) → its latest status line while it loads
const announce = (task, message) => {
  loading[task] = message;
  for (const [tell, mine] of waiting) if (!task || mine === task) tell(message);
};

function python() {
  if (!pyodide) {
    announce("", { type: "status", stage: "python" });
    pyodide = startPython({
      indexURL: new URL("../../vendor/pyodide/", import.meta.url).href,
      stdout: (line) => console.log("[python]", line),
      stderr: (line) => console.warn("[python]", line),
    }).then((started) => started.py).finally(() => { delete loading[""]; });
  }
  return pyodide;
}

// The page's zip of our code (the probierlabor package and the engine), imported in place (as
// static/py/boot.py does), ahead of what is on the path.
async function bundle(py, url) {
  if (!zips[url]) {
    zips[url] = (async () => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
      const file = `/home/pyodide/${url.split("/").pop()}`;
      py.FS.writeFile(file, new Uint8Array(await response.arrayBuffer()));
      py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(file)})`);
    })();
  }
  return zips[url];
}

// Files a run needs in Python's file system (the trained models), fetched once per worker each.
const placed = {};  // path -> Promise
function place(py, files, task) {
  const missing = Object.keys(files).filter((path) => !placed[path]);
  if (missing.length) announce(task, { type: "status", stage: "files" });
  for (const path of missing) {
    placed[path] = (async () => {
      const response = await fetch(files[path]);
      if (!response.ok) throw new Error(`${path.split("/").pop()}: HTTP ${response.status}`);
      py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      py.FS.writeFile(path, new Uint8Array(await response.arrayBuffer()));
    })();
    placed[path].catch(() => delete placed[path]);
  }
  return Promise.all(Object.keys(files).map((path) => placed[path]));
}

async function runner(name, bundleUrl) {
  const task = TASKS[name];
  if (!task) throw new Error(`unbekannte Aufgabe ${name}`);
  if (!runners[name]) {
    runners[name] = (async () => {
      const py = await python();
      for (const [i, pkg] of task.packages.entries()) {
        announce(name, { type: "status", stage: "package", name: pkg, index: i + 1, count: task.packages.length });
        await py.loadPackage(pkg, { messageCallback: () => {} });
      }
      if (task.stage) announce(name, { type: "status", stage: task.stage });
      await bundle(py, bundleUrl);
      const response = await fetch(new URL(`../../py/${task.script}`, import.meta.url));
      if (!response.ok) throw new Error(`${task.script}: HTTP ${response.status}`);
      const scope = py.globals.get("dict")();  // each runner in its own namespace
      py.runPython(await response.text(), { filename: task.script, globals: scope });
      return scope.get("run");
    })();
    runners[name].catch(() => delete runners[name]);
  }
  return runners[name];
}

self.addEventListener("message", (event) => {
  if (port || !event.ports.length) return;
  port = event.ports[0];
  port.addEventListener("message", serve);
  port.start();
});

// Everything a run of task needs, loaded (once per worker): → [run, seconds spent waiting for the files].
async function ready(task, bundleUrl, files) {
  try {
    const run = await runner(task, bundleUrl);
    const asked = performance.now();
    await place(await python(), files, task);
    return [run, (performance.now() - asked) / 1000];
  } finally {
    delete loading[task];
  }
}

async function serve(event) {
  const { id, task, args, bundle: bundleUrl, files = {}, prepare } = event.data;
  if (prepare) {  // a warm start: load, run nothing; a failure is told by the run that follows
    ready(task, bundleUrl, files).catch(() => {});
    return;
  }
  let sent = 0;
  let dropped = 0;
  const send = (message) => apply(post, port, [{ id, ...message }]);
  const tell = (message) => {
    if (sent >= MESSAGES_PER_RUN) dropped += 1;
    else {
      sent += 1;
      send(typeof message === "string" ? JSON.parse(message) : message);
    }
  };
  let run;
  let fetched = 0;  // seconds this run waited for its files (make bench: the model's load)
  waiting.set(tell, task);
  const now = loading[task] || loading[""];
  if (now) tell(now);
  try {
    [run, fetched] = await ready(task, bundleUrl, files);
  } catch (error) {
    send({ type: "failed", message: String((error && error.message) || error).split("\n")[0] });
    return;
  } finally {
    waiting.delete(tell);
  }
  send({ type: "running" });  // from here on, the page's time limit counts
  const started = performance.now();
  let result;
  try {
    result = JSON.parse(TASKS[task].tells ? run(...args, tell) : run(...args));
  } catch (error) {  // the runners answer every error themselves; this is one of ours
    send({ type: "failed", message: String((error && error.message) || error).trim().split("\n").pop() });
    return;
  }
  send({ type: "done", seconds: (performance.now() - started) / 1000, fetched, dropped, ...result });
}
