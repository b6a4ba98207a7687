// Locates (installing on first use) the pinned tools of the VS Code tier: Node 24, code-server, chromium.
// The work is done by scripts/e2e/install-tools.sh (idempotent, warm ≈ tens of ms); this parses its output.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface E2eTools {
  /** Folder holding the tools (MANIFOLD_E2E_TOOLS, default /tmp/manifold-e2e-tools). */
  dir: string;
  /** Node 24 binary that runs code-server. */
  node: string;
  /** code-server's `out/node/entry.js`. */
  codeServerEntry: string;
  /** Chromium executable driven by playwright-core. */
  chromium: string;
}

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");

let cached: E2eTools | undefined;

/** Runs install-tools.sh once per process (installs on a fresh machine, ≈2.5 min) and returns the paths. */
export function ensureTools(): E2eTools {
  if (cached) return cached;
  let out: string;
  try {
    out = execFileSync("bash", [`${repoRoot}/scripts/e2e/install-tools.sh`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
  } catch {
    // The installer has printed what failed, its log's tail and how to retry (stderr is inherited).
    throw new Error("the VS Code tier's tools did not install (scripts/e2e/install-tools.sh); see its message above");
  }
  const vars = new Map<string, string>();
  for (const line of out.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) vars.set(line.slice(0, eq), line.slice(eq + 1));
  }
  const get = (key: string): string => {
    const value = vars.get(key);
    if (!value) throw new Error(`install-tools.sh printed no ${key}`);
    return value;
  };
  cached = {
    dir: get("MANIFOLD_E2E_TOOLS"),
    node: get("MANIFOLD_E2E_NODE"),
    codeServerEntry: get("MANIFOLD_E2E_CODE_SERVER"),
    chromium: get("MANIFOLD_E2E_CHROMIUM"),
  };
  return cached;
}
