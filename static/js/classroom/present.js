// Presentation mode and keyboard shortcuts: a teacher projects a page and drives its
// experiment (and its recorded replays) from the keyboard or a presenter remote.
//
// The mode is a class on <html>, which mkdocs-material keeps across instant navigation;
// sessionStorage carries it across reloads in the same tab. A link may switch it on with
// #praesentation: the query string belongs to the experiment's state (experiment/mount.js),
// so the mode never goes there, and the hash is removed again at once so shared links and
// the printed state line stay clean.
import * as urlState from "../url-state.js";
import { lessonOf, playerOf } from "./handles.js";

const STORE = "probierlabor.praesentation";
const HASH = "#praesentation";
const html = document.documentElement;
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

const KEYS = [
  ["P", "Präsentationsmodus an und aus"],
  ["Esc", "Präsentationsmodus beenden"],
  ["1 … 9", "Voreinstellung 1 bis 9 des Experiments wählen"],
  ["← / →", "vorige / nächste Voreinstellung – hat die Seite eine Aufzeichnung, stattdessen einen Schritt in der Aufzeichnung zurück / vor"],
  ["Bild↑ / Bild↓", "im Präsentationsmodus (auch mit einem Presenter): vorige / nächste Voreinstellung, nach der letzten weiter zu den Aufgaben, eine nach der anderen (ohne Aufzeichnung auch ← / →)"],
  ["Leertaste", "Aufzeichnung abspielen / anhalten"],
  ["A / V", "im Präsentationsmodus: nächste / vorige Aufgabe"],
  ["L / B / .", "im Präsentationsmodus: Lösung der Aufgabe zeigen und wieder verbergen (B oder . sendet die Taste „Bild aus“ eines Presenters)"],
  ["R", "zurück auf Anfang: die Aufzeichnung an den Start, sonst das Experiment auf seine Standardeinstellung"],
  ["+ / −", "Aufzeichnung schneller / langsamer"],
  [", / .", "vorige / nächste Seite (im Präsentationsmodus zeigt . die Lösung, N blättert weiter)"],
  ["?", "diese Übersicht öffnen und schließen"],
];

// Printing is the browser's own key; the sheet it gives is lesson.css's worksheet.
const PRINT_HINT = "Drucken: Strg + P (am Mac ⌘ + P). Gedruckt wird ein Arbeitsblatt: die Frage, die Vermutung zum " +
  "Ankreuzen, das Experiment so, wie es gerade eingestellt ist, die Aufgaben mit Linien und die Fragen für das " +
  "Gespräch, ohne Lösungen.";

let live = null;        // polite announcements for screen readers
let lastUsed = null;  // the replay panel or „Eigener Lauf“ last clicked or focused: ←/→ and Space go there
let atTasks = false;  // while presenting, Bild↑/↓ went on past the last preset to the tasks (walk)

// ---- the mode --------------------------------------------------------------------------

function isOn() {
  return html.classList.contains("pl-present");
}

function remember(on) {
  try {
    if (on) sessionStorage.setItem(STORE, "1");
    else sessionStorage.removeItem(STORE);
  } catch (_) { /* storage blocked (privacy settings): the mode then lasts until the next reload */ }
}

function remembered() {
  try { return sessionStorage.getItem(STORE) === "1"; } catch (_) { return false; }
}

function setMode(on, { announce = true } = {}) {
  html.classList.toggle("pl-present", on);
  atTasks = false;
  remember(on);
  document.querySelectorAll(".pl-present-toggle").forEach((b) => b.setAttribute("aria-pressed", String(on)));
  fitExtras(document);
  if (announce) say(on ? "Präsentationsmodus an. Esc beendet ihn, ? zeigt die Tastenkürzel." : "Präsentationsmodus aus.");
}

function takeHash() {
  if (location.hash !== HASH) return false;
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}

function say(text) {
  if (!live) return;
  live.textContent = "";
  // a changed text node is announced even if the same sentence comes twice in a row
  requestAnimationFrame(() => { live.textContent = text; });
}

// ---- header button, help dialog, print line (the header survives page changes; the
//      content does not, so each is checked again after every page change) ---------------

