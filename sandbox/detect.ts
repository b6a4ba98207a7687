// Picks the command sandbox once at start-up: probe, log the backend to stderr, never downgrade
// silently. Linux: bubblewrap, else the Landlock helper (weaker, logged as such), else none.
// MANIFOLD_SANDBOX overrides detection: `none` forces "no backend" (tests, or users who accept
// being asked for every command); `bubblewrap` / `landlock` / `sandbox-exec` demand that backend
// and fall back to `none` (with the reason logged) when it does not work.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createBwrapSandbox, privilegeArgs } from "./bwrap";
import { createLandlockSandbox } from "./landlock";
import { LANDLOCK_HELPER_SOURCE } from "./landlockHelper";
import { createNoSandbox } from "./none";
import { seccompSupported, socketFilter } from "./seccomp";
import { createSeatbeltSandbox, SANDBOX_EXEC } from "./seatbelt";
import type { CommandSandbox } from "./types";

export interface DetectOptions {
  /** Directories a bwrap binary must not sit in (workspaces). */
  excludeDirs?: readonly string[];
  log?: (line: string) => void;
  /**
   * Host directories commands must not see (bubblewrap: masked; sandbox-exec: denied; Landlock cannot),
   * e.g. the data dir holding session logs and Manifold's storage (I-116). Real paths, checked once
   * (`resolveHideDirs` in sandbox/hideDirs.ts).
   */
  hide?: readonly string[];
}

const SYSTEM_DIRS = ["/usr/bin", "/bin", "/usr/local/bin"];

function isInsideAny(file: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => {
    const rel = path.relative(d, file);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  });
}

/** Absolute bwrap candidates: system dirs first, then absolute PATH entries; never inside a workspace or the cwd. */
export function bwrapCandidates(env: NodeJS.ProcessEnv, excludeDirs: readonly string[]): string[] {
  const pathDirs = (env.PATH ?? "").split(path.delimiter).filter((d) => path.isAbsolute(d));
  const exclude = [...excludeDirs, process.cwd()];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...SYSTEM_DIRS, ...pathDirs]) {
    const file = path.join(dir, "bwrap");
    let real: string;
    try {
      real = fs.realpathSync(file);
      fs.accessSync(real, fs.constants.X_OK);
    } catch {
      continue;
    }
    if (seen.has(real) || isInsideAny(real, exclude)) continue;
    seen.add(real);
    out.push(real);
  }
  return out;
}

function run(file: string, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: "/usr/bin:/bin" } }, (err, stdout, stderr) => {
      resolve({ ok: !err, stdout: String(stdout ?? ""), stderr: String(stderr ?? (err ? err.message : "")) });
    });
  });
}

/** The capability and no_new_privs lines a confined command must show. */
export function privilegesDropped(status: string): boolean {
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(status)?.[1];
  return ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"].every((c) => /^0+$/.test(field(c) ?? "x")) && field("NoNewPrivs") === "1";
}

export interface BwrapProbe {
  ok: boolean;
  reason: string;
  /** The bwrap accepts `--disable-userns` (0.8+). */
  disableUserns: boolean;
}

/**
 * Runs bwrap with the namespaces and privilege flags every command gets and reads
 * /proc/self/status inside: a backend whose commands would keep a capability (or lack
 * no_new_privs) is refused rather than trusted. Tries `--disable-userns` first.
 */
export async function probeBwrap(bwrapPath: string): Promise<BwrapProbe> {
  let reason = "";
  for (const disableUserns of [true, false]) {
    const r = await run(bwrapPath, [
      ...privilegeArgs(disableUserns),
      "--unshare-net",
      "--ro-bind",
      "/",
      "/",
      "--proc",
      "/proc",
      "--",
      "/bin/cat",
      "/proc/self/status",
    ]);
    if (!r.ok) {
      reason ||= r.stderr.trim();
      continue;
    }
    if (!privilegesDropped(r.stdout))
      return { ok: false, reason: "commands would keep capabilities or lack no_new_privs inside bwrap", disableUserns };
    return { ok: true, reason: "", disableUserns };
  }
  return { ok: false, reason, disableUserns: false };
}

