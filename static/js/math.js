// KaTeX (vendored, offline) renders the formulas that pymdownx.arithmatex leaves as \( … \) and \[ … \],
// after every page change announced by mkdocs-material.
(function () {
  "use strict";
  function render() {
    if (!window.renderMathInElement) return;
    document.querySelectorAll(".arithmatex").forEach(function (el) {
      window.renderMathInElement(el, {
        delimiters: [
          { left: "\\(", right: "\\)", display: false },
          { left: "\\[", right: "\\]", display: true },
        ],
        throwOnError: false,
      });
    });
  }
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(render);
  else document.addEventListener("DOMContentLoaded", render);
})();
