// A figure Python drew anew, put in place of the one on screen by changing only what differs.
//
// Python answers every drag move and slider step with the whole figure's markup. Replacing it with
// innerHTML made the browser build, style and lay out every element again, each label's text shaped
// anew (on the overfitting page's drag, layout took about twice as long a move as with this). Between two moves most of a figure is
// the same (axes, ticks, legend); only a curve's points and a dot's position change. So the new markup
// is parsed aside, and where an element has the same kind of children in the same order as before,
// the nodes on screen stay and take the new attributes and texts; elsewhere the new element replaces
// the old one whole, as innerHTML would. The result is the same markup either way; a focused handle
// keeps its focus when it stays.
//
// Whole, not child by child: pass-at-k's grid going from 1 to 20 tries put 125 new children into the
// SVG one by one, several times slower than the new SVG as one node, as with innerHTML (slider jumps
// timed in the page). Every observer of added nodes pays per node as well.
import { fragment } from "../trusted.js";

// They hold state outside their attributes (a typed value, an open <details>, a playing video):
// always new ones, as innerHTML gives.
const FRESH = new Set(["INPUT", "TEXTAREA", "SELECT", "OPTION", "DETAILS", "DIALOG", "IFRAME", "VIDEO", "AUDIO", "CANVAS"]);

function alike(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && a.namespaceURI === b.namespaceURI
    && !(a.nodeType === 1 && FRESH.has(a.nodeName.toUpperCase()));
}

// Same names in the same order: then the node's markup reads as the new one's once the values are copied.
// Names and values are read as strings: el.attributes made an Attr object for each attribute of the
// figure at every step.
function sameNames(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// `el` takes `next`'s attributes (already copied) and children; the container is the page's own
// element and is never replaced itself.
function children(el, next, container = false) {
  const old = el.childNodes, fresh = [...next.childNodes];
  if (old.length !== fresh.length || fresh.some((node, i) => !alike(old[i], node))) {
    if (container) el.replaceChildren(...fresh);
    else el.replaceWith(next);
    return;
  }
  fresh.forEach((node, i) => {
    const here = old[i];
    if (node.nodeType !== 1) {
      if (here.nodeValue !== node.nodeValue) here.nodeValue = node.nodeValue;
    } else {
      const names = node.getAttributeNames();
      if (!sameNames(here.getAttributeNames(), names)) here.replaceWith(node);
      else {
        for (const name of names) {
          const value = node.getAttribute(name);
          if (here.getAttribute(name) !== value) here.setAttribute(name, value);
        }
        children(here, node);
      }
    }
  });
}

// The container's content becomes `html`, parsed and cleaned by the Trusted Types gate.
export function morph(container, html) {
  children(container, fragment(html), true);
}
