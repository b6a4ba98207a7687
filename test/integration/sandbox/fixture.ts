// Shared fixture of the real-sandbox attack tests: the detected backend, a world-traversable base
// dir outside /tmp (which is private inside the sandbox), and per-session contexts. Works as root
// and as an unprivileged user (scripts/test-sandbox-unprivileged.mjs).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { detectSandbox, type DetectOptions } from "../../../sandbox/detect";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";

export const linux = process.platform === "linux";
export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
export const asWho = isRoot ? "root" : "unprivileged";

export interface Fixture {
  base: string;
  /** A session's context: root under `base`, temp area under `base/.tmp`. */
  ctxFor(id: string, root: string, extra?: Partial<SandboxContext>): SandboxContext;
  /** A fresh directory under `base`. */
  dir(name: string): string;
  cleanup(): void;
}

/** A workspace-write session's context: `root` as its folder, its temp area under `base/.tmp`. */
export function sessionContext(base: string, id: string, root: string, extra: Partial<SandboxContext> = {}): SandboxContext {
  return {
    sessionId: id,
    mode: "workspace-write",
    approval: "on-request",
    root,
    tmpDir: path.join(base, ".tmp", id),
    network: false,
    ...extra,
  };
}

export function makeFixture(prefix: string): Fixture {
  const parent = fs.existsSync("/var/tmp") ? "/var/tmp" : os.tmpdir();
  const base = fs.realpathSync(fs.mkdtempSync(path.join(parent, prefix)));
  fs.chmodSync(base, 0o755);
  return {
    base,
    ctxFor: (id, root, extra = {}) => sessionContext(base, id, root, extra),
    dir(name) {
      const d = path.join(base, name);
      fs.mkdirSync(d, { recursive: true });
      return d;
    },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** The backend this machine detects (MANIFOLD_SANDBOX cleared), silently. */
export function detect(opts: DetectOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<CommandSandbox> {
  return detectSandbox({ ...env, MANIFOLD_SANDBOX: "" }, { log: () => {}, ...opts });
}
