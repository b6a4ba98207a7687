// How the window's third-party agent starts: inside the fence (I-118), or as the user only after the
// user chose that for it (I-119). One process serves every folder of the window, so the fence is the
// union of the folders: with one folder open it is exactly that folder. What the panel says follows
// the case exactly ("Confined by Manifold: writes only in A, B; …" or "Runs as you …").
import type { CommandSandbox } from "../../sandbox/types";
import { errorMessage } from "../../base/errors";
import type { AgentConfinement } from "../common/protection";
import type { AgentSpec } from "./agentSpec";
import { fenceFor, type FenceInputs } from "./agentProfiles";

/** The user's answer when the fence cannot be set up: start unconfined this once, always, or not (pick another agent). */
export type UnconfinedChoice = "once" | "always" | "other";

export const UNCONFINED_SETTING = "manifold.agentSandbox.unconfined";
export const WRITABLE_SETTING = "manifold.agentSandbox.writablePaths";

export interface ConfineOptions {
  /** The window's sandbox backend (the one its terminals use). */
  sandbox(): Promise<CommandSandbox>;
  /** The fence's inputs but the agent itself (folders, home, temp area, storage, the user's extra paths). */
  fence: Omit<FenceInputs, "who" | "env" | "installDir">;
  /** Display names of the folders, in `fence.folders` order. */
  folderNames: readonly string[];
  /** The agent is in `manifold.agentSandbox.unconfined` (the user's standing choice). */
  alwaysUnconfined: boolean;
  /** The user chose "start unconfined once" for this start. */
  onceUnconfined?: boolean;
  /** Tells the user why the agent cannot start confined and asks what to do; undefined when dismissed. */
  choose(agentName: string, reason: string): Promise<UnconfinedChoice | undefined>;
}

/** The agent did not start: the fence could not be set up and the user did not choose to run it unconfined. */
export class NotStartedError extends Error {
  override name = "NotStartedError";
  constructor(
    message: string,
    readonly choice: UnconfinedChoice | undefined,
  ) {
    super(message);
  }
}

function list(names: readonly string[]): string {
  return names.length === 0 ? "no folder" : names.join(", ");
}

/** The panel's line for a fenced agent, exactly as the backend holds it. */
export function confinedText(backend: string, folderNames: readonly string[]): string {
  const writes = `writes only in ${list(folderNames)} and its own state folders; network on`;
  if (backend === "landlock")
    return `Confined by Manifold (Landlock): ${writes}; home secrets and .git hooks are NOT protected (Landlock cannot hide or carve out paths; install bubblewrap for that).`;
  return `Confined by Manifold: ${writes}; home secrets hidden.`;
}

export function runsAsYouText(why: string): string {
  return `Runs as you, by your choice (${why}): it may write anywhere you can and read your home folder's secrets; only its fs/* and terminal/* requests through Manifold are confined.`;
}

function runsAsYou(spec: AgentSpec, why: string): AgentSpec {
  return { ...spec, confinement: { kind: "runs-as-you", text: runsAsYouText(why) } };
}

/**
 * The spec to spawn for `spec`: the built-in agent unchanged (it confines its own tools); a
 * third-party agent wrapped in the fence, or — only by the user's choice — as it was.
 */
export async function confineAgent(spec: AgentSpec, o: ConfineOptions): Promise<AgentSpec> {
  if (spec.builtin) return spec;
  if (o.alwaysUnconfined) return runsAsYou(spec, UNCONFINED_SETTING);
  if (o.onceUnconfined) return runsAsYou(spec, "started unconfined once");
  const launch = { command: spec.command, args: [...spec.args], env: definedEnv(spec.env) };
  const sandbox = await o.sandbox();
  let reason: string;
  if (sandbox.fenceAgent) {
    try {
      const who = { command: spec.command, args: spec.args, ...idOf(spec) };
      const { fence, profile } = fenceFor({
        ...o.fence,
        ...(spec.installDir ? { installDir: spec.installDir } : {}),
        who,
        env: launch.env,
      });
      launch.args.push(...profile.fencedArgs);
      const w = sandbox.fenceAgent(launch, fence);
      const confinement: AgentConfinement = {
        kind: "confined",
        text: confinedText(sandbox.backend, o.folderNames),
        backend: sandbox.backend,
        folders: [...o.fence.folders],
      };
      const wrapped = { command: w.file, args: w.args, env: w.env, cwd: w.cwd, ...(w.fds ? { fds: w.fds } : {}) };
      return { ...spec, ...wrapped, launch, fence, confinement };
    } catch (err) {
      reason = `its fence could not be set up: ${errorMessage(err)}`;
    }
  } else {
    const why = (sandbox as { reason?: string }).reason;
    reason = `no sandbox backend works on this machine${why ? ` (${why})` : ""}; install bubblewrap (apt install bubblewrap) to run it confined`;
  }
  return chosen(spec, reason, o);
}

/** Asks the user; "once" or "always" starts it as the user, anything else does not start it. */
export async function chosen(spec: AgentSpec, reason: string, o: Pick<ConfineOptions, "choose">): Promise<AgentSpec> {
  const choice = await o.choose(spec.name, reason);
  if (choice === "once") return runsAsYou(spec, "started unconfined once");
  if (choice === "always") return runsAsYou(spec, UNCONFINED_SETTING);
  throw new NotStartedError(
    `${spec.name} was not started: it cannot run inside Manifold's fence (${reason}), and it runs unconfined only if you choose so.`,
    choice,
  );
}

function idOf(spec: AgentSpec): { registryId?: string } {
  return spec.registryId !== undefined ? { registryId: spec.registryId } : {};
}

function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * The path of a write the fence refused, from a line of the agent's stderr (Node's `EROFS: …, open
 * '/x'`, a shell's `/x: Read-only file system` or `'/x': …`, Python's `[Errno 30] …: '/x'`); undefined otherwise.
 */
export function readOnlyPath(line: string): string | undefined {
  const quoted = /(?:EROFS|Read-only file system)[^'"\n]*['"](\/[^'"\n]+)['"]/i.exec(line);
  if (quoted) return quoted[1];
  const shell = /['"]?(\/[^\s:'"]+)['"]?: Read-only file system/i.exec(line);
  return shell?.[1];
}
