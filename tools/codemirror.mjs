// Builds static/vendor/codemirror/codemirror.js, the editor of „Im Code nachrechnen“
// (static/js/workshop/editor.js), from CodeMirror's own npm packages (package.json devDependencies):
// one ES module with exactly what the editor imports, at vendor time (tools/vendor_runtime.py), never
// when a page loads. esbuild's output is the same for the same inputs, so tools/vendor.sha256 pins it.
// Usage: node tools/codemirror.mjs OUT_FILE
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const ENTRY = `
export { EditorView, basicSetup } from "codemirror";
export { python } from "@codemirror/lang-python";
export { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
export { tags } from "@lezer/highlight";
`;

const out = process.argv[2];
if (!out) {
  console.error("Aufruf: node tools/codemirror.mjs ZIELDATEI");
  process.exit(2);
}
await build({
  stdin: { contents: ENTRY, resolveDir: fileURLToPath(new URL("..", import.meta.url)), loader: "js" },
  bundle: true,
  format: "esm",
  minify: true,
  legalComments: "eof",  // CodeMirror's MIT notices stay in the file
  target: "es2020",
  outfile: out,
  logLevel: "error",
});
