// static/js/pyworker.js finds the Python worker from the site's root, also when document.currentScript
// names another script (as it named static/py/boot.py while PyScript ran the page's Python).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");
const vm = require("node:vm");

const root = path.resolve(__dirname, "..", "..");
const source = fs.readFileSync(path.join(root, "static/js/pyworker.js"), "utf8");

test("the worker comes from static/js/ whatever document.currentScript says", () => {
  const started = [];
  class Worker {
    constructor(url, options) { started.push([String(url), options.type]); }
    addEventListener() {}
    removeEventListener() {}
    postMessage() {}
    terminate() {}
  }
  const window = { probierlaborConfig: { base: "http://schule.local/labor/" } };
  const document = { currentScript: { src: "http://schule.local/labor/static/py/boot.py" } };
  vm.runInNewContext(source, { window, document, Worker, URL, MessageChannel });
  window.probierlaborWorker.run("engine", [], "bundle.zip", () => {});
  window.probierlaborWorker.end();  // closes the page's end of the worker's channel
  assert.deepEqual(started, [["http://schule.local/labor/static/js/python-worker.js", "module"]]);
});
