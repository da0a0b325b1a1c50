// Figures at the experiment's width: what the CSS says about that width (the layout Python draws
// for, the regions that scroll sideways), read when the width changes and not at every render; the
// width at which a figure's labels stay legible; a figure drawn again where a resized window crossed
// to the other layout; and the figure brought into view on a phone after a typed value.

// A figure drawn for a desktop column and scaled down to a phone's would shrink its labels below
// legibility. Each figure therefore learns the width at which its smallest label is still
// kit/layout.py's MIN_LABEL_PX on screen (--pl-fit-width); on narrow screens probierlabor.css stops shrinking it
// there and lets it scroll sideways in its own region (a11y.js gives that region a tab stop, the
// CSS shows the swipe hint). Desktop and projector layouts never reach that width. The width is
// kept on the region (each holds at most one figure): the figure's markup stays Python's own.
const minLabelPx = () => parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--pl-min-label"));  // layout.css

// Only a narrow screen's CSS lets a region scroll and reads the width; elsewhere (desktop,
// projector, every slider step and drag move there) the labels' styles are not asked for at all.
// A render takes the regions from sizes(), read before the new figure is in: asked after, it made
// the browser work out the styles of the whole new figure at once, and again after the readouts
// change, which cost a drag move on a desktop about as much as everything else outside Python.
function scrollingRegions(root) {
  return [...root.querySelectorAll(".pl-figure, .pl-extra")].filter((region) => getComputedStyle(region).overflowX === "auto");
}

export function fitFigures(root, regions = scrollingRegions(root)) {
  regions.forEach((region) => {
    // the first paint may hold a wide and a narrow figure, of which the CSS shows one
    const svg = [...region.querySelectorAll("svg.pl-plot")].find((el) => el.getClientRects().length);
    const view = svg && svg.viewBox && svg.viewBox.baseVal;
    let smallest = Infinity;
    if (view && view.width) {
      for (const text of svg.querySelectorAll("text")) {
        if (text.textContent.trim()) smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize));
      }
    }
    if (smallest > 0 && smallest < Infinity) {
      // one pixel more: layout rounds widths to fractions of a pixel, sometimes down
      region.style.setProperty("--pl-fit-width", `${Math.ceil(view.width * minLabelPx() / smallest) + 1}px`);
    } else region.style.removeProperty("--pl-fit-width");
  });
}

// The width the experiment has, as the CSS classifies it (--pl-layout, "wide" or "narrow"): Python
// lays the figure out for it (kit/layout.py). It is the page's, not the state's: never in the URL.
function layoutOf(root) {
  const stage = root.querySelector(".pl-stage");
  return (stage && getComputedStyle(stage).getPropertyValue("--pl-layout").trim()) || "wide";
}

// What a render asks the CSS (the layout, the regions that scroll) changes only with the experiment's
// width. Asked at every render, just after the reader moved the slider, it made the browser work out
// styles before Python even started; a ResizeObserver asks after the browser's own layout instead,
// when the answer costs nothing, and only for a new width (a taller figure changes neither).
function measure(experiment, width) {
  experiment.sized = { width, layout: layoutOf(experiment.root), scrolling: scrollingRegions(experiment.root) };
  return experiment.sized;
}

export const sizes = (experiment) => experiment.sized || measure(experiment);  // before the observer's first answer

// Once per page's module: experimentOf(root) finds a mounted experiment (or nothing), redraw(experiment)
// has Python draw it again for its new layout. Returns what to call for each experiment mounted.
export function watchSizes(experimentOf, redraw) {
  const observer = new ResizeObserver((entries) => entries.forEach(({ target, contentRect }) => {
    const experiment = experimentOf(target);
    if (experiment && (!experiment.sized || experiment.sized.width !== contentRect.width)) measure(experiment, contentRect.width);
  }));
  // A window turned or resized into the narrow layout fits the figures already on screen, and
  // Python draws a figure again where the experiment has crossed to the other width.
  let frame = 0;
  addEventListener("resize", () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => document.querySelectorAll("[data-experiment]").forEach((root) => {
      const experiment = experimentOf(root);
      // asked now: the observer answers only after this frame's layout
      if (experiment && experiment.started && experiment.layout && experiment.layout !== measure(experiment).layout
          && root.dataset.state === "ready" && experiment.dragging === undefined) {
        redraw(experiment);
      }
      fitFigures(root);
    }));
  });
  return (experiment) => observer.observe(experiment.root);
}

// On a phone the figure stands above the controls (probierlabor.css), and a typed field further down
// left it off screen: the reader pressed Enter and saw nothing change. Less than half of it on screen,
// the page scrolls up to it, never so far that the field leaves the bottom edge.
const FIELD_MARGIN = 8;  // px between the field and the screen's bottom edge
export function showFigure(root, field) {
  const figure = root.querySelector(".pl-figure");
  if (!figure || !figure.getClientRects().length) return;
  const header = document.querySelector(".md-header");
  const top = header ? header.getBoundingClientRect().bottom : 0;  // the sticky header covers the top
  const box = figure.getBoundingClientRect(), own = field.getBoundingClientRect();
  const visible = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, top));
  // beside the field (a wide screen), or enough of it seen
  if (box.bottom > own.top || visible >= Math.min(box.height, innerHeight - top) / 2) return;
  const by = Math.max(box.top - top - FIELD_MARGIN, own.bottom + FIELD_MARGIN - innerHeight);
  if (by < 0) window.scrollBy({ top: by, behavior: "instant" });
}
