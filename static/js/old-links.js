// An old shared link may carry a parameter's former name (Param.alias, data-aliases on the experiment).
// metr-horizon's threshold was once q, and the theme reads ?q= as a search and opens it while its bundle
// starts, at the end of <body>. Loaded from <head>, this script renames the parameter as soon as the
// parser has added the experiment: the parser hands mutations over before it runs the next script.
// A page reached later by instant navigation is renamed through the same function, which
// probierlabor.js calls when it mounts an experiment.
(function () {
  "use strict";
  function rename(root) {
    if (!root.dataset.aliases) return;
    const prefix = root.dataset.urlPrefix || "";
    const url = new URL(location.href);
    let changed = false;
    for (const [old, name] of Object.entries(JSON.parse(root.dataset.aliases))) {
      if (!url.searchParams.has(prefix + old)) continue;
      if (!url.searchParams.has(prefix + name)) url.searchParams.set(prefix + name, url.searchParams.get(prefix + old));
      url.searchParams.delete(prefix + old);  // the new name wins over a stale old one, as in api.checked
      changed = true;
    }
    if (changed) history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
  window.probierlaborOldLinks = { rename };
  if (!location.search) return;
  const observer = new MutationObserver(() => {
    const root = document.querySelector("[data-experiment][data-aliases]");
    if (!root) return;
    observer.disconnect();
    rename(root);
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => observer.disconnect(), { once: true });
})();
