// I-112, agent-shaped binds: the git plan names directories inside the session root, and a command
// running concurrently (a background task, another session whose folder contains this one) may swap
// one for a symlink to outside between the plan and bwrap's mounts. Bound by path, bwrap follows the
// link and mounts the OUTSIDE directory writable; bound by a verified O_PATH descriptor it cannot.
// The attacker here is a host process (as a background task in a namespace without the pins would
// be) exchanging `.git` with a symlink to an outside directory as fast as it can (renameat2
// RENAME_EXCHANGE, so `.git` is always one or the other). The oracle is the host: the outside
// directory must stay exactly as it was.
import assert from "node:assert/strict";
import { execFileSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { BindChangedError, BindFds, releaseDescriptors } from "../../../sandbox/bindFds";
import { gitProtectionArgs } from "../../../sandbox/bwrap";
import { gitProtectionPlan } from "../../../sandbox/gitPlan";
import { spawnTree } from "../../../sandbox/processTree";
import type { CommandSandbox, SandboxContext, WrappedCommand } from "../../../sandbox/types";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { PY, startSwapper } from "./hostPeers";

/** Commands per race and its time bound (whichever comes first). */
const ROUNDS = 100;
const RACE_MS = 30_000;
/**
 * How long the swapper holds each state. As fast as it can flips `.git` within bwrap's own steps
 * (its mount-table checks then fail, ~1 hit per 100 rounds by path); holding each state a few ms
 * keeps every step consistent and lands ~10–20 per 100 by path.
 */
const PACED_MS = 3;

let fx: Fixture;
let sb: CommandSandbox;
let n = 0;

before(async () => {
  fx = makeFixture("mf-bindrace-");
  sb = await detect();
});
after(() => fx.cleanup());

const openFds = (): number => fs.readdirSync("/proc/self/fd").length;
/** This process's descriptors that lead into `dir` (a leaked bind descriptor would). */
function fdsInto(dir: string): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync("/proc/self/fd")) {
    let at: string;
    try {
      at = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // the directory listing's own descriptor, gone already
    }
    if (at === dir || at.startsWith(`${dir}/`)) out.push(`${fd} -> ${at}`);
  }
  return out;
}
/** Each of `fds` is closed (EBADF); checked right after the call that must close them, before anything can reuse a number. */
function assertClosed(fds: readonly number[], when: string): void {
  for (const fd of fds) assert.throws(() => fs.fstatSync(fd), { code: "EBADF" }, `fd ${fd} open ${when}`);
}

/** A repo at `root` (real `git init`: hooks/ and config exist) and, beside it, an outside directory shaped like a git dir. */
function scene(): { root: string; outside: string; link: string; ctx: SandboxContext; snapshot: () => string } {
  const id = `s${++n}`;
  const root = fx.dir(`root-${id}`);
  execFileSync("git", ["init", "-q", root], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: root } });
  // The decoy has what the plan's nested binds name, so bwrap's by-path resolution through the link succeeds.
  const outside = fx.dir(`outside-${id}`);
  fs.mkdirSync(path.join(outside, "hooks"));
  fs.writeFileSync(path.join(outside, "config"), "[core]\n");
  const link = path.join(root, ".git-link");
  fs.symlinkSync(`../${path.basename(outside)}`, link);
  const snapshot = (): string => execFileSync("find", [outside, "-printf", "%P %y %s\\n"]).toString().split("\n").sort().join("\n");
  return { root, outside, link, ctx: fx.ctxFor(id, root), snapshot };
}

/**
 * The old by-path binds, kept only here: each `--bind-fd N D` becomes `--bind <what fd N is> D`, and
 * the command runs without the mount check (mountCheck.ts), as it did then.
 */
function pathBinds(w: WrappedCommand): WrappedCommand {
  const fds = w.fds ?? [];
  const tail = w.args.indexOf("--");
  const [shell, , , , , command] = w.args.slice(tail + 1);
  assert.ok(shell !== undefined && command !== undefined, "the checked command tail");
  const args = [...w.args.slice(0, tail), "--", shell, "-c", command];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag !== "--bind-fd" && flag !== "--ro-bind-fd") continue;
    const parent = fds[Number(args[i + 1]) - 3];
    assert.ok(parent !== undefined, `descriptor for ${args[i + 1]}`);
    args[i] = flag === "--bind-fd" ? "--bind" : "--ro-bind";
    args[i + 1] = fs.readlinkSync(`/proc/self/fd/${parent}`);
  }
  return { ...w, args };
}

async function stopSwapper(child: ChildProcess, root: string, link: string): Promise<void> {
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
  // Leave `.git` the directory again.
  if (fs.lstatSync(path.join(root, ".git")).isSymbolicLink()) {
    const tmp = path.join(root, ".swap");
    fs.renameSync(path.join(root, ".git"), tmp);
    fs.renameSync(link, path.join(root, ".git"));
    fs.renameSync(tmp, link);
  }
}

