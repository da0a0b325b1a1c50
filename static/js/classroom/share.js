// Sharing an experiment: copy the link of the current setting, show it as a QR code, and compare
// two settings side by side (A/B).
//
// The setting already lives in the page's query (static/js/experiment/mount.js rewrites it after
// every render, a slider's once it is let go), so "the link of this setting" is the page address as it
// stands. Comparison side B is a second copy of the experiment that experiment/mount.js mounts like any other, told by
// data-url-prefix to keep its values under "b." in the same query (url-state.js); "ab=<slug>" says which
// experiment is being compared, so one link restores both sides.
import { mountAll } from "../experiment/mount.js";
import { siteUrl } from "../site.js";
import { AB_KEY, AB_SIDE as B_PREFIX, query as currentQuery, href, ownExperiment, ownExperiments, replaceQuery } from "../url-state.js";

const QR_SCRIPT = siteUrl("static/vendor/qrcode/qrcode.js");
// Addresses that only mean "this computer": a QR code of them is useless on a pupil's phone.
const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

const shares = new WeakMap();  // experiment root → { bar, b: side B while compared, label }
const hideLater = new WeakMap();  // status line → the timer that empties it

const TEXT = {
  copied: "Link kopiert",
  selected: "Link markiert – mit Strg+C (Mac: ⌘+C) kopieren",
  fieldLabel: "Link zu dieser Einstellung",
  qrTitle: "QR-Code dieser Einstellung",
  qrMissing: "Der QR-Code konnte nicht erstellt werden: Die Datei static/vendor/qrcode/qrcode.js fehlt. " +
    "Website neu bauen (make site).",
  qrTooLong: "Dieser Link ist zu lang für einen QR-Code. „Link kopieren“ geht trotzdem.",
  localHint: (host) => `Achtung: Die Adresse ${host} gibt es nur auf diesem Rechner – ein Handy erreicht sie nicht. ` +
    "Für die Klasse die Website über die Adresse des Schulservers öffnen (z. B. http://schulserver/… oder " +
    "seine IP-Adresse im Schulnetz); dann zeigt der QR-Code eine Adresse, die im Schulnetz funktioniert.",
  close: "Schließen",
  abOpened: "A/B-Vergleich geöffnet: B ist eine Kopie von A und lässt sich getrennt einstellen.",
  abClosed: "A/B-Vergleich geschlossen.",
  abClose: "Vergleich schließen",
};

const stateUrl = () => href().split("#")[0];  // a slider still held included

function paramNames(root) {
  return [...new Set([...root.querySelectorAll("[data-param]")].map((el) => el.dataset.param))];
}

// ---- wiring ----------------------------------------------------------------------------

function setup() {
  const roots = ownExperiments();
  roots.forEach(wire);
  const slug = currentQuery().get(AB_KEY);
  if (slug) {
    const root = ownExperiment(slug);
    if (root && shares.has(root) && !shares.get(root).b) openComparison(root, { copy: false });
  }
  const shared = roots.find(hasState);
  // after the theme has put a new page at its top (instant navigation scrolls once it is in)
  if (shared) requestAnimationFrame(() => land(shared));
}

// ---- a shared link lands on its experiment -----------------------------------------------

// A link with a setting opened at the top of the page, and on a phone the experiment began 1 900 to
// 2 700 px further down. Such a link now scrolls to it: the whole block if it fits the screen,
// else as far as it takes to have the figure and the first control (its label and its slider, field or
// options; its help may stay below) on screen together (probierlabor.css puts them next to each other
// on a phone).
const LAND_MARGIN = 8;  // px between what is shown and the screen's edges
const PRIMARY = ".pl-controls .pl-control:first-child :is(.pl-options, select, input:not([type=hidden]), button)";

function hasState(root) {
  const query = currentQuery();
  return query.get(AB_KEY) === root.dataset.experiment
    || paramNames(root).some((name) => query.has(name) || query.has(B_PREFIX + name));
}

function land(root) {
  // a page the reader or the browser has already scrolled (back, reload), or an anchor of its own
  const anchor = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (window.scrollY !== 0 || anchor || !root.isConnected) return;
  const header = document.querySelector(".md-header");
  const below = header ? header.getBoundingClientRect().bottom : 0;  // the sticky header covers the top
  const shown = [root.querySelector(".pl-figure"), root.querySelector(PRIMARY)]
    .filter((el) => el && el.getClientRects().length);
  const end = Math.max(...shown.map((el) => el.getBoundingClientRect().bottom));
  const start = root.getBoundingClientRect().top - below - LAND_MARGIN;
  window.scrollTo({ top: Math.max(start, end - window.innerHeight + LAND_MARGIN), behavior: "instant" });
}

