// Probierlabor's browser layer: generic for every concept.
//
// The page arrives with each experiment complete (controls, default figure, readouts),
// rendered at build time by py/probierlabor/pageblocks/experiment_block.py. This module mounts every
// [data-experiment] of a page, wires its controls to the tab's one Python service
// (static/js/runtime/python.js: api.run_json) and swaps in what Python returns. It knows nothing about any concept: names, ranges, clamping and
// German notes all come from the concept's declared parameters.
//
// Python needs seconds to start, and nothing the reader does meanwhile is lost: a preset shows its
// view at once (pre-rendered at build time, in the block's <template class="pl-views">); any other
// change is kept in the controls, the stage is marked as pending, and Python computes it as soon
// as it is ready. What is shown therefore always belongs to the controls and the URL, or is
// visibly marked as not yet computed.
import { onFailure, onReady, python, runtime } from "../runtime/python.js";
import * as urlState from "../url-state.js";
import { morph } from "./morph.js";

const mounted = new WeakSet();  // the elements this file has wired
// the roots whose shown state the reader's own hand made (userChange): only there a task can count
const byReaderHand = new WeakSet();

const SLOW_MS = 45000;

const TEXT = {
  loading: "Python wird geladen … Die Abbildung zeigt schon die Standardeinstellung.",
  loadingPreset: (label) => `Python wird geladen … Die Abbildung zeigt schon „${label}“.`,
  pending: "Python startet … Deine Änderung wird berechnet, sobald es bereit ist.",
  slow: "Python lädt ungewöhnlich lange. Die Voreinstellungen gehen schon; andere Änderungen folgen, sobald Python bereit ist.",
  crashed: "Dieses Experiment ist bei dieser Einstellung gestolpert. Der Rest der Seite funktioniert weiter; „Von vorn“ oder eine andere Einstellung hilft meist.",
  failed: "Python konnte nicht gestartet werden, darum lassen sich nur die Voreinstellungen zeigen.",
  linkNotes: "Der Link enthielt Werte, die nicht passen. Angepasst:",
  typedNotes: "Deine Eingabe passte nicht ganz. Angepasst:",
  hint: "Tipp: Seite neu laden. Hilft das nicht, die Website neu bauen (make site) – eine Datei der Python-Laufzeit fehlt oder ist beschädigt.",
};

// ---- the runtime -------------------------------------------------------------------

onReady(() => {
  document.querySelectorAll("[data-experiment]").forEach(start);
  warmUp(document.querySelector("[data-experiment]"));
});
onFailure(() => document.querySelectorAll("[data-experiment]").forEach(showFailure));

// ---- mounting ----------------------------------------------------------------------

export function mountAll() {
  document.querySelectorAll("[data-experiment]").forEach(mount);
}

function mount(root) {
  if (mounted.has(root)) return;
  mounted.add(root);
  root.plSlug = root.dataset.experiment;
  root.querySelectorAll("[data-param]").forEach((input) => {
    const kind = input.type === "range" ? "input" : "change";
    input.addEventListener(kind, () => userChange(root));
    if (input.type === "text") input.addEventListener("keydown", (e) => { if (e.key === "Enter") showFigure(root, input); });
    if ("step" in input.dataset) input.addEventListener("keydown", (e) => stepNumber(root, input, e));
  });
  root.querySelectorAll("[data-seed-for]").forEach((button) => {
    button.addEventListener("click", () => {
      const field = root.querySelector(`[data-param="${button.dataset.seedFor}"]`);
      field.value = String(crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff);
      if (!python.ready()) { userChange(root); return; }  // kept until Python is there
      // New random runs are the heavy work (thousands of draws, retraining a model): say so
      // and let the browser paint that before Python starts, so the page never seems frozen.
      status(root, "Rechnet …");
      root.setAttribute("aria-busy", "true");
      requestAnimationFrame(() => setTimeout(() => {
        userChange(root);
        root.removeAttribute("aria-busy");
      }, 0));
    });
  });
  root.querySelectorAll("[data-preset]").forEach((button) => {
    button.addEventListener("click", () => {
      setControls(root, JSON.parse(button.dataset.preset));
      if (python.ready()) userChange(root, { byReader: false });
      else early(root, Number(button.dataset.view), button.textContent);
    });
  });
  enableDragging(root);
  sized.observe(root);
  fitFigures(root);
  // an old link's former parameter names (Param.alias) under the new ones, also after instant navigation
  urlState.renameOld(root);
  if (python.ready()) start(root);
  else {
    pending(root, false);  // a copy of a pending experiment (classroom/share.js, A/B) starts from its own link
    status(root, TEXT.loading);
    fromLink(root);
    if (runtime.failure) showFailure(root);
    else {
      setTimeout(() => {
        if (!python.ready() && !runtime.failure && root.isConnected) status(root, TEXT.slow);
      }, SLOW_MS);
    }
  }
}

