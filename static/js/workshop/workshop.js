// „Im Code nachrechnen“ (py/probierlabor/pageblocks/workshop_block.py): the page's numpy + matplotlib
// script in a code editor, filled with the values the experiment shows, run in a Web Worker.
//
// Nothing here runs before a reader opens the section: the editor (static/js/workshop/editor.js)
// is imported then, and the tab's Python worker (static/js/runtime/worker.js) starts loading its own
// Pyodide, numpy and matplotlib, so that the first „Ausführen“ waits for as little of it as the reader's
// reading has left. The page's cold start stays as it is.
// The page's runtime only fills the script (kit/workshop.fill_json); the reader's code never runs
// there, so an error or an endless loop in it cannot touch the experiment.
import { fromControls } from "../experiment/mount.js";
import { de as german } from "../fmt.js";
import { python, whenReady } from "../runtime/python.js";
import * as worker from "../runtime/worker.js";
import { config } from "../runtime/start.js";
import { EXPERIMENT, prefixOf } from "../url-state.js";

// section → { original: the script the page carries, text: the editor's text now, editor, filled: the
// script last filled in from the experiment, run: the run under way }; a section in here is wired
const sections = new WeakMap();

const STORE = "probierlabor.werkstatt.";  // + slug: the reader's edits, per page
const de = (x) => german(x, 1);
// Loading counts as waiting, so the time shown runs from the press: a first run on a phone spends
// most of a minute starting Python, numpy and matplotlib, and its code a few seconds.
const STARTUP_S = 1;  // a run that waited longer for Python says so
const TEXT = {
  python: "Python für deinen Code wird gestartet …",
  package: (d) => `${d.name} wird geladen (Paket ${d.index} von ${d.count}) …`,
  running: "Dein Code läuft …",
  done: (d) => (d.total - d.seconds < STARTUP_S ? `Fertig nach ${de(d.total)} s.`
    : `Fertig nach ${de(d.total)} s: ${de(d.total - d.seconds)} s hat Python mit seinen Paketen zum Starten gebraucht, ` +
      `${de(d.seconds)} s dein Code.`),
  error: (e) => `Dein Code hat einen Fehler. ${e.line ? `Zeile ${e.line}: ` : ""}${e.kind}: ${e.message}`,
  timeout: (s) => `Nach ${s} Sekunden abgebrochen. Läuft dein Code in einer Endlosschleife? Beim nächsten „Ausführen“ startet Python neu.`,
  stopped: "Abgebrochen. Beim nächsten „Ausführen“ startet Python neu.",
  failed: (m) => `Python für deinen Code konnte nicht starten (${m}). Lade die Seite neu.`,
  noEditor: "Der Code-Editor konnte nicht geladen werden. Lade die Seite neu.",
  reset: "Zurückgesetzt: Der Code rechnet wieder mit den Einstellungen des Experiments.",
  restored: "Deine letzte Fassung dieses Codes ist wieder da. „Zurücksetzen“ holt das Original.",
  figure: "Abbildung, die dein Code gezeichnet hat",
};

let editorModule = null;

// ---- the state of a section --------------------------------------------------------------

function stored(slug) {
  try { return localStorage.getItem(STORE + slug); } catch (_) { return null; }
}

function store(slug, text) {
  try {
    if (text === null) localStorage.removeItem(STORE + slug);
    else localStorage.setItem(STORE + slug, text);
  } catch (_) { /* private mode or full: the edit simply is not kept */ }
}

function experimentOf(slug) {
  return [...document.querySelectorAll("[data-experiment]")]
    .find((root) => root.dataset.experiment === slug && prefixOf(root) === EXPERIMENT);
}

// The script with the experiment's current values, from the page's Python; until that is ready,
// the default script that the page carries (it is the default state, tests/workshop/test_workshop.py).
function filled(section) {
  const slug = section.dataset.workshop;
  const root = experimentOf(slug);
  if (python.ready() && root) {
    try {
      const out = python.workshopScript(slug, fromControls(root));
      if (out.script) return out.script;
      console.warn(`[werkstatt ${slug}]`, out.error);
    } catch (error) {
      console.warn(`[werkstatt ${slug}]`, error);
    }
  }
  return sections.get(section).original;
}

function status(section, text, kind) {
  const line = section.querySelector("[data-workshop-status]");
  line.textContent = text;
  line.dataset.kind = kind || "";
}

function show(section, text) {
  const state = sections.get(section);
  state.text = text;
  if (state.editor) editorModule.setText(state.editor, text);
}

// ---- opening -------------------------------------------------------------------------------

