// Probierlabor's browser layer: generic for every concept.
//
// The page arrives with each experiment complete (controls, default figure, readouts),
// rendered at build time by py/probierlabor/pageblocks/experiment_block.py. This module mounts every
// [data-experiment] of a page, wires its controls to the tab's one Python service
// (static/js/runtime/python.js: api.run_json) and swaps in what Python returns. It knows nothing about any concept: names, ranges, clamping and
// German notes all come from the concept's declared parameters.
//
// Each experiment is one Experiment object, kept in the WeakMap below; the other files of this folder
// are handed the object: early.js (before Python is ready), drag.js (handles in the figure), fit.js
// (the figure at the experiment's width), controls.js (controls ↔ raw values ↔ URL).
import { onFailure, onReady, python, runtime } from "../runtime/python.js";
import * as urlState from "../url-state.js";
import { addressFor, fromControls, fromUrl, rangeRaw, setControls, stepNumber, wireSlider } from "./controls.js";
import { enableDragging, handleSelector, pairSelector } from "./drag.js";
import { beforePython, keepForLater, pending, showFailure, showPreset } from "./early.js";
import { fitFigures, showFigure, sizes, watchSizes } from "./fit.js";
import { morph } from "./morph.js";

export { fromControls };

const TEXT = {
  crashed: "Dieses Experiment ist bei dieser Einstellung gestolpert. Der Rest der Seite funktioniert weiter; „Von vorn“ oder eine andere Einstellung hilft meist.",
  linkNotes: "Der Link enthielt Werte, die nicht passen. Angepasst:",
  typedNotes: "Deine Eingabe passte nicht ganz. Angepasst:",
};

class Experiment {
  constructor(root) {
    this.root = root;
    this.slug = root.dataset.experiment;
    this.mounted = false;  // its controls wired (mount)
    this.started = false;  // handed to Python once it was ready (start)
    this.changed = false;  // the controls hold a change Python has not computed yet (early.js)
    // whether the reader's own hand (a control, a field, a drag) led to the view on screen, not a
    // preset's button (also „Von vorn“, a number in the prose, a key of classroom/present.js); kept until
    // the next change, so that a view drawn again for a new width counts as the one before
    this.byReader = false;
    this.views = undefined;  // the block's pre-rendered views, read when first needed (early.js)
    this.shown = null;  // the pre-rendered view on screen (early.js)
    this.layout = null;  // what Python last drew the figure for (kit/layout.py)
    this.sized = null;  // what the CSS says at the experiment's width (fit.js)
    this.dragging = undefined;  // what the pointer holds in the figure (drag.js)
    this.addressAfterDrag = undefined;
    this.sliding = false;  // a slider step is being answered: its address waits (controls.js wireSlider)
    this.lastRun = undefined;  // the detail of the last pl:rendered
  }

  start() {
    if (!this.mounted) mount(this.root);
    if (this.started) return;
    this.started = true;
    // A change made while Python started lives in the controls; otherwise the URL is the state
    // (and Python says what it had to correct in a shared link).
    if (this.changed) this.render(fromControls(this.root), { fromUrl: false });
    else {
      this.byReader = false;
      this.render(fromUrl(this.root), { fromUrl: true });
    }
  }

  change({ byReader = true } = {}) {
    this.byReader = byReader;
    // Synchronous on purpose: Chromium already delivers pointer-driven input at most once per
    // frame, and computing at once leaves the whole rest of the frame for layout and paint.
    if (python.ready()) this.render(fromControls(this.root), { fromUrl: false });
    else keepForLater(this);
  }

  render(raw, { fromUrl: linked }) {
    const { root } = this;
    const t0 = performance.now();
    let out;
    try {
      this.layout = sizes(this).layout;
      out = python.compute(this.slug, raw, this.layout);
    } catch (error) {
      out = { error: String(error) };
    }
    this.changed = false;
    pending(this, false);
    if (out.error) {
      console.warn(`[${this.slug}]`, out.error);
      this.status("");
      this.notes([TEXT.crashed], "pl-error");
      root.dataset.state = "error";
      return;
    }
    this.paint(out);
    if (linked) this.notes(out.notes, "pl-note", TEXT.linkNotes);
    else this.notes(typedNotes(root, out), "pl-note", TEXT.typedNotes);
    this.status("");
    if (root.dataset.state !== "ready") root.dataset.state = "ready";
    this.announce({ ms: performance.now() - t0, lesson: out.lesson, byReader: this.byReader });
  }

