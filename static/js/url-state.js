// The page's address is the state a reader shares: one set of rules for every feature that keeps
// something there. A state is a set of names under a prefix:
//   ""       an experiment's parameters (data-param), degree=5
//   "b."     the A/B comparison's second copy (static/js/classroom/share.js), b.degree=9
//   "lauf."  the reader's own engine run (static/js/live/live.js), lauf.steps=12
//   "m."     „Am echten Modell“: the prompt and how far it went (static/js/realmodel/decoding.js), m.steps=3
// An old link may carry a parameter's former name (Param.alias, data-aliases on the experiment):
// rename() moves it to the new one, and the new name wins over a stale old one, as in api.checked.
// Every write replaces the history entry (a slider must not fill the back button) and keeps the hash.
// A slider changes the state at every move or key step: its address is held back (hold) and written
// once the slider is let go (release: experiment/mount.js), so that the steps do not each pay for a
// history entry before the browser can draw; reading the state here already sees it, and leaving,
// hiding the page or clicking anything writes it at once, so the address is right whenever the
// reader could copy it.
export const EXPERIMENT = "";
export const AB_SIDE = "b.";
export const OWN_RUN = "lauf.";
export const REAL_MODEL = "m.";
// ab=<slug>: which experiment the A/B comparison shows (share.js), so one link restores both sides
export const AB_KEY = "ab";

let held = null;  // {address, path} of a slider still held, not yet written
let idle = 0;
// A slider whose change never comes (an input event sent by a script) is written after a pause.
const IDLE_MS = 500;

// The address the state is at: the one held back, if any.
export const href = () => (held ? new URL(held.address, location.href).href : location.href);
export const query = () => new URLSearchParams(held ? new URL(held.address, location.href).search : location.search);

// The address with `q` as its query; `q` is a URLSearchParams.
export function addressWith(q) {
  const text = q.toString();
  return location.pathname + (text ? "?" + text : "") + location.hash;
}

export function commit(address) {
  held = null;
  clearTimeout(idle);
  if (address !== location.pathname + location.search + location.hash) history.replaceState(history.state, "", address);
}

export function hold(address) {
  held = { address, path: location.pathname };
  clearTimeout(idle);
  idle = setTimeout(release, IDLE_MS);
}

// The held address written; dropped if the theme's instant navigation has left its page meanwhile.
export function release() {
  if (!held) return;
  if (held.path === location.pathname) commit(held.address);
  else held = null;
}

addEventListener("pagehide", release);
addEventListener("visibilitychange", release);
addEventListener("click", release, true);  // a link, the share button: before anyone reads the address

export const replaceQuery = (q) => commit(addressWith(q));

// {name: raw text} of the `names` the address holds under `prefix`.
export function read(prefix, names) {
  const q = query(), raw = {};
  for (const name of names) if (q.has(prefix + name)) raw[name] = q.get(prefix + name);
  return raw;
}

// The address with every one of `names` under `prefix` dropped and `values` ({name: text}) set.
export function addressFor(prefix, names, values) {
  const q = query();
  for (const name of names) q.delete(prefix + name);
  for (const [name, value] of Object.entries(values)) q.set(prefix + name, value);
  return addressWith(q);
}

export const write = (prefix, names, values) => commit(addressFor(prefix, names, values));

// An experiment keeps its state under the prefix its markup declares (data-url-prefix: classroom/share.js's
// copy B); the page's own experiment has none.
export const prefixOf = (root) => root.dataset.urlPrefix || EXPERIMENT;

// The page's own experiments (or the one of `slug`): those without a prefix, not a comparison copy.
const OWN = ".pl-experiment[data-experiment]:not([data-url-prefix])";
export const ownExperiments = () => [...document.querySelectorAll(OWN)];
export const ownExperiment = (slug) =>
  document.querySelector(slug ? `${OWN}[data-experiment="${CSS.escape(slug)}"]` : OWN);

// Former names ({old: new}) under `prefix` become the new ones.
export function rename(prefix, aliases) {
  const q = query();
  let changed = false;
  for (const [old, name] of Object.entries(aliases)) {
    if (!q.has(prefix + old)) continue;
    if (!q.has(prefix + name)) q.set(prefix + name, q.get(prefix + old));
    q.delete(prefix + old);
    changed = true;
  }
  if (changed) replaceQuery(q);
}

// An experiment's old names. Called for the page's experiments before the theme's bundle reads the
// address (links to metr-horizon may name its threshold q, which the theme reads as a search;
// static/js/main.js runs first), and for every experiment mounted later.
export function renameOld(root) {
  if (root.dataset.aliases) rename(prefixOf(root), JSON.parse(root.dataset.aliases));
}
