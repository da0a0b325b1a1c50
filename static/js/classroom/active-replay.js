// Which replay the keys drive: the recorded replays and the panel of „Eigener Lauf“ (static/js/live/live.js),
// which a new run replaces. The one focused, else the one used last, else the first in view, else the first.
import { playerOf } from "./handles.js";

const REPLAYS = "[data-replay], [data-live-replay]";
let lastUsed = null;  // the replay panel or „Eigener Lauf“ last clicked or focused

function readyReplays() {
  return [...document.querySelectorAll(REPLAYS)].filter(
    (el) => playerOf(el) && el.dataset.state !== "error" && el.dataset.state !== "loading");
}

// The replay a place of the page belongs to: a panel itself, or from „Eigener Lauf“'s form its run's panel.
function replayOf(node) {
  if (!node || !node.closest) return null;
  const live = node.closest("[data-live]");
  return live ? live.querySelector("[data-live-replay]") : node.closest(REPLAYS);
}

function inView(el) {
  const box = el.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

export function activeReplay() {
  const all = readyReplays();
  for (const candidate of [replayOf(document.activeElement), replayOf(lastUsed), all.find(inView), all[0]]) {
    if (candidate && all.includes(candidate)) return candidate;
  }
  return null;
}

function remind(e) {
  const place = e.target && e.target.closest ? e.target.closest(`${REPLAYS}, [data-live]`) : null;
  if (place) lastUsed = place;
}
for (const type of ["pointerdown", "focusin", "click"]) document.addEventListener(type, remind, true);
