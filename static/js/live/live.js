// „Eigener Lauf“ (py/probierlabor/pageblocks/live_block.py): the reader's own workload, run by the real
// engine (probierlabor/live) in the tab's Python worker (static/js/runtime/worker.js) and replayed by the
// page's own view (static/js/replay/core.js play(), imported with the first run's result).
//
// Nothing loads before the first „Starten“: then the worker starts its own Pyodide with numpy, the
// engine's zip and the site's trained model (its files, data-weights, fetched once per worker), so a
// page's cold start stays as it is, and the engine's steps never run on the main thread. „Abbrechen“ ends the worker. The settings live in the page's query under „lauf.“, so a
// link brings the workload along; whether a workload can run is decided by probierlabor/live alone,
// which answers with a German message before the engine computes anything: the page's own Python
// reads the form with probierlabor/live/form.py at once, so a typo is named before the worker loads numpy.
import { de } from "../fmt.js";
import { python } from "../runtime/python.js";
import { config } from "../runtime/start.js";
import * as worker from "../runtime/worker.js";
import { OWN_RUN as PREFIX, read, write } from "../url-state.js";

const mounted = new WeakSet();  // the elements this file has wired
const runs = new WeakMap();  // section → its run under way (runtime/worker.js session)

const LIMIT_S = 60;  // probierlabor/live caps a run to a few seconds; past this something is wrong
const TEXT = {
  ...worker.loading("Das Sprachmodell der Seite wird geladen …"),
  running: "Die Engine rechnet …",
  progress: (done, total) => `Schritt ${done} von etwa ${total}`,
  // from the press to the result: the first run also waits for Python, numpy and the engine
  done: (steps, d) => `Fertig nach ${de(d.total, 1)} s: ${steps} Engine-Schritte, gerechnet in ${de(d.seconds, 2)} s. ` +
    "Spiele den Lauf unten ab.",
  refused: (n) => `So kann der Lauf nicht starten. Ändere ${n === 1 ? "diese Angabe" : `diese ${n} Angaben`}:`,
  stopped: "Abgebrochen. „Starten“ rechnet den Lauf von vorn.",
  timeout: `Nach ${LIMIT_S} Sekunden abgebrochen. „Starten“ versucht es neu.`,
  failed: (m) => `Die Engine konnte nicht starten (${m}). Lade die Seite neu.`,
  fromLink: "Dieser Link bringt einen eigenen Lauf mit. „Starten“ rechnet ihn.",
  preset: (title) => `Vorlage „${title}“ eingesetzt. „Starten“ rechnet sie.`,
  machine: (rec) => `Gerechnet von unserer Engine auf deinem Gerät: ${rec.device}, numpy ${rec.numpy}. ` +
    "Die gemessenen Zeiten gelten für dein Gerät; die Wiedergabe zählt in Engine-Schritten.",
};

function fields(section) {
  return [...section.querySelectorAll("[data-live-field]")];
}

function values(section) {
  const out = {};
  for (const el of fields(section)) out[el.dataset.liveField] = el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value;
  return out;
}

function setValues(section, given) {
  for (const el of fields(section)) {
    const key = el.dataset.liveField;
    if (!(key in given)) continue;
    if (el.type === "checkbox") el.checked = String(given[key]) === "1";
    // a decimal the page writes back (from a link or a finished run) reads as the reader types it
    else el.value = el.inputMode === "decimal" ? String(given[key]).replace(/^(-?\d+)\.(\d+)$/, "$1,$2") : String(given[key]);
  }
}

function fromUrl(section) {
  return read(PREFIX, fields(section).map((el) => el.dataset.liveField));
}

// In the address a decimal keeps its point, as the experiments write theirs (0.7, not 0,7).
function writeUrl(section) {
  const given = values(section), written = {};
  for (const el of fields(section)) {
    const value = given[el.dataset.liveField];
    written[el.dataset.liveField] = el.inputMode === "decimal" ? value.replace(/^(-?\d+),(\d+)$/, "$1.$2") : value;
  }
  write(PREFIX, Object.keys(written), written);
}

function status(section, text, kind) {
  const line = section.querySelector("[data-live-status]");
  line.textContent = text;
  line.dataset.kind = kind || "";
}

function showNotes(section, notes, kind) {
  const list = section.querySelector("[data-live-notes]");
  list.dataset.kind = kind || "";
  list.replaceChildren(...notes.map((note) => {
    const item = document.createElement("li");
    item.textContent = note;
    return item;
  }));
  list.hidden = !notes.length;
}

