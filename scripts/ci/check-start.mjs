#!/usr/bin/env node
// CI's proof of the README's first command: runs `npm start` as a user would (its own process group,
// the terminal's Ctrl+C emulated as SIGINT to that group), waits for the URL it prints, checks that
// the URL's /healthz answers 200, stops it, and fails if any process it started is still alive.
// Point MANIFOLD_E2E_TOOLS at an empty folder to prove the cold path (tools installed on the way).
//   node scripts/ci/check-start.mjs [--timeout-s 900]
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const timeoutS = Number(process.argv[process.argv.indexOf("--timeout-s") + 1]) || 900;
const demoDir = process.env.MANIFOLD_DEMO_DIR ?? mkdtempSync(join(tmpdir(), "manifold-start-demo-"));
const tools = process.env.MANIFOLD_E2E_TOOLS ?? "/tmp/manifold-e2e-tools";
const say = (line) => console.error(`check-start: ${line}`);

/** Live processes whose command line names the demo folder or the tools folder (the server, its hosts, the agent). */
function leftovers() {
  const out = [];
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    } catch {
      continue;
    }
    if (cmd.includes(demoDir) || cmd.includes(tools)) out.push(`${pid} ${cmd.slice(0, 160)}`);
  }
  return out;
}

async function waitFor(predicate, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(ms / 1000)} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const started = Date.now();
say(`npm start (tools: ${tools}, demo: ${demoDir})`);
const child = spawn("npm", ["start"], {
  cwd: root,
  detached: true,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, MANIFOLD_DEMO_DIR: demoDir, MANIFOLD_E2E_TOOLS: tools },
});
let output = "";
let exitCode = null;
child.stdout.on("data", (chunk) => {
  output += chunk;
  process.stderr.write(chunk);
});
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exitCode = code ?? signal))));

let failed = false;
try {
  const url = await waitFor(
    () =>
      exitCode !== null
        ? Promise.reject(new Error(`npm start exited (${exitCode}) before printing a URL`))
        : output.match(/https?:\/\/[^\s/]+/)?.[0],
    timeoutS * 1000,
    "the URL",
  );
  say(`URL ${url} printed after ${Math.round((Date.now() - started) / 1000)} s`);
  const health = await fetch(`${url}/healthz`);
  if (health.status !== 200) throw new Error(`${url}/healthz answered ${health.status}`);
  say(`${url}/healthz answered 200: ${(await health.text()).slice(0, 120)}`);
} catch (error) {
  failed = true;
  say(`FAILED: ${error.message}`);
}

say("Ctrl+C (SIGINT to npm start's process group)");
try {
  process.kill(-child.pid, "SIGINT");
} catch {
  /* already gone */
}
await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
if (exitCode === null) {
  failed = true;
  say("FAILED: npm start still running 60 s after Ctrl+C; killing its group");
  process.kill(-child.pid, "SIGKILL");
}
// Processes the extension host spawned in their own groups get code-server's reconnection grace to exit.
const left = await waitFor(() => leftovers().length === 0, 30_000, "every process to exit").then(
  () => [],
  () => leftovers(),
);
if (left.length > 0) {
  failed = true;
  say(`FAILED: ${left.length} process(es) outlived Ctrl+C:\n  ${left.join("\n  ")}`);
  for (const line of left) {
    try {
      process.kill(Number(line.split(" ")[0]), "SIGKILL");
    } catch {
      /* exited meanwhile */
    }
  }
}
say(failed ? "npm start check failed" : `npm start check passed in ${Math.round((Date.now() - started) / 1000)} s; nothing left running`);
process.exit(failed ? 1 : 0);