interface RaceResult {
  rounds: number;
  /** wrap() refused (BindChangedError): the check saw the swap. */
  refused: number;
  /** bwrap exited non-zero before running the command (its own descriptor check, or a vanished path). */
  failed: number;
  ran: number;
  /** Rounds after which the outside directory had changed on the host. */
  hits: number;
  /** For each hit: the entries that appeared or changed, and the command's argv. */
  changes: string[];
}

/** Runs confined commands that try to write into `.git` and into the outside directory while `.git` is being swapped. */
async function race(byPath: boolean, stopAtFirstHit: boolean, holdMs: number): Promise<RaceResult> {
  const s = scene();
  const before = s.snapshot();
  const cmd = `echo x > ${s.root}/.git/pwned-$$ 2>/dev/null; echo x > ${s.outside}/pwned-$$ 2>/dev/null; echo RAN`;
  const r: RaceResult = { rounds: 0, refused: 0, failed: 0, ran: 0, hits: 0, changes: [] };
  const swapper = await startSwapper(path.join(s.root, ".git"), s.link, holdMs);
  const deadline = Date.now() + RACE_MS;
  try {
    while (r.rounds < ROUNDS && Date.now() < deadline) {
      r.rounds++;
      let w: WrappedCommand;
      try {
        w = sb.wrap(cmd, s.ctx, { cwd: s.root, unconfined: false });
      } catch (err) {
        assert.ok(err instanceof BindChangedError, String(err));
        r.refused++;
        continue;
      }
      let out = "";
      const p = spawnTree(byPath ? pathBinds(w) : w, (c) => (out += c));
      releaseDescriptors(w);
      const { exitCode } = await p.exited;
      if (exitCode === 0 && out.includes("RAN")) r.ran++;
      else r.failed++;
      const now = s.snapshot();
      if (now !== before) {
        r.hits++;
        // What changed, and the argv that let it: a hit must be explainable from the report alone.
        const was = new Set(before.split("\n"));
        r.changes.push(
          `${now
            .split("\n")
            .filter((l) => !was.has(l))
            .join(", ")} (exit ${exitCode}; ${w.args.join(" ")})`,
        );
        if (stopAtFirstHit) break;
        // Reset the oracle for the next round.
        for (const f of fs.readdirSync(s.outside)) if (f.startsWith("pwned")) fs.rmSync(path.join(s.outside, f));
      }
    }
  } finally {
    await stopSwapper(swapper, s.root, s.link);
  }
  return r;
}

const bwrapOnly = async (): Promise<string | false> => (sb.backend === "bubblewrap" ? false : `backend is ${sb.backend}`);

