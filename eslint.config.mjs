import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "out/**", ".vscode-test/**", "bench/results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-undef": "off",
    },
  },
  {
    files: ["agent-server/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "vscode", message: "agent-server must not depend on VS Code." }] }],
    },
  },
  {
    files: ["extension/webview/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "vscode", message: "the webview runs in a browser." }, ...nodeBuiltins.map((name) => ({ name, message: "the webview runs in a browser: no Node built-ins." }))],
        },
      ],
    },
  },
  {
    files: ["extension/**/*.ts"],
    ignores: ["extension/webview/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/agent-server/**"], message: "extension and agent-server share no code: ACP is their contract." }] },
      ],
    },
  },
);
