// Compiles the browser's Python bundle to bytecode with the very Pyodide the browser runs
// (mkdocs_hooks/bytecode.py explains why). Usage: node bytecode.mjs <pyodide dir> <in.zip> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, input, output] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.writeFile("/in.zip", new Uint8Array(readFileSync(input)));
try {
  py.runPython(readFileSync(new URL("bytecode_pyodide.py", import.meta.url), "utf8"));
} catch (error) {
  // Node would print the line of pyodide.asm.js it came from (megabytes); the Python traceback is enough.
  console.error(String(error.message || error));
  process.exit(1);
}
writeFileSync(output, py.FS.readFile("/out.zip"));
