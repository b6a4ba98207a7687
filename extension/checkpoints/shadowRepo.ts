// One shadow git repository per workspace folder, in the extension's storage: GIT_DIR there, the
// folder as the work tree, its own index (git's stat cache makes an unchanged folder cheap to
// snapshot). The user's `.git` is never read or written: git skips `.git` entries of the work tree,
// and every run goes through git.ts (scrubbed env, no hooks, no fsmonitor, no user config).
// The repo records the real folder it serves; opening it for another folder is refused (I-105).
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { realRoot } from "../../sandbox";
import { git, GitError, splitZ, type GitRepo } from "./git";
import { ignoreError } from "../../base/errors";

/** Files larger than this are not recorded (and a restore leaves them as they are). */
export const DEFAULT_SIZE_CAP = 10 * 1024 * 1024;
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const FOLDER_KEY = "manifold.folder";

export class ForeignRepoError extends Error {
  constructor(folder: string, recorded: string) {
    super(`The checkpoint store at hand belongs to ${recorded}, not ${folder}; nothing was restored.`);
    this.name = "ForeignRepoError";
  }
}

export interface Snapshot {
  tree: string;
  /** Files that were changed on disk but not recorded, with why (too large, unreadable). */
  skipped: { path: string; reason: string }[];
}

export interface TreeChange {
  path: string;
  /** A: only in `to`; D: only in `from`; M: in both, different. */
  status: "A" | "D" | "M";
  fromMode: string;
  toMode: string;
  fromBlob: string;
  toBlob: string;
  /** Lines added / removed; null for binary files. */
  added: number | null;
  removed: number | null;
}

export function repoDirFor(storageRoot: string, realFolder: string): string {
  return path.join(storageRoot, createHash("sha256").update(realFolder).digest("hex").slice(0, 24) + ".git");
}

export class ShadowRepo {
  readonly repo: GitRepo;
  #ready?: Promise<void>;
  #queue: Promise<unknown> = Promise.resolve();
  /** The tree the index held after our last snapshot (we own the index, so it is still that tree). */
  #lastTree?: string;

  private constructor(
    readonly folder: string,
    gitDir: string,
    readonly sizeCap: number,
    hostEnv?: NodeJS.ProcessEnv,
  ) {
    this.repo = { gitDir, workTree: folder, hostEnv };
  }

  /** The repository for `folder` (its real path) under `storageRoot`. */
  static forFolder(storageRoot: string, folder: string, sizeCap = DEFAULT_SIZE_CAP, hostEnv?: NodeJS.ProcessEnv): ShadowRepo {
    const real = realRoot(folder);
    return new ShadowRepo(real, repoDirFor(storageRoot, real), sizeCap, hostEnv);
  }

