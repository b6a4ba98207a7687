import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Tests share one process per file and the environment is global: a test passes an `env` to the code
// under test, or spawns a child with its own, and never changes `process.env` itself.
const processEnv = "[object.name='process'][property.name='env']";
const ENV_MESSAGE = "Tests must not change process.env: pass an explicit env to the code under test, or spawn a child with its own.";
const noEnvMutation = [
  { selector: `AssignmentExpression > MemberExpression.left > MemberExpression.object${processEnv}`, message: ENV_MESSAGE },
  { selector: `AssignmentExpression > MemberExpression.left${processEnv}`, message: ENV_MESSAGE },
  { selector: `UnaryExpression[operator='delete'] > MemberExpression.argument > MemberExpression.object${processEnv}`, message: ENV_MESSAGE },
  { selector: `UpdateExpression > MemberExpression.argument > MemberExpression.object${processEnv}`, message: ENV_MESSAGE },
  {
    selector: `CallExpression[callee.object.name=/^(Object|Reflect)$/][callee.property.name=/^(assign|defineProperty|defineProperties|set|deleteProperty)$/] > MemberExpression.arguments:first-child${processEnv}`,
    message: ENV_MESSAGE,
  },
];

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
    files: ["test/**/*.{ts,tsx,mjs}"],
    rules: { "no-restricted-syntax": ["error", ...noEnvMutation] },
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
