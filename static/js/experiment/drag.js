// Dragging handles in a figure (SVG elements with data-drag or data-drag-xy), by pointer and by key.
//
// The figure says what a handle edits: data-drag is the entry's index, data-drag-field the
// parameter (without it, the experiment's dragged points, [data-moves]); data-drag-y="y0 y1 v0 v1"
// maps a height to a value (y0 is where v0 lies, y1 where v1 does; without it the Plot's box and
// y range), data-drag-step is an arrow key's step, aria-valuemin/-max bound the value. An invisible
// larger target for a finger carries data-drag-hit (the index) and the same data-drag-field.
// Whatever a handle writes goes into its field, and from there the one path every change takes
// (userChange: Python checks it, says what it changed, the URL follows).
import { python, runtime } from "../runtime/python.js";
import * as urlState from "../url-state.js";

// One drag handle in every figure Python draws: a point of the moves (no field) or a bar of a field.
export function handleSelector({ field, index }) {
  return `[data-drag="${index}"]` + (field ? `[data-drag-field="${field}"]` : ":not([data-drag-field])");
}

// A point dragged in 2-D: the handle of a field's pair, or of its pair number ``index`` (data-drag-pair),
// where the field holds several pairs; never its larger target for a finger (no role).
export function pairSelector(name, index) {
  return `[data-drag-xy="${name}"]` + (index === undefined ? "" : `[data-drag-pair="${index}"]`) + "[role]";
}

// ---- entries dragged up and down -----------------------------------------------------------

function mapping(handle) {
  if (handle.dataset.dragY) return handle.dataset.dragY.split(" ").map(Number);
  const svg = handle.ownerSVGElement;
  const [, top, , bottom] = svg.dataset.box.split(" ").map(Number);
  const [y0, y1] = svg.dataset.yrange.split(" ").map(Number);
  return [bottom, top, y0, y1];
}

function clamp(handle, value) {
  const lo = handle.getAttribute("aria-valuemin"), hi = handle.getAttribute("aria-valuemax");
  return Math.min(Math.max(value, lo === null ? -Infinity : Number(lo)), hi === null ? Infinity : Number(hi));
}

function valueAt(handle, clientY) {
  const [p0, p1, v0, v1] = mapping(handle);
  const pt = handle.ownerSVGElement.createSVGPoint();
  pt.x = 0; pt.y = clientY;
  const local = pt.matrixTransform(handle.getScreenCTM().inverse());
  return v0 + (local.y - p0) / (p1 - p0) * (v1 - v0);
}

function setMove(stage, moves, handle, value) {
  const index = handle.dataset.drag;
  const map = new Map(moves.value ? moves.value.split(",").map((p) => p.split(":")) : []);
  map.set(String(index), value.toFixed(1));
  moves.value = [...map].map(([i, v]) => `${i}:${v}`).join(",");
  if (!python.ready()) follow(stage, handle, value);
}

// Until Python redraws the figure, a dragged point at least goes where it was put.
function follow(stage, handle, value) {
  const [p0, p1, v0, v1] = mapping(handle);
  const clamped = Math.min(Math.max(value, Math.min(v0, v1)), Math.max(v0, v1));
  const cy = (p0 + (clamped - v0) / (v1 - v0) * (p1 - p0)).toFixed(1);
  const index = handle.dataset.drag;
  stage.querySelectorAll(`circle[data-drag="${index}"], circle[data-drag-hit="${index}"]`).forEach((el) => el.setAttribute("cy", cy));
}

// The values the figure draws for the entries of the handle's field, in their order.
function drawnValues(stage, handle) {
  const handles = [...stage.querySelectorAll(`[data-drag][data-drag-field="${handle.dataset.dragField}"]`)];
  return handles.sort((a, b) => a.dataset.drag - b.dataset.drag).map((h) => Number(h.getAttribute("aria-valuenow")));
}

// A bar of a distribution takes the share under the pointer, and the other bars keep theirs
// relative to each other: only the dragged entry changes in the field, to the number that has
// that share of the new sum. Python divides by the sum as for typed values (kit/contract.py) and
// says so; an entry that holds everything cannot give any away, so it stays.
// The reader's own numbers (kit/contract.py to_field: „5; 3; 2“, or the link's 5_3_2), one per bar,
// so the others stay as typed; the drawn shares when the field holds something else (empty: the
// figure shows the article's numbers).
function typedNumbers(field, count) {
  const parts = field.value.trim().split(/\s*[;_]\s*/);
  const numbers = parts.map((p) => (/^[0-9.,e+-]+$/i.test(p) ? Number(p.replace(",", ".")) : NaN));
  return numbers.length === count && numbers.every((n) => Number.isFinite(n) && n >= 0) ? numbers : null;
}

function setShare(stage, field, handle, share) {
  const drawn = drawnValues(stage, handle);
  const values = typedNumbers(field, drawn.length) || drawn;
  const index = Number(handle.dataset.drag);
  const rest = values.reduce((sum, v, i) => (i === index ? sum : sum + v), 0);
  if (!(rest > 0) || !(share < 1)) return false;
  values[index] = Number((share * rest / (1 - share)).toPrecision(6));
  field.value = values.join("_");
  return true;
}

// An own list that is not divided by its sum (logits; kit/drag.py ``direct``): the dragged entry
// takes the value under the pointer, rounded to one arrow key's step, and the others stay as drawn
// (the typed numbers, or the page's own while the field is empty).
function setEntry(stage, field, handle, value) {
  const values = drawnValues(stage, handle);
  const step = Number(handle.dataset.dragStep) || 1;
  values[Number(handle.dataset.drag)] = Number((Math.round(value / step) * step).toPrecision(6));
  field.value = values.join("_");
}

