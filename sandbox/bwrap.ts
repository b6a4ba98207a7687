// bubblewrap backend (Linux). Per command: read the whole filesystem, write only the session root
// (workspace-write) and the session temp area (bound at /tmp), git hooks/config read-only and the
// git dirs pinned (gitPlan.ts), a genuine linked worktree's share of its repository writable
// (objects, refs, logs, its own git dir minus its pointers: gitWorktree.ts, I-122), no network
// unless allowed, own user/pid/ipc/uts namespaces, dies with the server.
// Every bind source inside agent reach goes by verified descriptor (bindFds.ts, I-112): the root, the
// plan's entries, the temp area; the seccomp filter too. The WrappedCommand carries them.
import * as fs from "node:fs";
import * as path from "node:path";
import { execLine, settleFence, workDirOf, writableOf } from "./agentFence";
import { BindFds } from "./bindFds";
import { checkedCommand } from "./mountCheck";
import { childEnv } from "./env";
import { protectionPlan } from "./configPaths";
import type { GitProtection } from "./gitPlan";
import { clearOfMasks } from "./gitWorktree";
import { isInside } from "./pathGuard";
import { filterFile, seccompSupported, socketFilter } from "./seccomp";
import { ensureDir } from "./tmpArea";
import type { AgentCommand, AgentFence, CommandSandbox, SandboxContext, WrappedCommand } from "./types";
import { unconfinedCommand } from "./unconfined";

export interface BwrapOptions {
  /** Absolute path of the bwrap binary (outside every workspace). */
  bwrapPath: string;
  /** Environment the allowlist is taken from. */
  env: NodeJS.ProcessEnv;
  /** bash to run inside (absolute). */
  shell?: string;
  /** Host directories to hide (empty tmpfs over them), e.g. the server's data dir with every session's log. */
  hide?: readonly string[];
  /** The bwrap supports `--disable-userns` (default true; detect probes it). */
  disableUserns?: boolean;
  /** Refuse unix sockets with a seccomp filter when the network is off (default: where the filter knows the arch). */
  seccomp?: boolean;
}

/**
 * Directories masked with an empty tmpfs: the given ones plus the parent of the session temp area,
 * so no session can read a sibling session's temp area by its host path (I-76). The session's own
 * area and root are bound afterwards, so they stay visible even when they sit below a mask.
 */
export function maskDirs(ctx: SandboxContext, hide: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const given of [...hide, path.dirname(ctx.tmpDir)]) {
    if (!path.isAbsolute(given)) continue;
    // Real paths: whether the root contains a mask decides its place in the argv (bwrapArgs).
    let d: string;
    try {
      d = fs.realpathSync(given);
    } catch {
      continue;
    }
    if (path.dirname(d) === d || out.includes(d)) continue;
    out.push(d);
  }
  return out;
}

/**
 * bwrap binds for a protection plan (gitPlan.ts, configPaths.ts): pins first, then a linked
 * worktree's writable share of its repository (gitWorktree.ts), then read-only binds and masks,
 * each source a descriptor `fds` opened and verified now (bindFds.ts): a pin, a writable dir or a
 * read-only entry swapped for a symlink since the plan refuses the command (BindChangedError), and
 * so does a mask target whose directories changed. bwrap re-checks each mount against its
 * descriptor, so a swap after this check fails closed as well.
 */
export function gitProtectionArgs(root: string, plan: GitProtection, fds: BindFds): string[] {
  // A plan lists entries inside the root (the rest is read-only already) and, outside it, only a
  // worktree's writable dirs and what lies in them; a source elsewhere is a bug.
  const inside = (p: string): boolean => p !== root && isInside(p, root);
  for (const w of plan.writable)
    if (isInside(w, root) || isInside(root, w)) throw new Error(`Refusing to bind ${w}: a writable grant of the plan overlaps ${root}.`);
  const planned = (p: string): boolean => inside(p) || plan.writable.some((w) => p !== w && isInside(p, w));
  for (const p of plan.pinned) if (!inside(p)) throw new Error(`Refusing to bind ${p}: the protection plan names a path outside ${root}.`);
  for (const p of [...plan.readOnly, ...plan.masked])
    if (!planned(p)) throw new Error(`Refusing to bind ${p}: the protection plan names a path outside ${root}.`);
  const args: string[] = [];
  for (const d of [...plan.pinned, ...plan.writable]) args.push("--bind-fd", String(fds.open(d, "dir")), d);
  for (const p of plan.readOnly) args.push("--ro-bind-fd", String(fds.open(p, "not-symlink")), p);
  for (const p of plan.masked) {
    fds.checkMaskTarget(p);
    args.push("--ro-bind-fd", String(fds.open("/dev/null", "char-device")), p);
  }
  return args;
}

/**
 * A folder's plan as bwrap applies it: a worktree's grants are dropped when they lie in or hold a
 * masked dir (`masks`), where a bind would re-expose what the mask hides (gitWorktree.ts).
 */
