// „Am echten Modell“ (py/probierlabor/realmodel): what its three views share. A block's view is named by its
// data-realmodel-view (py/probierlabor/realmodel/views.py, the one table of which page gets which): „decoding“
// on the decoding pages (decoding.js), „loss“ on the cross-entropy page (loss.js), „heads“ on the attention
// page (heads.js). static/js/main.js imports this file only when the reader opens a block (or a link with
// m.… opens it), so no page's cold start pays for it; the view's code and its stylesheet come then too.
//
// Every view runs the reader's text in the tab's Python worker (static/js/runtime/worker.js,
// static/py/realmodel_run.py) through runInWorker, and shows its status line, notes and token chips alike.
import { token as visible } from "../fmt.js";
import { siteUrl } from "../site.js";
import { config } from "../runtime/start.js";
import * as worker from "../runtime/worker.js";

const VIEWS = { decoding: () => import("./decoding.js"), loss: () => import("./loss.js"), heads: () => import("./heads.js") };
const LIMIT_S = 60;  // a run of every capped setting takes well under a second; past this something is wrong
const TEXT = {
  ...worker.loading("Modell wird geladen …"),
  running: "Das Modell rechnet …",
  stopped: "Abgebrochen.",
  timeout: `Nach ${LIMIT_S} Sekunden abgebrochen. Versuche es noch einmal.`,
  failed: (m) => `Das Modell konnte nicht starten (${m}). Lade die Seite neu.`,
  token: (t) => `Token ${t.id}`,
};

let stylesheet = null;
function style() {
  if (stylesheet) return;
  stylesheet = document.createElement("link");
  stylesheet.rel = "stylesheet";
  stylesheet.href = siteUrl("static/css/realmodel.css");
  document.head.append(stylesheet);
}

// A part of the block, by its data-realmodel-<name> attribute.
const $ = (block, name) => block.querySelector(`[data-realmodel-${name}]`);

function status(block, text, kind) {
  const line = $(block, "status");
  line.textContent = text;
  line.dataset.kind = kind || "";
}

function notes(block, list, kind) {
  const box = $(block, "notes");
  box.dataset.kind = kind || "";
  box.replaceChildren(...list.map((note) => Object.assign(document.createElement("li"), { textContent: note })));
  box.hidden = !list.length;
}

function chip(token, tag = "span") {
  const el = document.createElement(tag);
  el.className = "pl-realmodel-chip";
  el.textContent = visible(token.text);
  el.title = TEXT.token(token);
  if (tag === "button") el.type = "button";
  return el;
}

// Runs of a block in the worker: one at a time; an ask while one runs waits for it, and of several waiting
// asks only the last runs (the last one wins).
const runs = new WeakMap();  // block → { running, waiting: the arguments of the last waiting ask }

// One run of a block's settings (ask(): read when the run starts) in the worker, for every view: the status
// line, the time limit, the busy mark and „pl:realmodel-done“ (for the bench). shown(data): the view's
// status line for a result (not asked when a newer ask waits: the result is already old); failed(data):
// after an error, whose message the status line shows while the result area hides; ended(): the worker is
// free and no ask waits.
function runInWorker(block, ask, text, handlers) {
  const r = runs.get(block) || { running: false, waiting: null };
  runs.set(block, r);
  if (r.running) {
    r.waiting = [ask, text, handlers];
    return;
  }
  r.running = true;
  const { ended, shown, failed } = handlers;
  block.setAttribute("aria-busy", "true");
  const started = performance.now();
  const model = worker.weights(JSON.parse(block.dataset.weights));
  worker.session("realmodel", [JSON.stringify(ask()), block.dataset.realmodel, model.folder], config.bundle, {
    files: model.files,
    limit: LIMIT_S,
    text,
    say: (line, kind) => status(block, line, kind),
    end: () => {
      block.setAttribute("aria-busy", "false");
      r.running = false;
      const next = r.waiting;
      r.waiting = null;
      if (next) runInWorker(block, ...next);
      else if (ended) ended();
    },
    done: (data, finish) => {
      if (data.error) {
        finish(data.error, "error");
        $(block, "result").hidden = true;
        failed(data);
      } else {
        finish(r.waiting ? TEXT.running : shown(data), "done");
      }
      block.dispatchEvent(new CustomEvent("pl:realmodel-done", {
        // load: the model's files into the worker and the model built from them (null: it was there)
        detail: { ms: performance.now() - started, seconds: data.seconds,
          load: data.load_seconds === null ? null : data.load_seconds + data.fetched,
          compute: data.compute_seconds, tokens: data.tokens ? data.tokens.length : 0, error: data.error || null },
      }));
    },
  });
}

// The block is open (static/js/main.js): its view wires it and runs what its fields (or the link) say.
function open(block) {
  style();
  return VIEWS[block.dataset.realmodelView]().then((view) => view.open(block));
}

export { $, TEXT, chip, notes, open, runInWorker, visible };
