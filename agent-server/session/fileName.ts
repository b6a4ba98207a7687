// Session id → file name. Injective (I-75): every byte outside [a-z0-9_-] is written as `%XX`
// (UTF-8, upper-case hex), so `.`, `/`, `\` and `%` can never form a path component of their own,
// and ids differing only in case stay distinct on case-insensitive file systems (macOS, Windows).
import { homedir } from "node:os";
import { join } from "node:path";

const SAFE = /^[a-z0-9_-]$/;

export function escapeSessionId(id: string): string {
  let out = "";
  for (const ch of id) {
    if (SAFE.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of Buffer.from(ch, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export function unescapeSessionId(name: string): string {
  return decodeURIComponent(name);
}

export const LOG_SUFFIX = ".jsonl";

export function logFileName(id: string): string {
  return escapeSessionId(id) + LOG_SUFFIX;
}

/** `--data-dir DIR`, else `MANIFOLD_DATA_DIR`, else the platform's per-user data dir. */
export function resolveDataDir(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const i = argv.indexOf("--data-dir");
  if (i !== -1) {
    const v = argv[i + 1];
    if (!v) throw new Error("--data-dir needs a directory");
    return v;
  }
  const eq = argv.find((a) => a.startsWith("--data-dir="));
  if (eq) return eq.slice("--data-dir=".length);
  if (env.MANIFOLD_DATA_DIR) return env.MANIFOLD_DATA_DIR;
  const home = env.HOME ?? homedir();
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), "manifold", "sessions");
  if (platform === "darwin") return join(home, "Library", "Application Support", "manifold", "sessions");
  return join(env.XDG_DATA_HOME ?? join(home, ".local", "share"), "manifold", "sessions");
}
