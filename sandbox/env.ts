// The environment a command sees: built from an allowlist, never inherited wholesale, so API keys
// and tokens in the server's environment never reach a tool (I-98).

const ALLOWED = new Set(["PATH", "HOME", "USER", "SHELL", "LANG", "TERM"]);
const SECRET = /(_API_KEY|_TOKEN|SECRET|PASSWORD|CREDENTIAL)/i;
const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** A name that looks like it holds a key, token or password: never passed to a command, even when a caller names it. */
export function isSecretEnvName(name: string): boolean {
  return SECRET.test(name);
}

export function isAllowedEnvName(name: string): boolean {
  if (isSecretEnvName(name)) return false;
  return ALLOWED.has(name) || name.startsWith("LC_");
}

/** Allowlisted variables of `source` plus `TMPDIR`. */
export function childEnv(source: NodeJS.ProcessEnv, tmpDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v !== undefined && isAllowedEnvName(k)) env[k] = v;
  }
  if (env.PATH === undefined) env.PATH = DEFAULT_PATH;
  env.TMPDIR = tmpDir;
  return env;
}
