// make lint: the browser side (static/js), the service worker template and the Node build tools.
// eslint's recommended rules; each file's environment decides its globals.
import js from "@eslint/js";
import globals from "globals";

// static/js files that are ES modules though they end in .js (loaded with type="module" or as a module worker)
const JS_MODULES = ["static/js/python-worker.js", "static/js/workshop-editor.js"];

export default [
  // built or vendored, not ours
  { ignores: ["site/**", "static/vendor/**", "dist/**", "out/**", ".venv*/**", ".cache/**"] },
  js.configs.recommended,
  {
    rules: {
      // `catch (_)` and `(_, i) =>` say on purpose that a value is not needed
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["static/js/**/*.js"],
    ignores: JS_MODULES,
    // fmt.js and trace-check.js also load in Node for their tests (`module.exports` when there is one)
    languageOptions: { sourceType: "script", globals: { ...globals.browser, module: "readonly" } },
  },
  {
    files: ["static/js/**/*.mjs", ...JS_MODULES],
    languageOptions: { sourceType: "module", globals: { ...globals.browser, ...globals.worker } },
  },
  {
    files: ["mkdocs_hooks/offline_sw.js"],
    // a template: mkdocs_hooks/offline.py writes these constants in front of it
    languageOptions: {
      sourceType: "script",
      globals: {
        ...globals.serviceworker,
        VERSION: "readonly", FILES: "readonly", BUILT_ROOT: "readonly", TYPES: "readonly", POLICY: "readonly",
      },
    },
  },
  {
    files: ["tools/**/*.mjs", "mkdocs_hooks/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
  {
    files: ["tests/js/**/*.cjs", "mkdocs_hooks/**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
];
