// Presentation mode and keyboard shortcuts: a teacher projects a page and drives its experiment (and its
// recorded replays) from the keyboard or a presenter remote. This file wires the parts on every page:
// the mode (presenting.js), the header's buttons and the key help (header-tools.js), the keys (keys.js),
// the walk of a remote through presets and tasks (walk.js), what a key changed told and shown
// (feedback.js), and the printed worksheet's state line (print-line.js).
import { ensureLive } from "./feedback.js";
import { ensureHeader, ensureHelp } from "./header-tools.js";
import { onKey } from "./keys.js";
import { fitExtras, remembered, setMode, takeHash } from "./presenting.js";
import { markPreset } from "./presets.js";
import { ensurePrintLine } from "./print-line.js";
import { leaveTasks } from "./walk.js";

function onPage() {
  leaveTasks();
  ensureHeader();
  ensureLive();
  ensureHelp();
  ensurePrintLine();
  if (takeHash()) setMode(true, { announce: false });
  document.querySelectorAll("[data-experiment]").forEach((root) => {
    if (root.dataset.state === "ready") markPreset(root);
  });
  fitExtras();
}

// capture phase on window: before mkdocs-material's own key handler on window
window.addEventListener("keydown", onKey, true);
// pl:rendered does not bubble; capturing on document still sees it
document.addEventListener("pl:rendered", (e) => {
  markPreset(e.target);
  ensurePrintLine();
  fitExtras(e.target);
}, true);
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => fitExtras());
});
window.addEventListener("hashchange", () => { if (takeHash()) setMode(true); });
window.addEventListener("beforeprint", ensurePrintLine);

// before the first paint of the page body where possible, so a reload does not flash
if (takeHash() || remembered()) setMode(true, { announce: false });

export { onPage };
