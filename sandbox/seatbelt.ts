// macOS backend: /usr/bin/sandbox-exec (absolute, so PATH cannot substitute it) with a generated
// profile. Deny by default, read everywhere, write only under the writable roots (the session
// root in workspace-write, a linked worktree's share of its repository, and the session temp area)
// minus the protected git paths; network only when allowed. Paths are canonicalised (/tmp →
// /private/tmp) and passed as -D parameters, never spliced into the profile text. Not runnable on
// the Linux CI: the profile and argv are unit-tested.
// A fenced agent (`fenceAgent`, I-118) gets a profile from the same rule builder: every folder a
// writable root minus its git and config protection (as the session root), its state dirs and
// files and its temp area writable, its hidden entries denied read and write (a writable entry
// inside one and the `readable` ones given back after), and the network for IP only: no unix
// socket but the system resolver's (mDNSResponder: getaddrinfo asks it over that socket). A
// process run as root keeps root's rights outside what the profile denies (Seatbelt has no
// capabilities to drop); the profile still refuses every write and read it does not allow.
import * as fs from "node:fs";
import * as path from "node:path";
import { settleFence, workDirOf } from "./agentFence";
import { childEnv } from "./env";
import { ensureDir } from "./tmpArea";
import { CONFIG_DIRS, extraInRoot, protectionPlan } from "./configPaths";
import { clearOfMasks } from "./gitWorktree";
import { isInside } from "./pathGuard";
import type { AgentCommand, AgentFence, CommandSandbox, SandboxContext, WrappedCommand } from "./types";
import { unconfinedCommand } from "./unconfined";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

export interface SeatbeltParams {
  /** -D name → value */
  params: Array<[string, string]>;
  profile: string;
}

function canonical(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/** A writable root: `readOnly` subtrees excluded from writes, `pinned` paths whose own entry may not be renamed or removed. */
interface WritableRoot {
  dir: string;
  readOnly: readonly string[];
  /** Already canonical. */
  pinned: readonly string[];
}

/** What a profile allows beyond reading everywhere. */
interface ProfileRules {
  writable: readonly WritableRoot[];
  /** Denied read and write; a writable root inside one is given back after the deny. */
  hidden: readonly string[];
  /** Read allowed again after the hidden rules. */
  readable: readonly string[];
  /** "ip": internet sockets and the resolver's unix socket, no other unix socket. */
  network: "none" | "all" | "ip";
}

/**
 * A folder as a writable root (the session root, or each of an agent's folders) minus its git
 * metadata and protected config. By name always (this also covers a repo the agent would create at
 * the root), plus what gitPlan finds the way git does. Seatbelt checks the path itself, so `.git`
 * may not be renamed or replaced even when it is a symlink or a `gitdir:` file.
 * Protected config (I-112) the same way: the config folders by name, existing or not (a path rule
 * needs nothing to exist), the entries the plan found in any spelling, and the client's extra
 * paths. A new `*.code-workspace` has no fixed name: the catch-and-hold covers it.
 * A genuine linked worktree (gitWorktree.ts, I-122) adds a writable root per dir its plan grants
 * outside the folder, each minus the plan's read-only and masked entries inside it and pinned
 * itself (no rename, no removal); none when one lies in or holds a `hidden` dir.
 */
function folderRoots(
  root: string,
  protectedPaths: readonly string[],
  realpath: (p: string) => string,
  hidden: readonly string[],
): WritableRoot[] {
  const plan = clearOfMasks(protectionPlan(root, protectedPaths), root, hidden.map(realpath));
  const dotgit = path.join(root, ".git");
  const inRoot = [...plan.readOnly, ...plan.masked].filter((p) => isInside(p, root));
  const readOnly = [path.join(dotgit, "hooks"), path.join(dotgit, "config")];
  for (const name of CONFIG_DIRS) readOnly.push(path.join(root, name));
  readOnly.push(...extraInRoot(root, protectedPaths));
  for (const p of inRoot) if (!readOnly.includes(p)) readOnly.push(p);
  const folder: WritableRoot = { dir: root, readOnly, pinned: [realpath(dotgit), ...plan.pinned.map(realpath)] };
  const grants = plan.writable.map((dir) => ({
    dir,
    readOnly: [...plan.readOnly, ...plan.masked].filter((p) => p !== dir && isInside(p, dir)),
    pinned: [realpath(dir)],
  }));
  return [folder, ...grants];
}

/** The one rule builder of both profiles: parameters and the profile text. */
function buildProfile(rules: ProfileRules, realpath: (p: string) => string): SeatbeltParams {
  const params: Array<[string, string]> = [];
  const roots = rules.writable.map((r, i) => {
    const name = `WRITABLE_ROOT_${i}`;
    const dir = realpath(r.dir);
    params.push([name, dir]);
    const ro = r.readOnly.map((p, j) => {
      const roName = `${name}_RO_${j}`;
      params.push([roName, realpath(p)]);
      return `(require-not (subpath (param "${roName}")))`;
    });
    const pins = r.pinned.map((p, j) => {
      const pinName = `${name}_PIN_${j}`;
      params.push([pinName, p]);
      return `(require-not (literal (param "${pinName}")))`;
    });
    const subpath = `(subpath (param "${name}"))`;
    const write = `(require-all ${subpath} ${[...ro, ...pins].join(" ")})`.replace(/ \)$/, ")");
    return { dir, subpath, write, whole: ro.length + pins.length === 0 };
  });
  const hidden = rules.hidden.map((d, i) => {
    const real = realpath(d);
    params.push([`HIDDEN_${i}`, real]);
    return { real, rule: `(subpath (param "HIDDEN_${i}"))` };
  });
  const readable = rules.readable.map((d, i) => {
    params.push([`READABLE_${i}`, realpath(d)]);
    return `(subpath (param "READABLE_${i}"))`;
  });
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow pseudo-tty)",
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+"))',
    "(allow file-read*)",
    '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+"))',
    `(allow file-write* ${roots.map((r) => r.write).join(" ")})`,
  ];
  // Later rules win: hide, then give back what the hidden dirs hold that stays writable (minus its
  // protected paths again), hide again what lies inside that, then give back what stays readable
  // (bubblewrap's order of masks and binds). An empty deny would deny everything.
  const deny = (hs: typeof hidden): void => {
    if (hs.length > 0) lines.push(`(deny file-read* file-write* ${hs.map((h) => h.rule).join(" ")})`);
  };
  deny(hidden);
  const back = roots.filter((r) => hidden.some((h) => isInside(r.dir, h.real)));
  for (const r of back) {
    if (r.whole) lines.push(`(allow file-read* file-write* ${r.subpath})`);
    else lines.push(`(allow file-read* ${r.subpath})`, `(allow file-write* ${r.write})`);
  }
  deny(hidden.filter((h) => back.some((r) => h.real !== r.dir && isInside(h.real, r.dir))));
  if (readable.length > 0) lines.push(`(allow file-read* ${readable.join(" ")})`);
  if (rules.network === "all") lines.push("(allow network-outbound)", "(allow network-inbound)", "(allow system-socket)");
  if (rules.network === "ip")
    lines.push(
      "(allow network-outbound (remote ip))",
      "(allow network-bind network-inbound (local ip))",
      '(allow network-outbound (remote unix-socket (path-literal "/private/var/run/mDNSResponder")))',
      "(allow system-socket)",
    );
  return { params, profile: lines.join("\n") + "\n" };
}

