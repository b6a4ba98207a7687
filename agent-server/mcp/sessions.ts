// The MCP servers of every session, keyed by session id: a session's set starts with its
// new/load/resume, is replaced by a later load/resume of the open session, and stops (whole
// process trees) with its close, delete or the agent's exit. Tools are looked up by the caller's
// session id only (I-99). Process-wide; holds no other session state.
import { raceAbort } from "../runtime/abortable";
import { KeyedChain } from "../runtime/keyedChain";
import type { SessionToolSource, Tool } from "../tools/types";
import type { McpServerSpec } from "./config";
import type { CommandSandbox } from "../../sandbox/types";
import type { McpConnection, McpHost, McpLimits, SessionPlace } from "./connection";
import { exposedToolNames } from "./names";
import { mcpTool } from "./tools";
import { ignoreError } from "../../base/errors";

/**
 * Loaded at the first session with servers: the build keeps it a runtime load of
 * dist/agent-server-mcp.js, so the MCP SDK stays off the agent's start-up path. A `require`, not
 * `import()`: Node's ESM loader would first scan the whole CommonJS file for its export names.
 */
function loadConnection(): typeof import("./connection") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second file, loaded late on purpose (above)
  return require("./connection") as typeof import("./connection");
}
export const DEFAULT_MCP_LIMITS: McpLimits = { startTimeoutMs: 30_000, callTimeoutMs: 120_000 };

/** Limits from the environment (tests shorten them), else the defaults. */
export function mcpLimitsFrom(env: NodeJS.ProcessEnv): McpLimits {
  const num = (v: string | undefined, d: number): number => {
    const n = Number(v);
    return v !== undefined && Number.isInteger(n) && n > 0 ? n : d;
  };
  return {
    startTimeoutMs: num(env.MANIFOLD_MCP_START_TIMEOUT_MS, DEFAULT_MCP_LIMITS.startTimeoutMs),
    callTimeoutMs: num(env.MANIFOLD_MCP_CALL_TIMEOUT_MS, DEFAULT_MCP_LIMITS.callTimeoutMs),
  };
}

/** One server's state as reported to the client (`_manifold/mcp_status`). */
export interface McpServerState {
  name: string;
  state: "starting" | "ready" | "failed";
  tools?: number;
  error?: string;
}

class SessionSet {
  private cache: Tool[] | null = null;
  constructor(
    readonly key: string,
    readonly conns: McpConnection[],
    private readonly report: () => void,
  ) {
    for (const c of conns) this.watch(c);
  }

  watch(c: McpConnection): void {
    c.onChange = () => {
      this.cache = null;
      this.report();
    };
  }

  /** Swaps in a fresh connection for the server `name` (the old one is closed by the caller). */
  swap(old: McpConnection, fresh: McpConnection): void {
    this.conns[this.conns.indexOf(old)] = fresh;
    this.watch(fresh);
    this.cache = null;
    this.report();
  }

  states(): McpServerState[] {
    return this.conns.flatMap((c): McpServerState[] =>
      c.state === "closed"
        ? []
        : [
            {
              name: c.name,
              state: c.state,
              ...(c.state === "ready" ? { tools: c.tools.length } : {}),
              ...(c.error ? { error: c.error } : {}),
            },
          ],
    );
  }

  tools(): readonly Tool[] {
    if (this.cache) return this.cache;
    const pairs = this.conns.flatMap((c) =>
      c.state === "ready" ? c.tools.map((t) => ({ conn: c, info: t, server: c.name, tool: t.name })) : [],
    );
    const names = exposedToolNames(pairs);
    this.cache = pairs.map((p, i) => mcpTool(names[i]!, p.conn, p.info));
    return this.cache;
  }
}

export class McpSessions implements SessionToolSource {
  private readonly sets = new Map<string, SessionSet>();
  /** Per session: the last replace/stop in flight, so they apply in order. */
  private readonly chains = new KeyedChain();
  private stopped = false;
  /** Every change of a session's server states (the agent app forwards it to the client). */
  onStatus: (sessionId: string, servers: McpServerState[]) => void = () => undefined;

