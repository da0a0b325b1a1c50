// What a key of the presentation mode changed, told to the class: aloud through a live region (screen
// readers), and on screen by scrolling it into view where too little of it shows.
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

let live = null;  // the polite live region, made once per document

export function ensureLive() {
  live = document.getElementById("pl-present-live");
  if (live) return;
  live = document.createElement("div");
  live.id = "pl-present-live";
  live.className = "pl-present-live";
  live.setAttribute("role", "status");
  document.body.append(live);
}

export function say(text) {
  if (!live) return;
  live.textContent = "";
  // a changed text node is announced even if the same sentence comes twice in a row
  requestAnimationFrame(() => { live.textContent = text; });
}

// Brings el into view when less than ``share`` of it (or of the screen, where it is taller) is on screen.
export function reveal(el, share) {
  const box = el.getBoundingClientRect();
  const visible = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
  if (visible < share * Math.min(box.height, innerHeight) - 1) {
    el.scrollIntoView({ block: box.height > innerHeight ? "start" : "nearest", behavior: reducedMotion.matches ? "auto" : "smooth" });
  }
}
