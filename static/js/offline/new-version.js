// A new version of the site: taken at the next page change, never in the middle of one. Instant
// navigation would keep this page's scripts and only swap the content: for a new version the next page
// change is a full load instead.
import { BASE as base } from "../site.js";

let pending = false;
let registrationNow = () => null;  // the service worker's registration as offline.js holds it now

// current: the registration whose waiting version is to be activated, asked at the page change
export function announceSwitch(current) {
  pending = true;
  registrationNow = current;
}

export function switchPending() {
  return pending;
}

function activateThenOpen(href) {
  const registration = registrationNow();
  const waiting = registration && registration.waiting;
  if (!waiting) return location.assign(href);
  let gone = false;
  const go = () => { if (!gone) { gone = true; location.assign(href); } };
  navigator.serviceWorker.addEventListener("controllerchange", go, { once: true });
  setTimeout(go, 3000);
  waiting.postMessage({ type: "activate" });
}

// capture phase: before mkdocs-material sees the click
window.addEventListener("click", (event) => {
  if (!switchPending() || event.defaultPrevented || event.button !== 0 ||
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
  if (switchPending()) activateThenOpen(location.href);
});