  /** Operations on one repository run one at a time (they share its index). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(() => this.#ensure()).then(fn);
    this.#queue = run.catch(ignoreError("exclusive()'s caller hears the failure; the queue only orders"));
    return run;
  }

  #ensure(): Promise<void> {
    this.#ready ??= this.#init().catch((err: unknown) => {
      this.#ready = undefined;
      throw err;
    });
    return this.#ready;
  }

  async #init(): Promise<void> {
    const { gitDir } = this.repo;
    const fresh = !(await exists(path.join(gitDir, "HEAD")));
    if (fresh) {
      await fs.mkdir(path.dirname(gitDir), { recursive: true, mode: 0o700 });
      await git(this.repo, ["init", "-q"]);
      await git(this.repo, ["config", FOLDER_KEY, this.folder]);
      await git(this.repo, ["config", "core.bare", "false"]);
    }
    const recorded = (await git(this.repo, ["config", "--get", FOLDER_KEY], { okCodes: [1] })).stdout.toString("utf8").trim();
    if (recorded !== this.folder) throw new ForeignRepoError(this.folder, recorded || "(unknown)");
    // Attributes of our own GIT_DIR win over the folder's .gitattributes: bytes are stored as they are.
    await fs.mkdir(path.join(gitDir, "info"), { recursive: true });
    await fs.writeFile(path.join(gitDir, "info", "attributes"), "* -text -filter -ident -eol -working-tree-encoding\n");
    await fs.writeFile(path.join(gitDir, "info", "exclude"), "# Manifold checkpoints: the folder's own .gitignore files apply too\n.git\n");
  }

  /** Records the folder's current state in the index and returns its tree (cheap when little changed). */
  snapshot(): Promise<Snapshot> {
    return this.exclusive(() => this.#snapshot());
  }

  async #snapshot(): Promise<Snapshot> {
    // Changed, deleted and new (not ignored) files, from the index's stat cache.
    const listed = splitZ((await git(this.repo, ["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard"])).stdout);
    const candidates = [...new Set(listed)];
    const add: string[] = [];
    const drop: string[] = [];
    const skipped: Snapshot["skipped"] = [];
    await Promise.all(
      candidates.map(async (rel) => {
        const abs = path.join(this.folder, rel);
        let st;
        try {
          st = await fs.lstat(abs);
        } catch {
          add.push(rel); // gone: `add -A` records the deletion
          return;
        }
        if (st.isFile() && st.size > this.sizeCap) {
          skipped.push({ path: rel, reason: `larger than ${Math.round(this.sizeCap / 1048576)} MB` });
          drop.push(rel);
          return;
        }
        if (st.isFile()) {
          try {
            await fs.access(abs, fs.constants.R_OK);
          } catch (err) {
            skipped.push({ path: rel, reason: `unreadable (${(err as NodeJS.ErrnoException).code ?? "error"})` });
            drop.push(rel);
            return;
          }
        }
        add.push(rel);
      }),
    );
    if (candidates.length === 0 && this.#lastTree) return { tree: this.#lastTree, skipped: [] };
    if (drop.length > 0)
      await git(this.repo, ["rm", "-q", "-f", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        input: drop.join("\0") + "\0",
      });
    // One `add -A` over the whole tree (the stat cache keeps it cheap); what we skip is excluded by name.
    const excludes = path.join(this.repo.gitDir, "info", "skipped");
    await fs.writeFile(excludes, drop.map((p) => "/" + p.replace(/[\\*?[\]!# ]/g, (c) => "\\" + c)).join("\n") + "\n");
    // A few paths: name them (cheap). Many (the first snapshot): one whole-tree add, which matches
    // pathspecs far faster than a 10,000-entry pathspec list.
    // (A named path git refuses, e.g. one now beyond a symlink, falls back to the whole-tree add.)
    const addAll = () => git(this.repo, ["-c", `core.excludesFile=${excludes}`, "add", "-A"]);
    if (add.length > 0 && add.length <= 500) {
      await git(this.repo, ["-c", `core.excludesFile=${excludes}`, "add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], {
        input: add.join("\0") + "\0",
      }).catch((err: unknown) => {
        if (!(err instanceof GitError)) throw err;
        return addAll();
      });
    } else if (add.length > 0) await addAll();
    const tree = (await git(this.repo, ["write-tree"])).stdout.toString("utf8").trim();
    this.#lastTree = tree;
    skipped.sort((a, b) => a.path.localeCompare(b.path));
    return { tree, skipped };
  }

  /** A parentless commit of `tree`, kept alive by `ref`. */
  commit(tree: string, message: string, ref: string): Promise<string> {
    return this.exclusive(async () => {
      const id = (await git(this.repo, ["commit-tree", tree, "-m", message])).stdout.toString("utf8").trim();
      await git(this.repo, ["update-ref", ref, id]);
      return id;
    });
  }

  /** Another ref keeping `commit` alive (a forked session shares its parent's checkpoints). */
  pin(ref: string, commit: string): Promise<void> {
    return this.exclusive(async () => void (await git(this.repo, ["update-ref", ref, commit])));
  }

  /** A tree equal to `base` with some paths set to the blobs of `source` (or removed when absent there). */
  overlay(base: string, source: string, paths: readonly string[]): Promise<string> {
    return this.exclusive(async () => {
      const index = path.join(this.repo.gitDir, `overlay-${process.pid}.index`);
      try {
        await git(this.repo, ["read-tree", base], { indexFile: index });
        const entries = await this.#lsTree(source, paths);
        const lines = paths.map((p) => {
          const e = entries.get(p);
          return e ? `${e.mode} ${e.blob}\t${p}` : `0 ${"0".repeat(40)}\t${p}`;
        });
        await git(this.repo, ["update-index", "-z", "--index-info"], { indexFile: index, input: lines.join("\0") + "\0" });
        return (await git(this.repo, ["write-tree"], { indexFile: index })).stdout.toString("utf8").trim();
      } finally {
        await fs.rm(index, { force: true });
      }
    });
  }

  async #lsTree(tree: string, paths: readonly string[]): Promise<Map<string, { mode: string; blob: string }>> {
    const out = new Map<string, { mode: string; blob: string }>();
    if (paths.length === 0) return out;
    const recs = splitZ((await git(this.repo, ["ls-tree", "-z", "-r", "--full-tree", tree, "--", ...paths])).stdout);
    for (const r of recs) {
      const m = /^(\d+) \w+ ([0-9a-f]+)\t(.*)$/s.exec(r);
      if (m) out.set(m[3]!, { mode: m[1]!, blob: m[2]! });
    }
    return out;
  }

  /** File-level changes from tree `from` to tree `to` (no renames; nested repositories left out). */
  diff(from: string, to: string): Promise<TreeChange[]> {
    return this.exclusive(async () => {
      const [raw, num] = await Promise.all([
        git(this.repo, ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--raw", from, to]),
        git(this.repo, ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", "--numstat", from, to]),
      ]);
      const counts = new Map<string, [number | null, number | null]>();
      for (const rec of splitZ(num.stdout)) {
        const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(rec);
        if (m) counts.set(m[3]!, [m[1] === "-" ? null : Number(m[1]), m[2] === "-" ? null : Number(m[2])]);
      }
      const parts = splitZ(raw.stdout);
      const changes: TreeChange[] = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const m = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([ADMT])/.exec(parts[i]!);
        const p = parts[i + 1]!;
        if (!m) continue;
        if (m[1] === "160000" || m[2] === "160000") continue; // a nested repository: not ours to restore
        const status = m[5] === "T" ? "M" : (m[5] as "A" | "D" | "M");
        const [added, removed] = counts.get(p) ?? [null, null];
        changes.push({ path: p, status, fromMode: m[1]!, toMode: m[2]!, fromBlob: m[3]!, toBlob: m[4]!, added, removed });
      }
      return changes;
    });
  }

  /** Bytes of a blob. */
  blob(id: string): Promise<Buffer> {
    return this.exclusive(async () => (await git(this.repo, ["cat-file", "blob", id])).stdout);
  }

  /** Bytes of `path` in `tree`, or undefined when it is not there. */
  fileAt(tree: string, rel: string): Promise<Buffer | undefined> {
    return this.exclusive(async () => {
      const e = (await this.#lsTree(tree, [rel])).get(rel);
      return e ? (await git(this.repo, ["cat-file", "blob", e.blob])).stdout : undefined;
    });
  }

  /** The tree of a commit. */
  treeOf(commit: string): Promise<string> {
    return this.exclusive(async () => (await git(this.repo, ["rev-parse", `${commit}^{tree}`])).stdout.toString("utf8").trim());
  }

  deleteRefs(prefix: string): Promise<void> {
    return this.exclusive(async () => {
      const refs = (await git(this.repo, ["for-each-ref", "--format=%(refname)", prefix])).stdout
        .toString("utf8")
        .split("\n")
        .filter(Boolean);
      if (refs.length > 0) await git(this.repo, ["update-ref", "--stdin"], { input: refs.map((r) => `delete ${r}\n`).join("") });
    });
  }

  /** Drops objects no ref keeps (after a session is deleted). */
  prune(): Promise<void> {
    return this.exclusive(async () => {
      await git(this.repo, ["gc", "-q", "--prune=now"]).catch((err: unknown) => {
        if (!(err instanceof GitError)) throw err;
      });
    });
  }

  /** Bytes used on disk by the repository. */
  async diskUsage(): Promise<number> {
    return dirSize(this.repo.gitDir);
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await dirSize(p);
    else if (e.isFile()) total += (await fs.stat(p)).size;
  }
  return total;
}
