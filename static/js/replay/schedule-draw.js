// What the scheduling views (replay/slots.js, ttft.js, prefill.js) draw alike: the patterns that carry
// the meaning besides colour, the legend's swatches, tick spacing, the width of the stage they lay out
// for, and the words for a policy and a count.
import { fmt } from "./core.js";

export const LABEL_W = 46; // room for row labels such as "r15" or "kurz 3"

let uid = 0;
const frames = new WeakMap();  // stage → { id: its patterns' prefix, width, index: the step shown }

export const list = (xs) => (xs.length ? xs.join(", ") : "–");
export const steps = (k) => `${fmt.num(k)} ${k === 1 ? "Schritt" : "Schritten"}`;

export function policyName(m) {
  return m.trace.config.policy === "static" ? "Feste Gruppe (statisches Batching)" : "Continuous Batching";
}

export const policyShort = (m) => (m.trace.config.policy === "static" ? "Feste Gruppe" : "Continuous");

// A fresh prefix for the ids of one panel's patterns.
export function frameId() {
  return `plrs${++uid}`;
}

// Width of the stage, kept current so figures are laid out for the screen they are on (text
// stays at 12 px; only the step scale shrinks on a phone).
export function track(stage, model, view, id) {
  const frame = { id, width: stage.clientWidth || 680, index: undefined };
  frames.set(stage, frame);
  if (typeof ResizeObserver !== "function") return;
  new ResizeObserver(() => {
    const w = stage.clientWidth;
    if (!w || Math.abs(w - frame.width) < 12) return;
    frame.width = w;
    if (frame.index !== undefined) view.render(stage, model, frame.index);
  }).observe(stage);
}

// The stage's frame while it shows step i (a resize draws that step again).
export function frameAt(stage, i) {
  const frame = frames.get(stage);
  frame.index = i;
  return { id: frame.id, width: frame.width || 680 };
}

// Patterns carry the meaning besides colour (colour-blind safe): hatched = prompt work,
// solid = decode, dotted = waiting. Ids are per panel; colours come from CSS classes.
export function defs(p) {
  return `<svg class="pl-rs-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>
<pattern id="${p}-pre" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="pl-rs-pat-pre-bg"/><rect width="2.4" height="6" class="pl-rs-pat-pre-fg"/></pattern>
<pattern id="${p}-chunk" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="pl-rs-pat-chunk-bg"/><rect width="2" height="6" class="pl-rs-pat-pre-fg"/></pattern>
<pattern id="${p}-other" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" class="pl-rs-pat-other-bg"/><rect width="2" height="6" class="pl-rs-pat-other-fg"/></pattern>
<pattern id="${p}-wait" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" class="pl-rs-pat-wait-bg"/><circle cx="2.5" cy="2.5" r="1" class="pl-rs-pat-wait-fg"/></pattern>
</defs></svg>`;
}
const FILL = { pre: "pre", chunk: "chunk", wait: "wait", other: "other" };
export const fillAttr = (p, kind) => (FILL[kind] ? ` fill="url(#${p}-${FILL[kind]})"` : "");

export function swatch(p, kind) {
  return `<svg class="pl-rs-swatch" width="22" height="14" aria-hidden="true"><rect x="0.5" y="0.5" width="21" height="13" rx="2" class="pl-rs-k-${kind}"${fillAttr(p, kind)}/></svg>`;
}

export function niceTick(pxPerUnit, minPx, choices) {
  for (const c of choices) if (c * pxPerUnit >= minPx) return c;
  return choices[choices.length - 1];
}
