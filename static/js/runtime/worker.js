// The tab's one Python Web Worker (static/js/runtime/python-worker.js), shared by everything that runs
// Python off the page's main thread: „Im Code nachrechnen“ (static/js/workshop/workshop.js), „Eigener
// Lauf“ (static/js/live/live.js) and „Am echten Modell“ (static/js/realmodel/frame.js). It starts on
// the first run, or a little earlier where the reader shows that a run is coming (prepare), so a page's
// cold start never pays for it; ending it is the only way to stop Python in the middle of a run, and the
// next run starts a new one.
import { de } from "../fmt.js";
import { siteUrl } from "../site.js";

// From the site's root (static/js/site.js), as every runtime file: this module is shared by pages at
// any depth of the site.
const url = () => siteUrl("static/js/runtime/python-worker.js");
let worker = null;
let port = null;
let runs = 0;
const prepared = new Set();  // the tasks this worker was asked to load for ahead of a run (prepare)

// The reader's code runs inside the worker and could post to the page as the worker does: so the
// worker's own messages are not listened to. Its first message from here is a MessagePort, which only
// the worker's script keeps (static/js/runtime/python-worker.js); every run is asked and answered on it.
function start() {
  worker = new Worker(url(), { type: "module" });
  const channel = new MessageChannel();
  worker.postMessage({ type: "port" }, [channel.port2]);
  port = channel.port1;
  port.start();
}

function end() {
  if (worker) worker.terminate();
  if (port) port.close();
  worker = null;
  port = null;
  prepared.clear();
}

// A warm start: the worker loads what a run of task needs (Python, its packages, the zip at bundle,
// files) and runs nothing, so that a run that follows finds it there; a run asked for meanwhile waits for
// the same loading, with its status lines. For a sign that the reader is about to run (a block opened, the
// pointer on its summary): Python, numpy and matplotlib take seconds to load, and the reader's press
// then waits only for what is left. Nothing loads that the run would not load, and a failure is told by
// the run.
function prepare(task, bundle, files = {}) {
  if (prepared.has(task)) return;
  if (!worker) start();
  prepared.add(task);
  port.postMessage({ task, bundle, files, prepare: true });
}

// Runs task with args (strings) and the zip at bundle; listen(message) gets this run's messages
// (status, running, progress, done, failed) until detach(). files ({path in Python's file system: URL},
// optional) are fetched into the worker before the run, once per worker (the trained models).
// A worker that breaks down reports "failed" and is ended.
function run(task, args, bundle, listen, files = {}) {
  if (!worker) start();
  const mine = worker;
  const channel = port;
  const id = (runs += 1);  // a worker's messages name their run: one worker serves every page
  const message = (event) => { if (event.data.id === id) listen(event.data); };
  const broken = (event) => {
    event.preventDefault();
    end();
    listen({ type: "failed", message: event.message || "Web Worker" });
  };
  channel.addEventListener("message", message);
  mine.addEventListener("error", broken);
  channel.postMessage({ id, task, args, bundle, files });
  return {
    detach() {
      channel.removeEventListener("message", message);
      mine.removeEventListener("error", broken);
    },
  };
}

// The worker caps the messages of a run (python-worker.js) and says how many it left out.
const dropped = (count) => `${de(count, 0)} Meldungen des Laufs wurden verworfen: zu viele auf einmal.`;

// A run with the course both sections share: status lines while Python and the packages load, a
// time limit from the moment Python runs, „Abbrechen“ and a breakdown end the worker. o: limit
// (seconds), text (running, timeout, stopped, failed(message), one line per loading stage: a text,
// or a function of the stage's message, e.g. package({ name, index, count })), say(text, kind),
// end() once the run is over, whatever ended it, progress(data) (optional), and done(data, finish)
// for the result, which calls finish(text, kind); data.total is the time from the press (this call)
// to the result, data.seconds the run's own; files (optional) as for run(). Returns { stop }.
function session(task, args, bundle, o) {
  const pressed = performance.now();
  let timer = null;
  let job = null;
  let over = false;
  const finish = (text, kind) => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    job.detach();
    o.end();
    o.say(text, kind);
  };
  const halt = (text) => { end(); finish(text, "error"); };
  const listen = (data) => {
    if (data.type === "status") {
      const line = o.text[data.stage];
      o.say(typeof line === "function" ? line(data) : line);
    }
    else if (data.type === "running") {
      o.say(o.text.running);
      timer = setTimeout(() => halt(o.text.timeout), o.limit * 1000);
    } else if (data.type === "progress") {
      if (o.progress) o.progress(data);
    } else if (data.type === "failed") halt(o.text.failed(data.message));
    else if (data.type === "done") {
      const result = Object.assign({}, data, { total: (performance.now() - pressed) / 1000 });
      o.done(result, data.dropped ? (text, kind) => finish(`${text} ${dropped(data.dropped)}`, kind) : finish);
    }
  };
  // a fresh worker starts Python first; a prepared one sends the status of what it still loads at once
  if (!worker) o.say(o.text.python);
  else if (!prepared.has(task)) o.say(o.text.running);
  job = run(task, args, bundle, listen, o.files);
  return { stop: () => halt(o.text.stopped) };
}

// The status lines while a run's worker loads the site's trained model: Python, numpy, the engine, then the
// model's files and the model, both named `model` („Am echten Modell“, „Eigener Lauf“).
function loading(model) {
  return { python: "Python wird im Hintergrund gestartet …", package: (d) => `${d.name} wird geladen …`,
    engine: "Die Engine wird geladen …", files: model, model };
}

// The site's trained model (from model/weights/, served under engine/weights/ and listed by
// probierlabor/realmodel/models.py PATHS, which a page block writes into its data-weights): the `files` for
// a run, each under the worker's home at its path in the site, and the folder Python loads them from
// („Am echten Modell“, „Eigener Lauf“).
const HOME = "/home/pyodide/";
function weights(paths) {
  const [first] = paths;
  return { files: Object.fromEntries(paths.map((rel) => [HOME + rel, siteUrl(rel)])),
    folder: HOME + first.slice(0, first.lastIndexOf("/")) };
}

export { run, end, loading, prepare, session, weights };
