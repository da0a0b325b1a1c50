// Probierlabor's browser layer: generic for every concept.
//
// The page arrives with each experiment complete (controls, default figure, readouts),
// rendered at build time by py/probierlabor/build/experiment_block.py. This script wires the controls to the
// one Python runtime of the tab (static/py/boot.py hands over api.run_json) and swaps in
// what Python returns. It knows nothing about any concept: names, ranges, clamping and
// German notes all come from the concept's declared parameters.
(function () {
  "use strict";

  const runtime = { run: null, failure: null, started: performance.now() };
  const SLOW_MS = 45000;

  const TEXT = {
    loading: "Python wird geladen … Die Abbildung zeigt schon die Standardeinstellung.",
    slow: "Python lädt ungewöhnlich lange. Die Abbildung zeigt die Standardeinstellung; die Regler folgen, sobald Python bereit ist.",
    crashed: "Dieses Experiment ist bei dieser Einstellung gestolpert. Der Rest der Seite funktioniert weiter; „Von vorn“ oder eine andere Einstellung hilft meist.",
    failed: "Python konnte nicht gestartet werden, darum bleibt die Abbildung bei der Standardeinstellung.",
    hint: "Tipp: Seite neu laden. Hilft das nicht, die Website neu bauen (make site) – eine Datei der Python-Laufzeit fehlt oder ist beschädigt.",
  };

  // ---- the runtime -------------------------------------------------------------------

  window.probierlabor = {
    connect(run, systemcheck) {
      runtime.run = run;
      runtime.systemcheck = systemcheck;
      document.dispatchEvent(new CustomEvent("pl:runtime-ready"));
      runtime.readyAt = performance.now();
      document.querySelectorAll("[data-experiment]").forEach(start);
    },
    fail(message) {
      if (runtime.run || runtime.failure) return;
      runtime.failure = message;
      document.querySelectorAll("[data-experiment]").forEach(showFailure);
    },
    mountAll,
    runtime,
  };

  // A missing or corrupt runtime file would otherwise leave an endless spinner.
  if ("PerformanceObserver" in window) {
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.responseStatus >= 400 && /\/static\/(vendor|py)\//.test(entry.name)) {
            const file = entry.name.split("?")[0].split("/").pop();
            window.probierlabor.fail(`Die Datei ${file} fehlt (HTTP ${entry.responseStatus}).`);
          }
        }
      }).observe({ type: "resource", buffered: true });
    } catch (_) { /* old browsers: the error events below still apply */ }
  }
  const runtimeError = (reason) => {
    const text = String((reason && (reason.message || reason)) || "");
    if (!runtime.run && /pyodide|wasm|WebAssembly|python|pyscript|polyscript/i.test(text)) {
      window.probierlabor.fail(`Fehler beim Start: ${text.split("\n")[0].slice(0, 200)}`);
    }
  };
  window.addEventListener("unhandledrejection", (e) => runtimeError(e.reason));
  window.addEventListener("error", (e) => runtimeError(e.error || e.message));

  // A failure seen before this script ran (static/js/runtime-boot.js) counts as well.
  if (window.probierlaborBoot && window.probierlaborBoot.failure) window.probierlabor.fail(window.probierlaborBoot.failure);

  // ---- mounting ----------------------------------------------------------------------

  function mountAll() {
    document.querySelectorAll("[data-experiment]").forEach(mount);
  }

  function mount(root) {
    if (root.plMounted) return;
    root.plMounted = true;
    root.plSlug = root.dataset.experiment;
    root.querySelectorAll("[data-param]").forEach((input) => {
      const kind = input.type === "range" ? "input" : "change";
      input.addEventListener(kind, () => userChange(root));
    });
    root.querySelectorAll("[data-seed-for]").forEach((button) => {
      button.addEventListener("click", () => {
        const field = root.querySelector(`[data-param="${button.dataset.seedFor}"]`);
        field.value = String(crypto.getRandomValues(new Uint32Array(1))[0] & 0x7fffffff);
        // New random runs are the heavy work (thousands of draws, retraining a model): say so
        // and let the browser paint that before Python starts, so the page never seems frozen.
        status(root, "Rechnet …");
        root.setAttribute("aria-busy", "true");
        requestAnimationFrame(() => setTimeout(() => {
          userChange(root);
          root.removeAttribute("aria-busy");
        }, 0));
      });
    });
    root.querySelectorAll("[data-preset]").forEach((button) => {
      button.addEventListener("click", () => {
        setControls(root, JSON.parse(button.dataset.preset), true);
        userChange(root);
      });
    });
    enableDragging(root);
    if (runtime.run) start(root);
    else if (runtime.failure) showFailure(root);
    else {
      setTimeout(() => {
        if (!runtime.run && !runtime.failure && root.isConnected) status(root, TEXT.slow);
      }, SLOW_MS);
    }
  }

  function start(root) {
    if (!root.plMounted) mount(root);
    if (root.plStarted) return;
    root.plStarted = true;
    const raw = fromUrl(root);
    render(root, raw, { fromUrl: true });
  }

  // ---- parameters: controls ↔ raw values ↔ URL --------------------------------------

  function names(root) {
    return [...new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param))];
  }

  // A second copy of an experiment on the page (the A/B comparison, static/js/share.js) keeps its
  // state in the same query under its own prefix (data-url-prefix="b." → b.degree=9), so a link
  // restores both sides.
  function key(root, name) {
    return (root.dataset.urlPrefix || "") + name;
  }

  function fromUrl(root) {
    const query = new URLSearchParams(location.search);
    const raw = {};
    for (const name of names(root)) if (query.has(key(root, name))) raw[name] = query.get(key(root, name));
    return raw;
  }

  function fromControls(root) {
    const raw = {};
    root.querySelectorAll("[data-param]").forEach((el) => {
      const name = el.dataset.param;
      if (el.type === "radio") { if (el.checked) raw[name] = el.value; }
      else if (el.type === "checkbox") raw[name] = el.checked ? "1" : "0";
      else if (el.type === "range" && "log" in el.dataset) raw[name] = roundSignificant(10 ** Number(el.value));
      else raw[name] = el.value;
    });
    return raw;
  }

  function roundSignificant(x) {
    return String(Number(x.toPrecision(3)));
  }

  // values: url texts (from Python's "controls") or preset values
  function setControls(root, values, isPreset) {
    root.querySelectorAll("[data-param]").forEach((el) => {
      const name = el.dataset.param;
      if (!(name in values)) return;
      let v = values[name];
      if (isPreset && Array.isArray(v)) v = v.map((pair) => pair.join(":")).join(",");
      if (typeof v === "boolean") v = v ? "1" : "0";
      v = String(v);
      if (el.type === "radio") el.checked = el.value === v;
      else if (el.type === "checkbox") el.checked = v === "1";
      else if (el.type === "range" && "log" in el.dataset) el.value = String(Math.log10(Number(v)));
      else el.value = v;
    });
  }

  function writeUrl(root, url) {
    const query = new URLSearchParams(location.search);
    for (const name of names(root)) query.delete(key(root, name));
    for (const [name, value] of Object.entries(url)) query.set(key(root, name), value);
    const text = query.toString();
    history.replaceState(history.state, "", location.pathname + (text ? "?" + text : "") + location.hash);
  }

  // ---- rendering ---------------------------------------------------------------------

  function userChange(root) {
    // Synchronous on purpose: Chromium already delivers pointer-driven input at most once per
    // frame, and computing at once leaves the whole rest of the frame for layout and paint.
    if (runtime.run) render(root, fromControls(root), { fromUrl: false });
  }

  function render(root, raw, { fromUrl }) {
    const t0 = performance.now();
    let out;
    try {
      out = JSON.parse(runtime.run(root.plSlug, JSON.stringify(raw)));
    } catch (error) {
      out = { error: String(error) };
    }
    if (out.error) {
      console.warn(`[${root.plSlug}]`, out.error);
      showNotes(root, [TEXT.crashed], "pl-error");
      root.dataset.state = "error";
      return;
    }
    const focused = document.activeElement && root.contains(document.activeElement)
      ? document.activeElement.dataset.drag : undefined;
    root.querySelector(".pl-figure").innerHTML = out.figure;
    root.querySelector(".pl-extra").innerHTML = out.extra || "";
    updateReadouts(root, out.readouts);
    root.querySelector(".pl-summary").textContent = out.summary;
    setControls(root, out.controls, false);
    for (const [name, text] of Object.entries(out.display)) {
      const output = root.querySelector(`[data-output="${name}"]`);
      if (output) output.textContent = text;
      const input = root.querySelector(`input[type="range"][data-param="${name}"]`);
      const unit = input && input.dataset.unit;  // experiment_block.py: the unit a screen reader says with the value
      if (input) input.setAttribute("aria-valuetext", unit && !text.endsWith(unit) ? `${text} ${unit}` : text);
    }
    if (focused !== undefined) {
      const again = root.querySelector(`[data-drag="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
    }
    showNotes(root, fromUrl ? out.notes : [], "pl-note");
    writeUrl(root, out.url);
    status(root, "");
    root.dataset.state = "ready";
    root.plLastMs = performance.now() - t0;
    root.dispatchEvent(new CustomEvent("pl:rendered", { detail: { ms: root.plLastMs } }));
  }

  // Same readouts as shown: change texts in place (screen readers keep their place); else rebuild.
  function updateReadouts(root, readouts) {
    const shown = [...root.querySelectorAll("[data-readout]")];
    if (shown.length === readouts.length && shown.every((el, i) => el.dataset.readout === readouts[i].key)) {
      readouts.forEach((r, i) => {
        shown[i].querySelector("dt").textContent = r.label;
        shown[i].querySelector("dd").textContent = r.value;
        shown[i].classList.toggle("pl-em", Boolean(r.emphasis));
      });
    } else rebuildReadouts(root, readouts);
  }

  function rebuildReadouts(root, readouts) {
    const dl = root.querySelector(".pl-readouts");
    dl.replaceChildren(...readouts.map((r) => {
      const div = document.createElement("div");
      div.className = "pl-readout" + (r.emphasis ? " pl-em" : "");
      div.dataset.readout = r.key;
      const dt = document.createElement("dt"); dt.textContent = r.label;
      const dd = document.createElement("dd"); dd.textContent = r.value;
      div.append(dt, dd);
      return div;
    }));
  }

  function status(root, text) {
    const p = root.querySelector(".pl-status");
    p.hidden = !text;
    if (text) p.querySelector(".pl-status-text").textContent = text;
  }

  function showNotes(root, notes, cls) {
    const box = root.querySelector(".pl-notes");
    box.className = "pl-notes " + cls;
    box.hidden = notes.length === 0;
    box.replaceChildren(...notes.map((n) => {
      const p = document.createElement("p");
      p.textContent = n;
      return p;
    }));
    if (notes.length && cls === "pl-note") {
      const lead = document.createElement("p");
      lead.className = "pl-notes-lead";
      lead.textContent = "Der Link enthielt Werte, die nicht passen. Angepasst:";
      box.prepend(lead);
    }
  }

  function showFailure(root) {
    status(root, "");
    showNotes(root, [TEXT.failed, runtime.failure, TEXT.hint], "pl-error");
    root.dataset.state = "error";
  }

  // ---- dragging points in a figure (SVG circles with data-drag) -------------------

  function enableDragging(root) {
    const stage = root.querySelector(".pl-figure");
    const moves = root.querySelector("[data-moves]");
    if (!stage || !moves) return;

    const valueAt = (svg, clientY) => {
      const [, top, , bottom] = svg.dataset.box.split(" ").map(Number);
      const [y0, y1] = svg.dataset.yrange.split(" ").map(Number);
      const pt = svg.createSVGPoint();
      pt.x = 0; pt.y = clientY;
      const local = pt.matrixTransform(svg.getScreenCTM().inverse());
      return y0 + (bottom - local.y) / (bottom - top) * (y1 - y0);
    };
    const setMove = (index, value) => {
      const map = new Map(moves.value ? moves.value.split(",").map((p) => p.split(":")) : []);
      map.set(String(index), value.toFixed(1));
      moves.value = [...map].map(([i, v]) => `${i}:${v}`).join(",");
      userChange(root);
    };
    const currentValue = (index) => {
      const circle = stage.querySelector(`[data-drag="${index}"]`);
      return circle ? Number(circle.getAttribute("aria-valuenow")) : 0;
    };

    stage.addEventListener("pointerdown", (e) => {
      const target = e.target.closest("[data-drag]");
      if (!target) return;
      e.preventDefault();
      root.plDragging = target.dataset.drag;
      stage.setPointerCapture(e.pointerId);
      stage.classList.add("pl-dragging");
    });
    stage.addEventListener("pointermove", (e) => {
      if (root.plDragging === undefined || !runtime.run) return;
      const svg = stage.querySelector("svg");
      setMove(root.plDragging, valueAt(svg, e.clientY));
    });
    const stop = () => {
      root.plDragging = undefined;
      stage.classList.remove("pl-dragging");
    };
    stage.addEventListener("pointerup", stop);
    stage.addEventListener("pointercancel", stop);
    stage.addEventListener("keydown", (e) => {
      const target = e.target.closest("[data-drag]");
      if (!target || !runtime.run) return;
      const step = e.shiftKey ? 25 : 5;
      const delta = { ArrowUp: step, ArrowDown: -step, PageUp: 50, PageDown: -50 }[e.key];
      if (delta === undefined) return;
      e.preventDefault();
      setMove(target.dataset.drag, currentValue(target.dataset.drag) + delta);
    });
  }

  // ---- start ---------------------------------------------------------------------------

  // mkdocs-material announces every page (first load and instant navigation) on document$.
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(mountAll);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
  else mountAll();
})();