// The handle under the pointer, or the invisible larger area around one, for a finger. Where the
// areas of neighbouring points overlap, the nearest handle wins, not the one drawn last.
function grabbed(stage, e) {
  const distance = (el) => {
    const r = el.getBoundingClientRect();
    return Math.hypot(r.x + r.width / 2 - e.clientX, r.y + r.height / 2 - e.clientY);
  };
  const under = document.elementsFromPoint(e.clientX, e.clientY)
    .map((el) => el.closest("[data-drag], [data-drag-hit]")).filter((el) => el && stage.contains(el));
  if (!under.length) return e.target.closest("[data-drag], [data-drag-hit]");
  return under.reduce((best, el) => (distance(el) < distance(best) ? el : best));
}

// ---- points dragged in both directions ----------------------------------------------------
//
// data-drag-xy names the field of its pair of values (the first across, the second up),
// data-drag-value holds the pair now drawn, data-drag-step rounds a value and is an arrow key's step.
// Both values go into the field, and from there the one path every change takes. A field of several
// pairs (attention's keys) numbers its handles with data-drag-pair.

function pairAt(handle, e) {
  // the plot's box and ranges: on its <svg>, or on its panel's group where a figure has several
  const plot = handle.closest("[data-box]");
  const [left, top, right, bottom] = plot.dataset.box.split(" ").map(Number);
  const [x0, x1] = plot.dataset.xrange.split(" ").map(Number);
  const [y0, y1] = plot.dataset.yrange.split(" ").map(Number);
  const pt = handle.ownerSVGElement.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  const local = pt.matrixTransform(handle.getScreenCTM().inverse());
  return [x0 + (local.x - left) / (right - left) * (x1 - x0), y0 + (bottom - local.y) / (bottom - top) * (y1 - y0)];
}

// The field's new text for this pair, or null where nothing changes.
function pairText(stage, field, handle, pair) {
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
  return value === field.value ? null : value;
}

// ---- wiring ------------------------------------------------------------------------------

// experiment.dragging is what the pointer holds (the page's other code leaves a drag alone), and the
// address a render wrote meanwhile waits in experiment.addressAfterDrag until the handle is let go.
export function enableDragging(experiment, userChange) {
  const { root } = experiment;
  const stage = root.querySelector(".pl-figure");
  if (!stage) return;

  const fieldOf = (handle) => (handle.dataset.dragField
    ? root.querySelector(`[data-param="${handle.dataset.dragField}"]`) : root.querySelector("[data-moves]"));
  const write = (handle, value) => {
    const field = fieldOf(handle);
    if (!field) return;
    value = clamp(handle, value);
    if ("moves" in field.dataset) setMove(stage, field, handle, value);
    else if ("dragSet" in handle.dataset) setEntry(stage, field, handle, value);
    else if (!setShare(stage, field, handle, value)) return;
    userChange();
  };
  const currentValue = (handle) => {
    // a value kept while Python starts is not drawn yet: the field has it
    const field = fieldOf(handle);
    if (field && "moves" in field.dataset && experiment.changed) {
      const kept = field.value.split(",").map((p) => p.split(":")).find(([i]) => i === handle.dataset.drag);
      if (kept) return Number(kept[1]);
    }
    return Number(handle.getAttribute("aria-valuenow"));
  };
  const writePair = (handle, pair) => {
    const field = root.querySelector(`[data-param="${handle.dataset.dragXy}"]`);
    const value = field && pairText(stage, field, handle, pair);
    if (!value) return;
    field.value = value;
    userChange();
  };
  const hold = (e, dragging) => {
    e.preventDefault();
    experiment.dragging = dragging;
    stage.setPointerCapture(e.pointerId);
    stage.classList.add("pl-dragging");
  };
  const stop = () => {
    experiment.dragging = undefined;
    stage.classList.remove("pl-dragging");
    if (experiment.addressAfterDrag !== undefined) urlState.commit(experiment.addressAfterDrag);
    experiment.addressAfterDrag = undefined;
  };

  stage.addEventListener("pointerdown", (e) => {
    const target = grabbed(stage, e);
    if (target) hold(e, { field: target.dataset.dragField, index: target.dataset.drag ?? target.dataset.dragHit });
  });
  stage.addEventListener("pointermove", (e) => {
    if (experiment.dragging === undefined || runtime.failure) return;
    // the handle now on screen: Python draws the figure anew at every step of a drag
    const handle = stage.querySelector(handleSelector(experiment.dragging));
    if (handle) write(handle, valueAt(handle, e.clientY));
  });
  stage.addEventListener("pointerdown", (e) => {
    const target = e.target.closest("[data-drag-xy]");
    if (target && experiment.dragging === undefined) hold(e, { pair: target.dataset.dragXy, pairIndex: target.dataset.dragPair });
  });
  // Chromium ignores touch-action on an SVG shape (only the <svg> box has one), and the figure around a
  // point dragged in both directions must still scroll the page: so the finger's touch on such a point
  // is kept from the browser, which would otherwise take it over for scrolling after a few pixels.
  stage.addEventListener("touchstart", (e) => {
    if (e.target.closest("[data-drag-xy]")) e.preventDefault();
  }, { passive: false });
  stage.addEventListener("pointermove", (e) => {
    const name = experiment.dragging && experiment.dragging.pair;
    const handle = name && !runtime.failure && stage.querySelector(pairSelector(name, experiment.dragging.pairIndex));
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
