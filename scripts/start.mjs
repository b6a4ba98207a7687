#!/usr/bin/env node
// `npm start`: build, package and run Manifold in a real VS Code (code-server in your browser) on a demo
// workspace of two folders; prints the URL to open. Ctrl+C stops code-server and everything it started.
//   npm start                         code-server on http://127.0.0.1:8080 (or a free port if taken)
//   npm start -- --port 9000 --host 0.0.0.0
//   npm start -- --desktop            desktop VS Code (`code` on PATH), Manifold in development mode
// The demo model answers offline with no key. To use a real model, export the usual variables first
// (MANIFOLD_MODEL_PROVIDER, MANIFOLD_MODEL_BASE_URL, MANIFOLD_MODEL, OPENAI_API_KEY / ANTHROPIC_API_KEY):
// they pass through to the extension and the agent. MANIFOLD_DEMO_DIR moves the demo (default /tmp/manifold-demo).
import "tsx";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const demoDir = process.env.MANIFOLD_DEMO_DIR ?? "/tmp/manifold-demo";

/**
 * Two small projects and a .code-workspace naming both; existing files are left alone. webapp has a
 * `.vscode/mcp.json` with an offline demo MCP server (Manifold asks before it starts it).
 */
function ensureDemoWorkspace() {
  const mcpJson = { servers: { demo: { type: "stdio", command: process.execPath, args: [join(root, "scripts/demo-mcp-server.mjs")] } } };
  const files = {
    "webapp/.vscode/mcp.json": `// MCP servers of this folder (VS Code's format). Manifold starts one only in a trusted workspace, after you allow it.\n${JSON.stringify(mcpJson, null, 2)}\n`,
    "webapp/README.md": "# webapp\n\nA tiny front end. Ask Manifold what `src/app.js` does.\n",
    "webapp/src/app.js": "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n",
    "api/README.md": "# api\n\nA tiny back end, in its own folder, with its own chat panel and session.\n",
    "api/server.py": "def handler(request):\n    return {'status': 200, 'body': 'ok'}\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    const path = join(demoDir, rel);
    if (existsSync(path)) continue;
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  const workspaceFile = join(demoDir, "manifold-demo.code-workspace");
  if (!existsSync(workspaceFile)) {
    writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: "webapp" }, { path: "api" }], settings: {} }, null, 2) + "\n");
  }
  return workspaceFile;
}

/** Imports a TypeScript module through tsx; the package is CommonJS, so exports may arrive as `default`. */
async function importTs(path) {
  const mod = await import(path);
  return mod.default && typeof mod.default === "object" ? { ...mod.default, ...mod } : mod;
}

function npm(...args) {
  execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", args, { cwd: root, stdio: "inherit" });
}

async function desktop() {
  const found = spawnSync("code", ["--version"], { stdio: "ignore" });
  if (found.error || found.status !== 0) {
    console.error("npm start -- --desktop needs desktop VS Code's `code` command on PATH. Without it, run `npm start` (code-server).");
    process.exit(1);
  }
  npm("run", "build");
  const workspaceFile = ensureDemoWorkspace();
  console.error(`Opening ${workspaceFile} in VS Code with Manifold from ${root} (development mode).`);
  const child = spawn("code", [`--extensionDevelopmentPath=${root}`, workspaceFile], { stdio: "inherit" });
  child.on("exit", (code) => process.exit(code ?? 0));
}

async function browser() {
  const { ensureTools } = await importTs("../test/vscode/support/tools.ts");
  const { startCodeServer } = await importTs("../test/vscode/support/codeServer.ts");
  const tools = ensureTools();
  npm("run", "package");
  const workspaceFile = ensureDemoWorkspace();
  const host = option("host", "127.0.0.1");
  const wanted = Number(option("port", process.env.PORT ?? "8080"));
  const start = (port) =>
    startCodeServer({
      tools,
      stateDir: join(demoDir, ".code-server"),
      vsix: join(root, "out/manifold.vsix"),
      host,
      port,
      settings: { "workbench.colorTheme": "Default Dark Modern" },
    });
  let server;
  try {
    server = await start(wanted);
  } catch (error) {
    if (wanted === 0) throw error;
    console.error(`port ${wanted} is not available (${error.message}); using a free port`);
    server = await start(0);
  }
  let stopping = false;
  const stop = async () => {
    stopping = true;
    console.error("\nstopping code-server…");
    await server.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const model = process.env.MANIFOLD_MODEL_PROVIDER
    ? `${process.env.MANIFOLD_MODEL_PROVIDER} ${process.env.MANIFOLD_MODEL ?? ""}`.trim()
    : "the offline demo model (no key needed)";
  console.log(`
Manifold is running in code-server (VS Code in the browser). Open:

  ${server.url}/?workspace=${encodeURIComponent(workspaceFile)}

Then run "Manifold: Open Chat for Folder…" from the command palette (F1) for webapp and for api.
Model: ${model}.  Workspace: ${demoDir}.  Ctrl+C stops everything.
`);
  const code = await server.exited;
  if (stopping) return;
  console.error(`code-server exited (${code})`);
  await server.stop();
  process.exit(1);
}

await (argv.includes("--desktop") ? desktop() : browser());
