// The code editor of „Im Code nachrechnen“: CodeMirror 6 with Python highlighting, as vendored
// inside @pyscript/core (static/vendor/pyscript; the file names carry the build's hashes, so a new
// PyScript version means new names here – tests/browser/test_workshop_ui.py opens the editor).
// Loaded by static/js/workshop.js only when a reader opens the section.
import { EditorView, basicSetup } from "../vendor/pyscript/codemirror-BL6UELQn.js";
import { python } from "../vendor/pyscript/codemirror_lang-python-B9xSeck3.js";

export function createEditor(parent, text, onChange) {
  return new EditorView({
    doc: text,
    parent,
    extensions: [
      basicSetup,
      python(),
      EditorView.contentAttributes.of({ "aria-label": "Python-Code zum Bearbeiten" }),
      EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
    ],
  });
}

export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
