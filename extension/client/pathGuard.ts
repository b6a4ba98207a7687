// Confines a path an agent sends (fs/*, terminal cwd) to the session's folder. No `vscode`.
// Same rules as the agent-server's guard (reference/sandbox.md §1.5), written independently because
// the extension and the agent-server share no code:
//  - NUL bytes are refused;
//  - relative input is joined to the real root by string concatenation (never `resolve`, which would
//    fold `link/..` lexically while the kernel follows `link` first);
//  - the path is walked component by component from the filesystem root, keeping the prefix real:
//    `..` pops the real prefix, symlinks (dangling ones too) are followed, missing tails are appended;
//  - inside means `relative(root, real)` does not leave the root (so `/ws-evil` is not under `/ws`).
// Callers must operate on the returned real path, never on the raw input.
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import * as path from "node:path";

export type ConfineResult = { ok: true; path: string } | { ok: false; reason: string };

const MAX_LINKS = 40;

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function splitComponents(p: string): string[] {
  return p.split(/[\\/]+/).filter((c) => c.length > 0);
}

/** Resolves `abs` (absolute) to the real path the kernel would reach, following every symlink. */
export async function resolveReal(abs: string): Promise<string> {
  const fsRoot = path.parse(abs).root || path.sep;
  let cur = fsRoot;
  let rest = splitComponents(abs.slice(fsRoot.length));
  let links = 0;
  while (rest.length > 0) {
    const name = rest[0] as string;
    rest = rest.slice(1);
    if (name === ".") continue;
    if (name === "..") {
      cur = path.dirname(cur);
      continue;
    }
    const next = cur.endsWith(path.sep) ? cur + name : cur + path.sep + name;
    let st;
    try {
      st = await lstat(next);
    } catch (err) {
      if (!isMissing(err)) throw err;
      // Missing: nothing below it can be a link, so its `..` are lexical. Normalise only this tail and
      // walk on: a leading `..` pops the real prefix, `missing/../x` goes on with `x` (which may be a link).
      const remaining = [name, ...rest];
      if (remaining.includes("..")) {
        rest = splitComponents(path.normalize(remaining.join(path.sep))).filter((c) => c !== ".");
        continue;
      }
      return (cur.endsWith(path.sep) ? cur : cur + path.sep) + remaining.filter((c) => c !== ".").join(path.sep);
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw Object.assign(new Error("too many levels of symbolic links"), { code: "ELOOP" });
      const target = await readlink(next);
      if (path.isAbsolute(target)) {
        const tRoot = path.parse(target).root || path.sep;
        cur = tRoot;
        rest = [...splitComponents(target.slice(tRoot.length)), ...rest];
      } else {
        rest = [...splitComponents(target), ...rest];
      }
      continue;
    }
    cur = next;
  }
  return cur;
}

async function isCaseInsensitive(realRoot: string): Promise<boolean> {
  if (process.platform === "win32") return true;
  const base = path.basename(realRoot);
  const flipped = base === base.toLowerCase() ? base.toUpperCase() : base.toLowerCase();
  if (flipped === base) return false;
  try {
    const [a, b] = await Promise.all([stat(realRoot), stat(path.join(path.dirname(realRoot), flipped))]);
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** True when `real` is `realRoot` or below it (both already real). */
export function isInside(realRoot: string, real: string, caseInsensitive = false): boolean {
  const fold = (p: string) => (caseInsensitive ? p.normalize("NFC").toLowerCase() : p);
  const rel = path.relative(fold(realRoot), fold(real));
  return rel === "" || (rel !== ".." && !rel.startsWith(".." + path.sep) && !path.isAbsolute(rel));
}

/** A session's confinement: its folder (resolved once, lazily). */
export class PathConfinement {
  #root?: Promise<{ real: string; ci: boolean }>;

  constructor(readonly root: string) {}

  #realRoot(): Promise<{ real: string; ci: boolean }> {
    this.#root ??= (async () => {
      const real = await realpath(this.root);
      return { real, ci: await isCaseInsensitive(real) };
    })();
    return this.#root;
  }

  /** The real root (for sandbox binds and as a default cwd). */
  async realRoot(): Promise<string> {
    return (await this.#realRoot()).real;
  }

  async confine(input: string): Promise<ConfineResult> {
    if (typeof input !== "string" || input.length === 0) return { ok: false, reason: "empty path" };
    if (input.includes("\0")) return { ok: false, reason: "path contains a NUL byte" };
    if (process.platform === "win32" && /^[a-zA-Z]:.*:/.test(input)) return { ok: false, reason: "alternate data streams are not allowed" };
    let root: { real: string; ci: boolean };
    try {
      root = await this.#realRoot();
    } catch {
      return { ok: false, reason: `the session folder ${this.root} is not accessible` };
    }
    const abs = path.isAbsolute(input) ? input : root.real + path.sep + input;
    let real: string;
    try {
      real = await resolveReal(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      return { ok: false, reason: `cannot resolve ${input} (${code})` };
    }
    if (!isInside(root.real, real, root.ci)) {
      return { ok: false, reason: `${input} is outside the session folder ${this.root}` };
    }
    return { ok: true, path: real };
  }
}
