// static/js/runtime/worker.js finds the Python worker from the site's root (static/js/site.js), also when
// document.currentScript names another script (static/py/boot.py, while a Python boot script runs).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const root = path.resolve(__dirname, "..", "..");

test("the worker comes from static/js/ whatever document.currentScript says", async () => {
  const started = [];
  globalThis.Worker = class {
    constructor(url, options) { started.push([String(url), options.type]); }
    addEventListener() {}
    removeEventListener() {}
    postMessage() {}
    terminate() {}
  };
  globalThis.document = { currentScript: { src: pathToFileURL(path.join(root, "static/py/boot.py")).href } };
  const worker = await import(pathToFileURL(path.join(root, "static/js/runtime/worker.js")).href);
  worker.run("engine", [], "bundle.zip", () => {});
  worker.end();  // closes the page's end of the worker's channel
  assert.deepEqual(started, [[pathToFileURL(path.join(root, "static/js/runtime/python-worker.js")).href, "module"]]);
});
