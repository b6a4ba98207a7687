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
const noExtension = { group: ["**/extension/**"], message: "extension and agent-server share no code: ACP is their contract." };
// One data file is shared: the agents' state table lives next to their pins (extension/agent/agentProfiles.ts reads it).
const noScripts = {
  group: ["**/scripts/*", "!**/scripts/agents", "**/scripts/agents/*", "!**/scripts/agents/profiles.json"],
  message: "product code never imports scripts/: what both need lives in sandbox/ or base/.",
};
const vscodeOnlyInVscodeFolder = { name: "vscode", message: "only a feature's vscode/ folder imports vscode." };
// A module of a vscode/ folder brings `vscode` with it: everything else stays loadable in plain Node.
const noVscodeFolder = {
  regex: "^\\.{1,2}/(?:[^/]+/)*vscode/",
  message: "only a vscode/ folder imports a vscode/ folder (it imports vscode).",
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
  // base/ sits at the top level: one more climb than the parent of `dir` (dir is at most two deep).
  const baseClimb = dir.split("/").length;
  const toBase = dir === "base" ? "" : `(?!(?:\\.\\./){${baseClimb - 1}}base/)`;
  return [0, 1, 2, 3].map((depth) => ({
    files: [`${dir}/${"*/".repeat(depth)}*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: browserOnly, patterns: [{ regex: `^(?:\\.\\./){${depth + 1}}${into}${toBase}`, message }] },
      ],
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
    // A function fits in a head: split longer ones at their seams. Not test/: its suites are describe callbacks.
    files: ["extension/**", "agent-server/**", "sandbox/**", "base/**", "scripts/**", "bench/**", "esbuild.mjs"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    files: ["agent-server/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "vscode", message: "agent-server must not depend on VS Code." }], patterns: [noExtension, noScripts] },
      ],
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
            noScripts,
          ],
        },
      ],
    },
  },
  // The extension's three layers (ARCHITECTURE.md). Each file gets one complete option set: ESLint
  // replaces, not merges, a rule's options when several blocks match a file.
  {
    files: ["extension/**/*.{ts,tsx}"],
    ignores: ["extension/**/vscode/**", "extension/common/**", "extension/webview/**"],
    rules: {
      "no-restricted-imports": ["error", { paths: [vscodeOnlyInVscodeFolder], patterns: [noAgentServer, noScripts, noVscodeFolder] }],
    },
  },
  {
    files: ["extension/**/vscode/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [noAgentServer, noScripts] }] },
  },
  // Both processes' lifecycle, events and error text; the webview loads it too.
  ...confinedTo("base", [], "base/ imports only base/ (and pure npm packages): every process and the webview load it."),
  ...confinedTo(
    "extension/common",
    [],
    "extension/common/ imports only extension/common/ (and pure npm packages): the webview runs it too.",
  ),
  ...confinedTo("extension/webview", ["common"], "the webview imports only extension/common/ and itself."),
);
