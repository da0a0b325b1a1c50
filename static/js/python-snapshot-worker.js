// Makes the memory snapshot a repeat visit starts Python from (static/js/runtime-boot.js restores it).
// A worker of its own: Pyodide's snapshot mode wraps the JavaScript globals in a recording proxy that
// PyScript cannot work with, so the page's own interpreter can never be the one that is snapshotted.
// Started by runtime-boot.js once the site is stored offline and the page is idle; it stores the
// snapshot itself, so the 20 MB never cross to the page.
self.onmessage = async (event) => {
  const { indexURL, cache, key, header } = event.data;
  try {
    importScripts(indexURL + "pyodide.js");
    const py = await self.loadPyodide({ indexURL, _makeSnapshot: true });
    const bytes = py.makeMemorySnapshot();
    const headers = { [header]: py.version };
    await (await caches.open(cache)).put(key, new Response(bytes, { headers }));
    self.postMessage({ stored: true });
  } catch (error) {
    self.postMessage({ stored: false, message: String(error && error.message || error) });
  }
};
