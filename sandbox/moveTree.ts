// Moving a file or a tree out of a folder (a held config entry, I-112): rename, or copy and remove
// across file systems, with symlinks copied as links (never followed) and times kept. Both the
// agent-server's catch-and-hold and the extension's guard of fenced agents move this way.
import * as fs from "node:fs";
import * as path from "node:path";

export function moveTree(src: string, dst: string): void {
  fs.mkdirSync(path.dirname(dst), { recursive: true, mode: 0o700 });
  try {
    fs.renameSync(src, dst);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    fs.cpSync(src, dst, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true });
    fs.rmSync(src, { recursive: true, force: true });
  }
}
