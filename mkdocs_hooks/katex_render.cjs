// Renders TeX with KaTeX for mkdocs_hooks/math.py: reads [[tex, display], …] as JSON on stdin and
// writes [html, …] on stdout. A formula KaTeX cannot parse stops the build with its message and index,
// instead of showing red source text to a class.
"use strict";
const path = require("path");
const katex = require(path.join(__dirname, "..", "node_modules", "katex"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const items = JSON.parse(input);
  const out = [];
  for (let i = 0; i < items.length; i++) {
    const [tex, display] = items[i];
    try {
      out.push(katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "htmlAndMathml", strict: "error" }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ index: i, error: String(error.message || error) }));
      process.exit(3);
    }
  }
  process.stdout.write(JSON.stringify(out));
});