  private readonly host: McpHost;
  private gotSandbox: (sb: CommandSandbox) => void = () => undefined;

  /** `host.dataDir`: the agent's data dir; `host.sandbox`: the command sandbox, else given later with `useSandbox`. */
  constructor(
    private readonly envSource: NodeJS.ProcessEnv,
    private readonly limits: McpLimits,
    host: { dataDir: string; sandbox?: Promise<CommandSandbox> },
  ) {
    const sandbox = host.sandbox ?? new Promise<CommandSandbox>((resolve) => (this.gotSandbox = resolve));
    this.host = { dataDir: host.dataDir, sandbox };
  }

  /** The sandbox folder-defined servers start in, once start-up has probed it (a start waits for it, bounded). */
  useSandbox(sandbox: CommandSandbox): void {
    this.gotSandbox(sandbox);
  }

  /**
   * Gives the session exactly `specs` (an identical set keeps running). Returns once the previous
   * set is gone; the new servers start in the background (the next model step waits for them).
   */
  replace(sessionId: string, specs: readonly McpServerSpec[], place: SessionPlace): Promise<void> {
    return this.chains.run(sessionId, async () => {
      const key = JSON.stringify([place, specs]);
      const current = this.sets.get(sessionId);
      if (current?.key === key) return;
      if (current) {
        this.sets.delete(sessionId);
        await closeAll(current);
      }
      if (specs.length === 0 || this.stopped) return;
      const { McpConnection } = loadConnection();
      if (this.stopped) return;
      const set: SessionSet = new SessionSet(
        key,
        specs.map((s) => new McpConnection(s, place, this.envSource, this.limits, this.host)),
        () => {
          if (this.sets.get(sessionId) === set) this.onStatus(sessionId, set.states());
        },
      );
      this.sets.set(sessionId, set);
      this.onStatus(sessionId, set.states());
    });
  }

  /** Stops and starts again the server `name` of the session (same spec); false if it has none. */
  restart(sessionId: string, name: string): Promise<boolean> {
    let found = false;
    return this.chains
      .run(sessionId, async () => {
        const set = this.sets.get(sessionId);
        const old = set?.conns.find((c) => c.name === name);
        if (!set || !old || this.stopped) return;
        found = true;
        const { McpConnection } = loadConnection();
        await old.close();
        set.swap(old, new McpConnection(old.spec, old.place, this.envSource, this.limits, this.host));
      })
      .then(() => found);
  }

  /** Stops the session's servers; resolves when every process tree of theirs is gone. */
  stop(sessionId: string): Promise<void> {
    return this.chains.run(sessionId, async () => {
      const current = this.sets.get(sessionId);
      if (!current) return;
      this.sets.delete(sessionId);
      await closeAll(current);
    });
  }

  /** The agent is exiting: no new server starts, every running one stops. */
  async stopAll(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...new Set([...this.sets.keys(), ...this.chains.keys()])].map((id) => this.stop(id)));
  }

  async ready(sessionId: string, signal: AbortSignal): Promise<void> {
    await this.chains.idle(sessionId);
    const set = this.sets.get(sessionId);
    if (!set) return;
    // `settled()` never rejects (a server that failed says so in its status): only an abort ends the wait early.
    await raceAbort(Promise.all(set.conns.map((c) => c.settled())), signal).catch(ignoreError("the abort is the caller's own"));
  }

  tools(sessionId: string): readonly Tool[] {
    return this.sets.get(sessionId)?.tools() ?? [];
  }

  notes(sessionId: string): string[] {
    const set = this.sets.get(sessionId);
    if (!set) return [];
    return set.conns.flatMap((c) =>
      c.state === "failed"
        ? [
            `The MCP server "${c.name}" is unavailable: ${c.error ?? "it failed"}. Its tools cannot be used; tell the user if they need them.`,
          ]
        : [],
    );
  }

  /** Session ids with a running set (for tests and logs). */
  get sessionIds(): string[] {
    return [...this.sets.keys()];
  }
}

async function closeAll(set: SessionSet): Promise<void> {
  await Promise.allSettled(set.conns.map((c) => c.close()));
}
