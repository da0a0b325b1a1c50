// The keyboard shortcuts (the help dialog in classroom/header-tools.js lists them): a teacher drives the
// experiment, its recorded replays and the tasks from the keyboard or a presenter remote. A key the
// focused element uses for itself, or one typed into a field, stays with it.
import * as urlState from "../url-state.js";
import { activeReplay } from "./active-replay.js";
import { say } from "./feedback.js";
import { playerOf } from "./handles.js";
import { toggleHelp } from "./header-tools.js";
import { isOn, setMode } from "./presenting.js";
import { choosePreset, resetExperiment } from "./presets.js";
import { pageLesson, revealTask, walk } from "./walk.js";

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

// The panel knows which speeds it offers (its select); asking it keeps the announcement true.
function changeSpeed(replay, direction) {
  const now = playerOf(replay).stepSpeed(direction);
  const end = direction > 0 ? "schneller geht es nicht" : "langsamer geht es nicht";
  say(`Geschwindigkeit ${now.label}${now.changed ? "" : ` – ${end}`}`);
}

export function onKey(e) {
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

  const root = urlState.ownExperiment();
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