const ACTIONS = { link: copyLink, qr: showQr, ab: toggleComparison };

function wire(root) {
  if (shares.has(root)) return;
  const bar = root.querySelector(".pl-toolbar");
  if (!bar) return;
  shares.set(root, { bar, b: null, label: root.getAttribute("aria-label") });
  bar.querySelectorAll("[data-share]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => ACTIONS[button.dataset.share](root, button));
  });
  root.addEventListener("pl:rendered", () => refreshField(root));
}

// visible: false for news the eye already sees (B appearing), which need only be heard.
function say(root, text, visible = true) {
  const status = shares.get(root).bar.querySelector(".pl-share-status");
  if (!status) return;
  clearTimeout(hideLater.get(status));
  // Emptied first, so the same words twice in a row are announced twice.
  status.textContent = "";
  status.classList.toggle("pl-share-unseen", !visible);
  setTimeout(() => { status.textContent = text; }, 60);
  hideLater.set(status, setTimeout(() => { status.textContent = ""; }, Math.max(6000, 90 * text.length)));  // time to read it
}

// ---- Link kopieren ------------------------------------------------------------------------

async function copyLink(root) {
  const url = stateUrl();
  // The clipboard API exists only on https and localhost; a school server on plain http is the
  // common case, where a selected text field and the copy command still work.
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(url);
      refreshField(root);
      say(root, TEXT.copied);
      return;
    } catch (_) { /* refused (permissions): fall back to the text field */ }
  }
  const field = shareField(root);
  field.value = url;
  field.focus();
  field.select();
  let copied = false;
  try { copied = document.execCommand("copy"); } catch (_) { /* not supported: the text stays selected */ }
  say(root, copied ? TEXT.copied : TEXT.selected);
}

function shareField(root) {
  let field = root.querySelector(".pl-share-field");
  if (!field) {
    field = document.createElement("input");
    field.type = "text";
    field.readOnly = true;
    field.className = "pl-share-field";
    field.setAttribute("aria-label", TEXT.fieldLabel);
    field.addEventListener("focus", () => field.select());
    shares.get(root).bar.after(field);
  }
  return field;
}

function refreshField(root) {
  const field = root.querySelector(".pl-share-field");
  if (field) field.value = stateUrl();
}

// ---- QR-Code ------------------------------------------------------------------------------

let qrLibrary = null;

// Loaded on first use only: most visits never show a QR code.
function loadQr() {
  if (window.qrcode) return Promise.resolve(window.qrcode);
  if (!qrLibrary) {
    qrLibrary = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = QR_SCRIPT;
      script.onload = () => (window.qrcode ? resolve(window.qrcode) : reject(new Error("qrcode fehlt")));
      script.onerror = () => { qrLibrary = null; script.remove(); reject(new Error(QR_SCRIPT)); };
      document.head.appendChild(script);
    });
  }
  return qrLibrary;
}

async function showQr(root, button) {
  const url = stateUrl();
  let svg;
  try {
    const qrcode = await loadQr();
    qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];
    const code = qrcode(0, "M");  // 0: the smallest version that holds the link
    code.addData(url, "Byte");
    try { code.make(); } catch (_) { say(root, TEXT.qrTooLong); return; }
    svg = code.createSvgTag({ cellSize: 1, margin: 4, scalable: true });
  } catch (_) {
    say(root, TEXT.qrMissing);
    return;
  }

  const dialog = document.createElement("dialog");
  dialog.className = "pl-qr";
  const title = document.createElement("h2");
  title.className = "pl-qr-title";
  title.id = `pl-qr-title-${root.dataset.experiment}`;
  title.textContent = TEXT.qrTitle;
  dialog.setAttribute("aria-labelledby", title.id);
  const code = document.createElement("div");
  code.className = "pl-qr-code";
  code.setAttribute("role", "img");
  code.setAttribute("aria-label", `QR-Code des Links ${url}`);
  code.innerHTML = svg;
  code.firstElementChild.setAttribute("aria-hidden", "true");
  const address = document.createElement("p");
  address.className = "pl-qr-url";
  address.textContent = url;
  dialog.append(title, code, address);
  if (LOCAL_HOST.test(location.hostname)) {
    const hint = document.createElement("p");
    hint.className = "pl-qr-hint";
    hint.textContent = TEXT.localHint(location.host);
    dialog.append(hint);
  }
  const form = document.createElement("form");
  form.method = "dialog";
  const close = document.createElement("button");
  close.className = "md-button md-button--primary";
  close.textContent = TEXT.close;
  form.append(close);
  dialog.append(form);
  // A click on the dark backdrop closes it too (the dialog box itself is not the backdrop).
  dialog.addEventListener("click", (e) => {
    const r = dialog.getBoundingClientRect();
    const outside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
    if (e.target === dialog && outside) dialog.close();
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    button.focus();
  });
  root.append(dialog);
  dialog.showModal();
  close.focus();
}

