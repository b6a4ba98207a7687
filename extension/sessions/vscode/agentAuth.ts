// The editor half of signing in to an agent: values asked with a password input and kept
// in SecretStorage keyed by agent and variable, terminal sign-in in a VS Code terminal, and the
// commands Sign Out of Agent and Clear Agent Secret… The flow itself is extension/sessions/signIn.ts.
import * as path from "node:path";
import * as vscode from "vscode";
import { agentSecretKey } from "../../common/auth";
import type { AgentSpec } from "../../agent/agentSpec";
import type { SignInIO, TerminalAuthMethod } from "../signIn";
import { FENCE_RUN_ENV } from "../../../sandbox/agentFence";

/** globalState key: agent → the variable names stored for it (SecretStorage cannot list its keys). */
const INDEX_KEY = "manifold.agentSecretNames";

/** One agent's sign-in variables in SecretStorage, with the index of which exist. */
export class AgentSecretStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  #index(): Record<string, string[]> {
    const raw = this.state.get<unknown>(INDEX_KEY);
    if (typeof raw !== "object" || raw === null) return {};
    const out: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(raw)) if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === "string");
    return out;
  }

  /** The stored variables of `agent` (the name in `manifold.agents`). */
  async read(agent: string): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const name of this.#index()[agent] ?? []) {
      const v = await this.secrets.get(agentSecretKey(agent, name));
      if (v !== undefined) out[name] = v;
    }
    return out;
  }

  async store(agent: string, values: Record<string, string>): Promise<void> {
    for (const [name, value] of Object.entries(values)) await this.secrets.store(agentSecretKey(agent, name), value);
    const index = this.#index();
    index[agent] = [...new Set([...(index[agent] ?? []), ...Object.keys(values)])];
    await this.state.update(INDEX_KEY, index);
  }

  async clear(agent: string, name: string): Promise<void> {
    await this.secrets.delete(agentSecretKey(agent, name));
    const index = this.#index();
    index[agent] = (index[agent] ?? []).filter((n) => n !== name);
    if (index[agent].length === 0) delete index[agent];
    await this.state.update(INDEX_KEY, index);
  }

  entries(): { agent: string; name: string }[] {
    return Object.entries(this.#index()).flatMap(([agent, names]) => names.map((name) => ({ agent, name })));
  }
}

/**
 * Runs the agent's command with the method's args (and env) in a terminal; resolves with the exit
 * code when the terminal closes (the user signs in there, the command exits).
 */
export function runAuthInTerminal(
  spec: AgentSpec,
  method: TerminalAuthMethod,
  cwd: string,
  extensionPath: string,
): Promise<number | undefined> {
  const terminal = vscode.window.createTerminal({ name: `Sign in: ${spec.name}`, cwd, ...authTerminal(spec, method, extensionPath) });
  terminal.show();
  return new Promise((resolve) => {
    const sub = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      sub.dispose();
      resolve(t.exitStatus?.code);
    });
  });
}

/**
 * What the sign-in terminal starts: a fenced agent's command runs fenced again, with its state
 * folders writable, through dist/fence-run.js (a terminal cannot pass the fence's descriptors);
 * an agent the user runs unconfined runs as it was started.
 */
function authTerminal(
  spec: AgentSpec,
  method: TerminalAuthMethod,
  extensionPath: string,
): Pick<vscode.TerminalOptions, "shellPath" | "shellArgs" | "env" | "strictEnv"> {
  if (spec.launch && spec.fence) {
    const cmd = { command: spec.launch.command, args: [...spec.launch.args, ...method.args], env: { ...spec.launch.env, ...method.env } };
    return {
      shellPath: process.execPath,
      shellArgs: [path.join(extensionPath, "dist", "fence-run.js")],
      env: {
        ELECTRON_RUN_AS_NODE: "1",
        PATH: spec.launch.env.PATH ?? "/usr/bin:/bin",
        [FENCE_RUN_ENV]: JSON.stringify({ cmd, fence: spec.fence }),
      },
      strictEnv: true,
    };
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.env)) if (v !== undefined) env[k] = v;
  return { shellPath: spec.command, shellArgs: [...spec.args, ...method.args], env: { ...env, ...method.env } };
}

/** The editor half of `signIn` for the running agent `spec`. */
export function signInIO(opts: {
  spec: () => AgentSpec | undefined;
  store: AgentSecretStore;
  restartAgent(): Promise<void>;
  extensionPath: string;
}): SignInIO {
  const running = (): AgentSpec => {
    const spec = opts.spec();
    if (!spec) throw new Error("the agent is not running");
    return spec;
  };
  return {
    askValue: (method, v) =>
      Promise.resolve(
        vscode.window.showInputBox({
          title: `${running().name}: ${method.name}`,
          prompt: `${v.label ?? v.name} (kept in VS Code's secret storage and passed to the agent as ${v.name})`,
          password: v.secret,
          ignoreFocusOut: true,
        }),
      ),
    storeValues: (values) => opts.store.store(running().name, values),
    // The agent's own cwd (Manifold's storage), never the folder: `npx`, `python -m` and their kin
    // would run what a confined agent planted there (`node_modules/<pkg>`, I-114).
    runInTerminal: (method) => runAuthInTerminal(running(), method, running().cwd, opts.extensionPath),
    restartAgent: () => opts.restartAgent(),
  };
}
