// Background work waits for the reader to pause. The offline copy (static/js/offline/offline.js) and the
// search index (static/js/runtime/search-later.js) each take a core for a while; a drag or a slider
// meanwhile stutters (overfitting's drag: about 11 ms a move on a quiet page, 17 ms while the offline
// copy and a snapshot were made). So they start only once the reader has not pressed, dragged, typed or
// scrolled for PAUSE_MS, and then in the browser's idle time; what runs already runs on.
const PAUSE_MS = 3000;
let lastInput = -Infinity;
const activity = () => { lastInput = performance.now(); };
for (const type of ["pointerdown", "keydown", "input", "wheel", "touchstart"]) {
  window.addEventListener(type, activity, { capture: true, passive: true });
}
window.addEventListener("pointermove", (event) => { if (event.buttons) activity(); }, { capture: true, passive: true });

export function afterPause(work) {
  (function check() {
    const left = lastInput + PAUSE_MS - performance.now();
    if (left > 0) setTimeout(check, left);
    else if (window.requestIdleCallback) window.requestIdleCallback(() => work(), { timeout: 2000 });
    else setTimeout(work, 0);
  })();
}