// On a phone the figure stands above the controls (probierlabor.css), and a typed field further down
// left it off screen: the reader pressed Enter and saw nothing change. Less than half of it on screen,
// the page scrolls up to it, never so far that the field leaves the bottom edge.
const FIELD_MARGIN = 8;  // px between the field and the screen's bottom edge
function showFigure(root, field) {
  const figure = root.querySelector(".pl-figure");
  if (!figure || !figure.getClientRects().length) return;
  const header = document.querySelector(".md-header");
  const top = header ? header.getBoundingClientRect().bottom : 0;  // the sticky header covers the top
  const box = figure.getBoundingClientRect(), own = field.getBoundingClientRect();
  const visible = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, top));
  // beside the field (a wide screen), or enough of it seen
  if (box.bottom > own.top || visible >= Math.min(box.height, innerHeight - top) / 2) return;
  const by = Math.max(box.top - top - FIELD_MARGIN, own.bottom + FIELD_MARGIN - innerHeight);
  if (by < 0) window.scrollBy({ top: by, behavior: "instant" });
}

function start(root) {
  if (!mounted.has(root)) mount(root);
  if (root.plStarted) return;
  root.plStarted = true;
  // A change made while Python started lives in the controls; otherwise the URL is the state
  // (and Python says what it had to correct in a shared link).
  if (root.plChanged) render(root, fromControls(root), { fromUrl: false });
  else {
    byReaderHand.delete(root);
    render(root, fromUrl(root), { fromUrl: true });
  }
}

// ---- before Python is ready ----------------------------------------------------------

function views(root) {
  if (root.plViews === undefined) {
    const template = root.querySelector("template.pl-views");
    try {
      root.plViews = template ? JSON.parse(template.dataset.views) : null;
    } catch (_) {
      root.plViews = null;
    }
  }
  return root.plViews;
}

// experiment_block.prerendered: a figure is a list of pieces (joined with "<"), a piece one token
// or a list of tokens (joined with '" '), all shared by the block's views.
function prerendered(root, index) {
  const data = views(root);
  const view = data && data.views[index];
  if (!view) return null;
  if (!data.markup) {
    data.markup = data.pieces.map((p) => (Array.isArray(p) ? p.map((t) => data.tokens[t]).join('" ') : data.tokens[p]));
  }
  const markup = (ids) => ids.map((i) => data.markup[i]).join("<");
  return { ...view, figure: markup(view.figure), extra: markup(view.extra) };
}

// A link with a state: a preset's is shown at once; any other waits for Python, and the controls
// show it already, so that a change made meanwhile starts from it.
function fromLink(root) {
  const raw = fromUrl(root);
  if (!Object.keys(raw).length) return;
  const data = views(root);
  const index = data ? data.views.findIndex((view) => sameState(view.url, raw)) : -1;
  if (index >= 0) {
    const button = [...root.querySelectorAll("[data-preset]")].find((b) => Number(b.dataset.view) === index);
    early(root, index, button ? button.textContent : null);
  } else {
    setControls(root, raw);
    pending(root, true);
  }
}

function sameState(a, b) {
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => String(a[k]) === String(b[k]));
}

function early(root, index, label) {
  const view = prerendered(root, index);
  if (!view) { pending(root, true); return; }
  root.plChanged = false;
  byReaderHand.delete(root);
  root.plShown = view;
  paint(root, view);
  pending(root, false);
  if (!runtime.failure) status(root, label ? TEXT.loadingPreset(label.trim()) : TEXT.loading);
  announceRun(root, { ms: 0, prerendered: true, lesson: view.lesson, byReader: false });
}

// Changed controls whose view only Python can compute: the old view stays, dimmed and marked busy,
// and the URL already carries the new values (Python writes its canonical form when it is ready).
function pending(root, on) {
  const stage = root.querySelector(".pl-stage");
  const was = root.classList.contains("pl-pending");
  root.classList.toggle("pl-pending", on);
  if (on) stage.setAttribute("aria-busy", "true");
  else stage.removeAttribute("aria-busy");
  if (on && !was) status(root, TEXT.pending);  // said once, not at every step of a slider
}

