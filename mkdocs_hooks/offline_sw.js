// Probierlabor's service worker. mkdocs_hooks/offline.py writes it to the site root as sw.js and puts
// VERSION (a hash of every built file), FILES ([path, bytes, sha256 prefix] for every file of the
// built site), BUILT_ROOT, POLICY (the site's Content-Security-Policy) and TYPES (the content type
// of each file-name ending), the last two as tools/serve.py sends them, in front of this text.
//
// All addresses are resolved against the registration scope, so the same file works on any host, port
// or sub-folder. Each version has its own cache: a new version installs next to the old one (copying
// every file whose hash did not change), and the old cache is deleted only when the new version
// activates, so a page in use keeps the files it started with.
"use strict";

const SCOPE = self.registration.scope;
// Two Probierlabor copies in different folders of one server must not delete each other's caches.
const PREFIX = "probierlabor " + new URL(SCOPE).pathname + " ";
const CACHE = PREFIX + VERSION;
const HASH_HEADER = "x-probierlabor-sha256";
const PARALLEL = 6;

// "ewc/index.html" and "ewc/" are the same page; the folder form is the one links use.
function keyOf(address) {
  const url = new URL(address);
  url.search = "";
  url.hash = "";
  if (url.pathname.endsWith("/index.html")) url.pathname = url.pathname.slice(0, -"index.html".length);
  return url.href;
}

const ENTRIES = FILES.map(([path, size, hash]) => ({ path, size, hash, url: keyOf(new URL(path, SCOPE)) }));
const BY_URL = new Map(ENTRIES.map((entry) => [entry.url, entry]));
const TOTAL_BYTES = ENTRIES.reduce((sum, entry) => sum + entry.size, 0);

// ---- filling the cache ---------------------------------------------------------------

let filling = null;  // one fill at a time: the install, or a refill asked for by „Alles vorladen“

function fill() {
  if (!filling) filling = fillNow().finally(() => { filling = null; });
  return filling;
}

async function fillNow() {
  const cache = await caches.open(CACHE);
  const present = new Set((await cache.keys()).map((request) => request.url));
  const missing = ENTRIES.filter((entry) => !present.has(entry.url));
  const progress = {
    done: ENTRIES.length - missing.length,
    doneBytes: TOTAL_BYTES - missing.reduce((sum, entry) => sum + entry.size, 0),
  };
  const older = [];
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== CACHE) older.push(await caches.open(name));
  }
  report(progress, true);

  // One bad file does not stop the others: a second try then needs only what failed.
  let failure = null;
  const queue = missing.slice();
  const worker = async () => {
    while (queue.length) {
      const entry = queue.shift();
      try {
        await store(cache, entry, older);
        progress.done += 1;
        progress.doneBytes += entry.size;
        report(progress, false);
      } catch (error) {
        failure = failure || error;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (failure) {
    await broadcast({ type: "error", version: VERSION, message: String(failure.message || failure) });
    throw failure;
  }
  report(progress, true);
}

async function store(cache, entry, older) {
  // The header only says which version stored a copy; the body is hashed as well, because any script
  // of the same origin can write into these caches, header included.
  for (const old of older) {
    const copy = await old.match(entry.url);
    if (copy && copy.headers.get(HASH_HEADER) === entry.hash && await holds(copy, entry)) return cache.put(entry.url, copy);
  }
  // The HTTP cache may still hold a file of an older deployment: then ask the server once more.
  const response = (await download(entry, "default")) || (await download(entry, "reload"));
  if (!response) throw new Error(`${entry.path} passt nicht zu dieser Version (Website auf dem Server unvollständig oder gemischt kopiert?)`);
  try {
    await cache.put(entry.url, response);
  } catch (error) {
    if (error && error.name === "QuotaExceededError") throw new Error("der Browser hat nicht genug Speicherplatz frei");
    throw error;
  }
}

async function download(entry, mode) {
  let response;
  try {
    response = await fetch(entry.url, { cache: mode, credentials: "same-origin" });
  } catch (_) {
    throw new Error(`keine Verbindung zum Server (${entry.path})`);
  }
  if (!response.ok) throw new Error(`${entry.path} fehlt auf dem Server (HTTP ${response.status})`);
  const body = await response.arrayBuffer();
  if (!(await hashOf(body)).startsWith(entry.hash)) return null;
  // No header of the server's is kept (answer() sets them): length and encoding headers describe the
  // transfer, not the stored body, and a fresh response is never marked as redirected (a redirected
  // response cannot answer a navigation).
  return new Response(body, { status: 200, statusText: "OK", headers: { [HASH_HEADER]: entry.hash } });
}

async function hashOf(body) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Whether a stored response has the body the build listed (the response itself stays unread).
async function holds(response, entry) {
  return (await hashOf(await response.clone().arrayBuffer())).startsWith(entry.hash);
}

let lastReport = 0;

function report(progress, force) {
  const now = Date.now();
  if (!force && now - lastReport < 150) return;
  lastReport = now;
  broadcast({ type: "progress", version: VERSION, ...status(progress) });
}

function status(progress) {
  return { version: VERSION, total: ENTRIES.length, totalBytes: TOTAL_BYTES, done: progress.done, doneBytes: progress.doneBytes };
}

async function broadcast(message) {
  // includeUncontrolled: during the first install no page is controlled yet, but it shows the progress.
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    client.postMessage(message);
  }
}

async function currentStatus() {
  const cache = await caches.open(CACHE);
  const present = new Set((await cache.keys()).map((request) => request.url));
  const have = ENTRIES.filter((entry) => present.has(entry.url));
  return { type: "status", ...status({ done: have.length, doneBytes: have.reduce((sum, entry) => sum + entry.size, 0) }) };
}

// ---- life cycle ------------------------------------------------------------------------

self.addEventListener("install", (event) => {
  // No skipWaiting here: a new version waits until the page asks for it at its next page change.
  event.waitUntil(fill());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    // The page of the very first visit becomes controlled too, so it can go offline without a reload.
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (left) return;
  const data = event.data || {};
  const reply = (message) => (event.ports[0] || event.source).postMessage(message);
  if (data.type === "status") event.waitUntil(currentStatus().then(reply));
  else if (data.type === "fill") event.waitUntil(fill().catch(() => {}));
  else if (data.type === "activate") self.skipWaiting();
});

// ---- answering requests: cache first, the network for everything else ----------------------

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (left || request.method !== "GET" || request.headers.has("range") || !request.url.startsWith(SCOPE)) return;
  const entry = BY_URL.get(keyOf(request.url));
  if (request.mode === "navigate") event.waitUntil(leaveIfGone());
  if (entry) event.respondWith(fromCache(entry, request));
  else if (request.mode === "navigate") event.respondWith(navigateElsewhere(request));
  // Anything else (a file this version does not have) goes to the network untouched, 404s included.
});

