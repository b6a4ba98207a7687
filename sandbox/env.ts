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

/** The variables of `source` whose names pass `allowed` (never a secret-looking one), with a PATH. */
function picked(source: NodeJS.ProcessEnv, allowed: (name: string) => boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v !== undefined && !isSecretEnvName(k) && allowed(k)) env[k] = v;
  }
  if (env.PATH === undefined) env.PATH = DEFAULT_PATH;
  return env;
}

/** Allowlisted variables of `source` plus `TMPDIR`. */
export function childEnv(source: NodeJS.ProcessEnv, tmpDir: string): Record<string, string> {
  return { ...picked(source, isAllowedEnvName), TMPDIR: tmpDir };
}

/**
 * What a whole agent process may also see, beyond a command's allowlist: where its own state lives
 * (XDG dirs), how to reach its model API (proxies, extra CA certificates) and the time zone. Never a
 * secret-looking name; the agent's own variables (its key from secret storage) are added by the caller.
 */
const AGENT_EXTRA = /^(XDG_[A-Z_]+|(HTTPS?|ALL|NO)_PROXY|(https?|all|no)_proxy|SSL_CERT_(FILE|DIR)|NODE_EXTRA_CA_CERTS|TZ|COLORTERM)$/;

/** The host environment an agent process starts from (I-98): the allowlist plus `AGENT_EXTRA`, nothing else. */
export function agentBaseEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  return picked(source, (k) => isAllowedEnvName(k) || AGENT_EXTRA.test(k));
}