function keepForLater(root) {
  if (runtime.failure) {  // no Python will come: back to the view on screen
    const shown = root.plShown || prerendered(root, 0);
    if (shown) paint(root, shown);
    return;
  }
  root.plChanged = true;
  const defaults = prerendered(root, 0);
  if (defaults) {
    const raw = fromControls(root), url = {};
    for (const [name, value] of Object.entries(raw)) if (String(defaults.controls[name]) !== value) url[name] = value;
    writeUrl(root, url);
  }
  pending(root, true);
}

// ---- parameters: controls ↔ raw values ↔ URL --------------------------------------

function names(root) {
  return [...new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param))];
}

// A second copy of an experiment on the page (the A/B comparison, static/js/classroom/share.js) keeps
// its state in the same query under its own prefix (url-state.js), so a link restores both sides.
function fromUrl(root) {
  return urlState.read(urlState.prefixOf(root), names(root));
}

// The raw values the controls hold now (also for workshop/workshop.js, which fills its script with them).
export function fromControls(root) {
  const raw = {};
  root.querySelectorAll("[data-param]").forEach((el) => {
    const name = el.dataset.param;
    if (el.type === "radio") { if (el.checked) raw[name] = el.value; }
    else if (el.type === "checkbox") raw[name] = el.checked ? "1" : "0";
    else if (el.type === "range") raw[name] = rangeRaw(el, el.value);
    else raw[name] = el.value;
  });
  return raw;
}

// A typed number field (experiment_block.py: text, so that „1,5“ reaches Python as typed) still steps
// with the arrow keys, as a number field did: the text read as Python reads it (comma or point, „−“),
// one data-step up or down within data-min..data-max, written back in German; Python checks the rest.
function stepNumber(root, el, e) {
  if ((e.key !== "ArrowUp" && e.key !== "ArrowDown") || e.altKey || e.ctrlKey || e.metaKey) return;
  const now = Number(el.value.trim().replace(",", ".").replace("\u2212", "-"));
  if (el.value.trim() === "" || !Number.isFinite(now)) return;
  const { step, min, max } = el.dataset, places = (step.split(".")[1] || "").length;
  const next = Math.min(Number(max), Math.max(Number(min), now + (e.key === "ArrowUp" ? 1 : -1) * Number(step)));
  e.preventDefault();
  el.value = String(Number(next.toFixed(places))).replace(".", ",").replace("-", "\u2212");
  userChange(root);
}

// A slider's position as the value it stands for (a logarithmic one's position is the exponent).
function rangeRaw(el, position) {
  return "log" in el.dataset ? roundSignificant(10 ** Number(position)) : position;
}

function roundSignificant(x) {
  return String(Number(x.toPrecision(3)));
}

// values: the controls' texts (Python's "controls", a preset button's data-preset) or a link's
function setControls(root, values) {
  root.querySelectorAll("[data-param]").forEach((el) => {
    const name = el.dataset.param;
    if (!(name in values)) return;
    const v = String(values[name]);
    if (el.type === "radio") el.checked = el.value === v;
    else if (el.type === "checkbox") el.checked = v === "1";
    else if (el.type === "range" && "log" in el.dataset) el.value = String(Math.log10(Number(v)));
    else if (el.value !== v) el.value = v;
  });
}

function writeUrl(root, values) {
  const address = urlState.addressFor(urlState.prefixOf(root), names(root), values);
  // While a point or a bar is dragged, the address follows when it is let go: replaceState cost
  // about 3,5 ms of each drag move's budget (a CPU profile of `make bench`'s drag on overfitting).
  if (root.plDragging !== undefined) root.plAddressAfterDrag = address;
  else urlState.commit(address);
}

// ---- rendering ---------------------------------------------------------------------

// byReader: the reader's own hand (a control, a field, a drag), not a preset's button (also „Von vorn“,
// a number in the prose, a key of classroom/present.js); kept until the next change, so that a view drawn
// again for a new width counts as the one before.
function userChange(root, { byReader = true } = {}) {
  if (byReader) byReaderHand.add(root);
  else byReaderHand.delete(root);
  // Synchronous on purpose: Chromium already delivers pointer-driven input at most once per
  // frame, and computing at once leaves the whole rest of the frame for layout and paint.
  if (python.ready()) render(root, fromControls(root), { fromUrl: false });
  else keepForLater(root);
}