  // A view (Python's or a pre-rendered one) on screen, with the controls and the URL it belongs to.
  paint(out, { url = true } = {}) {
    const { root } = this;
    const active = document.activeElement;
    const focused = !active || !root.contains(active) ? undefined
      : active.dataset.drag !== undefined ? handleSelector({ field: active.dataset.dragField, index: active.dataset.drag })
        : active.dataset.dragXy !== undefined ? pairSelector(active.dataset.dragXy, active.dataset.dragPair) : undefined;
    const scrolling = sizes(this).scrolling;
    morph(root.querySelector(".pl-figure"), out.figure);
    morph(root.querySelector(".pl-extra"), out.extra || "");
    root.querySelector(".pl-extra").toggleAttribute("data-answers", Boolean(out.extra_answers));
    fitFigures(root, scrolling);
    updateReadouts(root, out.readouts);
    setText(root.querySelector(".pl-summary"), out.summary);
    setText(root.querySelector(".pl-answer"), out.answer || "");
    setControls(root, out.controls);
    for (const [name, text] of Object.entries(out.display)) {
      const output = root.querySelector(`[data-output="${name}"]`);
      if (output) setText(output, text);
      const input = root.querySelector(`input[type="range"][data-param="${name}"]`);
      const unit = input && input.dataset.unit;  // experiment_block.py: the unit a screen reader says with the value
      if (input) setAttr(input, "aria-valuetext", unit && !text.endsWith(unit) ? `${text} ${unit}` : text);
    }
    if (focused !== undefined) {
      const again = root.querySelector(focused);
      if (again) again.focus({ preventScroll: true });
    }
    if (url) this.writeUrl(out.url);
  }

  writeUrl(values) {
    const address = addressFor(this.root, values);
    // While a point or a bar is dragged, or a slider moved, the address follows when it is let go:
    // writing it (history.replaceState, which the browser also reports as a navigation) took a good
    // part of each move's time outside Python (CPU profiles of `make bench`'s drag and slider).
    if (this.dragging !== undefined) this.addressAfterDrag = address;
    else if (this.sliding) urlState.hold(address);
    else urlState.commit(address);
  }

  // Other features follow every view put on screen: classroom/present.js marks the preset, classroom/lesson.js
  // checks the tasks (detail.lesson: kit/lesson.status of this state; detail.byReader: whether the reader's
  // own change led there, not a preset or the link the page was opened with). lastRun() keeps the last
  // detail for a feature that mounts after the event.
  announce(detail) {
    this.lastRun = detail;
    this.root.dispatchEvent(new CustomEvent("pl:rendered", { detail }));
  }

  status(text) {
    const p = this.root.querySelector(".pl-status");
    if (p.hidden !== !text) p.hidden = !text;
    if (text) p.querySelector(".pl-status-text").textContent = text;
  }

  notes(notes, cls, lead) {
    const box = this.root.querySelector(".pl-notes");
    if (!notes.length && box.hidden && !box.firstChild) return;  // nothing shown, nothing to show
    box.className = "pl-notes " + cls;
    box.hidden = notes.length === 0;
    box.replaceChildren(...notes.map((n) => {
      const p = document.createElement("p");
      p.textContent = n;
      return p;
    }));
    if (notes.length && lead) {
      const p = document.createElement("p");
      p.className = "pl-notes-lead";
      p.textContent = lead;
      box.prepend(p);
    }
  }
}

// The one place an experiment's state lives: nothing of it is stored on its elements.
const experiments = new WeakMap();

function experimentOf(root) {
  let experiment = experiments.get(root);
  if (!experiment) experiments.set(root, (experiment = new Experiment(root)));
  return experiment;
}

export const lastRun = (root) => experiments.get(root)?.lastRun;
// the layout Python last drew this experiment for (for tests: a render asks the CSS nothing)
export const drawnLayout = (root) => experiments.get(root)?.layout;

const watch = watchSizes((root) => experiments.get(root), (experiment) => experiment.render(fromControls(experiment.root), { fromUrl: false }));

// ---- the runtime -------------------------------------------------------------------

onReady(() => {
  document.querySelectorAll("[data-experiment]").forEach((root) => experimentOf(root).start());
  const first = document.querySelector("[data-experiment]");
  if (first) warmUp(experimentOf(first));
});
onFailure(() => document.querySelectorAll("[data-experiment]").forEach((root) => showFailure(experimentOf(root))));

// ---- mounting ----------------------------------------------------------------------

export function mountAll() {
  document.querySelectorAll("[data-experiment]").forEach(mount);
}

