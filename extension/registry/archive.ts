// Unpacking a downloaded archive into a fresh folder with the system's `tar` (GNU or bsdtar: both
// read .tar.gz/.xz/.bz2) or `unzip`. Every entry name is checked before anything is written, and
// every link after: nothing may land or point outside the target folder.
import { lstat, readdir, readlink } from "node:fs/promises";
import * as path from "node:path";
import { InstallError, type ArchiveFormat } from "./plan";
import { runTool, type RunOptions } from "./run";

/** An entry name that would be written outside the folder it is unpacked into. */
export function escapes(name: string): boolean {
  const n = name.replace(/\\/g, "/");
  if (n.startsWith("/") || /^[A-Za-z]:/.test(n)) return true;
  return n.split("/").includes("..");
}

function listArgs(format: ArchiveFormat, archive: string): [string, string[]] {
  return format === "zip" ? ["unzip", ["-Z1", archive]] : ["tar", ["-tf", archive]];
}

function extractArgs(format: ArchiveFormat, archive: string, dest: string): [string, string[]] {
  return format === "zip" ? ["unzip", ["-q", "-o", archive, "-d", dest]] : ["tar", ["-xf", archive, "-C", dest, "--no-same-owner"]];
}

/** Every symlink under `root` must resolve (textually) inside it. */
async function checkLinks(root: string, dir = root): Promise<void> {
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    const s = await lstat(p);
    if (s.isSymbolicLink()) {
      const target = path.resolve(path.dirname(p), await readlink(p));
      const rel = path.relative(root, target);
      if (rel.startsWith("..") || path.isAbsolute(rel))
        throw new InstallError(`the archive's link ${path.relative(root, p)} points outside it`);
    } else if (s.isDirectory()) {
      await checkLinks(root, p);
    }
  }
}

/** Unpacks `archive` into the existing, empty folder `dest`. */
export async function unpack(format: ArchiveFormat, archive: string, dest: string, opts: Omit<RunOptions, "cwd">): Promise<void> {
  const [lister, largs] = listArgs(format, archive);
  const names = (await runTool(lister, largs, { ...opts, cwd: dest }))
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const bad = names.find(escapes);
  if (bad !== undefined) throw new InstallError(`the archive has an entry outside its folder (${bad}): refused`);
  const [extractor, eargs] = extractArgs(format, archive, dest);
  await runTool(extractor, eargs, { ...opts, cwd: dest });
  await checkLinks(dest);
}
