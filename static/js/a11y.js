// Accessibility fixes that need the rendered page: a region that scrolls sideways (a wide table,
// a long formula, a wide figure) must be reachable by keyboard, or keyboard users cannot scroll
// it. Only regions that actually overflow get a tab stop, re-checked after each page change and
// when the window size changes.
(function () {
  "use strict";
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

  let pending = null;
  const later = () => { clearTimeout(pending); pending = setTimeout(mark, 150); };
  window.addEventListener("resize", later);
  // Experiments and replays redraw their figures; a new figure may overflow where the old did not.
  document.addEventListener("pl:rendered", later, true);
  document.addEventListener("pl:replay-step", later, true);
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(later);
  else document.addEventListener("DOMContentLoaded", later);
})();
