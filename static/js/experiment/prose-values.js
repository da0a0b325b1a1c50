// A number in the page's prose that a preset shows (py/probierlabor/pageblocks/prose_values.py makes it a
// link): a click sets the experiment to that preset, as its button would, and brings the figure into
// view. The link's own address (the preset's query string) stays for a new tab and for a page without
// this script.
import { ownExperiment } from "../url-state.js";

const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

function show(link) {
  const [slug, index] = link.dataset.view.split(":");
  const root = ownExperiment(slug);
  const button = root && root.querySelectorAll(".pl-presets [data-preset]")[Number(index)];
  if (!button) return false;
  button.click();
  root.scrollIntoView({ block: "start", behavior: reducedMotion.matches ? "auto" : "smooth" });
  return true;
}

// on the document, once: links of every later page (instant navigation) are heard as well; in the capture
// phase, so the theme's instant navigation does not load the page again for the link's query string
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("a.pl-value[data-view]");
  if (!link || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  if (show(link)) {
    e.preventDefault();
    e.stopPropagation();
  }
}, true);

export function onPage() { /* the listener above serves every page */ }
