// The session cwd rule (I-63): absolute, existing, a directory; stored and used in canonical (realpath) form.
// Resolutions of one path that overlap share one: a burst naming one folder costs one realpath and one stat.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";

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

async function resolveCwd(cwd: unknown): Promise<string> {
  if (typeof cwd !== "string" || cwd.length === 0) throw new CwdError("cwd is required and must be an absolute path");
  if (!isAbsolute(cwd)) throw new CwdError(`cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  // Both at once (one thread-pool round trip, not two): stat follows symlinks as realpath does.
  const [real, st] = await Promise.allSettled([realpath(cwd), stat(cwd)]);
  if (real.status === "rejected") throw new CwdError(`cwd ${JSON.stringify(cwd)} does not exist`);
  if (st.status === "rejected") throw st.reason;
  if (!st.value.isDirectory()) throw new CwdError(`cwd ${JSON.stringify(cwd)} is not a directory`);
  return real.value;
}
