// Accessibility fixes that need the rendered page. A region that scrolls sideways (a wide table,
// a long formula, a wide figure) must be reachable by keyboard, or keyboard users cannot scroll
// it. Only regions that actually overflow get a tab stop, re-checked after each page change and
// when the window size changes.
const SELECTOR = ".md-typeset__scrollwrap, .md-typeset .arithmatex, .pl-replay-view, [class*='-scroll']";

function mark() {
  document.querySelectorAll(SELECTOR).forEach((el) => {
    const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
    if (scrolls && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
      if (!el.hasAttribute("role")) el.setAttribute("role", "region");
      if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", "Verschiebbarer Bereich");
      el.dataset.plScrollFocus = "";
    } else if (!scrolls && el.dataset.plScrollFocus !== undefined) {
      el.removeAttribute("tabindex");
      delete el.dataset.plScrollFocus;
    }
  });
}

// A toolbar (role="toolbar", e.g. the share tools under each experiment) is one tab stop; the arrow
// keys, Home and End move between its buttons, as the WAI-ARIA toolbar pattern promises screen
// reader users. Buttons appear and hide at run time (classroom/share.js, classroom/present.js), so the set is read anew
// on every key and focus.
const usable = (bar) => [...bar.querySelectorAll("button, a[href], input, select")]
  .filter((el) => !el.disabled && !el.hidden && el.getClientRects().length > 0);

function rove(bar, current) {
  const items = usable(bar);
  if (!items.length) return;
  const keep = items.includes(current) ? current : items.find((el) => el.tabIndex === 0) || items[0];
  for (const el of items) el.tabIndex = el === keep ? 0 : -1;
}

document.addEventListener("focusin", (e) => {
  const bar = e.target.closest && e.target.closest('[role="toolbar"]');
  if (bar) rove(bar, e.target);
});
document.addEventListener("keydown", (e) => {
  const bar = e.target.closest && e.target.closest('[role="toolbar"]');
  if (!bar || e.ctrlKey || e.metaKey || e.altKey) return;
  const items = usable(bar);
  const at = items.indexOf(e.target);
  if (at < 0) return;
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
               Home: 0, End: items.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = items[(to + items.length) % items.length];
  rove(bar, next);
  next.focus();
});
function roveAll() {
  document.querySelectorAll('[role="toolbar"]').forEach((bar) => rove(bar, document.activeElement));
}

let pending = null;
const later = () => { clearTimeout(pending); pending = setTimeout(() => { mark(); roveAll(); }, 150); };
window.addEventListener("resize", later);
// Experiments and replays redraw their figures; a new figure may overflow where the old did not.
document.addEventListener("pl:rendered", later, true);
document.addEventListener("pl:replay-step", later, true);
// and on every page (static/js/main.js)
export { later as onPage };
