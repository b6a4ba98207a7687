// `terminal/*` for one session (I-94, I-106): commands run confined exactly like the built-in
// agent's bash, through the one sandbox in sandbox/: workspace-write with the session folder as root,
// no network, allowlisted environment (no tokens or keys), `.git/hooks` and `.git/config` read-only,
// the session's own temp area at /tmp, and kill/release/dispose end the whole tree (pid + start time).
// Third-party agents have no per-session sandbox settings here, so the mode is fixed. Where no
// backend works, terminal/create fails closed with the fix: never a silent unconfined run.
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  TerminalExitStatus,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import {
  DEFAULT_KILL_GRACE_MS,
  isSecretEnvName,
  NO_BACKEND_MESSAGE,
  shellQuote,
  spawnTree,
  type CommandSandbox,
  type RunningProcess,
  type SandboxContext,
} from "../../sandbox";
import type { PathConfinement } from "./folderConfinement";
import type { AsyncShutdown } from "../../base/lifecycle";
import { onUnexpectedError } from "../../base/errors";

const DEFAULT_LIMIT = 1024 * 1024;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A fresh temp area for one session's terminals, under a per-user parent the sandbox masks for the others. */
export function terminalTmpDir(): string {
  return join(tmpdir(), `manifold-terminals-${process.getuid?.() ?? "user"}`, randomUUID());
}

/** Keeps the last `limit` bytes of `s`, cut at a character boundary. */
export function truncateStart(s: string, limit: number): { text: string; truncated: boolean } {
  const buf = Buffer.from(s, "utf8");
  if (buf.length <= limit) return { text: s, truncated: false };
  let start = buf.length - limit;
  while (start < buf.length && ((buf[start] as number) & 0xc0) === 0x80) start++;
  return { text: buf.subarray(start).toString("utf8"), truncated: true };
}

/**
 * The shell text for `terminal/create`: argv quoted word by word, or (no args and whitespace in the
 * command) the command as a shell line, which some agents send. Variables the agent names are
 * exported first, except secret-looking names (I-98) and names that are not identifiers.
 */
export function terminalShellCommand(params: Pick<CreateTerminalRequest, "command" | "args" | "env">): string {
  const args = params.args ?? [];
  const line = args.length === 0 && /\s/.test(params.command) ? params.command : [params.command, ...args].map(shellQuote).join(" ");
  const exports = (params.env ?? [])
    .filter((e) => ENV_NAME.test(e.name) && !isSecretEnvName(e.name))
    .map((e) => `export ${e.name}=${shellQuote(e.value)}; `);
  return exports.join("") + line;
}

interface TermState {
  emitTimer?: ReturnType<typeof setTimeout>;
  output: string;
  truncated: boolean;
  limit: number;
  exit?: TerminalExitStatus;
}

interface Term extends TermState {
  proc: RunningProcess;
  exited: Promise<TerminalExitStatus>;
}

export interface TerminalServiceOptions {
  sessionId: string;
  /** The window's command sandbox, detected once (sandbox/detect.ts). */
  sandbox: () => Promise<CommandSandbox>;
  /** This session's temp area (bound at /tmp for its commands, removed at dispose). Default: a fresh one. */
  tmpDir?: string;
  /** SIGTERM → SIGKILL grace for kill/release/dispose. */
  killGraceMs?: number;
  /** Live output for the panel. */
  onOutput?: (terminalId: string, view: { output: string; truncated: boolean; exitCode?: number | null; signal?: string | null }) => void;
}

export class TerminalService implements AsyncShutdown {
  readonly #terms = new Map<string, Term>();
  readonly #tmpDir: string;
  #disposed?: Promise<void>;

  constructor(
    private readonly confinement: PathConfinement,
    private readonly opts: TerminalServiceOptions,
  ) {
    this.#tmpDir = opts.tmpDir ?? terminalTmpDir();
  }

