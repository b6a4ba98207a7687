// A session's temp area (I-76) is named and removed by the session store (`tmpDirFor`, `delete`); a
// backend creates it (0700) on the first confined command and binds it at /tmp inside the sandbox.
import * as fs from "node:fs";

/** Make sure a context's temp dir exists (0700) before a command binds it. */
export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
