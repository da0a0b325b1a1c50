// Before Python is ready, and when it never comes. Python needs seconds to start, and nothing the
// reader does meanwhile is lost: a preset shows its view at once (pre-rendered at build time, in the
// block's <template class="pl-views">); any other change is kept in the controls, the stage is marked
// as pending, and Python computes it as soon as it is ready. What is shown therefore always belongs
// to the controls and the URL, or is visibly marked as not yet computed.
import { python, runtime } from "../runtime/python.js";
import { fromControls, fromUrl, setControls } from "./controls.js";

const SLOW_MS = 45000;

const TEXT = {
  loading: "Python wird geladen … Die Abbildung zeigt schon die Standardeinstellung.",
  loadingPreset: (label) => `Python wird geladen … Die Abbildung zeigt schon „${label}“.`,
  pending: "Python startet … Deine Änderung wird berechnet, sobald es bereit ist.",
  slow: "Python lädt ungewöhnlich lange. Die Voreinstellungen gehen schon; andere Änderungen folgen, sobald Python bereit ist.",
  failed: "Python konnte nicht gestartet werden, darum lassen sich nur die Voreinstellungen zeigen.",
  hint: "Tipp: Seite neu laden. Hilft das nicht, die Website neu bauen (make site) – eine Datei der Python-Laufzeit fehlt oder ist beschädigt.",
};

// A freshly mounted experiment while Python is not there yet.
export function beforePython(experiment) {
  pending(experiment, false);  // a copy of a pending experiment (classroom/share.js, A/B) starts from its own link
  experiment.status(TEXT.loading);
  fromLink(experiment);
  if (runtime.failure) showFailure(experiment);
  else {
    setTimeout(() => {
      if (!python.ready() && !runtime.failure && experiment.root.isConnected) experiment.status(TEXT.slow);
    }, SLOW_MS);
  }
}

function views(experiment) {
  if (experiment.views === undefined) {
    const template = experiment.root.querySelector("template.pl-views");
    try {
      experiment.views = template ? JSON.parse(template.dataset.views) : null;
    } catch (_) {
      experiment.views = null;
    }
  }
  return experiment.views;
}

// experiment_block.prerendered: a figure is a list of pieces (joined with "<"), a piece one token
// or a list of tokens (joined with '" '), all shared by the block's views.
function prerendered(experiment, index) {
  const data = views(experiment);
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
function fromLink(experiment) {
  const { root } = experiment;
  const raw = fromUrl(root);
  if (!Object.keys(raw).length) return;
  const data = views(experiment);
  const index = data ? data.views.findIndex((view) => sameState(view.url, raw)) : -1;
  if (index >= 0) {
    const button = [...root.querySelectorAll("[data-preset]")].find((b) => Number(b.dataset.view) === index);
    showPreset(experiment, index, button ? button.textContent : null);
  } else {
    setControls(root, raw);
    pending(experiment, true);
  }
}

function sameState(a, b) {
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => String(a[k]) === String(b[k]));
}

// A preset's pre-rendered view (index: its data-view), with its button's label for the status line.
export function showPreset(experiment, index, label) {
  const view = prerendered(experiment, index);
  if (!view) { pending(experiment, true); return; }
  experiment.changed = false;
  experiment.byReader = false;
  experiment.shown = view;
  experiment.paint(view);
  pending(experiment, false);
  if (!runtime.failure) experiment.status(label ? TEXT.loadingPreset(label.trim()) : TEXT.loading);
  experiment.announce({ ms: 0, prerendered: true, lesson: view.lesson, byReader: false });
}

// Changed controls whose view only Python can compute: the old view stays, dimmed and marked busy,
// and the URL already carries the new values (Python writes its canonical form when it is ready).
export function pending(experiment, on) {
  const { root } = experiment;
  const stage = root.querySelector(".pl-stage");
  const was = root.classList.contains("pl-pending");
  root.classList.toggle("pl-pending", on);
  if (on) stage.setAttribute("aria-busy", "true");
  else stage.removeAttribute("aria-busy");
  if (on && !was) experiment.status(TEXT.pending);  // said once, not at every step of a slider
}

// A change of the reader's before Python is ready.
export function keepForLater(experiment) {
  if (runtime.failure) {  // no Python will come: back to the view on screen
    const shown = experiment.shown || prerendered(experiment, 0);
    if (shown) experiment.paint(shown);
    return;
  }
  experiment.changed = true;
  const defaults = prerendered(experiment, 0);
  if (defaults) {
    const raw = fromControls(experiment.root), url = {};
    for (const [name, value] of Object.entries(raw)) if (String(defaults.controls[name]) !== value) url[name] = value;
    experiment.writeUrl(url);
  }
  pending(experiment, true);
}

export function showFailure(experiment) {
  // Changes kept for Python go back to the view on screen; a link's state stays in the URL, so that
  // reloading (the hint below) can still show it.
  const shown = experiment.shown || prerendered(experiment, 0);
  if (shown && experiment.root.classList.contains("pl-pending")) experiment.paint(shown, { url: experiment.changed });
  experiment.changed = false;
  pending(experiment, false);
  experiment.status("");
  experiment.notes([TEXT.failed, runtime.failure, TEXT.hint], "pl-error");
  experiment.root.dataset.state = "error";
}