function render(root, raw, { fromUrl }) {
  const t0 = performance.now();
  let out;
  try {
    root.plLayout = sizes(root).layout;
    out = python.compute(root.plSlug, raw, root.plLayout);
  } catch (error) {
    out = { error: String(error) };
  }
  root.plChanged = false;
  pending(root, false);
  if (out.error) {
    console.warn(`[${root.plSlug}]`, out.error);
    status(root, "");
    showNotes(root, [TEXT.crashed], "pl-error");
    root.dataset.state = "error";
    return;
  }
  paint(root, out);
  if (fromUrl) showNotes(root, out.notes, "pl-note", TEXT.linkNotes);
  else showNotes(root, typedNotes(root, out), "pl-note", TEXT.typedNotes);
  status(root, "");
  if (root.dataset.state !== "ready") root.dataset.state = "ready";
  root.plLastMs = performance.now() - t0;
  announceRun(root, { ms: root.plLastMs, lesson: out.lesson, byReader: byReaderHand.has(root) });
}

// Python started from the build's memory snapshot has run next to nothing when it is ready, and its
// first runs are slow: prefill's first ten took 7,2 ms each (median of three cold loads), from the
// twentieth on 1,5 ms; Python started the usual way (bcf8981), which ran for seconds before, 1,3 and
// 1,2 ms. So while the browser is idle after the start, the experiment is computed again (its result
// dropped) until WARM_MS of Python have run, so that the reader's first slider steps are not the
// slow ones. The runs take turns between this state and each slider at either end: a state draws other
// parts of a figure and takes other branches of its key sentence, and those were cold on the first
// jump (greedy's first jumps after ready: about twice the time of the later ones). A change of the
// reader's does not end it: the reader's own runs warm only the states they reach, and a run here
// starts only when the browser has 10 ms to spare.
const WARM_MS = 150;

function warmStates(root) {
  const now = fromControls(root);
  const states = [now];
  root.querySelectorAll('input[type="range"][data-param]').forEach((el) => {
    for (const end of [el.min, el.max]) states.push({ ...now, [el.dataset.param]: rangeRaw(el, end) });
  });
  return states;
}

function warmUp(root) {
  if (!root || !window.requestIdleCallback) return;
  runtime.warmMs = 0;
  const states = warmStates(root);
  let turn = 0;
  const step = (idle) => {
    if (runtime.warmMs >= WARM_MS || !root.isConnected || root.dataset.state !== "ready") return;
    if (idle.timeRemaining() > 10) {
      const t = performance.now();
      try {
        python.compute(root.plSlug, states[turn++ % states.length], root.plLayout);
      } catch (_) { return; }  // the page's own render says what went wrong
      runtime.warmMs += performance.now() - t;
    }
    requestIdleCallback(step);
  };
  requestIdleCallback(step);
}

// Other features follow every view put on screen: classroom/present.js marks the preset, classroom/lesson.js checks
// the tasks (detail.lesson: kit/lesson.status of this state; detail.byReader: whether the reader's own
// change led there, not a preset or the link the page was opened with). lastRun() keeps the last detail for a
// feature that mounts after the event.
const lastRuns = new WeakMap();
export const lastRun = (root) => lastRuns.get(root);

function announceRun(root, detail) {
  lastRuns.set(root, detail);
  root.dispatchEvent(new CustomEvent("pl:rendered", { detail }));
}

// One drag handle in every figure Python draws: a point of the moves (no field) or a bar of a field.
function handleSelector({ field, index }) {
  return `[data-drag="${index}"]` + (field ? `[data-drag-field="${field}"]` : ":not([data-drag-field])");
}

// A point dragged in 2-D: the handle of a field's pair, or of its pair number ``index`` (data-drag-pair),
// where the field holds several pairs; never its larger target for a finger (no role).
function pairSelector(name, index) {
  return `[data-drag-xy="${name}"]` + (index === undefined ? "" : `[data-drag-pair="${index}"]`) + "[role]";
}

