// Starts Pyodide from the memory snapshot the build ships beside it (tools/python_snapshot.mjs: the
// interpreter right after its own start-up, 21 MB, 5,3 MB gzipped). That skips Python's start-up, the
// largest part of the time to ready. One way for the page (static/js/runtime/start.js) and for the
// Python worker (static/js/runtime/python-worker.js). Without DecompressionStream, without the file, or with
// one that does not fit, Python starts the usual way.
// A corrupt pyodide.asm.wasm, or a snapshot whose memory the module cannot link to, only makes Pyodide
// log a warning and wait forever, so its compile step is watched: a CompileError or LinkError while a
// snapshot is tried ends that try; otherwise it is final, and `broken` says which file it was.
let attempt = null;
let broken = () => {};
for (const name of ["instantiateStreaming", "instantiate", "compileStreaming", "compile"]) {
  const original = WebAssembly[name];
  if (typeof original !== "function") continue;
  WebAssembly[name] = function (source) {
    return original.apply(this, arguments).catch((error) => {
      if (error instanceof WebAssembly.CompileError || error instanceof WebAssembly.LinkError) {
        if (attempt) attempt(error);
        else broken(source && source.url ? source.url.split("/").pop() : "pyodide.asm.wasm", error);
      }
      throw error;
    });
  };
}

function snapshotBytes(indexURL) {
  if (typeof DecompressionStream !== "function") return Promise.reject(new Error("DecompressionStream"));
  return fetch(indexURL + "python-snapshot.bin.gz").then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  });
}

// → { py, restored }; onBroken(file, error): pyodide.asm.wasm (or another module) cannot be compiled;
// onSnapshot(restored): as soon as it is known whether the snapshot served, before a usual start.
export async function startPython(options, onBroken = () => {}, onSnapshot = () => {}) {
  broken = onBroken;
  // The snapshot downloads while pyodide.mjs and, inside loadPyodide, pyodide.asm.js do: imported
  // here and not at the top, so that its request does not wait for Pyodide's module.
  const bytes = snapshotBytes(options.indexURL);
  bytes.catch(() => {});  // answered below, where loadPyodide awaits it
  const { loadPyodide } = await import("../../vendor/pyodide/pyodide.mjs").catch(() => {
    const message = "Die Datei pyodide.mjs konnte nicht geladen werden.";
    throw Object.assign(new Error(message), { german: message });  // the page shows .german, the worker .message
  });
  const unfit = new Promise((_, reject) => { attempt = reject; });
  try {
    const py = await Promise.race([loadPyodide({ ...options, _loadSnapshot: bytes }), unfit]);
    attempt = null;
    // The snapshot holds the state of Python's random module as it was at build time: without a new
    // seed every start would draw the same numbers.
    if (py.runPython("import random; random.seed(); 6 * 7") !== 42) throw new Error("snapshot");
    onSnapshot(true);
    return { py, restored: true };
  } catch (_) {
    attempt = null;
    onSnapshot(false);
    return { py: await loadPyodide(options), restored: false };
  }
}
