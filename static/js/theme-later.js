// The theme's bundle (mkdocs-material: instant navigation, search, header, palette toggle) is loaded
// once Python is ready, not while it starts. On a 2-core school laptop its evaluation (about 210 ms,
// plus the style recalculations it forces) ran on the main thread just when Pyodide's module wanted
// to run and ask for its WebAssembly, and pushed Python's start back by as long (cold ready × bare
// runtime, 4 pages × 4 loads side by side: 1,19 → 1,15). mkdocs_hooks/theme_later.py turns the
// theme's script tag into the link this file loads it from.
//
// The theme announced every page (the first load and each instant page change) on its document$;
// that arrives late now, so the site's scripts subscribe here: window.probierlaborPages.subscribe(fn)
// calls fn with the page as soon as it is parsed (at once if it already is), and again after every
// instant page change once the theme is there.
//
// The theme loads when the runtime is ready or has failed, when the reader reaches for the header,
// the navigation or the search before that, or after FALLBACK_MS, should Python take that long.
// Loaded from <head> (overrides/main.html), before every script that subscribes.
(function () {
  "use strict";
  var FALLBACK_MS = 15000;
  var subscribers = [];
  var current = null;  // the page announced last

  function call(fn, page) {
    // one subscriber that throws must not keep the page from the others; the error is still reported
    try { fn(page); } catch (error) { setTimeout(function () { throw error; }); }
  }
  function announce(page) {
    current = page;
    subscribers.slice().forEach(function (fn) { call(fn, page); });
  }

  var parsed = new Promise(function (resolve) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve, { once: true });
    else resolve();
  });
  parsed.then(function () { announce(document); });

  var theme = null;
  function load() {
    if (theme) return theme;
    theme = parsed.then(function () {
      return new Promise(function (resolve) {
        var link = document.querySelector("link[data-pl-theme-bundle]");
        if (!link) return resolve(false);  // a page the theme did not build
        var script = document.createElement("script");
        script.src = link.href;
        script.onload = function () {
          // The theme starts its components on DOMContentLoaded, which has passed: it gets one of its own.
          // Its first document$ is this page again, which the subscribers have had already.
          var first = true;
          window.document$.subscribe(function (page) {
            if (first) first = false;
            else announce(page);
          });
          document.dispatchEvent(new Event("DOMContentLoaded"));
          resolve(true);
        };
        script.onerror = function () { resolve(false); };  // the page works on without the theme's extras
        document.body.appendChild(script);
      });
    });
    return theme;
  }

  window.probierlaborPages = {
    subscribe: function (fn) {
      subscribers.push(fn);
      if (current) call(fn, current);
    },
    // resolves to true once the theme runs (tests wait for it before an instant page change)
    theme: load,
  };

  document.addEventListener("pl:runtime-ready", load, { once: true });
  document.addEventListener("pl:runtime-failed", load, { once: true });
  setTimeout(load, FALLBACK_MS);
  var THEME_PARTS = ".md-header, .md-tabs, .md-sidebar, .md-footer, .md-search";
  ["pointerdown", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest(THEME_PARTS)) load();
    }, true);
  });
})();
