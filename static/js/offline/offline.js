// Offline use: registers the service worker the build writes to the site root (sw.js, made by
// mkdocs_hooks/offline.py) and shows how much of the site this browser keeps – a compact indicator in
// the header and, on the Systemcheck page, the details with the „Alles vorladen“ button.
//
// State for people and tests: the indicator carries data-offline-state (checking, idle, loading, ready,
// update, error, insecure, file, unsupported, dev) and data-offline-done/-total/-version.
import { MIB, THIN_NBSP, de } from "../fmt.js";
import { afterPause } from "../runtime/pause.js";
import { runtime, whenReady } from "../runtime/python.js";
import { BASE as base } from "../site.js";

const workerUrl = new URL("sw.js", base).href;
const panelUrl = new URL("systemcheck/#offline", base).href;
const CHECK_EVERY_MS = 60000;

const state = { name: "checking", done: 0, total: 0, doneBytes: 0, totalBytes: 0, version: "", message: "", next: null };
let registration = null;
let hadController = false;
let switchOnNextPage = false;  // a new version is there: the next page change loads it completely
let lastCheck = 0;
let noteClosed = false;
let asked = 0;  // refreshes overlap; only the latest may change the state
// One automatic download per page load; a click on „Alles vorladen“ counts as that one, so a failed
// try is not silently repeated behind the reader's back (the button offers the retry).
let started = false;
let quiet = null;  // the pending automatic start, see start()
const QUIET_MS = 3000;

const mb = (bytes) => de(bytes / MIB, 1) + THIN_NBSP + "MiB";

// ---- texts ---------------------------------------------------------------------------

// The indicator's words for each state; the widest of them sets its width (see chip()). Each says what it
// means for using the site without a network („Nicht offline“ read as „you are not offline“).
const SHORT = {
  insecure: "Nur online", file: "Nur mit Server", unsupported: "Nur online", dev: "Nur online",
  checking: "Offline …", idle: "Offline noch nicht bereit", loading: (percent) => `Vorladen ${percent} %`,
  ready: "Offline bereit", update: "Neue Version", error: "Offline: Fehler",
};

function describe() {
  const files = `${state.done} von ${state.total} Dateien`;
  switch (state.name) {
    case "insecure":
      return [SHORT.insecure, "Offline-Speicher ist unter dieser Adresse nicht möglich: Browser erlauben ihn nur über " +
        "https:// oder auf dem eigenen Rechner (http://127.0.0.1 oder http://localhost). Die Seite funktioniert " +
        "trotzdem, solange der Server erreichbar ist. Für den Offline-Betrieb die Website über https ausliefern " +
        "oder das Paket mit start.bat bzw. start.sh auf dem Rechner selbst starten (siehe LIESMICH.txt)."];
    case "file":
      return [SHORT.file, "Als Datei geöffnet (file://): So darf der Browser weder Python starten noch etwas " +
        "offline speichern. Bitte start.bat (Windows) bzw. start.sh (Linux, macOS) verwenden, siehe LIESMICH.txt."];
    case "unsupported":
      return [SHORT.unsupported, "Dieser Browser kann die Website nicht offline speichern (zum Beispiel in einem privaten " +
        "Fenster oder wenn Website-Daten blockiert sind). Solange der Server erreichbar ist, funktioniert alles."];
    case "dev":
      return [SHORT.dev, "Entwicklungsserver (mkdocs serve): Der Offline-Speicher ist abgeschaltet, damit jede " +
        "Änderung sofort sichtbar ist."];
    case "checking":
      return [SHORT.checking, "Offline-Speicher wird geprüft …"];
    case "idle":
      return [SHORT.idle, state.total
        ? `Noch nicht vollständig offline gespeichert (${files}). „Alles vorladen“ speichert die ganze Website ` +
          `(${mb(state.totalBytes)}) in diesem Browser.`
        : "Noch nicht offline gespeichert. Das Vorladen beginnt von selbst, sobald Python bereit ist; " +
          "„Alles vorladen“ startet es sofort."];
    case "loading": {
      const percent = state.totalBytes ? Math.floor((100 * state.doneBytes) / state.totalBytes) : 0;
      return [SHORT.loading(percent), "Die Website wird in diesem Browser für die Offline-Nutzung gespeichert …",
        `${files} (${mb(state.doneBytes)} von ${mb(state.totalBytes)})`];
    }
    case "ready":
    case "update": {
      let text = `Offline bereit: ${files}, ${mb(state.totalBytes)} (Version ${state.version}). ` +
        "Diese Website funktioniert in diesem Browser jetzt auch ohne Netz.";
      if (state.name === "update") text += " Neue Version verfügbar – beim nächsten Seitenwechsel aktiv.";
      else if (state.next) text += ` Eine neue Version wird vorgeladen (${state.next.done} von ${state.next.total} Dateien).`;
      return [SHORT[state.name], text];
    }
    default:
      return [SHORT.error, `Vorladen unterbrochen: ${state.message || "unbekannter Fehler"}. „Alles vorladen“ ` +
        "versucht es erneut; schon Gespeichertes bleibt erhalten."];
  }
}