function icon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  // a projection screen on a stand
  path.setAttribute("d", "M2 3h20v2h-1v10H3V5H2zm3 2v8h14V5zm6 11h2v2.6l3.2 2.6-1.3 1.5L12 20.3l-2.9 2.4-1.3-1.5 3.2-2.6z");
  svg.append(path);
  return svg;
}

function ensureHeader() {
  const inner = document.querySelector(".md-header__inner");
  if (!inner || inner.querySelector(".pl-present-tools")) return;
  const tools = document.createElement("div");
  tools.className = "pl-present-tools";

  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "pl-present-toggle";
  toggle.setAttribute("aria-pressed", String(isOn()));
  toggle.setAttribute("aria-keyshortcuts", "P");
  // No aria-label: the visible word is the name (the P hint is aria-hidden), as WCAG 2.5.3 asks.
  toggle.title = "Präsentationsmodus für den Beamer (Taste P, beenden mit Esc)";
  const label = document.createElement("span");
  label.className = "pl-present-label";
  label.textContent = "Präsentieren";
  const kbd = document.createElement("kbd");
  kbd.textContent = "P";
  kbd.setAttribute("aria-hidden", "true");
  toggle.append(icon(), label, kbd);
  toggle.addEventListener("click", () => setMode(!isOn()));

  const help = document.createElement("button");
  help.type = "button";
  help.className = "pl-present-help";
  help.setAttribute("aria-keyshortcuts", "Shift+?");
  help.setAttribute("aria-label", "Tastenkürzel");
  help.title = "Tastenkürzel (Taste ?)";
  help.textContent = "?";
  help.addEventListener("click", () => toggleHelp());

  tools.append(toggle, help);
  const before = inner.querySelector(".md-header__option, form[data-md-component=palette], label[for=__search]");
  inner.insertBefore(tools, before);
}

function ensureHelp() {
  let dialog = document.getElementById("pl-keys");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "pl-keys";
  dialog.className = "pl-keys";
  dialog.setAttribute("aria-labelledby", "pl-keys-title");
  const title = document.createElement("h2");
  title.id = "pl-keys-title";
  title.textContent = "Tastenkürzel";
  const table = document.createElement("table");
  const body = document.createElement("tbody");
  for (const [key, what] of KEYS) {
    const row = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    for (const [i, part] of key.split(" / ").entries()) {
      if (i) th.append(" / ");
      const k = document.createElement("kbd");
      k.textContent = part;
      th.append(k);
    }
    const td = document.createElement("td");
    td.textContent = what;
    row.append(th, td);
    body.append(row);
  }
  table.append(body);
  const note = document.createElement("p");
  note.textContent = "Die Tasten wirken nicht, solange in einem Eingabefeld geschrieben wird, und nicht zusammen mit Strg, Alt oder ⌘. Vollbild: F11.";
  const paper = document.createElement("p");
  paper.textContent = PRINT_HINT;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "pl-keys-close";
  close.textContent = "Schließen";
  close.addEventListener("click", () => dialog.close());
  dialog.append(title, table, note, paper, close);
  // a click on the backdrop (outside the box) closes it, as a reader expects of an overlay
  dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
  document.body.append(dialog);
  return dialog;
}

function toggleHelp() {
  const dialog = ensureHelp();
  if (dialog.open) dialog.close();
  else dialog.showModal();
}

function ensureLive() {
  live = document.getElementById("pl-present-live");
  if (live) return;
  live = document.createElement("div");
  live.id = "pl-present-live";
  live.className = "pl-present-live";
  live.setAttribute("role", "status");
  document.body.append(live);
}

