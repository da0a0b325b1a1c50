// Compiles the browser's Python bundle to bytecode with the very Pyodide the browser runs
// (mkdocs_hooks/bytecode.py explains why). Usage: node bytecode.mjs <pyodide dir> <in.zip> <out.zip>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, input, output] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.writeFile("/in.zip", new Uint8Array(readFileSync(input)));
py.runPython(readFileSync(new URL("bytecode_pyodide.py", import.meta.url), "utf8"));
writeFileSync(output, py.FS.readFile("/out.zip"));
