// An experiment's parameters as its controls hold them, as raw values (what Python is asked with),
// and in the URL. Python alone decides what a value means and how it is written; these functions
// only move the texts between the controls, the query and the call.
import * as urlState from "../url-state.js";

export function names(root) {
  return [...new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param))];
}

// A second copy of an experiment on the page (the A/B comparison, static/js/classroom/share.js) keeps
// its state in the same query under its own prefix (url-state.js), so a link restores both sides.
export function fromUrl(root) {
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
// True when the field took a step.
export function stepNumber(el, e) {
  if ((e.key !== "ArrowUp" && e.key !== "ArrowDown") || e.altKey || e.ctrlKey || e.metaKey) return false;
  const now = Number(el.value.trim().replace(",", ".").replace("\u2212", "-"));
  if (el.value.trim() === "" || !Number.isFinite(now)) return false;
  const { step, min, max } = el.dataset, places = (step.split(".")[1] || "").length;
  const next = Math.min(Number(max), Math.max(Number(min), now + (e.key === "ArrowUp" ? 1 : -1) * Number(step)));
  e.preventDefault();
  el.value = String(Number(next.toFixed(places))).replace(".", ",").replace("-", "\u2212");
  return true;
}

// A slider's position as the value it stands for (a logarithmic one's position is the exponent).
export function rangeRaw(el, position) {
  return "log" in el.dataset ? roundSignificant(10 ** Number(position)) : position;
}

function roundSignificant(x) {
  return String(Number(x.toPrecision(3)));
}

// values: the controls' texts (Python's "controls", a preset button's data-preset) or a link's
export function setControls(root, values) {
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

// The address of the page with these values in the experiment's part of the query.
export function addressFor(root, values) {
  return urlState.addressFor(urlState.prefixOf(root), names(root), values);
}

// A slider draws at every step (`change`), with experiment.sliding set: its address is held back
// (url-state.js) and written when the slider is let go: the pointer's change event, a key's keyup (a
// key held down repeats its steps), leaving the slider.
export function wireSlider(input, experiment, change) {
  input.addEventListener("input", () => {
    experiment.sliding = true;
    try { change(); } finally { experiment.sliding = false; }
  });
  let key = false;
  input.addEventListener("keydown", () => { key = true; });
  input.addEventListener("change", () => { if (!key) urlState.release(); });
  for (const type of ["keyup", "blur"]) {
    input.addEventListener(type, () => {
      key = false;
      urlState.release();
    });
  }
}