// The printed worksheet names the state it shows; kept current all the time because print
// previews (and headless PDF export) do not always fire beforeprint.
function ensurePrintLine() {
  const article = document.querySelector(".md-content__inner");
  if (!article) return;
  let line = article.querySelector(".pl-print-state");
  if (!line) {
    line = document.createElement("p");
    line.className = "pl-print-state";
    line.setAttribute("aria-hidden", "true");
    const h1 = article.querySelector("h1");
    if (h1) h1.after(line);
    else article.prepend(line);
  }
  const url = location.href.replace(/#.*$/, "");
  if (line.textContent !== `Stand: ${url}`) line.textContent = `Stand: ${url}`;  // unchanged while a point is dragged
}

// A second figure or table that does not fit the narrow column next to the figure gets the
// whole width (present.css); measured in the narrow layout, after every render and resize.
function fitExtras(scope = document) {
  scope.querySelectorAll(".pl-stage").forEach((stage) => {
    // asked first: removing an absent class still writes the attribute, on every drag move
    if (stage.classList.contains("pl-present-wide")) stage.classList.remove("pl-present-wide");
    const extra = stage.querySelector(".pl-extra");
    if (!isOn() || !extra || !extra.firstElementChild) return;
    const boxes = [extra, ...extra.querySelectorAll("div, table")];
    if (boxes.some((el) => el.scrollWidth > el.clientWidth + 1)) stage.classList.add("pl-present-wide");
  });
}

// ---- what the keys act on --------------------------------------------------------------

function experiment() {
  return urlState.ownExperiment();
}

function presets(root) {
  return [...root.querySelectorAll(".pl-presets [data-preset]")];
}

// The recorded replays and the panel of „Eigener Lauf“ (static/js/live/live.js), which a new run replaces.
const REPLAYS = "[data-replay], [data-live-replay]";

function readyReplays() {
  return [...document.querySelectorAll(REPLAYS)].filter(
    (el) => playerOf(el) && el.dataset.state !== "error" && el.dataset.state !== "loading");
}

// The replay a place of the page belongs to: a panel itself, or from „Eigener Lauf“'s form its run's panel.
function replayOf(node) {
  if (!node || !node.closest) return null;
  const live = node.closest("[data-live]");
  return live ? live.querySelector("[data-live-replay]") : node.closest(REPLAYS);
}

function inView(el) {
  const box = el.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

// The replay focused, else the one used last, else the first in view, else the first.
function activeReplay() {
  const all = readyReplays();
  for (const candidate of [replayOf(document.activeElement), replayOf(lastUsed), all.find(inView), all[0]]) {
    if (candidate && all.includes(candidate)) return candidate;
  }
  return null;
}

// Canonical URL state of each preset, written at build time by pageblocks/experiment_block.py (data-preset-url):
// "which preset is shown" is a plain comparison with the query string, no Python call.
function presetUrls(root) {
  if (!root.plPresetUrls) {
    root.plPresetUrls = presets(root).map((button) => JSON.parse(button.dataset.presetUrl || "null"));
  }
  return root.plPresetUrls;
}

// The query as experiment/mount.js writes it (url-state.js: a comparison copy under its own prefix).
function currentUrl(root) {
  return urlState.read(urlState.prefixOf(root), new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param)));
}

function same(a, b) {
  if (!a || !b) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => String(a[k]) === String(b[k]));
}

// The preset shown now; after a manual change, the one chosen last (stepping goes on from it).
function currentPreset(root) {
  const urls = presetUrls(root);
  if (urls) {
    const now = currentUrl(root);
    if (root.plPresetIndex !== undefined && same(urls[root.plPresetIndex], now)) return root.plPresetIndex;
    const found = urls.findIndex((u) => same(u, now));
    if (found >= 0) return found;
  }
  return root.plPresetIndex !== undefined ? root.plPresetIndex : -1;
}

function markPreset(root) {
  const urls = presetUrls(root);
  const now = currentUrl(root);
  const index = urls ? currentPreset(root) : -1;
  presets(root).forEach((b, i) => {
    b.classList.toggle("pl-present-current", i === index && urls !== null && same(urls[i], now));
  });
}

function choosePreset(root, index) {
  const all = presets(root);
  if (index < 0 || index >= all.length) return false;
  root.plPresetIndex = index;
  all[index].click();
  revealFigure(root);
  return true;
}

function stepPreset(root, delta) {
  const all = presets(root);
  if (!all.length) return false;
  const now = currentPreset(root);
  const next = now < 0 ? (delta > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, now + delta));
  if (next === now) {
    say(delta > 0 ? "Letzte Voreinstellung." : "Erste Voreinstellung.");
    return true;
  }
  return choosePreset(root, next);
}

function resetExperiment(root) {
  const urls = presetUrls(root);
  if (!urls) return false;
  const index = urls.findIndex((u) => u && Object.keys(u).length === 0);
  return choosePreset(root, index >= 0 ? index : 0);
}