// ---- showing it ----------------------------------------------------------------------

function chip() {
  let el = document.querySelector(".pl-offline-chip");
  if (el) return el;
  const header = document.querySelector(".md-header__inner");
  if (!header) return null;
  el = document.createElement("a");
  el.className = "pl-offline-chip md-header__button";
  el.href = panelUrl;
  el.innerHTML = '<span class="pl-offline-dot" aria-hidden="true"></span><span class="pl-offline-label"><span></span></span>';
  // Every possible label lies hidden in the same place (offline.css): the indicator is as wide as the
  // widest in whatever font this computer has, and keeps its place while its words change (it moved
  // with every state, and a state changes between pages).
  const label = el.querySelector(".pl-offline-label");
  for (const text of new Set(Object.values(SHORT).map((short) => (typeof short === "function" ? short(100) : short)))) {
    const room = document.createElement("span");
    room.className = "pl-offline-room";
    room.setAttribute("aria-hidden", "true");
    room.textContent = text;
    label.append(room);
  }
  // right after the page title, so always on the same side of the presentation button (classroom/present.js puts
  // that before the palette toggle too, and which came first changed from one page load to the next)
  const title = header.querySelector(".md-header__title");
  if (title) title.after(el);
  else header.insertBefore(el, header.querySelector("[data-md-component=palette]") || header.querySelector('label[for="__search"]'));
  return el;
}

function render() {
  const [short, long, detail = ""] = describe();
  const el = chip();
  if (el) {
    el.dataset.offlineState = state.name;
    el.dataset.offlineDone = String(state.done);
    el.dataset.offlineTotal = String(state.total);
    el.dataset.offlineVersion = state.version;
    el.querySelector(".pl-offline-label > :first-child").textContent = short;
    el.title = detail ? `${long} ${detail}` : long;
    el.setAttribute("aria-label", `Offline-Speicher: ${short}. Einzelheiten im Systemcheck`);
  }
  document.querySelectorAll("[data-offline-panel]").forEach((panel) => renderPanel(panel, long, detail));
  renderNote();
}

function renderPanel(panel, long, detail) {
  panel.dataset.offlineState = state.name;
  // The text is a live region: it changes with the state; the count of the download is not in it.
  const text = panel.querySelector(".pl-offline-text");
  if (text.textContent !== long) text.textContent = long;
  panel.querySelector(".pl-offline-count").textContent = detail;
  const bar = panel.querySelector("progress");
  bar.hidden = state.name !== "loading";
  bar.max = state.totalBytes || 1;
  bar.value = state.doneBytes;
  bar.setAttribute("aria-valuetext", `${state.done} von ${state.total} Dateien`);
  const button = panel.querySelector("[data-offline-preload]");
  const usable = !["insecure", "file", "unsupported", "dev"].includes(state.name);
  button.hidden = !usable;
  button.disabled = !["idle", "error"].includes(state.name);
  if (!button.plWired) {
    button.plWired = true;
    button.addEventListener("click", preloadAll);
  }
}

