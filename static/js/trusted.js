// Trusted Types: every string the page turns into markup, script or a script's address passes this one
// gate, the theme's and Pyodide's as well as ours. The policy (mkdocs_hooks/csp.py) says
// require-trusted-types-for 'script', so a plain string at such a sink goes through the "default" policy
// below, and no other policy can be made: the two names are taken here. This is the first module of
// the page (overrides/main.html: modules and deferred scripts run in document order once the page is
// parsed), so the gate stands before static/js/main.js or the theme's bundle writes markup; the
// page's inline scripts run earlier, while it is parsed, and write to no such sink. It imports nothing,
// so no other file that fails to load can keep it from running; modules that use fragment() import it
// (the same module, run once).
// Our own writes escape what they insert (esc() in each file); the gate is there for the one that
// forgets: markup that would run code loses the parts that would run it, and a script runs only if
// it came with the page.
//
// Hand-written, not DOMPurify: it runs on every redrawn figure, where the slider's budget is a frame,
// and it must keep all of a figure (SVG, KaTeX, data- and aria- attributes) while DOMPurify's profiles
// drop parts of it; and it would be one more file every page loads before Python starts.
// tests/browser/test_trusted_types.py holds it against DOMPurify (npm, for the test only): on a list of
// attacks neither lets code through, and on the site's own figures ours changes nothing.
// Without Trusted Types (older Firefox and Safari) the CSP stands alone.
const types = window.trustedTypes && window.trustedTypes.createPolicy ? window.trustedTypes : null;

// Kept even though they are scripts: the runnable script types, judged by address or text below.
const RUNS = ["", "text/javascript", "application/javascript", "module"];
// Elements that load or run something whatever their attributes say.
// noscript: parsed as elements where scripting is off (an inert template) but as text in the page,
// so markup hidden in its attributes would come alive when the cleaned text is parsed there again.
const NEVER = "iframe,frame,frameset,object,embed,base,portal,noscript,meta[http-equiv=refresh i]";
// Attributes that take an address; one that would run a scheme instead of fetching is dropped.
const ADDRESS = new Set(["href", "src", "xlink:href", "action", "formaction", "data", "poster", "background"]);

const here = window.location.origin;
// Inline scripts of the page as it came from the server (a module runs once it is parsed): each already
// passed the policy's hash check. mkdocs-material runs the ones of a page it navigates to again by
// setting their text; the same texts (its colour and tab scripts) come with every page, so these are
// the only ones allowed.
const pageScripts = new Set([...document.querySelectorAll("script:not([src])")]
  .filter((s) => RUNS.includes(s.type.toLowerCase())).map((s) => s.textContent));
function ownScript(text) {
  return pageScripts.has(text);
}
function ownAddress(url) {
  try { return new URL(url, document.baseURI).origin === here; } catch (_) { return false; }
}
// Whether following `url` would run code instead of fetching something. Read by the browser's own URL
// parser, which drops the blanks, tabs and control characters an attack hides the scheme behind.
function runsCode(url) {
  let parsed;
  try { parsed = new URL(url, document.baseURI); } catch (_) { return false; }  // goes nowhere
  return parsed.protocol === "javascript:" || parsed.protocol === "vbscript:" ||
    (parsed.protocol === "data:" && /^data:text\/html/i.test(parsed.href));
}

// Takes the parts that would run code out of a parsed, still inert tree (a template's content or a
// DOMParser document: neither runs scripts, loads images nor fires handlers).
function clean(tree) {
  tree.querySelectorAll(NEVER).forEach((el) => el.remove());
  const all = tree.querySelectorAll("*");
  for (let i = 0; i < all.length; i++) {
    const el = all[i], name = el.localName;
    if (name === "script") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (!RUNS.includes(type)) continue;  // data, such as the theme's JSON configuration
      const src = el.getAttribute("src");
      if (src === null ? !ownScript(el.textContent) : !ownAddress(src)) { el.remove(); continue; }
    }
    if ((name === "animate" || name === "set") && /href$/i.test(el.getAttribute("attributeName") || "")) {
      el.remove();  // SVG animation that would turn a link into javascript: after the check
      continue;
    }
    // By name, not el.attributes: that made an Attr object for every attribute of a figure, most of the
    // time this gate took on a slider step.
    const names = el.getAttributeNames();
    for (let k = 0; k < names.length; k++) {
      const key = names[k].toLowerCase();
      if (key.startsWith("on") || key === "srcdoc" || (ADDRESS.has(key) && runsCode(el.getAttribute(names[k])))) {
        el.removeAttribute(names[k]);
      }
    }
  }
  return tree;
}

// Parsing itself is a sink: this policy only hands a string to a parser whose tree clean() sees
// before anything else does. It never leaves this file.
const parse = types && types.createPolicy("probierlabor-parse", { createHTML: (s) => s });
const parser = new DOMParser();

// Markup as a cleaned fragment, for code that puts nodes in place itself (static/js/experiment/morph.js):
// one parse instead of the default policy's clean-and-serialize and the sink's second parse. Without
// Trusted Types nothing is cleaned anywhere, so neither is this: the browser's parse, as innerHTML's.
export function fragment(html) {
  const content = template(html).content;
  return parse ? clean(content) : content;
}

// A template parsed from `html`: its content is inert until something moves it into the page.
function template(html) {
  const t = document.createElement("template");
  t.innerHTML = parse ? parse.createHTML(String(html)) : String(html);
  return t;
}

// Markup parsed, cleaned (if `cleaned`) and written out again, for the sink to parse once more.
function rewrite(html, whole, cleaned) {
  const tidy = cleaned ? clean : (tree) => tree;
  if (!whole) {
    const t = template(html);
    tidy(t.content);
    return t.innerHTML;
  }
  // a whole page the theme fetched for instant navigation, or its sitemap (XML)
  if (/^\s*<\?xml/.test(html)) {
    return new XMLSerializer().serializeToString(tidy(parser.parseFromString(parse.createHTML(html), "application/xml")));
  }
  const doc = tidy(parser.parseFromString(parse.createHTML(html), "text/html"));
  return (doc.doctype ? "<!DOCTYPE html>" : "") + doc.documentElement.outerHTML;
}

function cleanHTML(html, sink) {
  html = String(html);
  if (html.indexOf("<") < 0 && html.indexOf("&") < 0) return html;  // plain text: nothing to run
  const whole = /^DOMParser/.test(sink || "");
  const once = rewrite(html, whole, true);
  // Written-out markup that parses into another tree (nested forms, foreign content: the known
  // "mutation" attacks on sanitizers) could hide code from the check it just passed. Markup that
  // comes out of a second parse as it went in is the tree that was checked; other markup is dropped.
  if (rewrite(once, whole, false) !== once) return "";
  return once;
}

if (types) {
  types.createPolicy("default", {
    createHTML: cleanHTML,
    createScript: (text) => (ownScript(String(text)) ? String(text) : null),
    createScriptURL: (url) => (ownAddress(String(url)) ? String(url) : null),
  });
}
