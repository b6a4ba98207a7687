// Where registry agents are installed: `<root>/<id>/<version>/`, each with its `install.json`
// written before the folder is renamed into place, so a version folder with a readable
// `install.json` is a complete install and anything else is not one. Work happens in
// `<root>/.staging/` on the same file system; a rename makes it appear at once.
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { z } from "zod";
import { compareVersions } from "./version";
import { ignoreError } from "../../base/errors";

export const MANIFEST = "install.json";
const STAGING = ".staging";

const manifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  kind: z.enum(["npx", "uvx", "binary"]),
  /** The program: relative to the version folder when `relative`, else looked up on PATH (uvx). */
  command: z.string(),
  relative: z.boolean(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  installedAt: z.string(),
});
export type InstallManifest = z.infer<typeof manifestSchema>;

export interface InstalledAgent {
  manifest: InstallManifest;
  dir: string;
}

/** How an installed agent is started. */
export interface InstalledLaunch {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The install's own folder (under Manifold's storage): the agent's fence keeps it readable. */
  dir: string;
}

export function launchOf(agent: InstalledAgent): InstalledLaunch {
  const m = agent.manifest;
  return { name: m.name, command: m.relative ? path.join(agent.dir, m.command) : m.command, args: m.args, env: m.env, dir: agent.dir };
}

export class AgentStore {
  constructor(readonly root: string) {}

  #idDir(id: string): string {
    return path.join(this.root, id);
  }

  /** A fresh, empty working folder for one install. */
  async stage(): Promise<string> {
    const dir = path.join(this.root, STAGING, randomUUID());
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** Writes the manifest into `staged` and renames it into place as `<id>/<version>`. */
  async commit(staged: string, manifest: InstallManifest): Promise<InstalledAgent> {
    await writeFile(path.join(staged, MANIFEST), JSON.stringify(manifest, null, 2));
    const target = path.join(this.#idDir(manifest.id), manifest.version);
    await mkdir(this.#idDir(manifest.id), { recursive: true });
    // Reinstalling the same version: the old copy moves aside first, then goes.
    const aside = await this.#moveAside(target);
    await rename(staged, target);
    if (aside) await rm(aside, { recursive: true, force: true });
    return { manifest, dir: target };
  }

  /** Removes a working folder (a cancelled or failed install). */
  async discard(staged: string): Promise<void> {
    await rm(staged, { recursive: true, force: true });
  }

  /**
   * Working folders left by an install that never finished (the window closed) are removed; recent
   * ones may belong to another window's install that is still running.
   */
  async sweep(olderThanMs = 24 * 3600_000, now = Date.now()): Promise<void> {
    const dir = path.join(this.root, STAGING);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      const s = await stat(path.join(dir, n)).catch(ignoreError("removed meanwhile (another window's sweep): nothing to do"));
      if (s && now - s.mtimeMs > olderThanMs) await rm(path.join(dir, n), { recursive: true, force: true });
    }
  }

  async #moveAside(dir: string): Promise<string | undefined> {
    const aside = path.join(this.root, STAGING, `old-${randomUUID()}`);
    await mkdir(path.dirname(aside), { recursive: true });
    try {
      await rename(dir, aside);
      return aside;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  /** Every complete install of `id`, newest first. */
  async versions(id: string): Promise<InstalledAgent[]> {
    let names: string[];
    try {
      names = await readdir(this.#idDir(id));
    } catch {
      return [];
    }
    const found: InstalledAgent[] = [];
    for (const v of names) {
      const dir = path.join(this.#idDir(id), v);
      try {
        const m = manifestSchema.safeParse(JSON.parse(await readFile(path.join(dir, MANIFEST), "utf8")));
        if (m.success && m.data.id === id && m.data.version === v) found.push({ manifest: m.data, dir });
      } catch {
        /* not a complete install */
      }
    }
    return found.sort((a, b) => compareVersions(b.manifest.version, a.manifest.version));
  }

  /** The install that runs: the newest complete one. */
  async installed(id: string): Promise<InstalledAgent | undefined> {
    return (await this.versions(id))[0];
  }

  /** Every installed agent id with its running install. */
  async all(): Promise<Map<string, InstalledAgent>> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch {
      return new Map();
    }
    const out = new Map<string, InstalledAgent>();
    for (const id of names.filter((n) => !n.startsWith("."))) {
      const a = await this.installed(id);
      if (a) out.set(id, a);
    }
    return out;
  }

  /** Removes one version, or (no version) the agent altogether. Moves aside first: no half-removed install is ever read. */
  async remove(id: string, version?: string): Promise<void> {
    const dir = version === undefined ? this.#idDir(id) : path.join(this.#idDir(id), version);
    const aside = await this.#moveAside(dir);
    if (aside) await rm(aside, { recursive: true, force: true });
  }
}
