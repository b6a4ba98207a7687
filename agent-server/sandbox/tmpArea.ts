// Per-session temp areas (I-76): one directory per session id, created lazily (first confined
// command or first file write there), kept across that session's commands, removed when the
// runtime says the session is gone. Bound at /tmp inside the session's sandbox.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface TmpAreas {
  /** The session's temp dir path (stable for the life of this object; not created yet). */
  pathFor(sessionId: string): string;
  /** Create it if missing (0700) and return it. */
  ensure(sessionId: string): string;
  /** Remove the session's temp dir and forget it. */
  remove(sessionId: string): Promise<void>;
  removeAll(): Promise<void>;
}

/** Injective, filename-safe spelling of a session id (hex of its UTF-8 bytes, shortened by a prefix). */
function escapeId(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9-]/g, "").slice(0, 40);
  return `${safe}-${Buffer.from(sessionId, "utf8").toString("hex").slice(0, 16)}`;
}

export function createTmpAreas(baseDir: string = os.tmpdir()): TmpAreas {
  const dirs = new Map<string, string>();
  const pathFor = (sessionId: string): string => {
    let dir = dirs.get(sessionId);
    if (dir === undefined) {
      // The random part makes every area unique even for ids whose escaped prefixes collide.
      dir = path.join(baseDir, `manifold-${escapeId(sessionId)}-${randomBytes(8).toString("hex")}`);
      dirs.set(sessionId, dir);
    }
    return dir;
  };
  const remove = async (sessionId: string): Promise<void> => {
    const dir = dirs.get(sessionId);
    if (dir === undefined) return;
    dirs.delete(sessionId);
    await fs.promises.rm(dir, { recursive: true, force: true });
  };
  return {
    pathFor,
    ensure(sessionId) {
      const dir = pathFor(sessionId);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
    remove,
    async removeAll() {
      await Promise.all([...dirs.keys()].map((id) => remove(id)));
    },
  };
}

/** Make sure a context's temp dir exists (0700) before a command binds it. */
export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