// A view (Python's or a pre-rendered one) on screen, with the controls and the URL it belongs to.
function paint(root, out, { url = true } = {}) {
  const active = document.activeElement;
  const focused = !active || !root.contains(active) ? undefined
    : active.dataset.drag !== undefined ? handleSelector({ field: active.dataset.dragField, index: active.dataset.drag })
      : active.dataset.dragXy !== undefined ? pairSelector(active.dataset.dragXy, active.dataset.dragPair) : undefined;
  const scrolling = sizes(root).scrolling;
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
  if (url) writeUrl(root, out.url);
}

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

function status(root, text) {
  const p = root.querySelector(".pl-status");
  if (p.hidden !== !text) p.hidden = !text;
  if (text) p.querySelector(".pl-status-text").textContent = text;
}

// A slider or a dragged point cannot hold a wrong value for long (Python clamps it and the control
// follows); what the reader typed can, so what Python changed in it is said.
function typedNotes(root, out) {
  return out.notes.filter((note, i) => {
    const el = root.querySelector(`[data-param="${out.noted[i]}"]`);
    return el && el.type === "text";
  });
}

function showNotes(root, notes, cls, lead) {
  const box = root.querySelector(".pl-notes");
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

function showFailure(root) {
  // Changes kept for Python go back to the view on screen; a link's state stays in the URL, so that
  // reloading (the hint below) can still show it. plChanged is undefined for a link's state, and
  // paint() would take an undefined url as its default (write the URL): hence Boolean().
  const shown = root.plShown || prerendered(root, 0);
  if (shown && root.classList.contains("pl-pending")) paint(root, shown, { url: Boolean(root.plChanged) });
  root.plChanged = false;
  pending(root, false);
  status(root, "");
  showNotes(root, [TEXT.failed, runtime.failure, TEXT.hint], "pl-error");
  root.dataset.state = "error";
}

// ---- figures on narrow screens --------------------------------------------------------

// A figure drawn for a desktop column and scaled down to a phone's would shrink its labels below
// legibility. Each figure therefore learns the width at which its smallest label is still
// kit/layout.py's MIN_LABEL_PX on screen (--pl-fit-width); on narrow screens probierlabor.css stops shrinking it
// there and lets it scroll sideways in its own region (a11y.js gives that region a tab stop, the
// CSS shows the swipe hint). Desktop and projector layouts never reach that width. The width is
// kept on the region (each holds at most one figure): the figure's markup stays Python's own.
const minLabelPx = () => parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--pl-min-label"));  // layout.css

// Only a narrow screen's CSS lets a region scroll and reads the width; elsewhere (desktop,
// projector, every slider step and drag move there) the labels' styles are not asked for at all.
// A render takes the regions from sizes(), read before the new figure is in: asked after, it made
// the browser work out the styles of the whole new figure at once, and again after the readouts
// change: on a desktop, about half of the time a drag move spent outside Python.
function scrollingRegions(root) {
  return [...root.querySelectorAll(".pl-figure, .pl-extra")].filter((region) => getComputedStyle(region).overflowX === "auto");
}

function fitFigures(root, regions = scrollingRegions(root)) {
  regions.forEach((region) => {
    // the first paint may hold a wide and a narrow figure, of which the CSS shows one
    const svg = [...region.querySelectorAll("svg.pl-plot")].find((el) => el.getClientRects().length);
    const view = svg && svg.viewBox && svg.viewBox.baseVal;
    let smallest = Infinity;
    if (view && view.width) {
      for (const text of svg.querySelectorAll("text")) {
        if (text.textContent.trim()) smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize));
      }
    }
    if (smallest > 0 && smallest < Infinity) {
      // one pixel more: layout rounds widths to fractions of a pixel, sometimes down
      region.style.setProperty("--pl-fit-width", `${Math.ceil(view.width * minLabelPx() / smallest) + 1}px`);
    } else region.style.removeProperty("--pl-fit-width");
  });
}

// The width the experiment has, as the CSS classifies it (--pl-layout, "wide" or "narrow"): Python
// lays the figure out for it (kit/layout.py). It is the page's, not the state's: never in the URL.
function layoutOf(root) {
  const stage = root.querySelector(".pl-stage");
  return (stage && getComputedStyle(stage).getPropertyValue("--pl-layout").trim()) || "wide";
}

