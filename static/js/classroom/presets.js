// The experiment's presets as the keys see them: which one is shown, choosing one, stepping to the
// next. Each preset's canonical URL state is written at build time by pageblocks/experiment_block.py
// (data-preset-url): "which preset is shown" is a plain comparison with the query string, no Python call.
import * as urlState from "../url-state.js";
import { reveal, say } from "./feedback.js";

const urlsOf = new WeakMap();  // experiment root → each preset's URL state, read once
const chosen = new WeakMap();  // experiment root → the index of the preset chosen last (button or key)

export function presets(root) {
  return [...root.querySelectorAll(".pl-presets [data-preset]")];
}

function presetUrls(root) {
  if (!urlsOf.has(root)) urlsOf.set(root, presets(root).map((button) => JSON.parse(button.dataset.presetUrl || "null")));
  return urlsOf.get(root);
}

// The query as experiment/mount.js writes it (url-state.js: a comparison copy under its own prefix).
function currentUrl(root) {
  return urlState.read(urlState.prefixOf(root), new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param)));
}

function same(a, b) {
  if (!a || !b) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => String(a[k]) === String(b[k]));
}

// The preset shown now; after a manual change, the one chosen last (stepping goes on from it).
export function currentPreset(root) {
  const urls = presetUrls(root);
  const last = chosen.get(root);
  if (urls) {
    const now = currentUrl(root);
    if (last !== undefined && same(urls[last], now)) return last;
    const found = urls.findIndex((u) => same(u, now));
    if (found >= 0) return found;
  }
  return last !== undefined ? last : -1;
}

export function markPreset(root) {
  const urls = presetUrls(root);
  const now = currentUrl(root);
  const index = urls ? currentPreset(root) : -1;
  presets(root).forEach((b, i) => {
    b.classList.toggle("pl-present-current", i === index && urls !== null && same(urls[i], now));
  });
}

export function choosePreset(root, index) {
  const all = presets(root);
  if (index < 0 || index >= all.length) return false;
  chosen.set(root, index);
  all[index].click();
  revealFigure(root);
  return true;
}

export function stepPreset(root, delta) {
  const all = presets(root);
  if (!all.length) return false;
  const now = currentPreset(root);
  const next = now < 0 ? (delta > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, now + delta));
  if (next === now) {
    say(delta > 0 ? "Letzte Voreinstellung." : "Erste Voreinstellung.");
    return true;
  }
  return choosePreset(root, next);
}

export function resetExperiment(root) {
  const urls = presetUrls(root);
  if (!urls) return false;
  const index = urls.findIndex((u) => u && Object.keys(u).length === 0);
  return choosePreset(root, index >= 0 ? index : 0);
}

// the figure itself, half of it at least: on a phone its stage has no box of its own (probierlabor.css puts
// the controls between the figure and the readouts)
export function revealFigure(root) {
  reveal(root.querySelector(".pl-figure") || root, 0.5);
}

// The preset button under the pointer or the focus, as its experiment's root and index.
export function presetAt(target) {
  const button = target && target.closest ? target.closest(".pl-presets [data-preset]") : null;
  const root = button && button.closest("[data-experiment]");
  return root ? { root, index: presets(root).indexOf(button) } : null;
}

// A preset pressed, focused or pointed at is the one stepping goes on from.
function remind(e) {
  const at = presetAt(e.target);
  if (at) chosen.set(at.root, at.index);
}
for (const type of ["pointerdown", "focusin", "click"]) document.addEventListener(type, remind, true);
