// static/js/fmt.js against tests/golden/numbers.json, the table kit/fmt.py answers too (tests/kit/test_fmt.py).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const root = path.resolve(__dirname, "..", "..");
const fmt = require(path.join(root, "static/js/fmt.js"));
const golden = JSON.parse(fs.readFileSync(path.join(root, "tests/golden/numbers.json"), "utf8"));

for (const name of golden.browser) {
  test(`${name} is exported`, () => assert.equal(typeof fmt[name], "function"));
}

for (const c of golden.cases.filter((one) => golden.browser.includes(one.fn))) {
  test(`${c.fn}(${c.args.map((a) => JSON.stringify(a)).join(", ")})`, () => {
    assert.equal(c.kwargs, undefined, "the browser port takes positional arguments only");
    assert.equal(fmt[c.fn](...c.args), c.expected);
  });
}

test("byte units", () => {
  for (const [name, value] of Object.entries(golden.units)) assert.equal(fmt[name], value, name);
});
