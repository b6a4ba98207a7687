// A real small file system for fault tests: a tmpfs mounted on a temp dir (needs root). Fill it
// to the last page, free it, remount it read-only and back. `unavailable()` says why it cannot be used.
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SmallDisk {
  path: string;
  /** Writes a filler file until the file system refuses another byte. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  readOnly(on: boolean): void;
  unmount(): void;
}

/** Null when a tmpfs can be mounted here, else the reason (for `skip`). */
export function unavailable(): string | null {
  if (process.platform !== "linux") return "needs Linux (tmpfs)";
  if (process.getuid?.() !== 0) return "needs root to mount a small tmpfs (run the agent tier as root to include this test)";
  let probe: SmallDisk | null = null;
  try {
    probe = mountSmallDisk(64);
    return null;
  } catch (err) {
    return `cannot mount a tmpfs here: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    probe?.unmount();
  }
}

export function mountSmallDisk(sizeKiB: number): SmallDisk {
  const path = mkdtempSync(join(tmpdir(), "manifold-smalldisk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKiB}k,mode=0755`, "tmpfs", path], { stdio: "pipe" });
  } catch (err) {
    rmdirSync(path);
    throw err;
  }
  const filler = join(path, "filler");
  return {
    path,
    fill() {
      const fd = openSync(filler, "a");
      try {
        for (const size of [65536, 4096, 512, 1]) {
          const buf = Buffer.alloc(size, 0x66);
          for (;;) {
            try {
              writeSync(fd, buf);
            } catch {
              break;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    readOnly(on) {
      execFileSync("mount", ["-o", `remount,${on ? "ro" : "rw"}`, path], { stdio: "pipe" });
    },
    unmount() {
      try {
        execFileSync("umount", ["-l", path], { stdio: "pipe" });
      } finally {
        rmSync(path, { recursive: true, force: true });
      }
    },
  };
}
