// `terminal/*` for one session: commands run in the session's folder (cwd confined to it, I-94),
// under bubblewrap when it works (the folder is the only writable place besides a private /tmp),
// each in its own process group so kill/release end the whole tree. No `vscode`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { RequestError } from "@agentclientprotocol/sdk";
import type {
  CreateTerminalRequest,
  CreateTerminalResponse,
  TerminalExitStatus,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import type { PathConfinement } from "./pathGuard";

const BWRAP = "/usr/bin/bwrap";
/** Variables never passed to commands the agent runs (I-98). */
const SECRET_ENV = new Set(["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]);
const DEFAULT_LIMIT = 1024 * 1024;

let bwrapWorks: boolean | undefined;
/** Probes bubblewrap once per process. */
export function bubblewrapAvailable(): boolean {
  if (bwrapWorks === undefined) {
    bwrapWorks =
      process.platform === "linux" &&
      existsSync(BWRAP) &&
      spawnSync(BWRAP, ["--ro-bind", "/", "/", "--unshare-user", "--", "/bin/true"], { stdio: "ignore", timeout: 5000 }).status === 0;
  }
  return bwrapWorks;
}

/** The bubblewrap argv that runs `argv` with write access only to `root` (and a private /tmp). */
export function bwrapArgs(root: string, cwd: string, argv: string[]): string[] {
  return [
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    // /tmp first, then the root: a root under /tmp must stay visible and writable.
    "--tmpfs", "/tmp",
    "--bind", root, root,
    "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
    "--die-with-parent", "--new-session",
    "--chdir", cwd,
    "--",
    ...argv,
  ];
}

/** Keeps the last `limit` bytes of `s`, cut at a character boundary. */
export function truncateStart(s: string, limit: number): { text: string; truncated: boolean } {
  const buf = Buffer.from(s, "utf8");
  if (buf.length <= limit) return { text: s, truncated: false };
  let start = buf.length - limit;
  while (start < buf.length && ((buf[start] as number) & 0xc0) === 0x80) start++;
  return { text: buf.subarray(start).toString("utf8"), truncated: true };
}

interface Term {
  child: ChildProcess;
  emitTimer?: ReturnType<typeof setTimeout>;
  output: string;
  truncated: boolean;
  limit: number;
  exit?: TerminalExitStatus;
  exited: Promise<TerminalExitStatus>;
}

export interface TerminalServiceOptions {
  sandbox: boolean;
  env?: NodeJS.ProcessEnv;
  /** Live output for the panel (throttled by the caller if needed). */
  onOutput?: (terminalId: string, view: { output: string; truncated: boolean; exitCode?: number | null; signal?: string | null }) => void;
}

export class TerminalService {
  readonly #terms = new Map<string, Term>();

  constructor(
    private readonly confinement: PathConfinement,
    private readonly opts: TerminalServiceOptions,
  ) {}

  async create(params: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    const root = await this.confinement.realRoot();
    let cwd = root;
    if (params.cwd) {
      const r = await this.confinement.confine(params.cwd);
      if (!r.ok) throw RequestError.invalidParams({ cwd: params.cwd }, r.reason);
      cwd = r.path;
    }
    const args = params.args ?? [];
    // Some agents send a whole shell line as `command`.
    const argv = args.length === 0 && /\s/.test(params.command) ? ["/bin/sh", "-c", params.command] : [params.command, ...args];
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(this.opts.env ?? process.env)) if (!SECRET_ENV.has(k) && v !== undefined) env[k] = v;
    delete env.ELECTRON_RUN_AS_NODE;
    for (const e of params.env ?? []) if (!SECRET_ENV.has(e.name)) env[e.name] = e.value;
    const [file, ...rest] = this.opts.sandbox ? [BWRAP, ...bwrapArgs(root, cwd, argv)] : argv;
    const child = spawn(file as string, rest, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const terminalId = `term-${randomUUID()}`;
    const limit = params.outputByteLimit ?? DEFAULT_LIMIT;
    const term: Term = {
      child,
      output: "",
      truncated: false,
      limit,
      exited: new Promise<TerminalExitStatus>((resolve) => {
        child.once("error", (err) => {
          term.output += `${err.message}\n`;
          term.exit = { exitCode: 127, signal: null };
          this.#emit(terminalId, term);
          resolve(term.exit);
        });
        child.once("close", (code, signal) => {
          term.exit ??= { exitCode: code, signal: signal ?? null };
          this.#emit(terminalId, term);
          resolve(term.exit);
        });
      }),
    };
    const onData = (chunk: Buffer) => {
      const t = truncateStart(term.output + chunk.toString("utf8"), term.limit);
      term.output = t.text;
      term.truncated ||= t.truncated;
      // Live output is coalesced (~10 updates/s); the exit is reported at once.
      term.emitTimer ??= setTimeout(() => {
        term.emitTimer = undefined;
        this.#emit(terminalId, term);
      }, 100);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    this.#terms.set(terminalId, term);
    return { terminalId };
  }

  #emit(id: string, t: Term): void {
    if (t.exit && t.emitTimer) {
      clearTimeout(t.emitTimer);
      t.emitTimer = undefined;
    }
    this.opts.onOutput?.(id, { output: t.output, truncated: t.truncated, ...(t.exit ? { exitCode: t.exit.exitCode ?? null, signal: t.exit.signal ?? null } : {}) });
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

  kill(terminalId: string): void {
    killTree(this.#get(terminalId));
  }

  release(terminalId: string): void {
    const t = this.#get(terminalId);
    killTree(t);
    this.#terms.delete(terminalId);
  }

  dispose(): void {
    for (const t of this.#terms.values()) killTree(t);
    this.#terms.clear();
  }
}

function killTree(t: Term): void {
  if (t.exit || t.child.pid === undefined) return;
  try {
    process.kill(-t.child.pid, "SIGKILL");
  } catch {
    t.child.kill("SIGKILL");
  }
}