// What a render asks the CSS (the layout, the regions that scroll) changes only with the experiment's
// width. Asked at every render, just after the reader moved the slider, it made the browser work out
// styles before Python even started (0,6 ms of every step, timed in the page); a ResizeObserver asks
// after the browser's own layout instead, when the answer costs nothing, and only for a new width
// (a taller figure changes neither).
function measure(root, width) {
  root.plSized = { width, layout: layoutOf(root), scrolling: scrollingRegions(root) };
  return root.plSized;
}
const sizes = (root) => root.plSized || measure(root);  // before the observer's first answer
const sized = new ResizeObserver((entries) => entries.forEach(({ target, contentRect }) => {
  if (!target.plSized || target.plSized.width !== contentRect.width) measure(target, contentRect.width);
}));

// A window turned or resized into the narrow layout fits the figures already on screen, and
// Python draws a figure again where the experiment has crossed to the other width.
let refit = 0;
addEventListener("resize", () => {
  cancelAnimationFrame(refit);
  refit = requestAnimationFrame(() => document.querySelectorAll("[data-experiment]").forEach((root) => {
    // asked now: the observer answers only after this frame's layout
    if (root.plStarted && root.plLayout && root.plLayout !== measure(root).layout && root.dataset.state === "ready"
        && root.plDragging === undefined) {
      render(root, fromControls(root), { fromUrl: false });
    }
    fitFigures(root);
  }));
});

// ---- dragging handles in a figure (SVG elements with data-drag) ------------------------
//
// The figure says what a handle edits: data-drag is the entry's index, data-drag-field the
// parameter (without it, the experiment's dragged points, [data-moves]); data-drag-y="y0 y1 v0 v1"
// maps a height to a value (y0 is where v0 lies, y1 where v1 does; without it the Plot's box and
// y range), data-drag-step is an arrow key's step, aria-valuemin/-max bound the value. An invisible
// larger target for a finger carries data-drag-hit (the index) and the same data-drag-field.
// Whatever a handle writes goes into its field, and from there the one path every change takes
// (Python checks it, says what it changed, the URL follows).