function folderPlan(root: string, protectedPaths: readonly string[], masks: readonly string[]): GitProtection {
  return clearOfMasks(protectionPlan(root, protectedPaths), root, masks);
}

/**
 * Namespaces and privileges of every confined command. `--cap-drop ALL` matters for root: bwrap
 * run by root keeps the full capability set inside the new user namespace, and with it `mount`,
 * `umount`, `chroot`… undo every bind below. Unprivileged bwrap drops them itself; we
 * ask for it in both cases. `--disable-userns` (bwrap ≥ 0.8) refuses nested user namespaces, where
 * a command would get a fresh capability set again. bwrap always sets no_new_privs, so a setuid
 * binary gains nothing.
 */
export function privilegeArgs(disableUserns: boolean): string[] {
  const args = [
    "--new-session",
    "--die-with-parent",
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--cap-drop",
    "ALL",
  ];
  if (disableUserns) args.push("--disable-userns");
  return args;
}

export interface BwrapArgsOptions {
  shell?: string;
  env?: Record<string, string>;
  hide?: readonly string[];
  /** Pass `--disable-userns` (the probe found the bwrap supports it). */
  disableUserns?: boolean;
  /** The child's fd of the seccomp socket filter (see `createBwrapSandbox`); used when the network is off. */
  seccompFd?: number;
}

/** The bwrap argv; every bind source is opened into `fds`, which the caller hands to the spawner (or closes). */
export function bwrapArgs(command: string, ctx: SandboxContext, cwd: string, fds: BindFds, o: BwrapArgsOptions = {}): string[] {
  const shell = o.shell ?? "/bin/bash";
  const env = o.env ?? {};
  const hide = o.hide ?? [];
  const args = privilegeArgs(o.disableUserns ?? true);
  if (!ctx.network) {
    args.push("--unshare-net");
    // The netns isolates IP and abstract sockets, not path-based unix sockets.
    if (o.seccompFd !== undefined) args.push("--seccomp", String(o.seccompFd));
  }
  // /tmp first, then the root: a root under /tmp must stay visible (reference §1.2).
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  // Masks go on before the root bind when they contain the root (it is re-exposed below them), and
  // after it when the root contains them — else the root bind would re-expose the data dir to a
  // session whose folder is, say, the home directory. Late masks are made
  // read-only: nothing is mounted below them, and a write should fail rather than vanish.
  const masks = maskDirs(ctx, hide);
  const late = masks.filter((d) => d !== ctx.root && isInside(d, ctx.root));
  for (const d of masks) if (!late.includes(d)) args.push("--tmpfs", d);
  args.push("--bind-fd", String(fds.open(fs.realpathSync(ctx.tmpDir), "dir")), "/tmp");
  // The root as given (canonical): another session whose folder contains it could swap it for a link.
  const rootFd = String(fds.open(ctx.root, "dir"));
  if (ctx.mode === "workspace-write") {
    // Git metadata and protected config (configPaths.ts, I-112): one plan, the same binds.
    const plan = folderPlan(ctx.root, ctx.protectedPaths ?? [], masks);
    // A worktree's repository under /tmp: the session's temp area replaced /tmp, so its git dir is
    // bound read-only first (as `/` shows it elsewhere), the grants then go on top of the host's.
    const common = plan.writable[0] !== undefined ? path.dirname(plan.writable[0]) : undefined;
    if (common !== undefined && isInside(common, "/tmp")) args.push("--ro-bind-fd", String(fds.open(common, "dir")), common);
    args.push("--bind-fd", rootFd, ctx.root, ...gitProtectionArgs(ctx.root, plan, fds));
  } else {
    // read-only: re-expose the root (it may live under the now-private /tmp) without write access.
    args.push("--ro-bind-fd", rootFd, ctx.root);
  }
  for (const d of late) args.push("--tmpfs", d, "--remount-ro", d);
  args.push("--chdir", cwd, "--clearenv");
  for (const [k, v] of Object.entries(env)) args.push("--setenv", k, v);
  // The command runs only if the mount table shows nothing writable but what is bound above (mountCheck.ts).
  args.push(...checkedCommand(args, shell, command));
  return args;
}

const UNIX_SOCKET_FILTER = socketFilter({ sockets: "unix" });

export interface BwrapFenceOptions {
  disableUserns: boolean;
  /** Refuse unix sockets with the seccomp filter (where it knows the arch). */
  seccomp: boolean;
}

/**
 * The bwrap argv for the agent (the fence must be settled): `/` read-only, each writable entry
 * bound by verified descriptor, each folder's protection plan over it, the hidden entries masked
 * (before the binds when they contain one, after them otherwise, as `maskDirs` orders them for a
 * command), the readable exceptions bound back read-only, unix sockets refused, network kept, no
 * capability, and the mount check before the agent runs.
 */
