// Showing the offline state: the compact indicator in the header, the panel on the Systemcheck page
// (with „Alles vorladen“), and the note that a new version waits for the next page change.
//
// State for people and tests: the indicator carries data-offline-state (checking, idle, loading, ready,
// update, error, insecure, file, unsupported, dev) and data-offline-done/-total/-version.
import { BASE as base } from "../site.js";
import { SHORT, describe } from "./words.js";

const panelUrl = new URL("systemcheck/#offline", base).href;
const wired = new WeakSet();  // the „Alles vorladen“ buttons that listen
let noteClosed = false;

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
  // right after the page title, so always on the same side of the presentation button (classroom/header-tools.js
  // puts that before the palette toggle too, and which came first changed from one page load to the next)
  const title = header.querySelector(".md-header__title");
  if (title) title.after(el);
  else header.insertBefore(el, header.querySelector("[data-md-component=palette]") || header.querySelector('label[for="__search"]'));
  return el;
}

// state: offline.js's; pending: a new version waits for the next page change; preload: „Alles vorladen“.
export function render(state, { pending, preload }) {
  const [short, long, detail = ""] = describe(state);
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
  document.querySelectorAll("[data-offline-panel]").forEach((panel) => renderPanel(panel, state, long, detail, preload));
  renderNote(pending);
}

function renderPanel(panel, state, long, detail, preload) {
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
  if (!wired.has(button)) {
    wired.add(button);
    button.addEventListener("click", preload);
  }
}

function renderNote(pending) {
  let note = document.querySelector(".pl-offline-note");
  const show = pending && !noteClosed;
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
    note.querySelector("button").addEventListener("click", () => { noteClosed = true; renderNote(pending); });
    document.body.appendChild(note);
  }
  note.hidden = false;
}
