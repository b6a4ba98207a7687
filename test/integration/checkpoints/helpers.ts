// Folders and stores for checkpoint tests, and a stable fingerprint of a folder's whole content.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function tempBase(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "manifold-ckpt-")));
}

export function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

export function read(root: string, rel: string): string {
  return readFileSync(join(root, rel), "utf8");
}

/** Every entry under `root` (including `.git`) with its kind, mode and content hash. */
export function fingerprint(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      if (st.isDirectory()) {
        out[r] = "dir";
        walk(abs, r);
      } else if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(abs)}`;
      else out[r] = `${(st.mode & 0o777).toString(8)}:${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}
