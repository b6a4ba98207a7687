#!/usr/bin/env node
// Runs the sandbox test files as an unprivileged user (uid/gid 65534 through `setpriv`), so every
// protection is proven both as root (the normal tiers on CI) and not.
// Usage (as root): node scripts/test-sandbox-unprivileged.mjs [-- extra node --test args]
//
// The checkout may live under a directory the unprivileged user cannot enter (a fresh clone in
// /root): the script builds as root, then stages what the tests need into a 0755 temp dir —
// sources copied, node_modules (and node itself) linked when that user can read them in place,
// else copied (hard links where the file system allows). Not root: the files run in place.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const NOBODY = 65534;
const dash = process.argv.indexOf("--");
const extra = dash === -1 ? [] : process.argv.slice(dash + 1);

const testsIn = (dir, re) =>
  existsSync(join(repo, dir))
    ? readdirSync(join(repo, dir))
        .filter((n) => re.test(n))
        .sort()
        .map((n) => `${dir}/${n}`)
    : [];
// Every attack on the sandbox: the command backends, the file tools, a hostile session against the
// whole server, the commands the extension serves to third-party agents, and those agents fenced.
const files = [
  ...testsIn("test/integration/sandbox", /\.test\.ts$/),
  ...testsIn("test/agent", /^(sandbox-|hostile-session).*\.test\.ts$/),
  ...["bash", "fileTools", "gitProtect", "configProtect", "writeRace", "specialFiles"].map((n) => `test/integration/tools/${n}.test.ts`),
  "test/integration/extension/terminals.test.ts",
  // The pinned real agents in the fence (they skip when scripts/agents/install.sh has not run).
  "test/agent/realAgentsConfined.test.ts",
  "test/integration/mcp/hostHygiene.test.ts",
];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  console.error(`[unprivileged] uid ${process.getuid?.()}: running the sandbox tests in place`);
  process.exit(
    run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=1", ...extra, ...files], { cwd: repo }),
  );
}

if (run("npm", ["run", "build"], { cwd: repo }) !== 0) process.exit(1);

const asNobody = ["--reuid", String(NOBODY), "--regid", String(NOBODY), "--clear-groups"];
const nobodyCan = (test, p) => spawnSync("setpriv", [...asNobody, "test", test, p], { stdio: "ignore" }).status === 0;

const stage = mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "manifold-unpriv-"));
chmodSync(stage, 0o755);
let status = 1;
try {
  for (const entry of ["package.json", "tsconfig.json", "base", "sandbox", "agent-server", "extension", "scripts", "test", "dist"]) {
    if (existsSync(join(repo, entry))) cpSync(join(repo, entry), join(stage, entry), { recursive: true });
  }
  const modules = realpathSync(join(repo, "node_modules"));
  if (nobodyCan("-r", join(modules, "tsx", "package.json"))) symlinkSync(modules, join(stage, "node_modules"));
  else if (run("cp", ["-al", modules, join(stage, "node_modules")], { stdio: "ignore" }) !== 0)
    cpSync(modules, join(stage, "node_modules"), { recursive: true });
  let node = process.execPath;
  if (!nobodyCan("-x", node)) {
    mkdirSync(join(stage, "bin"));
    cpSync(node, join(stage, "bin", "node"));
    node = join(stage, "bin", "node");
  }
  const home = join(stage, "home");
  mkdirSync(home);
  chownSync(home, NOBODY, NOBODY);
  const env = { PATH: `${dirname(node)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, LANG: process.env.LANG ?? "C.UTF-8" };
  console.error(`[unprivileged] running ${files.length} files as uid ${NOBODY} from ${relative(repo, stage) || stage}`);
  status = run(
    "setpriv",
    [...asNobody, node, "--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=1", ...extra, ...files],
    { cwd: stage, env },
  );
} finally {
  rmSync(stage, { recursive: true, force: true });
}
process.exit(status);
