// Makes the memory snapshot every start of Python begins from (static/js/runtime/python-start.mjs): Pyodide's
// interpreter right after its own start-up, gzipped. Run by tools/vendor_runtime.py on the Pyodide it
// has just vendored, so the snapshot always belongs to the pyodide.asm.wasm shipped beside it.
//   node tools/python_snapshot.mjs <folder with pyodide.mjs> <file to write>
import { pathToFileURL } from "node:url";
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const folder = path.resolve(process.argv[2]) + path.sep;
// Emscripten names the program after Node's script, and the snapshot keeps it in os.environ["_"]:
// this is the name it has in a browser.
process.argv[1] = "./this.program";
const { loadPyodide } = await import(pathToFileURL(folder + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL: folder, _makeSnapshot: true });
const bytes = py.makeMemorySnapshot();
writeFileSync(process.argv[3], gzipSync(bytes, { level: 9 }));
console.log(JSON.stringify({ version: py.version, bytes: bytes.length }));