describe(`bubblewrap: binds by verified descriptor (${asWho})`, { skip: !linux && "Linux only" }, () => {
  it("I-112: control — with the old by-path binds, the .git↔symlink race mounts the outside directory writable", async (t) => {
    const skip = await bwrapOnly();
    if (skip || !fs.existsSync(PY)) return t.skip(skip || "no python3");
    const r = await race(true, true, PACED_MS);
    t.diagnostic(`by path, each state held ${PACED_MS} ms: ${JSON.stringify(r)}`);
    assert.ok(r.hits > 0, `no round of ${r.rounds} landed a bind outside (${JSON.stringify(r)}); the race did not reproduce`);
  });

  it("I-112: with descriptor binds, no bind lands outside the folder however the race falls", async (t) => {
    const skip = await bwrapOnly();
    if (skip || !fs.existsSync(PY)) return t.skip(skip || "no python3");
    for (const holdMs of [PACED_MS, 0]) {
      const r = await race(false, false, holdMs);
      t.diagnostic(`by descriptor, each state held ${holdMs} ms: ${JSON.stringify(r)}`);
      assert.equal(r.hits, 0, `the outside directory changed (${JSON.stringify(r)})`);
      assert.ok(r.ran > 0, `no command ran at all (${JSON.stringify(r)})`);
    }
    assert.deepEqual(fdsInto(fx.base), [], "descriptors leaked");
  });

  it("I-112: a pinned directory swapped for a symlink since the plan refuses the command with a clear error, leaking nothing", async (t) => {
    const skip = await bwrapOnly();
    if (skip) return t.skip(skip);
    const s = scene();
    const plan = gitProtectionPlan(s.root);
    assert.ok(plan.pinned.includes(path.join(s.root, ".git")), "the plan pins .git");
    const tmp = path.join(s.root, ".swap");
    fs.renameSync(path.join(s.root, ".git"), tmp);
    fs.renameSync(s.link, path.join(s.root, ".git"));
    const fdsBefore = openFds();
    const fds = new BindFds();
    assert.throws(
      () => gitProtectionArgs(s.root, plan, fds),
      (err: unknown) =>
        err instanceof BindChangedError &&
        err.path === path.join(s.root, ".git") &&
        /changed while its sandbox was being set up \(it is now a symlink\).*nothing ran/.test(err.message),
    );
    fds.close();
    assert.equal(openFds(), fdsBefore, "descriptors leaked");
    // A mask target (a missing file the plan masks) whose directory became a symlink refuses too.
    const masked = path.join(s.root, ".git", "config.worktree");
    assert.throws(() => gitProtectionArgs(s.root, { pinned: [], writable: [], readOnly: [], masked: [masked] }, fds), BindChangedError);
    assert.equal(fds.take().length, 0);
    assert.equal(openFds(), fdsBefore, "descriptors leaked");
  });

  it("I-112: bwrap itself refuses a descriptor bind whose destination became a symlink after the check", async (t) => {
    const skip = await bwrapOnly();
    if (skip) return t.skip(skip);
    const s = scene();
    const before = s.snapshot();
    const w = sb.wrap(`echo x > ${s.outside}/pwned; echo RAN`, s.ctx, { cwd: s.root, unconfined: false });
    // After wrap() verified every source: `.git` becomes the link, the real git dir moves beside it.
    const tmp = path.join(s.root, ".swap");
    fs.renameSync(path.join(s.root, ".git"), tmp);
    fs.renameSync(s.link, path.join(s.root, ".git"));
    let out = "";
    const { exitCode } = await spawnTree(w, (c) => (out += c)).exited;
    assert.notEqual(exitCode, 0);
    assert.doesNotMatch(out, /RAN/);
    assert.match(out, /Race condition binding dirfd|Can't/);
    assert.equal(s.snapshot(), before, "the outside directory changed");
  });

  it("I-112: a writable mount bwrap was not asked for (bwrap resolved a swapped source) stops the command before it runs", async (t) => {
    const skip = await bwrapOnly();
    if (skip) return t.skip(skip);
    // What the race produces once in a while under load: bwrap turns a `--bind-fd` source back into a
    // path and mounts what that path names then (the outside directory, at the link's target), and its
    // own descriptor check passes once `.git` is swapped back. Here that mount is made outright: the
    // argv gets one more writable bind that the command's mount check was not given.
    const s = scene();
    const before = s.snapshot();
    const w = sb.wrap(`echo x > ${s.outside}/pwned; echo RAN`, s.ctx, { cwd: s.root, unconfined: false });
    const tail = w.args.indexOf("--");
    const smuggled: WrappedCommand = { ...w, args: [...w.args.slice(0, tail), "--bind", s.outside, s.outside, ...w.args.slice(tail)] };
    let out = "";
    const { exitCode } = await spawnTree(smuggled, (c) => (out += c)).exited;
    releaseDescriptors(w);
    assert.equal(exitCode, 125, out);
    assert.doesNotMatch(out, /RAN/);
    assert.match(out, new RegExp(`came up with ${s.outside} writable.*Nothing ran`));
    assert.equal(s.snapshot(), before, "the outside directory changed");
    // The same argv without the extra bind runs (the check is not what refused it above).
    let ran = "";
    const plain = sb.wrap("echo RAN", s.ctx, { cwd: s.root, unconfined: false });
    assert.equal((await spawnTree(plain, (c) => (ran += c)).exited).exitCode, 0, ran);
    assert.match(ran, /RAN/);
  });

  it("I-112: descriptors are closed after spawn — on success, on a failed exec and on a spawn() that throws", async (t) => {
    const skip = await bwrapOnly();
    if (skip) return t.skip(skip);
    const s = scene();
    const ok = sb.wrap("true", s.ctx, { cwd: s.root, unconfined: false });
    const given = [...(ok.fds ?? [])];
    assert.ok(given.length >= 5, "root, tmp, pin, hooks, config (and the filter) go by descriptor");
    const p = spawnTree(ok, () => undefined);
    assertClosed(given, "after spawn() returned");
    assert.deepEqual(ok.fds, [], "single-use: the command holds no descriptor any more");
    assert.equal((await p.exited).exitCode, 0);
    // bwrap closes each one once it is mounted (or read): none reaches the command.
    let inside = "";
    const ls = spawnTree(sb.wrap("ls -l /proc/self/fd/", s.ctx, { cwd: s.root, unconfined: false }), (c) => (inside += c));
    assert.equal((await ls.exited).exitCode, 0);
    assert.doesNotMatch(inside, new RegExp(`${s.root}|\\.seccomp-|${path.basename(s.ctx.tmpDir)}`));

    const enoent = sb.wrap("true", s.ctx, { cwd: s.root, unconfined: false });
    const enoentFds = [...(enoent.fds ?? [])];
    const bad = spawnTree({ ...enoent, file: path.join(fx.base, "no-such-bwrap") }, () => undefined);
    assertClosed(enoentFds, "after an exec that will fail");
    assert.equal((await bad.exited).exitCode, 127);

    const throws = sb.wrap("true", s.ctx, { cwd: s.root, unconfined: false });
    const throwsFds = [...(throws.fds ?? [])];
    assert.throws(() => spawnTree({ ...throws, args: ["\0"] }, () => undefined));
    assertClosed(throwsFds, "after spawn() threw");
    assert.deepEqual(fdsInto(s.root), [], "no descriptor into the root is left");
  });
});
