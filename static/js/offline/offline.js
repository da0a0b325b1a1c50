// Offline use: registers the service worker the build writes to the site root (sw.js, made by
// mkdocs_hooks/offline.py), asks it how much of the site this browser keeps and starts the download.
// offline/indicator.js shows it (a compact indicator in the header and, on the Systemcheck page, the
// details with the „Alles vorladen“ button); offline/new-version.js takes a new version at the next
// page change.
import { afterPause } from "../runtime/pause.js";
import { runtime, whenReady } from "../runtime/python.js";
import { BASE as base } from "../site.js";
import { render as renderState } from "./indicator.js";
import { announceSwitch, switchPending } from "./new-version.js";

const workerUrl = new URL("sw.js", base).href;
const CHECK_EVERY_MS = 60000;

const state = { name: "checking", done: 0, total: 0, doneBytes: 0, totalBytes: 0, version: "", message: "", next: null };
let registration = null;
const tracked = new WeakSet();  // the service workers whose state changes this file hears
let hadController = false;
let lastCheck = 0;
let asked = 0;  // refreshes overlap; only the latest may change the state
// One automatic download per page load; a click on „Alles vorladen“ counts as that one, so a failed
// try is not silently repeated behind the reader's back (the button offers the retry).
let started = false;
let quiet = null;  // the pending automatic start, see start()
const QUIET_MS = 3000;

function render() {
  renderState(state, { pending: switchPending(), preload: preloadAll });
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
    if (waiting) announceSwitch(() => registration);
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
  if (!worker || tracked.has(worker)) return;
  tracked.add(worker);
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
    if (hadController) announceSwitch(() => registration);
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
  // The experiment first, then the reader's next clicks: the whole site loads once Python is ready,
  // no page has changed for QUIET_MS (a page change during the download takes markedly longer) and
  // the reader has paused (runtime/pause.js); at the latest 20 s after the page has loaded and a
  // pause; „Alles vorladen“ starts it at once.
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
