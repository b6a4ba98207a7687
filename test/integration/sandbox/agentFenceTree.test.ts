// I-118, the agent fence's process tree and binds: the whole tree dies with the agent's process
// group, and the fence's descriptor binds hold under a host-side .git↔symlink race (the mount check
// refuses what slips through). The world is agentFenceWorld.ts's.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { fenceFor } from "../../../extension/agent/agentProfiles";
import { BindChangedError, releaseDescriptors } from "../../../sandbox/bindFds";
import { descendantsOf, stillAlive, type ProcessRef } from "../../../sandbox/procfs";
import { spawnTree } from "../../../sandbox/processTree";
import type { AgentCommand, WrappedCommand } from "../../../sandbox/types";
import { asWho } from "./fixture";
import { PY, startSwapper } from "./hostPeers";
import { fenceSetup, fx, sb, skip, gitEnv, startProbe, type World } from "./agentFenceWorld";

fenceSetup();

describe(`I-118: the agent's whole tree dies with its process group (${asWho})`, () => {
  it("I-118: killing the group leaves no process of the tree — setsid'd, double-forked and detached children included", async (t) => {
    if (skip) return t.skip(skip);
    const w = world2("kill");
    const { p, output } = startProbe(w, { hold: true });
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        const check = () => {
          if (output().includes('"ready":true')) resolve(output());
        };
        p.child.stdout?.on("data", check);
        p.child.once("exit", () => reject(new Error(`the probe exited before it was ready:\n${output()}`)));
        check();
      });
      const pid = p.child.pid;
      assert.ok(pid !== undefined, ready);
      const tree: ProcessRef[] = descendantsOf(pid);
      // bwrap's pid 1, node probe, bash, three sleeps (one setsid'd, one orphaned to pid 1), a detached node.
      assert.ok(tree.length >= 7, `the tree is smaller than planted: ${tree.length}`);
      const exited = new Promise((resolve) => p.child.once("exit", resolve));
      process.kill(-pid, "SIGKILL");
      await exited;
      // The kernel reaps a PID namespace just after its leader; /proc has no event for that, so poll (bounded).
      const deadline = Date.now() + 5_000;
      while (stillAlive(tree).length > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10));
      assert.deepEqual(stillAlive(tree), [], "processes of the agent's tree outlived its group");
    } finally {
      await p.kill(0); // a failed assertion above must not leave the tree holding the test run open
    }
  });
});

/** A fresh world under its own names, for the tests after the first. */
function world2(tag: string): World {
  const home = fx.dir(`home-${tag}`);
  const a = fx.dir(`folder-${tag}`);
  execFileSync("git", ["init", "-q", a], { env: gitEnv(a) });
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" };
  const { fence } = fenceFor({
    who: { registryId: "probe-agent", command: "probe-agent", args: [] },
    env,
    home,
    folders: [a],
    tmpDir: path.join(fx.base, "agent-tmp", tag),
    storage: [],
  });
  return { home, a, b: a, outside: fx.dir(`outside-${tag}`), storage: "", fence, env };
}

const RACE_ROUNDS = 40;
const RACE_MS = 15_000;

