// static/js/replay/trace-check.js against recorder/trace.schema.json: every committed trace passes, a trace
// that smuggles markup or an absurd size into a field a view shows does not, and the checker refuses
// a schema keyword it does not know (tests/recorder/test_recorder_tracer.py compares it with jsonschema).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const root = path.resolve(__dirname, "..", "..");
const { check, TraceCheckError } = require(path.join(root, "static/js/replay/trace-check.js"));
const schema = JSON.parse(fs.readFileSync(path.join(root, "recorder/trace.schema.json"), "utf8"));
const dir = path.join(root, "static/traces");
const read = (name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));

for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
  test(`${name} passes`, () => check(read(name), schema));
}

const HOSTILE = {
  "markup as k": (t) => (t.config.k = "<img src=x onerror=alert(1)>"),
  "markup as heads": (t) => (t.model.num_heads = "<b>4</b>"),
  "2**40 blocks": (t) => (t.config.num_blocks = 2 ** 40),
  "a float block size": (t) => (t.config.block_size = 2.5),
  "markup as a layer": (t) => t.steps.forEach((s) => s.events.forEach((e) => (e.layer = "<i>0</i>"))),
  "an id too long": (t) => (t.workload.requests[0].id = "x".repeat(65)),
  "an unknown kernel": (t) => (t.config.kernel = "tiled_<svg>"),
};
for (const [what, change] of Object.entries(HOSTILE)) {
  test(`refuses ${what}`, () => {
    const trace = read("paged-attention-blocks.json");
    change(trace);
    assert.throws(() => check(trace, schema), TraceCheckError);
  });
}

test("a schema keyword the checker does not know is an error", () => {
  assert.throws(() => check(1, { multipleOf: 2 }), /multipleOf/);
});
