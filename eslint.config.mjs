// make lint: the browser side (static/js), the service worker template and the Node build tools.
// eslint's recommended rules; each file's environment decides its globals.
import js from "@eslint/js";
import globals from "globals";

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
    // the browser side is ES modules (static/js/main.js imports them); the Python worker is a module worker
    files: ["static/js/**/*.js", "static/js/**/*.mjs"],
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
