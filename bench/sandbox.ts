// 6. Sandboxed command: `true` run plainly vs under the sandbox backend, interleaved run by run.
// The backend comes from the project's sandbox module (detectSandbox → wrap) when it works; the
// bubblewrap recipe of reference/sandbox.md §1.2 is measured beside it either way.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Benchmark } from "./lib/bench";
import { errorText } from "./lib/bench";
import { tempDir } from "./lib/paths";
import { summarize } from "./lib/stats";
import { childrenCpuMs } from "./lib/proc";

interface Variant {
  name: string;
  file: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /**
   * Wraps the command afresh for each run, as the bash tool does: the descriptors it binds (child fd
   * 3, 4, …, the seccomp filter's read offset among them) are single-use. Timed from the wrap.
   */
  wrap?: () => { file: string; args: string[]; env: Record<string, string>; cwd: string; fds?: number[] };
}

function runOnce(v: Variant): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const w = v.wrap?.() ?? { ...v, fds: [] };
    let child;
    try {
      child = spawn(w.file, w.args, { cwd: w.cwd, env: w.env ?? process.env, stdio: ["ignore", "pipe", "pipe", ...(w.fds ?? [])] });
    } finally {
      for (const fd of w.fds ?? []) closeSync(fd);
    }
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.resume();
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`${v.name}: exit ${code}: ${err.trim().slice(0, 200)}`));
      else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
}

function bwrapRecipe(root: string, tmp: string, argv: string[]): string[] {
  // reference/sandbox.md §1.2 "full set", with the recommended per-session tmp bound at /tmp (bound before the root).
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--bind",
    tmp,
    "/tmp",
    "--bind",
    root,
    root,
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-net",
    "--die-with-parent",
    "--new-session",
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--chdir",
    root,
    "--",
    ...argv,
  ];
}

async function moduleVariant(root: string, tmp: string): Promise<Variant | string> {
  try {
    const mod = (await import("../sandbox/index")) as typeof import("../sandbox/index");
    const sb = await mod.detectSandbox(process.env);
    if (sb.backend === "none") return `detectSandbox() found no backend (${sb.backend})`;
    const wrap = () =>
      sb.wrap(
        "true",
        { sessionId: "bench", mode: "workspace-write", approval: "on-request", root, tmpDir: tmp, network: false },
        { cwd: root, unconfined: false },
      );
    return { name: `sandbox module (${sb.backend}): wrap("true") + spawn`, file: "", args: [], wrap };
  } catch (e) {
    return `sandbox module not usable: ${errorText(e)}`;
  }
}

export const sandbox: Benchmark = {
  id: "sandbox",
  title: "6. Sandboxed command — `true` plain vs under the sandbox",
  async run(ctx) {
    const n = ctx.quick ? 20 : 100;
    const root = tempDir("sbroot");
    const tmp = tempDir("sbtmp");
    mkdirSync(join(root, "sub"), { recursive: true });
    const variants: Variant[] = [
      { name: "/bin/true, no sandbox", file: "/bin/true", args: [], cwd: root },
      { name: "bash -c true, no sandbox", file: "/bin/bash", args: ["-c", "true"], cwd: root },
    ];
    const notes: string[] = [];
    const mod = await moduleVariant(root, tmp);
    if (typeof mod === "string") notes.push(mod);
    else variants.push(mod);
    if (existsSync("/usr/bin/bwrap")) {
      variants.push({
        name: "bwrap recipe (sandbox.md §1.2) + /bin/true",
        file: "/usr/bin/bwrap",
        args: bwrapRecipe(root, tmp, ["/bin/true"]),
        cwd: root,
      });
      variants.push({
        name: "bwrap recipe + bash -c true",
        file: "/usr/bin/bwrap",
        args: bwrapRecipe(root, tmp, ["/bin/bash", "-c", "true"]),
        cwd: root,
      });
    } else notes.push("/usr/bin/bwrap not found");
    const ok: Variant[] = [];
    for (const v of variants) {
      try {
        await runOnce(v);
        ok.push(v);
      } catch (e) {
        notes.push(`${v.name}: ${errorText(e)}`);
      }
    }
    const samples = ok.map(() => [] as number[]);
    const childCpu = ok.map(() => 0);
    for (let i = 0; i < n; i++) {
      for (const [k, v] of ok.entries()) {
        const c0 = childrenCpuMs();
        samples[k]?.push(await runOnce(v));
        childCpu[k] = (childCpu[k] ?? 0) + childrenCpuMs() - c0;
      }
    }
    const rows = ok.map((v, k) => ({ variant: v.name, ms: summarize(samples[k] ?? []), childCpuMs: (childCpu[k] ?? 0) / n }));
    const plain = rows[1]?.ms.p50 ?? Number.NaN; // bash -c true: what the bash tool runs
    ctx.log(`  ${rows.map((r) => `${r.variant}: ${r.ms.p50.toFixed(2)} ms`).join("; ")}`);
    notes.push(
      `n=${n} each, interleaved; time from spawn() to 'close' with piped stdout/stderr. Target (DESIGN §7): ≤ 10 ms median under the sandbox.`,
    );
    notes.push(
      "child CPU: user + sys of the waited-for child tree (this process's cutime + cstime, 10 ms ticks, averaged over n). It includes the exec of a forked copy of this Node process, the same for every variant: compare differences between rows, not absolute values.",
    );
    return {
      tables: [
        {
          title: sandbox.title,
          headers: ["variant", "n", "median ms", "p10", "p90", "max", "overhead vs bash -c true", "child CPU ms / run"],
          rows: rows.map((r) => [
            r.variant,
            r.ms.n,
            r.ms.p50,
            r.ms.p10,
            r.ms.p90,
            r.ms.max,
            `${r.ms.p50 - plain >= 0 ? "+" : ""}${(r.ms.p50 - plain).toFixed(2)} ms`,
            r.childCpuMs,
          ]),
          notes,
        },
      ],
      data: { n, rows, notes },
    };
  },
};
