// The front end's lint: eslint's recommended rules, ES2020 without `var`, and one global of our own.
import js from "@eslint/js";
import globals from "globals";

export default [
  {ignores: ["node_modules/"]},
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "module",
      globals: {...globals.browser, Rulesc: "writable", RulesRuntime: "readonly", RulesSystems: "readonly",
        document$: "readonly"},
    },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "eqeqeq": "error",
      "no-unused-vars": ["error", {caughtErrors: "none"}],
      /* one namespace global (window.Rulesc), and nothing written onto the runtime or the compiled systems */
      "no-restricted-syntax": ["error",
        {selector: "AssignmentExpression > MemberExpression.left[object.name=/^(globalThis|window|self)$/][property.name!='Rulesc']",
          message: "rulesc's scripts share one global: window.Rulesc."},
        {selector: "AssignmentExpression > MemberExpression.left[object.name='R']",
          message: "Nothing is written onto the runtime."}],
    },
  },
  {
    files: ["test/**/*.js", "eslint.config.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node}},
  },
];
