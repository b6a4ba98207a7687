#!/usr/bin/env node
// Runs test tiers on node's built-in test runner (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [unit] [integration] [agent] [vscode] [-- extra node --test args]
// With no tier named, every tier runs, in that order. unit: pure, in memory; integration: in-process
// against real processes, disk, sockets and the sandbox; agent: the built agent-server spawned;
// vscode: a real VS Code. Node 20 has no glob support in `--test`, so files are found here.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const allTiers = ["unit", "integration", "agent", "vscode"];
const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const named = (dash === -1 ? argv : argv.slice(0, dash)).filter((a) => !a.startsWith("-"));
const extra = dash === -1 ? [] : argv.slice(dash + 1);
const tiers = named.length > 0 ? named : allTiers;
for (const t of tiers) {
  if (!allTiers.includes(t)) {
    console.error(`unknown tier "${t}" (expected one of ${allTiers.join(", ")})`);
    process.exit(2);
  }
}

function find(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(find(p));
    else if (/\.test\.(ts|tsx|mjs)$/.test(name)) out.push(relative(root, p));
  }
  return out;
}

// Files start in list order, `concurrency` at a time. The longest files (one real VS Code window each,
// mostly waiting on the workbench) start first, so the short ones fill the other slot around them.
const LONG_POLES = ["test/vscode/ui-workbench.test.ts", "test/vscode/extension-host.test.ts"];
const rank = (f) => (LONG_POLES.includes(f) ? LONG_POLES.indexOf(f) : LONG_POLES.length);
const files = tiers.flatMap((t) => find(join(root, "test", t))).sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error(`no test files found for tiers: ${tiers.join(", ")}`);
  process.exit(1);
}

// Files that drive a real VS Code say so in a line `// needs: e2e-tools`. Their tools (Node 24,
// code-server, chromium) are installed here, once, before any test starts: a cold install takes a few
// minutes and its progress shows. If it fails, those files are replaced by one test that fails with
// the installer's message (the command, the log's tail, how to retry) instead of a wall of cancelled
// tests, and the other tiers still run.
const env = { ...process.env };
let runFiles = files;
const needsTools = files.filter((f) => /^\/\/ needs: e2e-tools$/m.test(readFileSync(join(root, f), "utf8")));
if (needsTools.length > 0) {
  console.error(`installing the VS Code tier's tools (scripts/e2e/install-tools.sh) for ${needsTools.length} file(s)…`);
  const install = spawnSync("bash", [join(root, "scripts/e2e/install-tools.sh")], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  process.stderr.write(install.stderr ?? "");
  if (install.status !== 0) {
    const tail = (install.stderr ?? String(install.error ?? "")).trim().split("\n").slice(-40).join("\n");
    env.MANIFOLD_E2E_TOOLS_FAILURE = `${needsTools.join(", ")} did not run: the VS Code tier's tools did not install.\n${tail}`;
    runFiles = [...files.filter((f) => !needsTools.includes(f)), "test/vscode/support/toolsUnavailable.mjs"];
  }
}

const concurrency = process.env.MANIFOLD_TEST_CONCURRENCY ?? "2";
// Every file runs with the guard that keeps test/unit/ pure (it does nothing in the other tiers).
const pureGuard = pathToFileURL(join(root, "test/support/pureGuard.mjs")).href;
const args = [
  "--import",
  "tsx",
  "--import",
  pureGuard,
  "--test",
  "--test-reporter=spec",
  `--test-concurrency=${concurrency}`,
  ...extra,
  ...runFiles,
];
const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