function renderNote() {
  let note = document.querySelector(".pl-offline-note");
  const show = switchOnNextPage && !noteClosed;
  if (!show) {
    if (note) note.hidden = true;
    return;
  }
  if (!note) {
    note = document.createElement("div");
    note.className = "pl-offline-note";
    note.setAttribute("role", "status");
    note.innerHTML = '<span>Neue Version verfügbar – beim nächsten Seitenwechsel aktiv.</span>' +
      '<button type="button" aria-label="Hinweis schließen">×</button>';
    note.querySelector("button").addEventListener("click", () => { noteClosed = true; renderNote(); });
    document.body.appendChild(note);
  }
  note.hidden = false;
}

function set(changes) {
  Object.assign(state, changes);
  render();
}

// ---- talking to the service worker ----------------------------------------------------

function ask(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 5000);
    channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data); };
    worker.postMessage({ type: "status" }, [channel.port2]);
  });
}

const numbers = (s) => ({ version: s.version, done: s.done, total: s.total, doneBytes: s.doneBytes, totalBytes: s.totalBytes });

async function refresh() {
  if (state.name === "dev") return render();  // the development worker has removed itself
  if (!registration) {
    if (state.name === "checking") state.name = "idle";
    return render();
  }
  const turn = ++asked;
  const { installing, waiting, active } = registration;
  if (active) {
    const s = await ask(active);
    const next = installing ? await ask(installing) : null;
    if (!s || turn !== asked) return;
    if (s.dev) return set({ name: "dev" });
    let name;
    if (waiting) name = "update";
    else if (s.done < s.total) name = state.name === "loading" && state.version === s.version ? "loading" : "idle";
    // "ready" only once the worker answers every request: until then a page could not go offline
    else name = active.state === "activated" ? "ready" : "loading";
    if (waiting) announceSwitch();
    return set({ name, ...numbers(s), next: next && !next.dev ? next : null });
  }
  const first = installing || waiting;
  if (first) {
    const s = await ask(first);
    if (turn !== asked) return;
    if (s && s.dev) return set({ name: "dev" });
    if (s) set({ name: "loading", ...numbers(s) });
  } else if (state.name !== "error") {
    set({ name: "idle" });
  }
}

function onMessage(event) {
  const data = event.data || {};
  if (data.type === "dev") return set({ name: "dev" });
  if (!registration) return;
  const active = registration.active;
  if (data.type === "progress") {
    if (active && state.version && data.version !== state.version) {
      set({ next: numbers(data) });  // a new version loads in the background; this one stays usable
    } else if (data.done < data.total) {
      set({ name: "loading", message: "", ...numbers(data) });
    } else {
      set(numbers(data));
      refresh();  // all stored: whether this is "ready" depends on the worker's state
    }
  } else if (data.type === "error") {
    if (!active || data.version === state.version) set({ name: "error", message: data.message });
    else set({ next: null });
  }
}

function track(worker) {
  if (!worker || worker.plTracked) return;
  worker.plTracked = true;
  worker.addEventListener("statechange", () => {
    if (worker.state === "redundant" && !registration.active && !["error", "dev"].includes(state.name)) {
      set({ name: "error", message: "die Verbindung zum Server ist abgebrochen" });
    }
    refresh();
  });
}

function watch(reg) {
  if (registration === reg) return;
  registration = reg;
  reg.addEventListener("updatefound", () => { track(reg.installing); refresh(); });
  track(reg.installing);
  track(reg.waiting);
  track(reg.active);
}

async function register() {
  try {
    const reg = await navigator.serviceWorker.register(workerUrl, { scope: base, updateViaCache: "none" });
    watch(reg);
    // Registering the same script again checks nothing; a stored version asks for a newer one.
    if (reg.active) checkForUpdate(true);
  } catch (error) {
    console.warn("[offline]", error);
    set({ name: "error", message: `der Offline-Speicher ließ sich nicht einrichten (${String(error.message || error).slice(0, 120)})` });
  }
  return refresh();
}

