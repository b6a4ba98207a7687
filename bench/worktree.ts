// 12. Worktree session — "New Session in Worktree…"'s core: `createWorktree` (extension/worktrees/)
// on a committed 10,000-file repository, beside the floor, plain `git worktree add` of the same
// commit run directly on the same repository, interleaved in one run so machine noise cancels in
// the ratio. Each worktree is removed (untimed) before the next run.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkBranchName, repoOf } from "../extension/worktrees/repo";
import { createWorktree, discardWorktree } from "../extension/worktrees/worktreeGit";
import { sleep, type Benchmark } from "./lib/bench";
import { childrenCpuMs } from "./lib/proc";
import { tempDir } from "./lib/paths";
import { summarize } from "./lib/stats";

const FILES = 10_000;
const ENV = { PATH: process.env.PATH ?? "", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", LC_ALL: "C" };

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, env: { ...ENV, HOME: cwd }, stdio: "ignore" });
}

function makeRepo(folder: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = join(folder, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`.repeat(20));
  }
  git(folder, "init", "-q", "-b", "main");
  git(folder, "add", "-A");
  git(folder, "-c", "user.name=Bench", "-c", "user.email=bench@manifold.invalid", "commit", "-q", "-m", "10,000 files");
}

/** The floor: `git worktree add` as a user would type it (hooks off, like ours, so both do the same work). */
function floorAdd(folder: string, branch: string, where: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["-c", "core.hooksPath=/dev/null", "worktree", "add", "-q", "-b", branch, where, "HEAD"], {
      cwd: folder,
      env: { ...ENV, HOME: folder },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git worktree add exited ${code}`))));
  });
}

/** Untimed: the removed worktree's writeback settles, so it does not land in the next run. */
async function settle(): Promise<void> {
  execFileSync("sync");
  await sleep(300);
}

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const c0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpu: childrenCpuMs() - c0 };
}

export const worktree: Benchmark = {
  id: "worktree",
  title: "12. Worktree session — create on a 10,000-file repository",
  async run(ctx) {
    const n = ctx.quick ? 3 : 9;
    const base = tempDir("worktree");
    const folder = join(base, "repo");
    makeRepo(folder);
    const ours: number[] = [];
    const floor: number[] = [];
    const checks: number[] = [];
    let oursCpu = 0;
    let floorCpu = 0;
    for (let i = 0; i < n; i++) {
      // Alternate which goes first, so neither always gets the warmer cache.
      const runOurs = async () => {
        let rec: Awaited<ReturnType<typeof createWorktree>> | undefined;
        const t = await timed(async () => (rec = await createWorktree(folder, { branch: `ours-${i}` })));
        ours.push(t.ms);
        oursCpu += t.cpu;
        await discardWorktree(rec!, { deleteBranch: true });
        await settle();
      };
      const runFloor = async () => {
        const where = join(base, "floor", `f-${i}`);
        const t = await timed(() => floorAdd(folder, `floor-${i}`, where));
        floor.push(t.ms);
        floorCpu += t.cpu;
        git(folder, "worktree", "remove", "--force", where);
        git(folder, "branch", "-q", "-D", `floor-${i}`);
        await settle();
      };
      const runChecks = async () => {
        const t = await timed(async () => {
          const repo = await repoOf(folder);
          if (repo.ok) await checkBranchName(repo, `checks-${i}`);
        });
        checks.push(t.ms);
      };
      if (i % 2 === 0) {
        await runOurs();
        await runFloor();
      } else {
        await runFloor();
        await runOurs();
      }
      await runChecks();
    }
    const o = summarize(ours);
    const f = summarize(floor);
    const c = summarize(checks);
    ctx.log(`  createWorktree p50 ${o.p50.toFixed(1)} ms, git worktree add p50 ${f.p50.toFixed(1)} ms`);
    return {
      tables: [
        {
          title: worktree.title,
          headers: ["case", "n", "median ms", "p10", "p90", "max", "child CPU ms / run", "× floor (median)"],
          rows: [
            ["createWorktree (Manifold)", o.n, o.p50, o.p10, o.p90, o.max, oursCpu / n, o.p50 / f.p50],
            ["git worktree add (floor)", f.n, f.p50, f.p10, f.p90, f.max, floorCpu / n, 1],
            ["of createWorktree: repoOf + checkBranchName alone", c.n, c.p50, c.p10, c.p90, c.max, null, c.p50 / f.p50],
          ],
          notes: [
            `${FILES.toLocaleString("en-US")} committed files of ~0.6 KB in 100 directories; runs interleaved (the order alternates), each worktree removed, then \`sync\` and 300 ms, untimed, before the next.`,
            "createWorktree = repoOf (3 git runs) + checkBranchName (2) + `git worktree add -b` at HEAD's sha, with the hardened runner (scrubbed env, -c overrides).",
            "child CPU: user + sys of the git children (cutime + cstime, 10 ms ticks).",
          ],
        },
      ],
      data: { n, files: FILES, ours: o, floor: f, checks: c, ratio: o.p50 / f.p50, oursCpuMs: oursCpu / n, floorCpuMs: floorCpu / n },
    };
  },
};