// ---- A/B-Vergleich ------------------------------------------------------------------------

function toggleComparison(root) {
  if (shares.get(root).b) closeComparison(root);
  else {
    openComparison(root, { copy: true });
    say(root, TEXT.abOpened, false);
  }
}

function openComparison(root, { copy }) {
  if (copy) {  // B starts as a copy of what A shows now: A's query values under B's prefix
    const query = currentQuery();
    for (const name of paramNames(root)) {
      query.delete(B_PREFIX + name);
      if (query.has(name)) query.set(B_PREFIX + name, query.get(name));
    }
    query.set(AB_KEY, root.dataset.experiment);
    replaceQuery(query);
  }
  const focused = document.activeElement;
  const b = secondCopy(root);
  const wrapper = document.createElement("div");
  wrapper.className = "pl-ab";
  wrapper.setAttribute("role", "group");
  wrapper.setAttribute("aria-label", "A/B-Vergleich");
  const sideA = side("A"), sideB = side("B");
  root.before(wrapper);
  sideA.append(root);  // moving A keeps its listeners and state; only focus is lost
  sideB.append(b);
  wrapper.append(sideA, sideB);
  root.setAttribute("aria-label", `${shares.get(root).label} – Einstellung A`);
  shares.get(root).b = { wrapper, b };
  pressed(root, true);
  b.addEventListener("pl:rendered", () => {
    if (!b.isConnected) dropB(root);  // a render that was already under way when B closed
    else refreshField(root);
  });
  if (focused && root.contains(focused)) focused.focus({ preventScroll: true });
  mountAll();
}

function side(letter) {
  const div = document.createElement("div");
  div.className = `pl-ab-side pl-ab-${letter.toLowerCase()}`;
  const tag = document.createElement("p");
  tag.className = "pl-ab-tag";
  tag.setAttribute("aria-hidden", "true");  // the experiments' own labels say A and B
  tag.textContent = letter;
  div.append(tag);
  return div;
}

function secondCopy(root) {
  const b = root.cloneNode(true);
  b.dataset.urlPrefix = B_PREFIX;
  b.dataset.state = "loading";
  b.removeAttribute("aria-busy");
  b.setAttribute("aria-label", `${shares.get(root).label} – Einstellung B`);
  b.querySelectorAll(".pl-share-field, dialog").forEach((el) => el.remove());
  // Ids and radio groups must not be shared with A (a radio name is one group per page).
  const ids = new Map();
  b.querySelectorAll("[id]").forEach((el) => {
    if (el.closest(".pl-figure, .pl-extra")) return;  // the figures are Python's, redrawn at once
    ids.set(el.id, "b-" + el.id);
    el.id = "b-" + el.id;
  });
  for (const attr of ["for", "aria-labelledby", "aria-describedby", "aria-controls"]) {
    b.querySelectorAll(`[${attr}]`).forEach((el) => {
      el.setAttribute(attr, el.getAttribute(attr).split(/\s+/).map((t) => ids.get(t) || t).join(" "));
    });
  }
  b.querySelectorAll('input[type="radio"][name]').forEach((el) => { el.name = "b-" + el.name; });
  // B's toolbar only closes the comparison: link and QR code already carry both sides.
  const bar = b.querySelector(".pl-toolbar");
  const close = document.createElement("button");
  close.type = "button";
  close.className = "pl-tool md-button";
  close.textContent = TEXT.abClose;
  close.addEventListener("click", () => closeComparison(root));
  bar.setAttribute("aria-label", "Werkzeuge für B");
  bar.replaceChildren(close);
  return b;
}

function closeComparison(root) {
  const { wrapper } = shares.get(root).b;
  shares.get(root).b = null;
  dropB(root);
  wrapper.before(root);
  wrapper.remove();
  root.setAttribute("aria-label", shares.get(root).label);
  pressed(root, false);
  shares.get(root).bar.querySelector('[data-share="ab"]').focus({ preventScroll: true });
  refreshField(root);
  say(root, TEXT.abClosed, false);
}

function dropB(root) {
  if (shares.get(root).b) return;
  const query = currentQuery();
  for (const name of paramNames(root)) query.delete(B_PREFIX + name);
  query.delete(AB_KEY);
  replaceQuery(query);
}

function pressed(root, on) {
  const button = shares.get(root).bar.querySelector('[data-share="ab"]');
  if (button) button.setAttribute("aria-pressed", String(on));
}

// ---- start ---------------------------------------------------------------------------------

// After experiment/mount.js, on every page change of the theme (static/js/main.js).
export { setup as onPage };
