// The header's two buttons of the presentation mode – the mode itself and the key help – and the help
// dialog the second opens. The header survives instant navigation, the body's dialog may not: both
// are checked again after every page change.
import { isOn, setMode } from "./presenting.js";

// What classroom/keys.js does with each key, as the dialog lists it.
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

export function ensureHeader() {
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

export function ensureHelp() {
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

export function toggleHelp() {
  const dialog = ensureHelp();
  if (dialog.open) dialog.close();
  else dialog.showModal();
}
