// The session cwd rule (I-63): absolute, existing, a directory; stored and used in canonical (realpath) form.
import { realpath, stat } from "node:fs/promises";
import { isAbsolute } from "node:path";

export class CwdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CwdError";
  }
}

export async function canonicalCwd(cwd: unknown): Promise<string> {
  if (typeof cwd !== "string" || cwd.length === 0) throw new CwdError("cwd is required and must be an absolute path");
  if (!isAbsolute(cwd)) throw new CwdError(`cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  let real: string;
  try {
    real = await realpath(cwd);
  } catch {
    throw new CwdError(`cwd ${JSON.stringify(cwd)} does not exist`);
  }
  const st = await stat(real);
  if (!st.isDirectory()) throw new CwdError(`cwd ${JSON.stringify(cwd)} is not a directory`);
  return real;
}
