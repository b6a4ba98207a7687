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
  {
    selector: `UnaryExpression[operator='delete'] > MemberExpression.argument > MemberExpression.object${processEnv}`,
    message: ENV_MESSAGE,
  },
  { selector: `UpdateExpression > MemberExpression.argument > MemberExpression.object${processEnv}`, message: ENV_MESSAGE },
  {
    selector: `CallExpression[callee.object.name=/^(Object|Reflect)$/][callee.property.name=/^(assign|defineProperty|defineProperties|set|deleteProperty)$/] > MemberExpression.arguments:first-child${processEnv}`,
    message: ENV_MESSAGE,
  },
];

const noAgentServer = { group: ["**/agent-server/**"], message: "extension and agent-server share no code: ACP is their contract." };
const vscodeOnlyInVscodeFolder = { name: "vscode", message: "only extension/vscode/ imports vscode." };
// A module of extension/vscode/ brings `vscode` with it: the feature folders stay loadable in plain Node.
const noVscodeFolder = {
  regex: "^\\.{1,2}/(?:\\.\\./)*vscode/",
  message: "only extension/vscode/ imports extension/vscode/ (it imports vscode).",
};
const browserOnly = [
  { name: "vscode", message: "runs in the webview too: no vscode." },
  ...nodeBuiltins.map((name) => ({ name, message: "runs in the webview too: no Node built-ins." })),
];

/**
 * Files under `dir` may import only each other, the sibling folders in `allowed` and npm packages.
 * A relative import leaves `dir` when it climbs one level more than the file's depth inside it, so
 * there is one block per depth (the folders are at most a few levels deep).
 */
function confinedTo(dir, allowed, message) {
  const into = allowed.length > 0 ? `(?!(?:${allowed.join("|")})/)` : "";
  return [0, 1, 2, 3].map((depth) => ({
    files: [`${dir}/${"*/".repeat(depth)}*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": ["error", { paths: browserOnly, patterns: [{ regex: `^(?:\\.\\./){${depth + 1}}${into}`, message }] }],
    },
  }));
}

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
  // The extension's three layers (ARCHITECTURE.md §2). Each file gets one complete option set: ESLint
  // replaces, not merges, a rule's options when several blocks match a file.
  {
    files: ["extension/**/*.{ts,tsx}"],
    ignores: ["extension/vscode/**", "extension/common/**", "extension/webview/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: [vscodeOnlyInVscodeFolder], patterns: [noAgentServer, noVscodeFolder] }],
    },
  },
  {
    files: ["extension/vscode/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [noAgentServer] }] },
  },
  ...confinedTo(
    "extension/common",
    [],
    "extension/common/ imports only extension/common/ (and pure npm packages): the webview runs it too.",
  ),
  ...confinedTo("extension/webview", ["common"], "the webview imports only extension/common/ and itself."),
);
