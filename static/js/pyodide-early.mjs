// The interpreter module PyScript loads (runtime-boot.js names it in PyScript's config). Pyodide was
// already started from <head> by runtime-boot.js; this hands PyScript that same start instead of a
// second one, together with PyScript's handlers for Python's output.
export { version } from "../vendor/pyodide/pyodide.mjs";

export function loadPyodide(options) {
  window.probierlaborConfig.pyodideStdio(options.stdout, options.stderr);
  return window.probierlaborConfig.pyodide;
}
