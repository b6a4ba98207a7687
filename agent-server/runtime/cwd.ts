// The session cwd rule (I-63): absolute, existing, a directory; stored and used in canonical (realpath) form.
// Resolutions of one path that overlap share one: a burst naming one folder costs one realpath.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, sep } from "node:path";

export class CwdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CwdError";
  }
}

/** Resolutions still running, by the path asked: a burst of requests naming one folder shares one. */
const inFlight = new Map<string, Promise<string>>();

export function canonicalCwd(cwd: unknown): Promise<string> {
  if (typeof cwd !== "string") return resolveCwd(cwd);
  let running = inFlight.get(cwd);
  if (!running) {
    running = resolveCwd(cwd);
    inFlight.set(cwd, running);
    const done = (): void => void inFlight.delete(cwd);
    running.then(done, done);
  }
  return running;
}

function errno(err: unknown): unknown {
  return typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
}

async function resolveCwd(cwd: unknown): Promise<string> {
  if (typeof cwd !== "string" || cwd.length === 0) throw new CwdError("cwd is required and must be an absolute path");
  if (!isAbsolute(cwd)) throw new CwdError(`cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  if (process.platform !== "win32") {
    // One thread-pool job, not two: realpath(3) of `<cwd>/.` resolves only a directory (ENOTDIR
    // otherwise) and gives the same canonical path as `<cwd>`. Windows drops a trailing `.`: stat there.
    try {
      return await realpath(cwd.endsWith(sep) ? `${cwd}.` : `${cwd}${sep}.`);
    } catch (err) {
      // As below: a path realpath cannot resolve (missing, unreadable, a loop) counts as not there.
      throw new CwdError(`cwd ${JSON.stringify(cwd)} ${errno(err) === "ENOTDIR" ? "is not a directory" : "does not exist"}`);
    }
  }
  // Both at once (one thread-pool round trip, not two): stat follows symlinks as realpath does.
  const [real, st] = await Promise.allSettled([realpath(cwd), stat(cwd)]);
  if (real.status === "rejected") throw new CwdError(`cwd ${JSON.stringify(cwd)} does not exist`);
  if (st.status === "rejected") throw st.reason;
  if (!st.value.isDirectory()) throw new CwdError(`cwd ${JSON.stringify(cwd)} is not a directory`);
  return real.value;
}