  async create(params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    if (this.#disposed) throw RequestError.invalidRequest(undefined, "this session's terminals are closed");
    const root = await this.confinement.realRoot();
    let cwd = root;
    if (params.cwd) {
      const r = await this.confinement.confine(params.cwd);
      if (!r.ok) throw RequestError.invalidParams({ cwd: params.cwd }, r.reason);
      cwd = r.path;
    }
    const sandbox = await this.opts.sandbox();
    // Fail closed: the extension never runs an agent's command unconfined (it has no one to ask).
    if (sandbox.backend === "none") throw RequestError.internalError(undefined, `${NO_BACKEND_MESSAGE} The command was not run.`);
    const ctx: SandboxContext = {
      sessionId: this.opts.sessionId,
      mode: "workspace-write",
      approval: "never",
      root,
      tmpDir: this.#tmpDir,
      network: false,
    };
    const terminalId = `term-${randomUUID()}`;
    const state: TermState = { output: "", truncated: false, limit: params.outputByteLimit ?? DEFAULT_LIMIT };
    let proc: RunningProcess;
    try {
      const wrapped = sandbox.wrap(terminalShellCommand(params), ctx, { cwd, unconfined: false });
      proc = spawnTree(wrapped, (chunk) => this.#onData(terminalId, state, chunk));
    } catch (err) {
      throw RequestError.internalError(undefined, `cannot run the command confined: ${(err as Error).message}`);
    }
    const exited = proc.exited.then((r) => {
      state.exit = { exitCode: r.exitCode, signal: r.signal };
      this.#emit(terminalId, state);
      return state.exit;
    });
    this.#terms.set(terminalId, Object.assign(state, { proc, exited }));
    return { terminalId };
  }

  #onData(terminalId: string, term: TermState, chunk: string): void {
    const t = truncateStart(term.output + chunk, term.limit);
    term.output = t.text;
    term.truncated ||= t.truncated;
    // Live output is coalesced (~10 updates/s); the exit is reported at once.
    term.emitTimer ??= setTimeout(() => {
      term.emitTimer = undefined;
      this.#emit(terminalId, term);
    }, 100);
  }

  #emit(id: string, t: TermState): void {
    if (t.exit && t.emitTimer) {
      clearTimeout(t.emitTimer);
      t.emitTimer = undefined;
    }
    this.opts.onOutput?.(id, {
      output: t.output,
      truncated: t.truncated,
      ...(t.exit ? { exitCode: t.exit.exitCode ?? null, signal: t.exit.signal ?? null } : {}),
    });
  }

  #get(terminalId: string): Term {
    const t = this.#terms.get(terminalId);
    if (!t) throw RequestError.resourceNotFound(terminalId);
    return t;
  }

  output(terminalId: string): TerminalOutputResponse {
    const t = this.#get(terminalId);
    return { output: t.output, truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(terminalId: string, signal?: AbortSignal): Promise<WaitForTerminalExitResponse> {
    const t = this.#get(terminalId);
    const aborted = new Promise<never>((_, reject) => {
      if (!signal) return;
      const onAbort = () => reject(RequestError.requestCancelled());
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const st = await Promise.race([t.exited, aborted]);
    return { exitCode: st.exitCode ?? null, signal: st.signal ?? null };
  }

  /** Ends the command's whole tree; the terminal (and its output) stays until released. Resolves when the tree is gone. */
  async kill(terminalId: string): Promise<void> {
    await this.#get(terminalId).proc.kill(this.opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  }

  async release(terminalId: string): Promise<void> {
    const t = this.#get(terminalId);
    this.#terms.delete(terminalId);
    await t.proc.kill(this.opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  }

  /** Session closed: every tree starts ending, then the temp area goes (`shutdown` waits). Idempotent. */
  dispose(): void {
    if (!this.#disposed) this.shutdown().catch(onUnexpectedError);
  }

  /** Session closed or extension deactivating: resolves when every tree has ended and the temp area is gone. */
  shutdown(): Promise<void> {
    this.#disposed ??= (async () => {
      const terms = [...this.#terms.values()];
      this.#terms.clear();
      await Promise.all(terms.map((t) => t.proc.kill(this.opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS)));
      await rm(this.#tmpDir, { recursive: true, force: true });
    })();
    return this.#disposed;
  }
}
