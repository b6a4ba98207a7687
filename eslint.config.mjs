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
    // The Node security primitives both processes import: no VS Code, no ACP, nothing of either side.
    files: ["sandbox/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "vscode", message: "sandbox/ is Node-only: both the agent-server and the extension import it." }],
          patterns: [
            { group: ["@agentclientprotocol/*"], message: "sandbox/ knows nothing of ACP." },
            { group: ["**/agent-server/**", "**/extension/**"], message: "sandbox/ depends on neither side." },
          ],
        },
      ],
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
