// The last line of defence of the descriptor binds (bindFds.ts, I-112): before a confined command
// runs, a few lines of POSIX shell inside the sandbox read /proc/self/mountinfo and refuse to run
// it when anything is writable that bwrap was never asked to bind writable. bwrap turns a
// `--bind-fd N DEST` source back into a path (realpath of /proc/self/fd/N) before it mounts it, and
// its own check after the mount compares the descriptor with what DEST names at that moment; so a
// directory in the folder swapped for a symlink to outside and back at the right moments (by a
// process outside this sandbox) mounts the OUTSIDE directory writable at the link's target and
// passes that check. The mount table cannot lie about where a mount is: such a mount sits at an
// unplanned mount point, and the command is refused before it runs. Mounts only bwrap makes (its
// `/dev`, `/proc` and what the host mounted below them) are not checked.

/** Mount points as /proc/self/mountinfo spells them: space, tab, newline and backslash in octal. */
export function mountinfoPath(p: string): string {
  return p.replace(/[ \t\n\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

/**
 * Where a bwrap argv mounts something writable: `--bind`/`--bind-fd`/`--dev-bind` destinations and
 * `--tmpfs` ones not followed by a `--remount-ro` of the same path.
 */
export function writableDests(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "--bind" || a === "--bind-fd" || a === "--dev-bind" || a === "--bind-try" || a === "--dev-bind-try")
      out.push(args[i + 2] ?? "");
    else if (a === "--tmpfs") out.push(args[i + 1] ?? "");
    else if (a === "--remount-ro") {
      const at = out.lastIndexOf(args[i + 1] ?? "");
      if (at !== -1) out.splice(at, 1);
    }
  }
  return out.filter((d) => d !== "");
}

/**
 * The check, run by the sandbox's shell as `shell -c MOUNT_CHECK name shell command dest…`: every
 * writable mount outside /dev and /proc must be at one of the `dest`s, else it exits 125 with a
 * clear message and the command never starts; then it execs `shell -c command`.
 */
export const MOUNT_CHECK = [
  "sh_=$1; cmd=$2; shift 2",
  "while read -r _id _parent _dev _root mnt opts _rest; do",
  '  case ",$opts," in *,rw,*) ;; *) continue ;; esac',
  '  case "$mnt" in /dev|/dev/*|/proc|/proc/*) continue ;; esac',
  "  ok=",
  '  for d in "$@"; do if [ "$mnt" = "$d" ]; then ok=1; break; fi; done',
  '  if [ -z "$ok" ]; then',
  '    echo "Refusing to run the command: its sandbox came up with $mnt writable, which it never binds (a directory in the folder was swapped while the sandbox was set up). Nothing ran." >&2',
  "    exit 125",
  "  fi",
  "done < /proc/self/mountinfo",
  'exec "$sh_" -c "$cmd"',
].join("\n");

/** The argv tail that runs `command` with `shell` after the check, for a bwrap argv `args` (before its `--`). */
export function checkedCommand(args: readonly string[], shell: string, command: string): string[] {
  return ["--", shell, "-c", MOUNT_CHECK, "manifold-sandbox", shell, command, ...writableDests(args).map(mountinfoPath)];
}
