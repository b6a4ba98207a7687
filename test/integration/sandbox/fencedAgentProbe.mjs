// A scripted third-party agent for agentFence.test.ts (I-118): started inside the agent fence, it
// tries each attack of its plan twice — with Node's own fs/net, as an agent's file and fetch tools
// would, and through a child `bash -c`, as its shell tool would — and prints one JSON line with
// every outcome. It judges nothing: the test compares the outcomes with the host's own view.
// Usage: node fencedAgentProbe.mjs '<plan JSON>'   (`{"hold": true}`: start a tree, print it, wait)
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";

const MARK = "PROBE-WAS-HERE";
const plan = JSON.parse(process.argv[2] ?? "{}");

/** `bash -c script` with the given positional args: its exit code and what it printed. */
function shell(script, ...args) {
  const r = spawnSync("/bin/bash", ["-c", script, "probe", ...args], { encoding: "utf8", timeout: 10_000 });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().slice(0, 300) };
}

const errCode = (err) => (err && typeof err === "object" && "code" in err ? String(err.code) : String(err));
function attempt(fn) {
  try {
    return fn() ?? "ok";
  } catch (err) {
    return errCode(err);
  }
}

/** Writes `p`, making its parent dirs first (as a write tool does). */
function write(p) {
  return {
    node: attempt(() => {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, `${MARK} node\n`);
    }),
    shell: shell('mkdir -p -- "$(dirname -- "$2")" && printf "%s shell\\n" "$1" > "$2"', MARK, p),
  };
}

function read(p) {
  return {
    node: attempt(() => fs.readFileSync(p, "utf8")),
    shell: shell('cat -- "$1"', p),
  };
}

/** A file made inside a writable place, then moved to `to`. */
function rename(from, to) {
  return {
    node: attempt(() => {
      fs.writeFileSync(`${from}.node`, MARK);
      fs.renameSync(`${from}.node`, `${to}.node`);
    }),
    shell: shell('printf %s "$1" > "$2.shell" && mv -- "$2.shell" "$3.shell"', MARK, from, to),
  };
}

/** A symlink the agent makes itself inside the folder, pointing at `target` (a dir outside), written through. */
function symlinkWrite(link, target) {
  return {
    node: attempt(() => {
      fs.symlinkSync(target, `${link}-node`);
      fs.writeFileSync(`${link}-node/through-node`, MARK);
    }),
    shell: shell('ln -s -- "$2" "$3-shell" && printf %s "$1" > "$3-shell/through-shell"', MARK, target, link),
  };
}

function status() {
  const fields = (text) =>
    Object.fromEntries(
      text
        .split("\n")
        .filter((l) => /^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):/.test(l))
        .map((l) => l.split(/:\s+/)),
    );
  return {
    node: fields(fs.readFileSync("/proc/self/status", "utf8")),
    shell: fields(execFileSync("/bin/bash", ["-c", "cat /proc/self/status"], { encoding: "utf8" })),
  };
}

/** Privileged operations through the shell: each must fail (non-zero exit). */
function privileged(dir) {
  return {
    mountTmpfs: shell('mount -t tmpfs none "$1"', dir),
    mountBind: shell('mount --bind / "$1"', dir),
    remountRw: shell("mount -o remount,rw /"),
    unshareUser: shell("unshare -U true"),
    unshareMapRoot: shell("unshare -Ur true"),
    unshareMount: shell("unshare -m true"),
  };
}

/** Connects to `address` (a unix socket path, or `host:port`), sends a line and resolves with what came back or the error. */
function connect(address) {
  return new Promise((resolve) => {
    const [host, port] = address.split(":");
    const s = port === undefined ? net.connect(address) : net.connect(Number(port), host);
    let got = "";
    s.setEncoding("utf8");
    s.on("connect", () => s.end(`${MARK} node\n`));
    s.on("data", (d) => (got += d));
    s.on("error", (err) => resolve(errCode(err)));
    s.on("close", () => resolve(got === "" ? "closed" : `connected: ${got.trim()}`));
  });
}

/** The same from a child of the shell (a tool the shell runs); TCP also with bash's own /dev/tcp. */
function connectFromShell(address) {
  const node = shell(
    '"$1" -e \'const n=require("net");const [h,p]=process.argv[1].split(":");const s=p?n.connect(+p,h):n.connect(h);s.setEncoding("utf8");let g="";s.on("connect",()=>s.end("PROBE shell\\n"));s.on("data",d=>g+=d);s.on("error",e=>console.log(e.code));s.on("close",()=>g&&console.log("connected: "+g.trim()))\' "$2"',
    process.execPath,
    address,
  );
  const [host, port] = address.split(":");
  const devTcp = port === undefined ? undefined : shell('exec 3<>"/dev/tcp/$1/$2" && echo "PROBE devtcp" >&3 && head -n1 <&3', host, port);
  const curl = port === undefined ? shell('curl -s --max-time 5 --unix-socket "$1" http://x/; echo "rc=$?"', address) : undefined;
  return { shellNode: node, devTcp, curl };
}

async function sockets(addresses) {
  const out = {};
  for (const a of addresses) out[a] = { node: await connect(a), ...connectFromShell(a) };
  return out;
}

function environment() {
  const env = execFileSync("/bin/bash", ["-c", "env -0"], { encoding: "utf8" }).split("\0").filter(Boolean);
  return { node: { ...process.env }, shell: env.map((l) => l.slice(0, l.indexOf("="))) };
}

/** Children that outlive a careless kill: one in a new session, one double-forked away, one plain, one detached. Ready once all run. */
function hold() {
  const sh = spawn("/bin/bash", ["-c", "setsid sleep 300 & (sleep 300 &) ; sleep 300 & echo planted; wait"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const node = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true });
  let said = "";
  sh.stdout.setEncoding("utf8");
  sh.stdout.on("data", (d) => {
    said += d;
    if (said.includes("planted\n"))
      process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, children: [sh.pid, node.pid] })}\n`);
  });
  setInterval(() => {}, 1000);
}

async function main() {
  if (plan.hold) return hold();
  const map = (o, fn) => Object.fromEntries(Object.entries(o ?? {}).map(([k, v]) => [k, fn(v)]));
  const result = {
    writes: map(plan.writes, write),
    reads: map(plan.reads, read),
    renames: map(plan.renames, ([from, to]) => rename(from, to)),
    symlinks: map(plan.symlinks, ([link, target]) => symlinkWrite(link, target)),
    status: status(),
    privileged: plan.privilegedDir ? privileged(plan.privilegedDir) : {},
    sockets: await sockets(plan.sockets ?? []),
    env: environment(),
    cwd: process.cwd(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