function setRunning(section, on) {
  section.querySelector("[data-live-start]").disabled = on;
  section.querySelector("[data-live-stop]").disabled = !on;
  section.setAttribute("aria-busy", String(on));
}

// The replay feature shows a run's result: asked for when a run starts, so it is there when the run ends.
let replayCode = null;
const replayFeature = () => (replayCode = replayCode || import("../replay/index.js"));

// A fresh panel per run: the replay feature wires its controls once per panel.
async function replay(section, trace) {
  const template = section.querySelector("template[data-live-panel]");
  const panel = template.content.firstElementChild.cloneNode(true);
  panel.querySelector(".pl-replay-machine").textContent = TEXT.machine(trace.recorded);
  section.querySelector("[data-live-result]").replaceChildren(panel);
  const { play } = await replayFeature();
  play(panel, trace, "Dein Lauf");
}

// A workload that cannot run: every problem, and no result of an earlier run under them.
function refuse(section, problems) {
  section.querySelector("[data-live-result]").replaceChildren();
  status(section, TEXT.refused(problems.length), "error");
  showNotes(section, problems, "error");
}

// probierlabor/live/form.check in the page's Python, if it has started: [] or every problem it sees.
function problemsNow(section) {
  if (!python.ready()) return [];
  try {
    return python.checkWorkload(values(section));
  } catch (error) {
    console.warn("[eigener lauf]", error);  // the worker checks the workload again in any case
    return [];
  }
}

function start(section) {
  if (runs.get(section)) return;
  replayFeature();
  writeUrl(section);
  showNotes(section, []);
  const problems = problemsNow(section);
  if (problems.length) {
    refuse(section, problems);
    section.dispatchEvent(new CustomEvent("pl:live-done", { detail: { ms: 0, seconds: 0, error: problems.join(" ") } }));
    return;
  }
  const progress = section.querySelector("[data-live-progress]");
  // Empty until the first step, not indeterminate: that state animates, and every frame of it
  // repaints the long page while Pyodide is loading.
  progress.max = 1;
  progress.value = 0;
  progress.hidden = false;
  const started = performance.now();
  setRunning(section, true);
  const model = worker.weights(JSON.parse(section.dataset.weights));
  runs.set(section, worker.session("engine",
    [JSON.stringify(values(section)), section.dataset.live, model.folder], config.bundle, {
      files: model.files,
      limit: LIMIT_S,
      text: TEXT,
      say: (text, kind) => status(section, text, kind),
      end: () => { runs.delete(section); progress.hidden = true; setRunning(section, false); },
      progress: (data) => {
        progress.max = data.total;
        progress.value = data.done;
        progress.setAttribute("aria-valuetext", TEXT.progress(data.done, data.total));
      },
      done: (data, finish) => {
        if (data.problems) {
          finish(TEXT.refused(data.problems.length), "error");
          refuse(section, data.problems);
        } else if (data.error) {  // a bug of ours (static/py/engine_run.py): its message alone
          finish(data.error, "error");
          section.querySelector("[data-live-result]").replaceChildren();
        } else {
          setValues(section, data.settings);  // capped values, as they ran
          writeUrl(section);
          showNotes(section, data.notes);
          finish(TEXT.done(data.trace.result.num_steps, data), "done");
          replay(section, data.trace);
        }
        section.dispatchEvent(new CustomEvent("pl:live-done", {
          detail: { ms: performance.now() - started, seconds: data.seconds, error: data.error || null },
        }));
      },
    }));
}

function mount(section) {
  if (mounted.has(section)) return;
  mounted.add(section);
  const given = fromUrl(section);
  if (Object.keys(given).length) {
    setValues(section, given);
    status(section, TEXT.fromLink);
  }
  section.querySelectorAll("[data-live-preset]").forEach((button) => button.addEventListener("click", () => {
    setValues(section, JSON.parse(button.dataset.livePreset));
    writeUrl(section);
    status(section, TEXT.preset(button.textContent));
  }));
  section.querySelector("[data-live-start]").addEventListener("click", () => start(section));
  section.querySelector("[data-live-stop]").addEventListener("click", () => runs.get(section) && runs.get(section).stop());
}

export const onPage = () => document.querySelectorAll("[data-live]").forEach(mount);