function checkForUpdate(now) {
  if (!registration || (!now && Date.now() - lastCheck < CHECK_EVERY_MS)) return Promise.resolve();
  lastCheck = Date.now();
  // Offline the check simply fails; the stored version keeps working.
  return registration.update().catch(() => {}).then(refresh);
}

function go() {
  if (!started) { started = true; register(); }
}

function soon() {
  clearTimeout(quiet);
  if (!started) quiet = setTimeout(() => afterPause(go), QUIET_MS);
}

async function preloadAll() {
  started = true;
  const reg = registration;
  if (!reg || (!reg.active && !reg.installing && !reg.waiting)) return register();
  if (reg.active && !reg.installing && !reg.waiting) {
    set({ name: "loading", message: "" });
    reg.active.postMessage({ type: "fill" });
    return checkForUpdate(true);
  }
  return refresh();
}

// ---- a new version: take it at the next page change, never in the middle of one ------------

function announceSwitch() {
  switchOnNextPage = true;
}

function activateThenOpen(href) {
  const waiting = registration && registration.waiting;
  if (!waiting) return location.assign(href);
  let gone = false;
  const go = () => { if (!gone) { gone = true; location.assign(href); } };
  navigator.serviceWorker.addEventListener("controllerchange", go, { once: true });
  setTimeout(go, 3000);
  waiting.postMessage({ type: "activate" });
}

// Instant navigation would keep this page's scripts and only swap the content: for a new version the
// next page change is a full load instead (capture phase: before mkdocs-material sees the click).
window.addEventListener("click", (event) => {
  if (!switchOnNextPage || event.defaultPrevented || event.button !== 0 ||
      event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element && event.target.closest("a[href]");
  if (!link || link.target || link.hasAttribute("download")) return;
  const url = new URL(link.href, location.href);
  if (!url.href.startsWith(base)) return;
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return;  // same page
  event.preventDefault();
  event.stopPropagation();
  activateThenOpen(url.href);
}, true);

window.addEventListener("popstate", () => {
  if (switchOnNextPage) activateThenOpen(location.href);
});

// ---- start -------------------------------------------------------------------------------

function start() {
  if (location.protocol === "file:") return set({ name: "file" });
  if (!window.isSecureContext) return set({ name: "insecure" });
  if (!("serviceWorker" in navigator) || !window.caches) return set({ name: "unsupported" });
  const sw = navigator.serviceWorker;
  hadController = Boolean(sw.controller);
  sw.addEventListener("message", onMessage);
  if (sw.startMessages) sw.startMessages();  // addEventListener alone would queue them until the page has loaded
  sw.addEventListener("controllerchange", () => {
    // The first activation only takes over this page; a later one is a new version.
    if (hadController) announceSwitch();
    hadController = true;
    refresh();
  });
  sw.getRegistration(base).then((reg) => {
    if (reg && reg.scope === base) {
      watch(reg);
      if (reg.active) checkForUpdate(true);  // a deployment since the last visit shows up at once
    }
    return refresh();
  });
  // The experiment first, then the reader's next clicks: the whole site (~30 MB) loads once Python
  // is ready, no page has changed for QUIET_MS (measured here: a page change during the download
  // takes 300–470 ms instead of ≈ 200) and the reader has paused (runtime/pause.js); at
  // the latest 20 s after the page has loaded and a pause; „Alles vorladen“ starts it at once.
  if (runtime.failure) soon();
  whenReady.then(soon);
  const later = () => setTimeout(() => afterPause(go), 20000);
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

// for tests (static/js/main.js's debug handle)
export const control = {
  state: () => ({ ...state }),
  checkForUpdate: () => checkForUpdate(true),
  refresh: () => refresh(),
  preloadAll: () => preloadAll(),
};

start();
const onPage = () => {
  render();
  checkForUpdate(false);
  if (quiet && !started) soon();  // the reader is moving on: wait for the next pause
};
export { onPage };
