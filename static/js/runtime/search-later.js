// The theme builds its search index (lunr, in a Web Worker) as soon as a page loads. On a 2-core
// school laptop that competes with Pyodide's WebAssembly compile for the second core, so the search
// worker is started later: when the reader goes to the search box, or once Python is ready and the
// reader pauses (or after FALLBACK_MS, should Python never start). Until then the theme talks to a
// stand-in that keeps its listeners and messages and hands them to the real worker.
// Imported by static/js/main.js, which runs before the theme's bundle creates the worker.
import { afterPause } from "./pause.js";
import { whenReady } from "./python.js";

const RealWorker = window.Worker;
if (typeof RealWorker === "function") {
  const FALLBACK_MS = 15000;
  let waiting = [];
  // Once started, a search worker the theme creates later starts at once: it comes after the moment
  // this file waits for, and would otherwise sit until FALLBACK_MS or the reader's search.
  let released = false;

  function isSearchWorker(url) {
    return /\/assets\/javascripts\/workers\/search\.[^/]*\.js(\?|$)/.test(new URL(String(url), document.baseURI).pathname);
  }

  function startAll() {
    released = true;
    const list = waiting;
    waiting = [];
    list.forEach(function (start) { start(); });
  }

  function Deferred(url, options) {
    const self = this, handlers = {};
    let real = null, listeners = [], queue = [];
    this._start = function () {
      if (real) return;
      real = new RealWorker(url, options);
      listeners.forEach(function (l) { real.addEventListener(l[0], l[1], l[2]); });
      Object.keys(handlers).forEach(function (name) { real[name] = handlers[name]; });
      queue.forEach(function (args) { real.postMessage.apply(real, args); });
      listeners = queue = null;
    };
    this.addEventListener = function (type, fn, opts) {
      if (real) real.addEventListener(type, fn, opts); else listeners.push([type, fn, opts]);
    };
    this.removeEventListener = function (type, fn, opts) {
      if (real) real.removeEventListener(type, fn, opts);
      else listeners = listeners.filter(function (l) { return !(l[0] === type && l[1] === fn); });
    };
    this.postMessage = function () {
      if (real) real.postMessage.apply(real, arguments); else queue.push(arguments);
    };
    this.terminate = function () { if (real) real.terminate(); else waiting = waiting.filter(function (s) { return s !== self._start; }); };
    ["onmessage", "onerror", "onmessageerror"].forEach(function (name) {
      Object.defineProperty(self, name, {
        get() { return real ? real[name] : handlers[name] || null; },
        set(fn) { if (real) real[name] = fn; else handlers[name] = fn; },
      });
    });
    waiting.push(this._start);
  }

  window.Worker = function (url, options) {
    if (!isSearchWorker(url) || released) return new RealWorker(url, options);
    return new Deferred(url, options);
  };
  window.Worker.prototype = RealWorker.prototype;

  // once Python is ready and the reader pauses (static/js/runtime/pause.js)
  whenReady.then(function () { afterPause(startAll); });
  setTimeout(startAll, FALLBACK_MS);
  // The reader wants to search: the search box gets focus (click, or the theme's keys f, s, /), or the
  // search toggle opens it on a small screen.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches(".md-search__input")) startAll();
  }, true);
  document.addEventListener("change", function (event) {
    if (event.target.id === "__search") startAll();
  }, true);
}
