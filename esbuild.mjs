// Builds the three bundles: the extension (CJS, `vscode` external), the standalone agent-server
// (a front file and its core: see below) and the webview script + CSS (browser). Flags: --watch,
// --production, --outdir <dir>.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");
// --outdir <dir>: build elsewhere than dist/ (the benchmark's minified agent-server).
const outdirAt = process.argv.indexOf("--outdir");
const dist = outdirAt === -1 ? join(root, "dist") : resolve(process.argv[outdirAt + 1] ?? "dist");

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "warning",
  legalComments: "none",
};

/**
 * A late file: one `require("<specifier>")` in `importer` stays a runtime require of `file` (built by its
 * own entry below) instead of being bundled into the importing file. A `require`, never `import()`:
 * the ESM loader scans a CommonJS file whole for its export names first (≈ 300 ms for the providers).
 * @param {string} name @param {string} specifier @param {string} importer @param {string} file
 * @returns {esbuild.Plugin}
 */
function lateFile(name, specifier, importer, file) {
  const filter = new RegExp(`^${specifier.replaceAll(".", "\\.").replaceAll("/", "\\/")}$`);
  return {
    name,
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.importer.endsWith(importer) && args.kind === "require-call" ? { path: `./${file}`, external: true } : undefined,
      );
    },
  };
}

// The agent-server's cold start skips the AI SDK: its providers are dist/agent-server-providers.js,
// loaded at the first model step (the `require("./sdk")` in model/providers/aiSdkStream.ts).
const PROVIDERS_FILE = "agent-server-providers.js";
const providersApart = lateFile("providers-apart", "./sdk", join("model", "providers", "aiSdkStream.ts"), PROVIDERS_FILE);

// Likewise the MCP client (the MCP SDK, ajv): dist/agent-server-mcp.js, loaded when the first session
// with MCP servers starts them (the `require("./connection")` in mcp/sessions.ts).
const MCP_FILE = "agent-server-mcp.js";
const mcpApart = lateFile("mcp-apart", "./connection", join("mcp", "sessions.ts"), MCP_FILE);

// The core: dist/agent-server-core.js (agent-server/server.ts and all it imports), loaded by the
// front's one `require("./server")` (main.ts) after `initialize` has been answered.
const CORE_FILE = "agent-server-core.js";
const coreApart = lateFile("core-apart", "./server", join("agent-server", "main.ts"), CORE_FILE);

// The core uses the front's ACP SDK, not a copy of its own: the SDK's dispatch in the front tells a
// RequestError thrown by a route by `instanceof`, so there must be one class. The front exports the
// SDK's values the core uses (main.ts), and only those, so the front keeps no SDK code the floor would
// not; the core's imports read that module (already loaded: it is the process's main module, and
// Node's module cache answers by path). zod stays bundled in each (sharing its whole namespace would
// make the front slower to compile).
// What of the SDK the core may use at run time (its types are erased): main.ts exports these, and an
// import of any other SDK value in the core fails the build ("No matching export").
const SHARED_SDK = ["RequestError", "methods"];
/** @type {esbuild.Plugin} */
const sharedFromFront = {
  name: "shared-from-front",
  setup(build) {
    build.onResolve({ filter: /^@agentclientprotocol\/sdk$/ }, (args) => ({ path: args.path, namespace: "front" }));
    build.onResolve({ filter: /^\.\/agent-server\.js$/, namespace: "front" }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: "front" }, () => ({
      contents: [
        'const front = require("./agent-server.js");',
        ...SHARED_SDK.flatMap((n) => [
          `if (front.${n} === undefined) throw new Error("the agent-server's front does not export ${n}");`,
          `export const ${n} = front.${n};`,
        ]),
      ].join("\n"),
      loader: "js",
    }));
  },
};

// zod's namespace object re-exports all ~60 error-message locales (~0.37 MB) and `import { z }`
// materializes it, so every locale would be parsed and evaluated at start-up; the agent-server and
// the webview only ever use the default English messages, so their builds keep `locales.en` alone
// (the webview's bundle: 650 → 389 KB minified, parsed once per panel).
/** @type {esbuild.Plugin} */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";',
      loader: "js",
    }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: join(root, "extension/vscode/extension.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["vscode"],
    // jsonc-parser's `main` is a UMD wrapper whose `require("./impl/…")` calls esbuild cannot see (the
    // bundle then throws "Cannot find module './impl/format'" on load); its ESM build bundles cleanly.
    alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
    // VS Code's extension host replaces Node's `navigator` global with a getter that reports a
    // PendingMigrationError on every read, `typeof navigator` included, and then answers undefined.
    // zod reads it when it builds its first object schema (the Cloudflare check of its JIT probe),
    // at module load. Replacing the name with `undefined` at build time gives the same value without
    // the read. Only this bundle: the webview runs in a browser and the agent-server in its own Node.
    define: { navigator: "undefined" },
  },
  {
    // The sign-in terminal's fence (extension/agent/fenceRun.ts): started on VS Code's Node.
    ...common,
    entryPoints: { "fence-run": join(root, "extension/agent/fenceRun.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [zodEnglishOnly],
  },
  {
    // The front: dist/agent-server.js answers `initialize` with the SDK alone (acp/front.ts); the rest
    // of the agent-server is the core file, imported once that answer has left (main.ts).
    ...common,
    entryPoints: { "agent-server": join(root, "agent-server/main.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    banner: { js: "#!/usr/bin/env node" },
    plugins: [coreApart, zodEnglishOnly],
  },
  {
    ...common,
    entryPoints: { [CORE_FILE.replace(/\.js$/, "")]: join(root, "agent-server/server.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [providersApart, mcpApart, sharedFromFront, zodEnglishOnly],
    // An SDK value the front does not share would be undefined at run time: a build error instead.
    logOverride: { "import-is-undefined": "error" },
  },
  {
    ...common,
    entryPoints: { [MCP_FILE.replace(/\.js$/, "")]: join(root, "agent-server/mcp/connection.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [zodEnglishOnly],
  },
  {
    ...common,
    entryPoints: { [PROVIDERS_FILE.replace(/\.js$/, "")]: join(root, "agent-server/model/providers/sdk.ts") },
    outdir: dist,
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [zodEnglishOnly],
  },
  {
    ...common,
    entryPoints: {
      "webview/main": join(root, "extension/webview/main.tsx"),
      "webview/styles": join(root, "extension/webview/styles.css"),
    },
    outdir: dist,
    platform: "browser",
    target: "es2022",
    format: "iife",
    jsx: "automatic",
    jsxImportSource: "preact",
    plugins: [zodEnglishOnly],
  },
];

function copyAssets() {
  const out = join(dist, "webview/codicons");
  mkdirSync(out, { recursive: true });
  for (const f of ["codicon.css", "codicon.ttf"]) {
    cpSync(join(root, "node_modules/@vscode/codicons/dist", f), join(out, f));
  }
}

const started = Date.now();
copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.error("[esbuild] watching…");
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.error(`[esbuild] built ${builds.length} bundles in ${Date.now() - started} ms${production ? " (production)" : ""}`);
}
