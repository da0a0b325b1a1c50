// Starts the tab's one Python runtime as early as possible: loaded from <head> (overrides/main.html),
// before the page body and the theme's scripts, so Pyodide's downloads and WebAssembly compile run
// while the page is still being laid out. static/js/probierlabor.js later mounts the experiments.
(function () {
  "use strict";
  var base = new URL("../../", document.currentScript.src).href;  // this file is static/js/
  var bundle = document.querySelector('meta[name="probierlabor-bundle"]').content;
  var engine = document.querySelector('meta[name="probierlabor-engine-bundle"]').content;
  // engineBundle: fetched only by the Python worker, on a first „Eigener Lauf“ (static/js/live.js)
  window.probierlaborConfig = { base: base, bundle: new URL(bundle, base).href, engineBundle: new URL(engine, base).href };
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

  // A corrupt pyodide.asm.wasm only makes Pyodide log a warning and wait forever, so the
  // compile step itself is watched: a CompileError or LinkError there is final.
  ["instantiateStreaming", "instantiate", "compileStreaming", "compile"].forEach(function (name) {
    var original = WebAssembly[name];
    if (typeof original !== "function") return;
    WebAssembly[name] = function (source) {
      return original.apply(this, arguments).catch(function (error) {
        if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) {
          var file = source && source.url ? source.url.split("/").pop() : "pyodide.asm.wasm";
          boot.fail("Die Datei " + file + " ist beschädigt (" + String(error.message).slice(0, 120) + ").");
        }
        throw error;
      });
    };
  });

  var py = document.createElement("script");
  py.type = "py";
  py.src = new URL("static/py/boot.py", base).href;
  py.setAttribute("config", JSON.stringify({
    interpreter: new URL("static/vendor/pyodide/pyodide.mjs", base).href,
    // PyScript loads and awaits every plugin before it starts Python; the site uses none of them
    // (its own error box is replaced by the page's German messages), and skipping them saves
    // main-thread time before Pyodide's download even begins.
    plugins: ["!error", "!codemirror", "!deprecations-manager", "!donkey", "!py-editor", "!py-game", "!py-terminal"],
  }));
  document.head.appendChild(py);
  var core = document.createElement("script");
  core.type = "module";
  core.async = true;  // run as soon as it arrives, not after the whole page is parsed
  core.src = new URL("static/vendor/pyscript/core.js", base).href;
  core.onerror = function () { boot.fail("Die Datei pyscript/core.js konnte nicht geladen werden."); };
  document.head.appendChild(core);
})();