async function open(section) {
  // A reader who opens the code is about to run it: the worker loads Python, numpy and matplotlib while
  // the editor loads and the reader reads; after the page's own Python, so as not to slow its start.
  whenReady.then(() => worker.prepare("workshop", config.bundle));
  const slug = section.dataset.workshop;
  const mine = stored(slug);
  const text = mine !== null ? mine : filled(section);
  const state = sections.get(section);
  if (!state.editor) {
    try {
      editorModule = editorModule || await import("./editor.js");
    } catch (error) {
      console.warn("[werkstatt]", error);
      status(section, TEXT.noEditor, "error");
      return;
    }
    const box = section.querySelector("[data-workshop-editor]");
    state.text = text;
    state.editor = editorModule.createEditor(box, text, (now) => edited(section, now));
    box.hidden = false;
    section.querySelector("[data-workshop-code]").hidden = true;
  } else if (state.editor.state.doc.toString() !== text) {
    show(section, text);
  }
  if (mine !== null) status(section, TEXT.restored);
  else state.filled = text;
  section.dataset.state = "open";
  // Opened while the page's Python still starts: fill in the experiment's values when it is there.
  if (mine === null && !python.ready()) {
    whenReady.then(() => {
      if (state.text !== state.original || stored(slug) !== null) return;
      state.filled = filled(section);
      show(section, state.filled);
    });
  }
}

function edited(section, text) {
  const state = sections.get(section);
  state.text = text;
  if (text !== state.filled) store(section.dataset.workshop, text);
}

// ---- running -------------------------------------------------------------------------------

// The site's colours, read from its CSS (static/css/probierlabor.css), so a figure looks like the
// page's own; as RGBA numbers from 0 to 1, which matplotlib takes.
function style(section) {
  const probe = document.createElement("span");
  section.appendChild(probe);
  const colour = (value) => {
    probe.style.color = value;
    const [r, g, b, a = 1] = getComputedStyle(probe).color.match(/[\d.]+/g).map(Number);
    return [r / 255, g / 255, b / 255, a];
  };
  const palette = ["blue", "orange", "green", "vermilion", "purple", "sky"].map((name) => colour(`var(--pl-${name})`));
  const result = {
    palette,
    ink: colour("var(--md-default-fg-color)"),
    muted: colour("var(--pl-muted)"),
    background: colour("var(--md-default-bg-color)"),
  };
  probe.remove();
  return result;
}

function setRunning(section, on) {
  section.querySelector("[data-workshop-run]").disabled = on;
  section.querySelector("[data-workshop-stop]").disabled = !on;
  section.setAttribute("aria-busy", String(on));
}

// In the tab's Python worker (static/js/runtime/worker.js), ended on „Abbrechen“ and after the time limit.
function run(section) {
  const state = sections.get(section);
  if (state.run) return;
  const code = state.editor ? state.editor.state.doc.toString() : state.text;
  const started = performance.now();
  const limit = Number(section.dataset.workshopLimit);  // seconds, workshop_block.LIMIT_S
  setRunning(section, true);
  state.run = worker.session("workshop", [code, JSON.stringify(style(section))],
    config.bundle, {
      limit,
      text: Object.assign({}, TEXT, { timeout: TEXT.timeout(limit) }),
      say: (text, kind) => status(section, text, kind),
      end: () => { state.run = null; setRunning(section, false); },
      done: (data, finish) => {
        showResult(section, data);
        finish(data.error ? TEXT.error(data.error) : TEXT.done(data), data.error ? "error" : "done");
        section.dispatchEvent(new CustomEvent("pl:workshop-done", {
          detail: { ms: performance.now() - started, figures: data.figures.length, error: data.error },
        }));
      },
    });
}

function showResult(section, data) {
  const output = section.querySelector("[data-workshop-output]");
  output.textContent = data.output;
  output.hidden = !data.output;
  const images = data.figures.map((png) => {
    const img = document.createElement("img");
    img.src = "data:image/png;base64," + png;
    img.alt = TEXT.figure;
    return img;
  });
  section.querySelector("[data-workshop-figure]").replaceChildren(...images);
}

// ---- mounting ------------------------------------------------------------------------------

function mount(section) {
  if (sections.has(section)) return;
  const original = section.querySelector("[data-workshop-code] code").textContent;
  const state = { original, text: original, editor: null, filled: undefined, run: null };
  sections.set(section, state);
  section.addEventListener("toggle", () => { if (section.open) open(section); });
  section.querySelector("[data-workshop-run]").addEventListener("click", () => run(section));
  section.querySelector("[data-workshop-stop]").addEventListener("click", () => state.run && state.run.stop());
  section.querySelector("[data-workshop-reset]").addEventListener("click", () => {
    store(section.dataset.workshop, null);
    state.filled = filled(section);
    show(section, state.filled);
    status(section, TEXT.reset);
  });
  if (section.open) open(section);
}

export const onPage = () => document.querySelectorAll("[data-workshop]").forEach(mount);
