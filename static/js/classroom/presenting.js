// Whether the page is presented. The mode is a class on <html>, which mkdocs-material keeps across
// instant navigation; sessionStorage carries it across reloads in the same tab. A link may switch it
// on with #praesentation: the query string belongs to the experiment's state (experiment/mount.js),
// so the mode never goes there, and the hash is removed again at once so shared links and the
// printed state line stay clean.
import { say } from "./feedback.js";

const STORE = "probierlabor.praesentation";
const HASH = "#praesentation";
const html = document.documentElement;
const listeners = [];  // what forgets its place when the mode changes (the walk through the tasks)

export function isOn() {
  return html.classList.contains("pl-present");
}

function remember(on) {
  try {
    if (on) sessionStorage.setItem(STORE, "1");
    else sessionStorage.removeItem(STORE);
  } catch (_) { /* storage blocked (privacy settings): the mode then lasts until the next reload */ }
}

export function remembered() {
  try { return sessionStorage.getItem(STORE) === "1"; } catch (_) { return false; }
}

export function onModeChange(fn) {
  listeners.push(fn);
}

export function setMode(on, { announce = true } = {}) {
  html.classList.toggle("pl-present", on);
  listeners.forEach((fn) => fn(on));
  remember(on);
  document.querySelectorAll(".pl-present-toggle").forEach((b) => b.setAttribute("aria-pressed", String(on)));
  fitExtras(document);
  if (announce) say(on ? "Präsentationsmodus an. Esc beendet ihn, ? zeigt die Tastenkürzel." : "Präsentationsmodus aus.");
}

// True once for a link that asked for the mode; the hash is gone from the address afterwards.
export function takeHash() {
  if (location.hash !== HASH) return false;
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}

// A second figure or table that does not fit the narrow column next to the figure gets the
// whole width (present.css); measured in the narrow layout, after every render and resize.
export function fitExtras(scope = document) {
  scope.querySelectorAll(".pl-stage").forEach((stage) => {
    // asked first: removing an absent class still writes the attribute, on every drag move
    if (stage.classList.contains("pl-present-wide")) stage.classList.remove("pl-present-wide");
    const extra = stage.querySelector(".pl-extra");
    if (!isOn() || !extra || !extra.firstElementChild) return;
    const boxes = [extra, ...extra.querySelectorAll("div, table")];
    if (boxes.some((el) => el.scrollWidth > el.clientWidth + 1)) stage.classList.add("pl-present-wide");
  });
}
