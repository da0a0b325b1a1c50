// make lint: the browser side (static/js), the service worker template and the Node build tools.
// eslint's recommended rules and a stricter set below; each file's environment decides its globals.
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
      // beyond recommended: what hides a bug (a shadowed or early-used name, == with coercion, a promise
      // executor's return, a thrown string) and what keeps the code one way (const, shorthand, no var)
      eqeqeq: ["error", "smart"],
      "no-shadow": "error",
      "no-use-before-define": ["error", { functions: false, classes: false, variables: false }],
      "no-var": "error",
      "prefer-const": "error",
      "object-shorthand": "error",
      "no-implicit-coercion": "error",
      "no-useless-concat": "error",
      "no-throw-literal": "error",
      "prefer-promise-reject-errors": "error",
      "no-promise-executor-return": "error",
      "array-callback-return": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constructor-return": "error",
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-unused-expressions": "error",
      "no-useless-return": "error",
      "no-lonely-if": "error",
      "no-else-return": "error",
      "no-return-assign": "error",
      "no-sequences": "error",
      "default-param-last": "error",
      radix: "error",
      "dot-notation": "error",
      curly: ["error", "multi-line"],
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