function enableDragging(root) {
  const stage = root.querySelector(".pl-figure");
  if (!stage) return;

  const fieldOf = (handle) => (handle.dataset.dragField
    ? root.querySelector(`[data-param="${handle.dataset.dragField}"]`) : root.querySelector("[data-moves]"));
  // the handle now on screen: Python draws the figure anew at every step of a drag
  const handleFor = (dragged) => stage.querySelector(handleSelector(dragged));
  const mapping = (handle) => {
    if (handle.dataset.dragY) return handle.dataset.dragY.split(" ").map(Number);
    const svg = handle.ownerSVGElement;
    const [, top, , bottom] = svg.dataset.box.split(" ").map(Number);
    const [y0, y1] = svg.dataset.yrange.split(" ").map(Number);
    return [bottom, top, y0, y1];
  };
  const clamp = (handle, value) => {
    const lo = handle.getAttribute("aria-valuemin"), hi = handle.getAttribute("aria-valuemax");
    return Math.min(Math.max(value, lo === null ? -Infinity : Number(lo)), hi === null ? Infinity : Number(hi));
  };
  const valueAt = (handle, clientY) => {
    const [p0, p1, v0, v1] = mapping(handle);
    const pt = handle.ownerSVGElement.createSVGPoint();
    pt.x = 0; pt.y = clientY;
    const local = pt.matrixTransform(handle.getScreenCTM().inverse());
    return v0 + (local.y - p0) / (p1 - p0) * (v1 - v0);
  };
  const setMove = (moves, handle, value) => {
    const index = handle.dataset.drag;
    const map = new Map(moves.value ? moves.value.split(",").map((p) => p.split(":")) : []);
    map.set(String(index), value.toFixed(1));
    moves.value = [...map].map(([i, v]) => `${i}:${v}`).join(",");
    if (!python.ready()) follow(handle, value);
  };
  // A bar of a distribution takes the share under the pointer, and the other bars keep theirs
  // relative to each other: only the dragged entry changes in the field, to the number that has
  // that share of the new sum. Python divides by the sum as for typed values (kit/contract.py) and
  // says so; an entry that holds everything cannot give any away, so it stays.
  // The reader's own numbers (kit/contract.py to_field: „5; 3; 2“, or the link's 5_3_2), one per bar,
  // so the others stay as typed; the drawn shares when the field holds something else (empty: the
  // figure shows the article's numbers).
  const typedNumbers = (field, count) => {
    const parts = field.value.trim().split(/\s*[;_]\s*/);
    const numbers = parts.map((p) => (/^[0-9.,e+-]+$/i.test(p) ? Number(p.replace(",", ".")) : NaN));
    return numbers.length === count && numbers.every((n) => Number.isFinite(n) && n >= 0) ? numbers : null;
  };
  const setShare = (field, handle, share) => {
    const handles = [...stage.querySelectorAll(`[data-drag][data-drag-field="${handle.dataset.dragField}"]`)];
    const drawn = handles.sort((a, b) => a.dataset.drag - b.dataset.drag).map((h) => Number(h.getAttribute("aria-valuenow")));
    const values = typedNumbers(field, drawn.length) || drawn;
    const index = Number(handle.dataset.drag);
    const rest = values.reduce((sum, v, i) => (i === index ? sum : sum + v), 0);
    if (!(rest > 0) || !(share < 1)) return false;
    values[index] = Number((share * rest / (1 - share)).toPrecision(6));
    field.value = values.join("_");
    return true;
  };
  // An own list that is not divided by its sum (logits; kit/drag.py ``direct``): the dragged entry
  // takes the value under the pointer, rounded to one arrow key's step, and the others stay as drawn
  // (the typed numbers, or the page's own while the field is empty).
  const setEntry = (field, handle, value) => {
    const handles = [...stage.querySelectorAll(`[data-drag][data-drag-field="${handle.dataset.dragField}"]`)];
    const values = handles.sort((a, b) => a.dataset.drag - b.dataset.drag).map((h) => Number(h.getAttribute("aria-valuenow")));
    const step = Number(handle.dataset.dragStep) || 1;
    values[Number(handle.dataset.drag)] = Number((Math.round(value / step) * step).toPrecision(6));
    field.value = values.join("_");
  };
  const write = (handle, value) => {
    const field = fieldOf(handle);
    if (!field) return;
    value = clamp(handle, value);
    if ("moves" in field.dataset) setMove(field, handle, value);
    else if ("dragSet" in handle.dataset) setEntry(field, handle, value);
    else if (!setShare(field, handle, value)) return;
    userChange(root);
  };
  // Until Python redraws the figure, a dragged point at least goes where it was put.
  const follow = (handle, value) => {
    const [p0, p1, v0, v1] = mapping(handle);
    const clamped = Math.min(Math.max(value, Math.min(v0, v1)), Math.max(v0, v1));
    const cy = (p0 + (clamped - v0) / (v1 - v0) * (p1 - p0)).toFixed(1);
    const index = handle.dataset.drag;
    stage.querySelectorAll(`circle[data-drag="${index}"], circle[data-drag-hit="${index}"]`).forEach((el) => el.setAttribute("cy", cy));
  };
  const currentValue = (handle) => {
    // a value kept while Python starts is not drawn yet: the field has it
    const field = fieldOf(handle);
    if (field && "moves" in field.dataset && root.plChanged) {
      const kept = field.value.split(",").map((p) => p.split(":")).find(([i]) => i === handle.dataset.drag);
      if (kept) return Number(kept[1]);
    }
    return Number(handle.getAttribute("aria-valuenow"));
  };

  // The handle under the pointer, or the invisible larger area around one, for a finger. Where the
  // areas of neighbouring points overlap, the nearest handle wins, not the one drawn last.
  const grabbed = (e) => {
    const distance = (el) => {
      const r = el.getBoundingClientRect();
      return Math.hypot(r.x + r.width / 2 - e.clientX, r.y + r.height / 2 - e.clientY);
    };
    const under = document.elementsFromPoint(e.clientX, e.clientY)
      .map((el) => el.closest("[data-drag], [data-drag-hit]")).filter((el) => el && stage.contains(el));
    if (!under.length) return e.target.closest("[data-drag], [data-drag-hit]");
    return under.reduce((best, el) => (distance(el) < distance(best) ? el : best));
  };

  stage.addEventListener("pointerdown", (e) => {
    const target = grabbed(e);
    if (!target) return;
    e.preventDefault();
    root.plDragging = { field: target.dataset.dragField, index: target.dataset.drag ?? target.dataset.dragHit };
    stage.setPointerCapture(e.pointerId);
    stage.classList.add("pl-dragging");
  });
  stage.addEventListener("pointermove", (e) => {
    if (root.plDragging === undefined || runtime.failure) return;
    const handle = handleFor(root.plDragging);
    if (handle) write(handle, valueAt(handle, e.clientY));
  });
  const stop = () => {
    root.plDragging = undefined;
    stage.classList.remove("pl-dragging");
    if (root.plAddressAfterDrag !== undefined) urlState.commit(root.plAddressAfterDrag);
    root.plAddressAfterDrag = undefined;
  };
  // A point dragged in both directions: data-drag-xy names the field of its pair of values (the first
  // across, the second up), data-drag-value holds the pair now drawn, data-drag-step rounds a value and
  // is an arrow key's step. Both values go into the field, and from there the one path every change takes.
  // A field of several pairs (attention's keys) numbers its handles with data-drag-pair.
  const pairHandle = (name, index) => stage.querySelector(pairSelector(name, index));
  const pairAt = (handle, e) => {
    // the plot's box and ranges: on its <svg>, or on its panel's group where a figure has several
    const plot = handle.closest("[data-box]");
    const [left, top, right, bottom] = plot.dataset.box.split(" ").map(Number);
    const [x0, x1] = plot.dataset.xrange.split(" ").map(Number);
    const [y0, y1] = plot.dataset.yrange.split(" ").map(Number);
    const pt = handle.ownerSVGElement.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const local = pt.matrixTransform(handle.getScreenCTM().inverse());
    return [x0 + (local.x - left) / (right - left) * (x1 - x0), y0 + (bottom - local.y) / (bottom - top) * (y1 - y0)];
  };
  const writePair = (handle, pair) => {
    const field = root.querySelector(`[data-param="${handle.dataset.dragXy}"]`);
    if (!field) return;
    const step = Number(handle.dataset.dragStep || 0.1);
    const snap = (v) => Number((Math.round(clamp(handle, v) / step) * step).toFixed(6));
    let values = pair.map(snap);
    if (handle.dataset.dragPair !== undefined) {
      // one pair of several: the others stay as drawn (the typed ones, or the page's own while the field is empty)
      const all = [...stage.querySelectorAll(`[data-drag-xy="${handle.dataset.dragXy}"][data-drag-pair][role]`)]
        .sort((a, b) => a.dataset.dragPair - b.dataset.dragPair)
        .flatMap((h) => h.dataset.dragValue.split(" ").map(Number));
      all.splice(2 * Number(handle.dataset.dragPair), 2, ...values);
      values = all;
    }
    const value = values.join("_");
    if (value === field.value) return;
    field.value = value;
    userChange(root);
  };
  stage.addEventListener("pointerdown", (e) => {
    const target = e.target.closest("[data-drag-xy]");
    if (!target || root.plDragging !== undefined) return;
    e.preventDefault();
    root.plDragging = { pair: target.dataset.dragXy, pairIndex: target.dataset.dragPair };
    stage.setPointerCapture(e.pointerId);
    stage.classList.add("pl-dragging");
  });
  // Chromium ignores touch-action on an SVG shape (only the <svg> box has one), and the figure around a
  // point dragged in both directions must still scroll the page: so the finger's touch on such a point
  // is kept from the browser, which would otherwise take it over for scrolling after a few pixels.
  stage.addEventListener("touchstart", (e) => {
    if (e.target.closest("[data-drag-xy]")) e.preventDefault();
  }, { passive: false });
  stage.addEventListener("pointermove", (e) => {
    const name = root.plDragging && root.plDragging.pair;
    const handle = name && !runtime.failure && pairHandle(name, root.plDragging.pairIndex);
    if (handle) writePair(handle, pairAt(handle, e));
  });
  stage.addEventListener("keydown", (e) => {
    const target = e.target.closest("[data-drag-xy]");
    const move = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (!target || !move || runtime.failure) return;
    e.preventDefault();
    const step = Number(target.dataset.dragStep || 0.1) * (e.shiftKey ? 5 : 1);
    const [x, y] = target.dataset.dragValue.split(" ").map(Number);
    writePair(target, [x + move[0] * step, y + move[1] * step]);
  });
  stage.addEventListener("pointerup", stop);
  stage.addEventListener("pointercancel", stop);
  stage.addEventListener("keydown", (e) => {
    const target = e.target.closest("[data-drag]");
    if (!target || runtime.failure) return;
    const base = Number(target.dataset.dragStep || 5);
    const step = e.shiftKey ? 5 * base : base;
    const delta = { ArrowUp: step, ArrowDown: -step, PageUp: 10 * base, PageDown: -10 * base }[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    write(target, currentValue(target) + delta);
  });
}