const PYTHONS = ["/usr/bin/python3", "/bin/python3", "/usr/local/bin/python3"];

/** Runs the Landlock helper around /bin/true with a throwaway writable dir. */
export async function probeLandlock(python: string): Promise<{ ok: boolean; reason: string }> {
  const r = await run(python, [
    "-I",
    "-c",
    LANDLOCK_HELPER_SOURCE,
    "0",
    seccompSupported() ? socketFilter({ sockets: "all" }).toString("hex") : "-",
    "/nonexistent-manifold-probe",
    "--",
    "/bin/true",
  ]);
  return { ok: r.ok, reason: r.stderr.trim() };
}

export async function detectSandbox(env: NodeJS.ProcessEnv = process.env, opts: DetectOptions = {}): Promise<CommandSandbox> {
  const log = opts.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const forced = env.MANIFOLD_SANDBOX?.trim();
  const report = (sb: CommandSandbox, note: string): CommandSandbox => {
    log(`[sandbox] backend: ${sb.backend}${note ? ` (${note})` : ""}`);
    return sb;
  };
  if (forced === "none")
    return report(
      createNoSandbox(env, "MANIFOLD_SANDBOX=none"),
      "forced by MANIFOLD_SANDBOX=none; every command in a confined mode will ask",
    );
  const reasons: string[] = [];
  if (process.platform === "linux" && (!forced || forced === "bubblewrap")) {
    const candidates = bwrapCandidates(env, opts.excludeDirs ?? []);
    if (candidates.length === 0) reasons.push("bwrap not found");
    for (const bin of candidates) {
      const probe = await probeBwrap(bin);
      if (probe.ok) {
        const notes = [bin];
        if (!probe.disableUserns) notes.push("no --disable-userns (bwrap < 0.8): nested user namespaces stay possible");
        if (!seccompSupported()) notes.push(`no seccomp filter on ${process.arch}: unix sockets stay reachable without network`);
        const note = notes.join("; ");
        return report(createBwrapSandbox({ bwrapPath: bin, env, hide: opts.hide, disableUserns: probe.disableUserns }), note);
      }
      reasons.push(`${bin}: ${probe.reason || "probe failed"}`);
    }
  }
  if (process.platform === "linux" && (!forced || forced === "landlock")) {
    const python = PYTHONS.find((p) => fs.existsSync(p));
    if (!python) reasons.push("landlock: python3 not found");
    else {
      const probe = await probeLandlock(python);
      if (probe.ok) {
        return report(
          createLandlockSandbox({ python, env }),
          `${python}; weaker than bubblewrap: no private /tmp, the hidden dirs (data dir, Manifold's storage) and other sessions' temp areas readable by commands, git metadata not protected${seccompSupported() ? "" : `, no seccomp filter on ${process.arch}: only TCP blocked`}`,
        );
      }
      reasons.push(`landlock: ${probe.reason || "probe failed"}`);
    }
  }
  if (process.platform === "darwin" && (!forced || forced === "sandbox-exec")) {
    if (fs.existsSync(SANDBOX_EXEC)) return report(createSeatbeltSandbox(env, opts.hide), SANDBOX_EXEC);
    reasons.push(`${SANDBOX_EXEC} missing`);
  }
  if (forced && !["bubblewrap", "landlock", "sandbox-exec"].includes(forced)) reasons.push(`unknown MANIFOLD_SANDBOX value "${forced}"`);
  const reason = reasons.join("; ") || `no sandbox backend for ${process.platform}`;
  return report(
    createNoSandbox(env, reason),
    `${reason}; every command in a confined mode will ask. Fix: apt install bubblewrap (or allow unprivileged user namespaces)`,
  );
}