function mount(root) {
  const experiment = experimentOf(root);
  if (experiment.mounted) return;
  experiment.mounted = true;
  const change = () => experiment.change();
  root.querySelectorAll("[data-param]").forEach((input) => {
    if (input.type === "range") wireSlider(input, experiment, change);
    else input.addEventListener("change", change);
    if (input.type === "text") input.addEventListener("keydown", (e) => { if (e.key === "Enter") showFigure(root, input); });
    if ("step" in input.dataset) input.addEventListener("keydown", (e) => { if (stepNumber(input, e)) change(); });
  });
  root.querySelectorAll("[data-seed-for]").forEach((button) => {
    button.addEventListener("click", () => {
      const field = root.querySelector(`[data-param="${button.dataset.seedFor}"]`);
      field.value = String(crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff);
      if (!python.ready()) { change(); return; }  // kept until Python is there
      // New random runs are the heavy work (thousands of draws, retraining a model): say so
      // and let the browser paint that before Python starts, so the page never seems frozen.
      experiment.status("Rechnet …");
      root.setAttribute("aria-busy", "true");
      requestAnimationFrame(() => setTimeout(() => {
        change();
        root.removeAttribute("aria-busy");
      }, 0));
    });
  });
  root.querySelectorAll("[data-preset]").forEach((button) => {
    button.addEventListener("click", () => {
      setControls(root, JSON.parse(button.dataset.preset));
      if (python.ready()) experiment.change({ byReader: false });
      else showPreset(experiment, Number(button.dataset.view), button.textContent);
    });
  });
  enableDragging(experiment, change);
  watch(experiment);
  fitFigures(root);
  // an old link's former parameter names (Param.alias) under the new ones, also after instant navigation
  urlState.renameOld(root);
  if (python.ready()) experiment.start();
  else beforePython(experiment);
}

// ---- warming up ----------------------------------------------------------------------

// Python started from the build's memory snapshot has run next to nothing when it is ready, and its
// first runs are several times slower than the later ones (Python started the usual way, which ran
// for seconds before, has no such gap). So while the browser is idle after the start, the experiment
// is computed again (its result dropped) until WARM_MS of Python have run, so that the reader's first
// slider steps are not the slow ones. The runs take turns between this state and each slider at either
// end: a state draws other parts of a figure and takes other branches of its key sentence, and those
// were cold on the first jump. A change of the reader's does not end it: the reader's own runs warm
// only the states they reach, and a run here starts only when the browser has 10 ms to spare.
const WARM_MS = 150;

function warmStates(root) {
  const now = fromControls(root);
  const states = [now];
  root.querySelectorAll('input[type="range"][data-param]').forEach((el) => {
    for (const end of [el.min, el.max]) states.push({ ...now, [el.dataset.param]: rangeRaw(el, end) });
  });
  return states;
}

function warmUp(experiment) {
  const { root } = experiment;
  if (!window.requestIdleCallback) return;
  runtime.warmMs = 0;
  const states = warmStates(root);
  let turn = 0;
  const step = (idle) => {
    if (runtime.warmMs >= WARM_MS || !root.isConnected || root.dataset.state !== "ready") return;
    if (idle.timeRemaining() > 10) {
      const t = performance.now();
      try {
        python.compute(experiment.slug, states[turn++ % states.length], experiment.layout);
      } catch (_) { return; }  // the page's own render says what went wrong
      runtime.warmMs += performance.now() - t;
    }
    requestIdleCallback(step);
  };
  requestIdleCallback(step);
}

// ---- what the view says besides its figure ---------------------------------------------

// Same readouts as shown: change texts in place (screen readers keep their place); else rebuild.
function updateReadouts(root, readouts) {
  const shown = [...root.querySelectorAll("[data-readout]")];
  if (shown.length === readouts.length && shown.every((el, i) => el.dataset.readout === readouts[i].key)) {
    readouts.forEach((r, i) => {
      setText(shown[i].querySelector("dt"), r.label);
      setText(shown[i].querySelector("dd"), r.value);
      shown[i].classList.toggle("pl-em", Boolean(r.emphasis));
      shown[i].toggleAttribute("data-answers", Boolean(r.answers));
    });
  } else rebuildReadouts(root, readouts);
}

// Most texts and attributes stay the same from one drag move or slider step to the next. Written
// anyway, each text replaced its node: the browser laid the block out again, and a live region
// (the summary) may say it again.
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function rebuildReadouts(root, readouts) {
  const dl = root.querySelector(".pl-readouts");
  dl.replaceChildren(...readouts.map((r) => {
    const div = document.createElement("div");
    div.className = "pl-readout" + (r.emphasis ? " pl-em" : "");
    div.dataset.readout = r.key;
    div.toggleAttribute("data-answers", Boolean(r.answers));  // experiment_block.py: held back until the guess
    const dt = document.createElement("dt"); dt.textContent = r.label;
    const dd = document.createElement("dd"); dd.textContent = r.value;
    div.append(dt, dd);
    return div;
  }));
}

// A slider or a dragged point cannot hold a wrong value for long (Python clamps it and the control
// follows); what the reader typed can, so what Python changed in it is said.
function typedNotes(root, out) {
  return out.notes.filter((note, i) => {
    const el = root.querySelector(`[data-param="${out.noted[i]}"]`);
    return el && el.type === "text";
  });
}
