// The standalone agent-server's config: `--config FILE`, else the file `MANIFOLD_CONFIG` names, else
// none. Read and checked once at start-up, before `initialize` is answered: a bad file ends the
// process (main.ts, exit code 2) with a message naming what is wrong (duplicates name both, I-10).
import { readFileSync } from "node:fs";
import { parseAgentConfig, type AgentConfig } from "../base/agentProfiles";
import { errorMessage } from "../base/errors";

export const CONFIG_ENV = "MANIFOLD_CONFIG";

export class AgentConfigError extends Error {
  override name = "AgentConfigError";
}

/** The config file's path from argv or env; undefined when neither names one. */
export function configPathOf(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const i = argv.indexOf("--config");
  if (i !== -1) {
    const v = argv[i + 1];
    if (!v) throw new AgentConfigError("--config needs a file");
    return v;
  }
  const eq = argv.find((a) => a.startsWith("--config="));
  if (eq) return eq.slice("--config=".length);
  return env[CONFIG_ENV] || undefined;
}

export function loadAgentConfig(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  read: (file: string) => string = (f) => readFileSync(f, "utf8"),
): AgentConfig {
  const file = configPathOf(argv, env);
  if (file === undefined) return { agentProfiles: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(read(file));
  } catch (err) {
    throw new AgentConfigError(`config ${file}: ${errorMessage(err)}`);
  }
  const parsed = parseAgentConfig(raw, `config ${file}: `);
  if (!parsed.ok) throw new AgentConfigError(parsed.message);
  return parsed.value;
}
