// The page's one entry (overrides/main.html: a module in <head>, after the Trusted Types gate and
// before the theme's deferred bundle). It starts Python, and on every page (mkdocs-material announces
// the first one and each instant navigation on document$) it mounts what the page's markup declares,
// importing a feature's code only for a page that has it: a page without a replay loads no replay code.
// Python survives the page changes: the tab keeps this module, and with it the one runtime.
import { onPage as a11y } from "./a11y.js";
import { onPage as backToTop } from "./back-to-top.js";
import * as fmt from "./fmt.js";
import { onPage as present } from "./classroom/present.js";
import { onPage as paths } from "./classroom/paths.js";
import { playerOf, setPlayer } from "./classroom/handles.js";
import { control as offline, onPage as offlinePage } from "./offline/offline.js";
import { config } from "./runtime/start.js";
import { connect, fail, runtime, whenReady } from "./runtime/python.js";
import "./runtime/search-later.js";
import { REAL_MODEL, query, renameOld } from "./url-state.js";

// What a page may declare, the code that mounts it, and in which order the features mount (the share
// bar and the presentation mode after the experiment they work on). A feature with `opened` is a closed
// <details>: its code loads when the reader opens one (the module's open(el)), and at once for a link
// that carries its state (opened() is true), which opens it.
const FEATURES = [
  { markup: "[data-experiment]", load: () => import("./experiment/mount.js"), mount: (m) => m.mountAll() },
  { always: a11y },
  { markup: "section.pl-replay[data-replay]", load: () => import("./replay/index.js") },
  { markup: "[data-experiment]", load: () => import("./classroom/share.js") },
  { markup: "a.pl-value", load: () => import("./experiment/prose-values.js") },
  { markup: "[data-play]", load: () => import("./experiment/play.js") },
  { always: present },
  { markup: ".pl-tasks[data-lesson]", load: () => import("./classroom/lesson.js") },
  { markup: "[data-systemcheck]", load: () => import("./systemcheck/systemcheck.js") },
  { markup: "[data-workshop]", load: () => import("./workshop/workshop.js") },
  { markup: "[data-live]", load: () => import("./live/live.js") },
  // „Am echten Modell“: the view its data-realmodel-view names (static/js/realmodel/frame.js)
  { markup: "details[data-realmodel]", load: () => import("./realmodel/frame.js"),
    opened: () => [...query().keys()].some((key) => key.startsWith(REAL_MODEL)), intent: prepareModel },
  { always: offlinePage },
  { always: paths },
  { always: backToTop },
];

// The pointer on a closed block's summary, or the keyboard's focus: the click that opens it is coming, and
// the worker starts loading Python, numpy and the model now (static/js/runtime/worker.js, prepare).
function prepareModel(block) {
  whenReady.then(() => import("./runtime/worker.js")).then((worker) => {
    worker.prepare("realmodel", config.bundle, worker.weights(JSON.parse(block.dataset.weights)).files);
  }, () => {});
}

const loaded = new Map();  // feature → the promise of its module, once asked for
const arrived = new Map();  // feature → its module, once there

function load(feature) {
  if (!loaded.has(feature)) {
    loaded.set(feature, feature.load().then((module) => { arrived.set(feature, module); return module; }));
  }
  return loaded.get(feature);
}

// One listener for every closed block, so a block wired twice still opens once.
function toggled(event) {
  const el = event.currentTarget;
  if (el.open) load(FEATURES.find((f) => f.opened && el.matches(f.markup))).then((m) => m.open(el));
}

// One listener per block too: the intent is told once, however often the block is wired.
function intended(event) {
  const el = event.currentTarget.closest("details");
  FEATURES.find((f) => f.intent && el.matches(f.markup))?.intent(el);
}

function wireClosed(feature) {
  for (const el of document.querySelectorAll(feature.markup)) {
    el.addEventListener("toggle", toggled);
    const summary = feature.intent && el.querySelector("summary");
    if (summary) for (const type of ["pointerenter", "focusin"]) summary.addEventListener(type, intended, { once: true });
    if (feature.opened()) el.open = true;
  }
}

// The features of the page now on screen, mounted in FEATURES' order, each as soon as its own module
// is there: one that arrived for an earlier page mounts in this very call, and none waits for the
// import of a feature after it. A feature loaded for an earlier page hears of every later one too (it
// may have to let go of what it held).
let pageNumber = 0;
async function onPage() {
  const mine = ++pageNumber;
  const wanted = FEATURES.map((f) => (f.always || f.opened || !(loaded.has(f) || document.querySelector(f.markup)) ? null : load(f)));
  for (const [i, feature] of FEATURES.entries()) {
    if (feature.always) { feature.always(); continue; }
    if (feature.opened) { wireClosed(feature); continue; }
    if (!wanted[i]) continue;
    const module = arrived.get(feature) || await wanted[i];
    if (mine !== pageNumber) return;  // the reader moved on: the newer page's call mounts the rest
    (feature.mount || ((m) => m.onPage()))(module);
  }
}

// An old link's former parameter names, before the theme's bundle reads the address (it opens ?q= as
// a search); the experiment renames them again for a page reached by instant navigation.
document.querySelectorAll("[data-experiment][data-aliases]").forEach(renameOld);
// The page is parsed (a module runs after that): its features download while the theme starts. The
// experiment is wired the moment its code is there, not once the theme has started and every other
// feature's code has come: a preset clicked in between would go nowhere.
FEATURES.forEach((f) => { if (f.markup && !f.opened && document.querySelector(f.markup)) load(f); });
const experiment = FEATURES[0];
// A preset pressed before the experiment's code has come (a slow line, a busy laptop) would go nowhere:
// the press is kept here, the earliest script, and given again once the experiment is mounted.
const pressedEarly = [];
const keepPress = (event) => {
  const button = event.target instanceof Element && event.target.closest("[data-experiment] [data-preset]");
  if (button) pressedEarly.push(button);
};
if (document.querySelector(experiment.markup)) {
  document.addEventListener("click", keepPress, true);
  load(experiment).then((m) => {
    experiment.mount(m);
    document.removeEventListener("click", keepPress, true);
    pressedEarly.splice(0).forEach((button) => button.click());
  }, () => document.removeEventListener("click", keepPress, true));
}

function start() {
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(onPage);
  else onPage();
}
// After the theme's bundle, which makes document$: deferred, it runs after this module and before
// DOMContentLoaded (readyState is "interactive" already while deferred scripts run).
if (document.readyState === "complete") start();
else document.addEventListener("DOMContentLoaded", start, { once: true });

// One read-only handle for tests, the bench and the curious; no feature reads it.
window.probierlabor = Object.freeze({
  runtime, connect, fail, config, fmt, offline,
  player: playerOf,
  setPlayer,  // a stand-in panel for the presentation mode's keys (tests/browser/test_present.py)
  values: (root) => arrived.get(experiment).fromControls(root),
  layout: (root) => arrived.get(experiment).drawnLayout(root),  // what Python last drew the experiment for
});
