// Signing in to an agent that answered `auth_required`, started from the owning panel's
// card. Agent-run methods: `authenticate`, then the folder attaches again. Env-var methods: the user's
// values go to secret storage and the agent restarts with them in its environment. Terminal methods:
// the agent's own command runs with the method's args in a terminal; a zero exit restarts the agent.
// The editor half (input boxes, SecretStorage, terminals, the restart) comes in as `SignInIO`.
import type { AuthEnvVarView, AuthMethodView } from "../common/auth";
import { errorText } from "../common/text";
import type { FolderSession } from "./folderSession";

export type TerminalAuthMethod = Extract<AuthMethodView, { kind: "terminal" }>;
export type EnvVarAuthMethod = Extract<AuthMethodView, { kind: "env_var" }>;

export interface SignInIO {
  /** Asks for one variable's value (a password input for a secret); undefined: the user cancelled. */
  askValue(method: EnvVarAuthMethod, v: AuthEnvVarView): Promise<string | undefined>;
  /** Keeps the values for the running agent (secret storage, keyed by agent and variable). */
  storeValues(values: Record<string, string>): Promise<void>;
  /** Runs the agent's command with the method's args and env in a terminal; its exit code (undefined: unknown). */
  runInTerminal(method: TerminalAuthMethod): Promise<number | undefined>;
  /** Restarts the agent; every open panel attaches again. */
  restartAgent(): Promise<void>;
}

/** Runs sign-in method `methodId` for the folder `s`; failures are said on the card, never thrown. */
export async function signIn(s: FolderSession, methodId: string, io: SignInIO): Promise<void> {
  const auth = s.state.auth;
  const method = auth?.methods.find((m) => m.id === methodId);
  const client = s.client;
  if (!auth || !method || !client) return;
  const fail = (text: string) => s.emit({ type: "auth/required", methods: auth.methods, message: text });
  try {
    switch (method.kind) {
      case "agent":
        s.emit({ type: "auth/busy", busy: `Signing in with ${method.name}…` });
        await client.authenticate(method.id);
        await s.attach(client, { restart: false });
        return;
      case "env_var": {
        const values: Record<string, string> = {};
        for (const v of method.vars) {
          const value = await io.askValue(method, v);
          if (value === undefined || (value === "" && !v.optional)) return;
          if (value !== "") values[v.name] = value;
        }
        s.emit({ type: "auth/busy", busy: `Restarting ${s.state.agentName} with ${Object.keys(values).join(", ")}…` });
        await io.storeValues(values);
        await io.restartAgent();
        return;
      }
      case "terminal": {
        s.emit({ type: "auth/busy", busy: `Waiting for the sign-in in the terminal (${method.name})…` });
        const code = await io.runInTerminal(method);
        if (code !== 0) {
          fail(`The sign-in in the terminal did not succeed${code === undefined ? "" : ` (exit code ${code})`}.`);
          return;
        }
        await io.restartAgent();
        return;
      }
    }
  } catch (err) {
    fail(`Sign-in failed: ${errorText(err)}`);
  } finally {
    if (s.state.auth?.busy !== undefined) s.emit({ type: "auth/busy", busy: undefined });
  }
}
