// The window's one agent: started at first need, restarted with backoff when it dies, stopped (whole
// process tree) on dispose. Settings/secrets arrive through `resolveSpec`.
import { AcpClient } from "./acpClient";
import { AgentProcess, type AgentLog } from "./agentProcess";
import { Backoff, type AgentSpec } from "./agentSpec";
import { reapStaleAgents, recordAgent } from "./staleAgents";
import type { AsyncShutdown } from "../../base/lifecycle";
import { errorMessage, ignoreError, logError } from "../../base/errors";

export interface AgentHostOptions {
  resolveSpec(): Promise<AgentSpec>;
  log: AgentLog;
  trace(): boolean;
  /** A connection is initialized; `restart` when it replaces one that died. */
  onStarted(client: AcpClient, restart: boolean): void | Promise<void>;
  /** The running agent died (not when we stopped it). */
  onCrashed(message: string): void;
  onStatus(status: "starting" | "ready" | "restarting" | "error" | "stopped", message?: string): void;
  /** Whether anything still needs the agent (else a crash does not restart it). */
  needed(): boolean;
  /** Where running agents are recorded, so a later activation can reap what a crashed window left. */
  recordsDir?: string;
  /** Each line the agent writes to stderr (after it was logged): the fence's refusals are read from it. */
  onStderrLine?(line: string, spec: AgentSpec): void;
  /**
   * A fenced agent did not come up (it exited or never answered `initialize`): resolves true when
   * the user chose to start it unconfined instead (the next `resolveSpec` then says so), false to
   * fail the start as it is.
   */
  confinedStartFailed?(spec: AgentSpec, why: string): Promise<boolean>;
}

interface Running {
  proc: AgentProcess;
  client: AcpClient;
  spec: AgentSpec;
}

export class AgentHost implements AsyncShutdown {
  #running?: Running;
  #starting?: Promise<AcpClient>;
  #backoff = new Backoff();
  #restartTimer?: ReturnType<typeof setTimeout>;
  #disposed = false;
  #shutdown?: Promise<void>;
  #generation = 0;
  /** The last agent died unexpectedly and no replacement has started yet. */
  #crashed = false;
  #reaped = false;

  constructor(private readonly opts: AgentHostOptions) {}

  get pid(): number | undefined {
    return this.#running?.proc.pid;
  }

  /** Resolves once no start is in flight (a first start or a restart, the panels' re-attach included). */
  async whenStartSettled(): Promise<void> {
    await this.#starting?.catch(ignoreError("the start's failure goes to whoever asked for the agent"));
  }

  get client(): AcpClient | undefined {
    return this.#running?.client;
  }

  get agentName(): string | undefined {
    return this.#running?.spec.name;
  }

  /** What the running agent was started with (terminal sign-in re-runs its command). */
  get spec(): AgentSpec | undefined {
    return this.#running?.spec;
  }

  /** The running agent's client, starting it if needed. */
  ensure(): Promise<AcpClient> {
    if (this.#disposed) return Promise.reject(new Error("the extension is shutting down"));
    if (this.#running) return Promise.resolve(this.#running.client);
    this.#starting ??= this.#start(this.#crashed).finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /** One start: resolve the command, reap leftovers, spawn, initialize, publish, re-attach. */
  async #start(restart: boolean, retried = false): Promise<AcpClient> {
    const gen = ++this.#generation;
    this.opts.onStatus(restart ? "restarting" : "starting");
    const spec = await this.#resolveSpec();
    await this.#reapOnce();
    const running = this.#spawn(spec, gen);
    try {
      await this.#initialize(running);
    } catch (err) {
      // The fence may be what stopped it: the user decides whether it runs unconfined (I-119).
      if (retried || spec.confinement?.kind !== "confined" || !this.opts.confinedStartFailed || this.#disposed) throw err;
      if (!(await this.opts.confinedStartFailed(spec, errorMessage(err)))) throw err;
      return this.#start(restart, true);
    }
    await this.#publish(running);
    this.opts.onStatus("ready");
    await this.opts.onStarted(running.client, restart);
    return running.client;
  }

  async #resolveSpec(): Promise<AgentSpec> {
    try {
      return await this.opts.resolveSpec();
    } catch (err) {
      this.opts.onStatus("error", (err as Error).message);
      throw err;
    }
  }

  /** The first start of this window ends the agents a crashed window left behind. */
  async #reapOnce(): Promise<void> {
    if (!this.opts.recordsDir || this.#reaped) return;
    this.#reaped = true;
    const pids = await reapStaleAgents(this.opts.recordsDir).catch((err: unknown) => {
      this.opts.log.warn(`could not reap the agents of windows that closed uncleanly: ${errorMessage(err)}`);
      return [];
    });
    if (pids.length > 0) this.opts.log.info(`ended ${pids.length} agent(s) left by a window that closed uncleanly: ${pids.join(", ")}`);
  }

  /** Spawns the process and its client, watching for death from the start (a crash during initialize must not hang). */
  #spawn(spec: AgentSpec, gen: number): Running {
    // A fenced agent is logged by its own argv (the fence's is long, and says nothing new).
    const shown = spec.launch ?? spec;
    const how = spec.confinement?.kind === "confined" ? ` (in the fence: ${spec.confinement.backend ?? "sandbox"})` : "";
    this.opts.log.info(`starting ${spec.name}${how}: ${shown.command} ${shown.args.join(" ")}`);
    const onLine = this.opts.onStderrLine;
    const proc = new AgentProcess(spec, this.opts.log, this.opts.trace(), onLine ? (line) => onLine(line, spec) : undefined);
    const client = new AcpClient(
      proc.stream,
      (sessionId, err) => this.opts.log.error(`update for ${sessionId} failed: ${(err as Error).message}`),
      spec.offer,
    );
    const running: Running = { proc, client, spec };
    this.#watchExit(running, gen);
    this.#watchConnection(running);
    return running;
  }

  /** An exit we did not ask for (of the current generation) is a crash: report it and restart. */
  #watchExit(running: Running, gen: number): void {
    const { proc, client } = running;
    const died = proc.exited.then((info) => {
      if (this.#running === running) this.#running = undefined;
      client.close();
      return info;
    });
    void died.then((info) => {
      if (info.requested || this.#disposed || gen !== this.#generation) return;
      const message = info.signal ? `the agent was killed (${info.signal})` : `the agent exited with code ${info.code}`;
      this.opts.log.warn(message);
      this.#crashed = true;
      this.opts.onCrashed(message);
      this.#scheduleRestart(message);
    });
  }

  /**
   * Connection gone. Usually the process is exiting too; if it lingers (broken stream), end it and let
   * the exit be handled as a crash.
   */
  #watchConnection(running: Running): void {
    const { proc, client } = running;
    void client.closed.then(async () => {
      const exited = await Promise.race([proc.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2000))]);
      if (!exited && this.#running === running && !this.#disposed) await proc.stop(1500, { requested: false });
    });
  }