// The browser keeps a worker whose script now answers 404 (its update check just fails), and it would
// go on answering for another app started later on the same port. So each full page load asks for
// sw.js as well; a 404 ends this copy: its caches go, the registration goes, and the next load comes
// from the server. Offline (no answer at all) the copy of course stays.
let leaving = null;
let left = false;  // then nothing here opens a cache again (caches.open would make it anew)

function leaveIfGone() {
  if (!leaving) leaving = leaveNow().finally(() => { leaving = null; });
  return leaving;
}

async function leaveNow() {
  let response;
  try {
    response = await fetch(new URL("sw.js", SCOPE), { method: "HEAD", cache: "no-store" });
  } catch (_) {
    return;
  }
  if (response.status !== 404) return;
  left = true;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(PREFIX)).map((name) => caches.delete(name)));
  await self.registration.unregister();
}

async function fromCache(entry, request) {
  const hit = await checkedHit(entry);
  return hit ? answer(hit.body, entry, 200) : fetch(request);
}

// A stored copy's headers are never served: the hash covers the body only, and any script of this
// origin can store the right body as text/html. The headers come from the build: the type of the
// file's name, and the policy, without which a Web Worker (static/js/runtime/python-worker.js, which runs the
// reader's own code) could reach any other origin.
function answer(body, entry, code) {
  const ending = /\.[^./]*$/.exec(entry.path);
  const headers = {
    "content-type": TYPES[ending ? ending[0].toLowerCase() : ""],
    "x-content-type-options": "nosniff",
  };
  if (POLICY) headers["content-security-policy"] = POLICY;
  return new Response(body, { status: code, statusText: code === 200 ? "OK" : "Not Found", headers });
}

// Every hit is hashed before it is served: a file planted in this cache by another app of the same
// origin is dropped (the next „Alles vorladen“ fetches it again) instead of shown as part of the site.
async function checkedHit(entry) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(entry.url);
  if (!hit || await holds(hit, entry)) return hit;
  await cache.delete(entry.url);
  return undefined;
}

async function navigateElsewhere(request) {
  try {
    return await fetch(request);
  } catch (error) {
    // Offline: "…/ewc" means the folder "…/ewc/"; an unknown page gets the site's own 404 page.
    const url = new URL(request.url);
    const folder = new URL(url.pathname + "/", url);
    if (BY_URL.has(folder.href)) return Response.redirect(folder.href + url.search, 301);
    const notFound = BY_URL.get(keyOf(new URL("404.html", SCOPE).href));
    const missing = notFound && await checkedHit(notFound);
    if (missing) return answer(rooted(await missing.text()), notFound, 404);
    throw error;
  }
}

// MkDocs writes 404.html with links from site_url's path (a server shows it at any depth); a copy
// served from another folder (a school server's /probierlabor/) needs them to start at SCOPE instead.
function rooted(html) {
  const root = new URL(SCOPE).pathname;
  const built = BUILT_ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const attribute = new RegExp('(\\s(?:href|src)=")' + built + "(?!/)", "g");
  return html.replace(attribute, "$1" + root)
    .replace(`"base": ${JSON.stringify(BUILT_ROOT)}`, `"base": ${JSON.stringify(root)}`);
}