export function bwrapFenceArgs(cmd: AgentCommand, f: AgentFence, fds: BindFds, o: BwrapFenceOptions): string[] {
  const args = privilegeArgs(o.disableUserns);
  // The filter file sits beside the temp area, in a dir the agent cannot write.
  if (o.seccomp) args.push("--seccomp", String(fds.openForReading(filterFile(path.dirname(f.tmpDir), UNIX_SOCKET_FILTER))));
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  const writable = writableOf(f);
  const holdsWritable = (h: string) => writable.some((w) => w === h || isInside(w, h));
  const early = f.hidden.filter(holdsWritable);
  for (const h of early) args.push(...maskArgs(h, fds));
  for (const d of [...f.stateDirs, f.tmpDir]) args.push("--bind-fd", String(fds.open(d, "dir")), d);
  for (const p of f.stateFiles ?? []) args.push("--bind-fd", String(fds.open(p, "not-symlink")), p);
  for (const root of f.folders)
    args.push(
      "--bind-fd",
      String(fds.open(root, "dir")),
      root,
      ...gitProtectionArgs(root, folderPlan(root, f.protectedPaths ?? [], f.hidden), fds),
    );
  for (const h of f.hidden) if (!early.includes(h)) args.push(...maskArgs(h, fds));
  for (const r of f.readable ?? []) args.push("--ro-bind-fd", String(fds.open(r, "dir")), r);
  // The masks go read-only last: what is bound below them keeps its own flags.
  for (const h of f.hidden) if (fs.statSync(h).isDirectory()) args.push("--remount-ro", h);
  // The environment goes through bwrap's own (the spawner gives exactly `cmd.env`): an agent's key
  // in `--setenv` would sit in bwrap's argv, which every process of the user can read.
  args.push("--chdir", workDirOf(f));
  // Loader variables reach only the agent: bwrap itself, running outside the fence, never loads them.
  for (const [k, v] of Object.entries(cmd.env)) if (LOADER_ENV.test(k)) args.push("--setenv", k, v);
  args.push(...checkedCommand(args, "/bin/sh", execLine(cmd)));
  return args;
}

/** A hidden dir becomes an empty tmpfs (made read-only at the end), a hidden file /dev/null on a nodev mount: unreadable. */
function maskArgs(p: string, fds: BindFds): string[] {
  if (fs.statSync(p).isDirectory()) return ["--tmpfs", p];
  return ["--ro-bind-fd", String(fds.open("/dev/null", "char-device")), p];
}

/** Wraps the agent's command in the fence with bwrap at `bwrapPath`; the descriptors travel with it. */
/** Variables the dynamic loader acts on (`LD_PRELOAD`, `LD_AUDIT`, …, macOS's `DYLD_*`). */
const LOADER_ENV = /^(LD_|DYLD_)/;

export function bwrapFence(bwrapPath: string, cmd: AgentCommand, f: AgentFence, o: BwrapFenceOptions): WrappedCommand {
  const settled = settleFence(f);
  const fds = new BindFds();
  try {
    const env = { ...cmd.env, TMPDIR: settled.tmpDir };
    const args = bwrapFenceArgs({ ...cmd, env }, settled, fds, o);
    const outside = Object.fromEntries(Object.entries(env).filter(([k]) => !LOADER_ENV.test(k)));
    return { file: bwrapPath, args, env: outside, cwd: settled.tmpDir, fds: fds.take() };
  } catch (err) {
    fds.close();
    throw err;
  }
}

export function createBwrapSandbox(opts: BwrapOptions): CommandSandbox {
  const shell = opts.shell ?? "/bin/bash";
  const seccomp = opts.seccomp ?? seccompSupported();
  return {
    backend: "bubblewrap",
    wrap(command, ctx, { cwd, unconfined }): WrappedCommand {
      if (unconfined || ctx.mode === "danger-full-access") return unconfinedCommand(command, ctx, cwd, opts.env, shell);
      // A bwrap binary inside the workspace could have been planted by the agent itself.
      if (isInside(opts.bwrapPath, ctx.root))
        throw new Error(`Refusing to use ${opts.bwrapPath}: the sandbox binary lies inside the workspace.`);
      ensureDir(ctx.tmpDir);
      const env = childEnv(opts.env, "/tmp");
      const fds = new BindFds();
      try {
        // The filter lives beside the session temp areas, a directory every confined command has masked.
        const seccompFd =
          !ctx.network && seccomp ? fds.openForReading(filterFile(path.dirname(ctx.tmpDir), UNIX_SOCKET_FILTER)) : undefined;
        const args = bwrapArgs(command, ctx, cwd, fds, { shell, env, hide: opts.hide, disableUserns: opts.disableUserns, seccompFd });
        return { file: opts.bwrapPath, args, env, cwd: ctx.root, fds: fds.take() };
      } catch (err) {
        fds.close();
        throw err;
      }
    },
    fenceAgent(cmd, fence) {
      for (const root of fence.folders)
        if (isInside(opts.bwrapPath, root)) throw new Error(`Refusing to use ${opts.bwrapPath}: the sandbox binary lies inside ${root}.`);
      return bwrapFence(opts.bwrapPath, cmd, fence, { disableUserns: opts.disableUserns ?? true, seccomp });
    },
  };
}