describe(`I-118: the fence's binds under a .git↔symlink race (${asWho})`, () => {
  it("I-118: a host loop swapping a folder's .git for a symlink to outside while the fence starts never lets a write land outside", async (t) => {
    if (skip) return t.skip(skip);
    if (!fs.existsSync(PY)) return t.skip("no /usr/bin/python3 for the swapper");
    const w = world2("race");
    // The decoy has what the plan binds by name (hooks/, config), so a by-path bind through the link would succeed.
    fs.mkdirSync(path.join(w.outside, "hooks"));
    fs.writeFileSync(path.join(w.outside, "config"), "[core]\n");
    const link = path.join(w.a, ".git-link");
    fs.symlinkSync(`../${path.basename(w.outside)}`, link);
    const snapshot = (): string => execFileSync("find", [w.outside, "-printf", "%P %y %s\\n"]).toString().split("\n").sort().join("\n");
    const before = snapshot();
    const script = `echo x > ${w.a}/.git/pwned-$$ 2>/dev/null; echo x > ${w.outside}/pwned-$$ 2>/dev/null; echo RAN`;
    const cmd: AgentCommand = { command: "/bin/sh", args: ["-c", script], env: w.env };
    const tally = { rounds: 0, refused: 0, failed: 0, ran: 0 };
    const fenceAgent = sb.fenceAgent;
    assert.ok(fenceAgent);
    for (const holdMs of [3, 0]) {
      const swapper = await startSwapper(path.join(w.a, ".git"), link, holdMs);
      const deadline = Date.now() + RACE_MS / 2;
      try {
        for (let i = 0; i < RACE_ROUNDS / 2 && Date.now() < deadline; i++) {
          tally.rounds++;
          let wrapped: WrappedCommand;
          try {
            wrapped = fenceAgent.call(sb, cmd, w.fence);
          } catch (err) {
            assert.ok(err instanceof BindChangedError, String(err));
            tally.refused++;
            continue;
          }
          let out = "";
          const p = spawnTree(wrapped, (c) => (out += c));
          releaseDescriptors(wrapped);
          const { exitCode } = await p.exited;
          if (exitCode === 0 && out.includes("RAN")) tally.ran++;
          else tally.failed++;
          assert.equal(snapshot(), before, `round ${tally.rounds}: the outside directory changed (exit ${exitCode}: ${out})`);
        }
      } finally {
        const gone = new Promise((r) => swapper.once("exit", r));
        swapper.kill("SIGKILL");
        await gone;
        if (fs.lstatSync(path.join(w.a, ".git")).isSymbolicLink()) {
          const tmp = path.join(w.a, ".swap");
          fs.renameSync(path.join(w.a, ".git"), tmp);
          fs.renameSync(link, path.join(w.a, ".git"));
          fs.renameSync(tmp, link);
        }
      }
    }
    t.diagnostic(JSON.stringify(tally));
    assert.ok(tally.ran > 0, `no round ran at all: ${JSON.stringify(tally)}`);
  });

  it("I-118: a writable mount the fence never asked for stops the agent before it runs (the mount check)", async (t) => {
    if (skip) return t.skip(skip);
    // What the race above produces once in a while: bwrap mounts what a swapped source's path names.
    // Made outright here: one more writable bind in the argv, which the check was not given.
    const w = world2("smuggle");
    const fenceAgent = sb.fenceAgent;
    assert.ok(fenceAgent);
    const cmd: AgentCommand = { command: "/bin/sh", args: ["-c", `echo x > ${w.outside}/pwned; echo RAN`], env: w.env };
    const wrapped = fenceAgent.call(sb, cmd, w.fence);
    const tail = wrapped.args.indexOf("--");
    const smuggled: WrappedCommand = {
      ...wrapped,
      args: [...wrapped.args.slice(0, tail), "--bind", w.outside, w.outside, ...wrapped.args.slice(tail)],
    };
    let out = "";
    const { exitCode } = await spawnTree(smuggled, (c) => (out += c)).exited;
    assert.equal(exitCode, 125, out);
    assert.doesNotMatch(out, /RAN/);
    assert.match(out, new RegExp(`came up with ${w.outside} writable.*Nothing ran`));
    assert.deepEqual(fs.readdirSync(w.outside), [], "the outside directory changed");
    // The same fence without the extra bind runs: the check is what refused above.
    let ran = "";
    const plain = fenceAgent.call(sb, { ...cmd, args: ["-c", "echo RAN"] }, w.fence);
    assert.equal((await spawnTree(plain, (c) => (ran += c)).exited).exitCode, 0, ran);
    assert.match(ran, /RAN/);
  });
});
