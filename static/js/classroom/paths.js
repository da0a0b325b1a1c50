// Learning paths (concepts/graph.py's PATHS, in every page's head as JSON: overrides/main.html). A reader
// who opens a step from the start page follows that path in this tab (sessionStorage): each of its pages
// says „Lernpfad ‚…‘, Schritt 3 von 6“ with the path's previous and next page, and the footer's
// „Zurück“/„Weiter“ lead along the path instead of the menu (after KV-Cache the menu goes on to
// FlashAttention, the path „Wie ein Sprachmodell antwortet“ to Greedy Decoding). The start page marks
// the steps this browser has opened (localStorage); nothing leaves the device.
const FOLLOWING = "probierlabor.lernpfad";  // sessionStorage: the title of the path followed in this tab
const VISITED = "probierlabor.lernpfad.besucht";  // localStorage: the steps' pages opened in this browser
import { BASE as SITE } from "../site.js";

const BASE = new URL(SITE);

const read = (store, key) => { try { return store.getItem(key); } catch (_) { return null; } };
const write = (store, key, value) => {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch (_) { /* storage blocked: the path lasts as long as this page */ }
};

function paths() {
  const data = document.querySelector('meta[name="probierlabor-paths"]');
  try { return data ? JSON.parse(data.content) : []; } catch (_) { return []; }
}

const pageUrl = (slug) => new URL(`${slug}/`, BASE).href;

function slugHere() {
  const path = decodeURIComponent(location.pathname);
  const root = decodeURIComponent(BASE.pathname);
  return path.startsWith(root) ? path.slice(root.length).split("/")[0] : "";
}

function visited() {
  try {
    const list = JSON.parse(read(localStorage, VISITED) || "[]");
    return Array.isArray(list) ? list : [];
  } catch (_) { return []; }
}

// ---- a page of the path followed ------------------------------------------------------------

function showStep(path, index) {
  const article = document.querySelector(".md-content__inner");
  if (!article) return;
  const bar = document.createElement("nav");
  bar.className = "pl-path-bar";
  bar.setAttribute("aria-label", "Lernpfad");
  const where = document.createElement("p");
  where.className = "pl-path-where";
  where.textContent = `Lernpfad ‚${path.title}‘, Schritt ${index + 1} von ${path.steps.length}`;
  const links = document.createElement("p");
  links.className = "pl-path-links";
  const link = (href, text, rel) => {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    if (rel) a.rel = rel;
    return a;
  };
  const before = path.steps[index - 1], after = path.steps[index + 1];
  if (before) links.append(link(pageUrl(before.slug), `← ${before.title}`, "prev"));
  links.append(after ? link(pageUrl(after.slug), `${after.title} →`, "next")
    : link(BASE.href, "Letzter Schritt – zurück zur Startseite"));
  const leave = document.createElement("button");
  leave.type = "button";
  leave.className = "pl-path-leave";
  leave.textContent = "Pfad verlassen";
  links.append(leave);
  bar.append(where, links);
  article.prepend(bar);

  // after the last step the footer, like the bar, leads back to the start page, not on to the menu's next page
  const footer = [
    along(".md-footer__link--prev", before && { href: pageUrl(before.slug), title: before.title }, "Zurück"),
    along(".md-footer__link--next", after ? { href: pageUrl(after.slug), title: after.title }
      : { href: BASE.href, title: "Startseite (Ende des Lernpfads)" }, "Weiter"),
  ];
  leave.addEventListener("click", () => {
    write(sessionStorage, FOLLOWING, null);
    footer.forEach((restore) => restore());
    bar.remove();
    const heading = document.querySelector(".md-content h1");  // the button pressed is gone: focus goes to the page
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  });
}

// The footer's link in one direction leads to `target` ({href, title}: the path's neighbour, where there is
// one); returns what puts the menu's link back.
function along(selector, target, direction) {
  const a = document.querySelector(selector);
  if (!a || !target) return () => {};
  const title = a.querySelector(".md-ellipsis");
  const menu = { href: a.getAttribute("href"), label: a.getAttribute("aria-label"), title: title.textContent };
  a.href = target.href;
  a.setAttribute("aria-label", `${direction} im Lernpfad: ${target.title}`);
  title.textContent = target.title;
  return () => {
    a.setAttribute("href", menu.href);
    a.setAttribute("aria-label", menu.label);
    title.textContent = menu.title;
  };
}

// ---- the start page: which steps were opened ------------------------------------------------

function showProgress(all) {
  const seen = new Set(visited());
  let any = false;
  document.querySelectorAll(".pl-path[data-path]").forEach((section) => {
    const path = all.find((p) => p.title === section.dataset.path);
    if (!path) return;
    section.querySelectorAll("li[data-step]").forEach((li) => {
      const done = seen.has(li.dataset.step);
      li.classList.toggle("pl-step-done", done);
      let mark = li.querySelector(".pl-step-mark");
      if (done && !mark) {
        mark = document.createElement("span");
        mark.className = "pl-step-mark";
        mark.textContent = " ✓ besucht";
        li.append(mark);
      } else if (!done && mark) mark.remove();
    });
    const count = path.steps.filter((s) => seen.has(s.slug)).length;
    const next = path.steps.find((s) => !seen.has(s.slug));
    const line = section.querySelector(".pl-path-progress");
    line.replaceChildren(count ? `${count} von ${path.steps.length} Schritten besucht. ` : "");
    if (count && next) {
      const a = document.createElement("a");
      a.href = pageUrl(next.slug);
      a.dataset.path = path.title;
      a.textContent = `Weiter mit: ${next.title}`;
      line.append(a);
    }
    line.hidden = !count;
    any = any || count > 0;
  });
  const reset = document.querySelector(".pl-paths-reset");
  if (reset) reset.hidden = !any;
}

// ---- wiring ---------------------------------------------------------------------------------

function onPage() {
  const all = paths();
  const slug = slugHere();
  if (all.some((p) => p.steps.some((s) => s.slug === slug))) {
    const list = visited();
    if (!list.includes(slug)) write(localStorage, VISITED, JSON.stringify([...list, slug]));
  }
  if (document.querySelector(".pl-paths")) showProgress(all);
  const path = all.find((p) => p.title === read(sessionStorage, FOLLOWING));
  const index = path ? path.steps.findIndex((s) => s.slug === slug) : -1;
  if (index >= 0) showStep(path, index);
}

// a step opened from the start page starts following its path (capture: before the theme's navigation)
document.addEventListener("click", (event) => {
  const a = event.target instanceof Element && event.target.closest("a[data-path]");
  if (a) write(sessionStorage, FOLLOWING, a.dataset.path);
  else if (event.target instanceof Element && event.target.closest(".pl-paths-reset button")) {
    write(localStorage, VISITED, null);
    showProgress(paths());
  }
}, true);

export { onPage };