// A key that changed something should show the change: bring it into view when less than ``share`` of it
// (or of the screen, where it is taller) is on screen.
function reveal(el, share) {
  const box = el.getBoundingClientRect();
  const visible = Math.max(0, Math.min(box.bottom, innerHeight) - Math.max(box.top, 0));
  if (visible < share * Math.min(box.height, innerHeight) - 1) {
    el.scrollIntoView({ block: box.height > innerHeight ? "start" : "nearest", behavior: reducedMotion.matches ? "auto" : "smooth" });
  }
}

// the figure itself, half of it at least: on a phone its stage has no box of its own (probierlabor.css puts
// the controls between the figure and the readouts)
function revealFigure(root) {
  reveal(root.querySelector(".pl-figure") || root, 0.5);
}

// ---- the tasks (classroom/lesson.js): one at a time while presenting ----------------------

function pageLesson() {
  const tasks = document.querySelector(".pl-tasks[data-lesson]");
  return tasks && lessonOf(tasks);
}

// The task list with its position and the solution, once shown, all of it: the class reads it from the screen.
function revealTask(lesson) {
  atTasks = true;
  reveal(lesson.tasks, 1);
}

// A presenter remote has two keys to walk with (Bild↑/↓, some send ←/→) and one for „Bild aus“ (B or .):
// the walk goes through the presets, after the last one on to the tasks, one at a time, and back the same
// way; „Bild aus“ shows a task's solution (act). Stepping stops at either end, as it does for the presets.
function walk(root, delta) {
  const lesson = isOn() && pageLesson();
  if (lesson && atTasks) {
    const next = lesson.current + delta;
    if (next >= lesson.count()) say("Letzte Aufgabe.");
    else if (next < 0) {
      atTasks = false;
      if (root) revealFigure(root);
      say("Zurück zum Experiment.");
    } else {
      lesson.step(delta);
      revealTask(lesson);
    }
    return true;
  }
  if (!root) return false;
  if (lesson && delta > 0 && currentPreset(root) === presets(root).length - 1) {
    lesson.step(0);  // says which task it is
    revealTask(lesson);
    return true;
  }
  return stepPreset(root, delta);
}

// The panel knows which speeds it offers (its select); asking it keeps the announcement true.
function changeSpeed(replay, direction) {
  const now = playerOf(replay).stepSpeed(direction);
  const end = direction > 0 ? "schneller geht es nicht" : "langsamer geht es nicht";
  say(`Geschwindigkeit ${now.label}${now.changed ? "" : ` – ${end}`}`);
}

// ---- the keyboard ----------------------------------------------------------------------

const TYPING_TYPES = new Set(["text", "number", "search", "email", "url", "tel", "password", "date",
  "datetime-local", "month", "time", "week"]);
const ARROW_WIDGETS = 'input[type="range"], input[type="radio"], [data-drag], [role="slider"], [role="radio"],' +
  ' [role="tab"], [role="spinbutton"], [role="listbox"], [role="option"], [role="menuitem"], [role="grid"], [role="tree"],' +
  ' [role="toolbar"] *';  // a11y.js moves between a toolbar's buttons
const ACTIVATES = 'button, a[href], input, summary, label, [role="button"], [role="switch"], [role="checkbox"], [role="link"]';

function typing(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
  return el.tagName === "INPUT" && TYPING_TYPES.has(el.type);
}

// Keys the focused element already uses for itself stay with it.
function usedByFocus(el, key) {
  if (!el || !el.matches) return false;
  if (/^(Arrow|Page|Home|End)/.test(key)) {
    if (el.matches(ARROW_WIDGETS)) return true;
    const style = getComputedStyle(el);
    if (/auto|scroll/.test(style.overflowX + style.overflowY) && el !== document.body &&
        (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)) return true;
  }
  return (key === " " || key === "Enter") && el.matches(ACTIVATES);
}

function modalOpen() {
  try { return document.querySelector("dialog:modal") !== null; } catch (_) { return false; }
}