/**
 * `hide`: directories no command may read or write (the data dir with every session's log, the
 * parent of the session temp areas); the session's own temp area is allowed again after them.
 */
export function seatbeltProfile(
  ctx: SandboxContext,
  realpath: (p: string) => string = canonical,
  hide: readonly string[] = [],
): SeatbeltParams {
  const hidden = [...hide, path.dirname(ctx.tmpDir)];
  const writable: WritableRoot[] = [];
  if (ctx.mode === "workspace-write") writable.push(...folderRoots(ctx.root, ctx.protectedPaths ?? [], realpath, hidden));
  writable.push({ dir: ctx.tmpDir, readOnly: [], pinned: [] });
  return buildProfile({ writable, hidden, readable: [], network: ctx.network ? "all" : "none" }, realpath);
}

/** The agent's profile (the fence must be settled): folders, state and temp area writable, hidden denied, IP network. */
export function seatbeltFenceProfile(f: AgentFence, realpath: (p: string) => string = canonical): SeatbeltParams {
  const writable: WritableRoot[] = [
    ...f.folders.flatMap((root) => folderRoots(root, f.protectedPaths ?? [], realpath, f.hidden)),
    ...[...f.stateDirs, ...(f.stateFiles ?? []), f.tmpDir].map((dir) => ({ dir, readOnly: [], pinned: [] })),
  ];
  return buildProfile({ writable, hidden: f.hidden, readable: f.readable ?? [], network: "ip" }, realpath);
}

function sandboxExecArgs({ params, profile }: SeatbeltParams, argv: readonly string[]): string[] {
  const args = ["-p", profile];
  for (const [k, v] of params) args.push(`-D${k}=${v}`);
  args.push("--", ...argv);
  return args;
}

export function seatbeltArgs(
  command: string,
  ctx: SandboxContext,
  shell = "/bin/bash",
  realpath?: (p: string) => string,
  hide: readonly string[] = [],
): string[] {
  return sandboxExecArgs(seatbeltProfile(ctx, realpath, hide), [shell, "-c", command]);
}

/** sandbox-exec's argv for the agent: the fence's profile, then the agent's own argv (no shell). */
export function seatbeltFenceArgs(cmd: AgentCommand, f: AgentFence, realpath?: (p: string) => string): string[] {
  return sandboxExecArgs(seatbeltFenceProfile(f, realpath), [cmd.command, ...cmd.args]);
}

export function createSeatbeltSandbox(env: NodeJS.ProcessEnv, hide: readonly string[] = []): CommandSandbox {
  return {
    backend: "sandbox-exec",
    wrap(command, ctx, { cwd, unconfined }): WrappedCommand {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, env);
      ensureDir(ctx.tmpDir);
      return {
        file: SANDBOX_EXEC,
        args: seatbeltArgs(command, ctx, "/bin/bash", canonical, hide),
        env: childEnv(env, canonical(ctx.tmpDir)),
        cwd,
      };
    },
    fenceAgent(cmd, fence): WrappedCommand {
      const settled = settleFence(fence);
      const tmpDir = canonical(settled.tmpDir);
      const env = { ...cmd.env, TMPDIR: tmpDir };
      return { file: SANDBOX_EXEC, args: seatbeltFenceArgs({ ...cmd, env }, settled, canonical), env, cwd: workDirOf(settled) };
    },
  };
}
