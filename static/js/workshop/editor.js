// The code editor of „Im Code nachrechnen“: CodeMirror 6 with Python highlighting, vendored from its own
// npm packages into one module (tools/codemirror.mjs; tests/browser/test_workshop_ui.py opens the editor).
// Loaded by static/js/workshop/workshop.js only when a reader opens the section.
import { EditorView, HighlightStyle, basicSetup, python, syntaxHighlighting, tags } from "../../vendor/codemirror/codemirror.js";

// CodeMirror's default colours fail WCAG contrast on the site's code background (and are unreadable on
// the dark scheme): the tokens take the site's palette (static/css/probierlabor.css), tuned for both schemes.
const colours = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.operatorKeyword], color: "var(--pl-purple)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--pl-green)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--pl-blue)" },
  { tag: [tags.comment, tags.lineComment], color: "var(--pl-muted)", fontStyle: "italic" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: "var(--pl-accent-text)" },
  { tag: tags.invalid, color: "var(--pl-accent-text)", textDecoration: "underline wavy" },
]);

const look = EditorView.theme({
  "&": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)", maxHeight: "32rem" },
  "&.cm-focused": { outline: "2px solid var(--md-accent-fg-color)" },
  ".cm-scroller": { fontFamily: "var(--md-code-font-family, monospace), monospace" },
  ".cm-content": { caretColor: "var(--md-default-fg-color)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--md-default-fg-color)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground":
    { backgroundColor: "color-mix(in srgb, var(--md-accent-fg-color) 30%, transparent)" },
  ".cm-activeLine, .cm-activeLineGutter": { backgroundColor: "color-mix(in srgb, var(--md-default-fg-color) 5%, transparent)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "color-mix(in srgb, var(--pl-green) 25%, transparent)" },
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", color: "var(--pl-muted)", borderRight: "1px solid var(--md-default-fg-color--lightest)" },
});

// The editor lives in a shadow root. CodeMirror's style module then uses constructable stylesheets,
// which the site's Content-Security-Policy allows; in the document itself it would add <style>
// elements, which the policy refuses (style-src 'self'). The site's custom properties (colours, code
// font, the presentation mode's font size) are inherited into the shadow root.
export function createEditor(parent, text, onChange) {
  const root = parent.shadowRoot || parent.attachShadow({ mode: "open" });
  return new EditorView({
    doc: text,
    parent: root,
    root,
    extensions: [
      basicSetup,
      python(),
      syntaxHighlighting(colours),
      look,
      // tabindex: axe (and Safari) count only focusable elements as a way to scroll the region
      EditorView.contentAttributes.of({ "aria-label": "Python-Code zum Bearbeiten", tabindex: "0" }),
      EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
    ],
  });
}

export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