  /** `initialize`; on failure the process is stopped and the error says how it died, if it did. */
  async #initialize({ proc, client, spec }: Running): Promise<void> {
    try {
      const init = await client.initialize();
      this.opts.log.info(`connected to ${init.agentInfo?.name ?? spec.name} ${init.agentInfo?.version ?? ""} (pid ${proc.pid})`);
    } catch (err) {
      // If the process died, say how (the connection error alone says little).
      await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 200))]);
      const x = proc.exitInfo;
      const why = x
        ? `the agent stopped during start-up (${x.error ?? (x.signal ? `signal ${x.signal}` : `exit code ${x.code}`)}); see "Manifold: Show Agent Log"`
        : `the agent did not answer initialize: ${(err as Error).message}`;
      this.opts.log.error(why);
      await proc.stop();
      this.opts.onStatus("error", why);
      throw new Error(why);
    }
  }

  /** Makes the agent the running one (unless the extension is shutting down) and records its pid for reaping. */
  async #publish(running: Running): Promise<void> {
    const { proc, spec } = running;
    if (this.#disposed) {
      await proc.stop();
      throw new Error("the extension is shutting down");
    }
    this.#running = running;
    this.#crashed = false;
    if (this.opts.recordsDir && proc.pid !== undefined) {
      const unrecord = await recordAgent(
        this.opts.recordsDir,
        proc.pid,
        spec.builtin ? (spec.args[0] ?? spec.command) : spec.command,
      ).catch(logError((m) => this.opts.log.warn(m), "could not record the agent for reaping after a crash"));
      if (unrecord)
        void proc.exited.then(() => unrecord().catch(logError((m) => this.opts.log.warn(m), "could not remove the agent's record")));
    }
  }

  #scheduleRestart(reason: string): void {
    if (!this.opts.needed()) {
      this.opts.onStatus("stopped", reason);
      return;
    }
    const delay = this.#backoff.next(Date.now());
    if (delay === undefined) {
      this.opts.onStatus("error", `${reason}; it crashed repeatedly, so it is not restarted automatically. Run "Manifold: Restart Agent".`);
      return;
    }
    this.opts.onStatus("restarting", `${reason}; restarting…`);
    clearTimeout(this.#restartTimer);
    this.#restartTimer = setTimeout(() => {
      if (this.#disposed || this.#running || this.#starting) return;
      this.#starting = this.#start(true).finally(() => {
        this.#starting = undefined;
      });
      this.#starting.catch((err: unknown) => this.#scheduleRestart((err as Error).message));
    }, delay);
  }

  /** User-requested restart (also picks up changed settings and keys). */
  async restart(): Promise<AcpClient> {
    clearTimeout(this.#restartTimer);
    this.#backoff.reset();
    // The start in flight settles first; its failure went to its caller, and this one starts anew.
    await this.#starting?.catch(ignoreError("the start's failure goes to whoever asked for the agent"));
    const r = this.#running;
    this.#running = undefined;
    if (r) {
      this.opts.onCrashed("the agent was restarted");
      await r.proc.stop();
    }
    this.#starting = this.#start(true).finally(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /** No more starts or restarts; the agent and its whole process tree start ending (`shutdown` waits). */
  dispose(): void {
    if (!this.#shutdown) this.shutdown().catch((err: unknown) => this.opts.log.error(`stopping the agent failed: ${errorMessage(err)}`));
  }

  /** Stops the agent and its whole process tree; resolves when it is gone (I-96). */
  shutdown(): Promise<void> {
    this.#shutdown ??= this.#stopForGood();
    return this.#shutdown;
  }

  async #stopForGood(): Promise<void> {
    this.#disposed = true;
    clearTimeout(this.#restartTimer);
    // A start in flight ends first (`#publish` stops what it spawned); its failure went to its caller.
    await this.#starting?.catch(ignoreError("the start's failure goes to whoever asked for the agent"));
    const r = this.#running;
    this.#running = undefined;
    if (r) await r.proc.stop();
  }
}