// The element that really has the focus: in a shadow root (the Werkstatt's code editor) the document
// sees only the host, and a key's target is the host too.
function deepFocus() {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

function onKey(e) {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const focus = deepFocus();
  if (typing(focus) || e.composedPath().some(typing)) return;
  const searchOpen = document.getElementById("__search");
  if (searchOpen && searchOpen.checked) return;
  const help = document.getElementById("pl-keys");
  const key = e.key;
  const named = key.length > 1 || key === " ";
  if (e.shiftKey && (named || /^[a-z]$/i.test(key))) return;

  if (help && help.open) {  // the open dialog keeps Esc (closes it) and Tab for itself
    if (key === "?") { e.preventDefault(); help.close(); }
    return;
  }
  if (modalOpen()) return;  // e.g. the QR code of classroom/share.js: keys must not act behind it
  if (usedByFocus(focus, key)) return;

  const handled = act(key);
  if (handled) {
    e.preventDefault();
    // mkdocs-material binds p (previous page) on window: this key is ours now
    e.stopPropagation();
  }
}

function act(key) {
  const lower = key.length === 1 ? key.toLowerCase() : key;
  if (lower === "p") { setMode(!isOn()); return true; }
  if (key === "Escape") {
    if (!isOn()) return false;
    setMode(false);
    return true;
  }
  if (key === "?") { toggleHelp(); return true; }

  // „.“ is the theme's next page, but a presenter's „Bild aus“ key sends it: while presenting it is a task's
  if (["a", "v", "l", "b", "."].includes(lower) && isOn()) {
    const lesson = pageLesson();
    if (!lesson) return false;
    if (lower === "a" || lower === "v") lesson.step(lower === "a" ? 1 : -1);
    else lesson.reveal();
    revealTask(lesson);
    return true;
  }

  const root = experiment();
  const replay = activeReplay();
  if (/^[1-9]$/.test(key)) return root ? choosePreset(root, Number(key) - 1) : false;
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const delta = key === "ArrowRight" ? 1 : -1;
    if (replay) { playerOf(replay).step(delta); return true; }
    return walk(root, delta);
  }
  if ((key === "PageUp" || key === "PageDown") && isOn()) return walk(root, key === "PageDown" ? 1 : -1);
  if (key === " ") {
    if (!replay) return false;
    playerOf(replay).toggle();
    return true;
  }
  if (lower === "r") {
    if (replay) { playerOf(replay).reset(); return true; }
    return root ? resetExperiment(root) : false;
  }
  if (key === "+" || key === "=" || key === "-" || key === "−") {
    if (!replay || typeof playerOf(replay).stepSpeed !== "function") return false;
    changeSpeed(replay, key === "+" || key === "=" ? 1 : -1);
    return true;
  }
  return false;
}

// ---- wiring ----------------------------------------------------------------------------

function remind(e) {
  const place = e.target && e.target.closest ? e.target.closest(`${REPLAYS}, [data-live]`) : null;
  if (place) lastUsed = place;
  const button = e.target && e.target.closest ? e.target.closest(".pl-presets [data-preset]") : null;
  const root = button && button.closest("[data-experiment]");
  if (root) {
    root.plPresetIndex = presets(root).indexOf(button);
    if (e.type === "click") atTasks = false;
  }
}

function onPage() {
  atTasks = false;
  ensureHeader();
  ensureLive();
  ensureHelp();
  ensurePrintLine();
  if (takeHash()) setMode(true, { announce: false });
  document.querySelectorAll("[data-experiment]").forEach((root) => {
    if (root.dataset.state === "ready") markPreset(root);
  });
  fitExtras();
}


// capture phase on window: before mkdocs-material's own key handler on window
window.addEventListener("keydown", onKey, true);
document.addEventListener("pointerdown", remind, true);
document.addEventListener("focusin", remind, true);
document.addEventListener("click", remind, true);
// pl:rendered does not bubble; capturing on document still sees it
document.addEventListener("pl:rendered", (e) => {
  markPreset(e.target);
  ensurePrintLine();
  fitExtras(e.target);
}, true);
let resizing = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => fitExtras());
});
window.addEventListener("hashchange", () => { if (takeHash()) setMode(true); });
window.addEventListener("beforeprint", ensurePrintLine);

// before the first paint of the page body where possible, so a reload does not flash
if (takeHash() || remembered()) setMode(true, { announce: false });

export { onPage };
