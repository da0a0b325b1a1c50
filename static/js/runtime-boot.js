// Starts the tab's one Python runtime as early as possible: loaded from <head> (overrides/main.html),
// before the page body and the theme's scripts, so Pyodide's downloads and WebAssembly compile run
// while the page is still being laid out. static/js/probierlabor.js later mounts the experiments.
(function () {
  "use strict";
  var base = new URL("../../", document.currentScript.src).href;  // this file is static/js/
  var bundle = document.querySelector('meta[name="probierlabor-bundle"]').content;
  window.probierlaborConfig = { base: base, bundle: new URL(bundle, base).href };
  // The page's Python package is fetched now, while Pyodide downloads and compiles, and not after
  // Python is ready (static/py/boot.py awaits it). It always resolves: to the bytes or to {error}.
  window.probierlaborConfig.bundleData = fetch(window.probierlaborConfig.bundle).then(function (response) {
    return response.ok ? response.arrayBuffer() : { error: "HTTP " + response.status };
  }).catch(function (error) {
    return { error: String(error && error.message || error) };
  });

  // Python (static/py/boot.py) reports here, not to the page script: with the site stored offline
  // Python can be ready before the parser has reached static/js/probierlabor.js at the end of a long
  // page. A failure or the connection made before that script is there is kept and handed over when
  // it arrives.
  var boot = (window.probierlaborBoot = {
    failure: null,
    connection: null,
    fail: function (message) {
      if (!boot.failure) boot.failure = message;
      if (window.probierlabor && window.probierlabor.fail) window.probierlabor.fail(message);
    },
    connect: function () {
      boot.connection = Array.prototype.slice.call(arguments);
      if (window.probierlabor && window.probierlabor.connect) window.probierlabor.connect.apply(null, boot.connection);
    },
  });

  // ---- Python itself ----------------------------------------------------------------------
  // Pyodide starts here, from <head>, and runs static/py/boot.py itself. PyScript is not loaded: it
  // started the same Pyodide later (its module and plugins waited behind the page's parsing) and, once
  // there, ran as Python every <script type="py"> or <py-script> added to the page at any time, so one
  // missed escape in the page's HTML would have been Python; and it needed 'unsafe-eval'.
  //
  // Every start, the first visit's too, begins from the memory snapshot the build ships (see
  // static/js/python-start.mjs, shared with the Python worker): on plain http too, and offline the
  // service worker serves it like any other file.
  var indexURL = new URL("static/vendor/pyodide/", base).href;
  var bootURL = new URL("static/py/boot.py", base).href;
  // For tests and the bench: "none" while Python starts, then "restored" or "off" (the usual start).
  var snapshot = (window.probierlaborConfig.snapshot = { state: "none" });

  // ---- background work waits for the reader to pause -------------------------------------
  // The offline copy (static/js/offline.js) and the search index (static/js/search-later.js) each take
  // a core for a while; a drag or a slider meanwhile stutters (overfitting's drag: about 11 ms a move on
  // a quiet page, 17 ms while the offline copy and a snapshot were made). So they start only once the
  // reader has not pressed, dragged, typed or scrolled for PAUSE_MS, and then in the browser's idle
  // time; what runs already runs on.
  var PAUSE_MS = 3000;
  var lastInput = -Infinity;
  var activity = function () { lastInput = performance.now(); };
  ["pointerdown", "keydown", "input", "wheel", "touchstart"].forEach(function (type) {
    window.addEventListener(type, activity, { capture: true, passive: true });
  });
  window.addEventListener("pointermove", function (event) { if (event.buttons) activity(); },
    { capture: true, passive: true });
  window.probierlaborConfig.afterPause = function (work) {
    (function check() {
      var left = lastInput + PAUSE_MS - performance.now();
      if (left > 0) setTimeout(check, left);
      else if (window.requestIdleCallback) window.requestIdleCallback(function () { work(); }, { timeout: 2000 });
      else setTimeout(work, 0);
    })();
  };

  // Earlier versions kept a snapshot of their own in Cache Storage (21 MB): gone with the shipped one.
  if (window.caches && window.isSecureContext) {
    window.probierlaborConfig.afterPause(function () {
      window.caches.delete("probierlabor-python " + new URL(base).pathname).catch(function () {});
    });
  }

  // Not before the first paint, though: Pyodide's 1,2 MB of JavaScript and the WebAssembly compile
  // would take the cores the first paint needs (the bench's first content went from ≤ 0,54 s to 0,8 s).
  // The timer covers browsers without paint timing and a tab that does not paint (opened in the background).
  var firstPaint = new Promise(function (resolve) {
    setTimeout(resolve, 1000);
    try {
      new PerformanceObserver(function (list, observer) {
        observer.disconnect();
        resolve();
      }).observe({ type: "paint", buffered: true });
    } catch (_) { /* no paint timing: the timer above */ }
  });

  window.probierlaborConfig.pyodide = firstPaint.then(function () {
    return import(new URL("static/js/python-start.mjs", base).href).catch(function () {
      throw { german: "Die Datei python-start.mjs konnte nicht geladen werden." };
    });
  }).then(function (start) {
    return start.startPython({ indexURL: indexURL }, function (file, error) {
      boot.fail("Die Datei " + file + " ist beschädigt (" + String(error.message).slice(0, 120) + ").");
    });
  }).then(function (started) {
    snapshot.state = started.restored ? "restored" : "off";
    return started.py;
  });
  window.probierlaborConfig.pyodide.catch(function (error) {
    boot.fail(error && error.german || "Fehler beim Start: " + String(error && error.message || error).split("\n")[0].slice(0, 200));
  });

  // boot.py reports to probierlaborBoot itself; what it cannot catch (a file that does not come, an
  // error before its own try) is reported here. Fetched at once: it waits for Python, not Python for it.
  var bootCode = fetch(bootURL).then(function (response) {
    if (!response.ok) throw new Error("HTTP " + response.status);
    return response.text();
  });
  bootCode.catch(function (error) {
    boot.fail("Die Datei boot.py konnte nicht geladen werden (" + String(error && error.message || error) + ").");
  });
  Promise.all([window.probierlaborConfig.pyodide, bootCode]).then(function (both) {
    return both[0].runPythonAsync(both[1], { filename: bootURL }).catch(function (error) {
      boot.fail("Fehler beim Start: " + String(error && error.message || error).trim().split("\n").pop().slice(0, 200));
    });
  }, function () { /* reported above */ });
})();
