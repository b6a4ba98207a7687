// The window's agent as the folder sessions see it: which command runs (settings, a registry install,
// stored sign-in secrets), its status told to every folder, the open panels attached again after each
// (re)start, switching agents and signing in. Apart from SessionManager (folders, panels, persisted
// bindings) because this half needs only two things of it: which folder sessions exist and which of
// them have a panel open. Switching agents cancels running turns (and says so), attaches every open
// panel to the new agent (its own earlier session where it has one: bindings are kept per agent), and
// keeps the transcript so far above an "Agent switched to X" divider.
import * as vscode from "vscode";
import type { AcpClient } from "../../agent/acpClient";
import { AgentHost } from "../../agent/agentHost";
import type { AgentLog } from "../../agent/agentProcess";
import { resolveAgentSpec } from "../../agent/agentSpec";
import { manifoldStorageDirs } from "../../agent/storageDirs";
import { readAgentProfiles, readAgentSettings, readSecrets, traceEnabled } from "../../vscode/config";
import { writeAgentConfig } from "../../agent/profilesConfig";
import { installedRegistryLaunch } from "../../registry/vscode/registryAgents";
import type { AgentStatus } from "../../common/transcript";
import { errorText } from "../../common/text";
import type { FolderSession } from "../folderSession";
import { Emitter, type Event } from "../../../base/event";
import { DisposableStore, type AsyncShutdown } from "../../../base/lifecycle";
import { signIn } from "../signIn";
import { AgentSecretStore, signInIO } from "./agentAuth";
import { AgentFencing } from "./agentFencing";
import { WindowDelegation } from "../../delegation/vscode/windowDelegation";
import type { CommandSandbox } from "../../../sandbox/types";

/** What the agent half knows of the folders: every live folder session, those with a panel open, and the window's sandbox. */
export interface AgentSessions {
  all(): Iterable<FolderSession>;
  open(): FolderSession[];
  sandbox(): Promise<CommandSandbox>;
  /** Folders served like workspace folders that are not ones (worktrees): a fenced agent may write there too. */
  sessionFolders(): ReadonlyArray<{ path: string; name: string }>;
}

export class WindowAgent implements AsyncShutdown {
  readonly #store = new DisposableStore();
  readonly #onDidChangeStatus = this.#store.add(new Emitter<AgentStatus>());
  /** Fired after every folder session was told the new status. */
  readonly onDidChangeStatus: Event<AgentStatus> = this.#onDidChangeStatus.event;
  readonly host: AgentHost;
  /** Sign-in variables of third-party agents (SecretStorage). */
  readonly secrets: AgentSecretStore;
  #status: AgentStatus = "idle";
  #statusMessage: string | undefined;
  readonly #fencing: AgentFencing;
  /** Tasks the model hands to other agents (`manifold.delegation.agents`), each fenced to its session's folder. */
  readonly delegation: WindowDelegation;
  /** Set while `switchAgent` restarts the agent: the next attach keeps each transcript under a divider. */
  #switching = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly sessions: AgentSessions,
  ) {
    this.secrets = new AgentSecretStore(context.secrets, context.globalState);
    const fencing = this.#store.add(
      new AgentFencing({
        context,
        sandbox: () => sessions.sandbox(),
        open: () => sessions.open(),
        sessionFolders: () => sessions.sessionFolders(),
        log: (m) => log.info(m),
      }),
    );
    this.#fencing = fencing;
    const agentLog: AgentLog = {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
      trace: (m) => log.trace(m),
    };
    this.delegation = new WindowDelegation({ context, log: agentLog, fencing, secrets: this.secrets });
    this.host = new AgentHost({
      log: agentLog,
      trace: traceEnabled,
      needed: () => this.sessions.open().length > 0,
      recordsDir: vscode.Uri.joinPath(context.globalStorageUri, "agents").fsPath,
      resolveSpec: async () => {
        // The data dir (and the agent's cwd) must exist before the spawn.
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(context.globalStorageUri, "sessions"));
        const settings = readAgentSettings();
        const configFile = await this.#profilesConfig(context.globalStorageUri.fsPath);
        const spec = resolveAgentSpec({
          ...(configFile !== undefined ? { configFile } : {}),
          settings,
          registryAgent: await installedRegistryLaunch(context, settings.agent),
          secrets: { ...(await readSecrets(context.secrets)), agentEnv: await this.secrets.read(settings.agent) },
          baseEnv: process.env,
          execPath: process.execPath,
          extensionPath: context.extensionUri.fsPath,
          dataDir: vscode.Uri.joinPath(context.globalStorageUri, "sessions").fsPath,
          cwd: context.globalStorageUri.fsPath,
          // I-116: no session's tools or commands see Manifold's storage (checkpoints, logs, VS Code's state).
          hideDirs: manifoldStorageDirs(context),
        });
        // A third-party agent runs inside the window's fence, or unconfined by the user's choice only (I-118, I-119).
        return fencing.confine(spec, settings.agent);
      },
      onStderrLine: (line, spec) => fencing.stderrLine(line, spec),
      confinedStartFailed: (spec, why) => fencing.startFailed(spec, readAgentSettings().agent, why),
      onStarted: (client, restart) => this.#onAgentStarted(client, restart),
      onCrashed: (message) => {
        for (const s of this.sessions.all()) s.agentDied(message);
      },
      onStatus: (status, message) => this.#setStatus(status, message),
    });
    this.#store.add(vscode.workspace.onDidChangeWorkspaceFolders(() => this.foldersChanged()));
    if (!vscode.workspace.isTrusted) this.#status = "untrusted";
    this.#store.add(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.#setStatus("idle");
        for (const s of this.sessions.open())
          void this.ensureAttached(s).catch((err: unknown) => this.log.error(`[${s.folderName}] ${errorText(err)}`));
      }),
    );
  }

  /** A turn of `s` ended (or its session changed): what the fenced agent did to the folders' config is checked. */
  /** The folders the window serves changed: a fenced agent is offered the restart that lets it write in the new ones. */
  foldersChanged(): void {
    void this.#fencing.foldersChanged(this.host.spec, () => this.restartAgent()).catch((err: unknown) => this.log.warn(errorText(err)));
  }

  afterTurn(s: FolderSession): void {
    const spec = this.host.spec;
    if (spec?.confinement?.kind === "confined") this.#fencing.afterTurn(s, spec.name);
  }

  /**
   * `manifold.agentProfiles` for the built-in agent's spawn: written to its config file. A bad value is
   * reported and the agent starts without profiles; everything else keeps working.
   */
  async #profilesConfig(dir: string): Promise<string | undefined> {
    const { profiles, error } = readAgentProfiles();
    if (error !== undefined) {
      this.log.error(error);
      void vscode.window.showErrorMessage(`Manifold: the agent profiles are not used: ${error}`);
    }
    return writeAgentConfig(dir, profiles);
  }

  /** Tells a folder session created after the last status change what the agent's status is. */
  applyStatusTo(s: FolderSession): void {
    s.setStatus(this.#status, this.#statusMessage);
  }

  #setStatus(status: AgentStatus, message?: string): void {
    this.#status = status;
    this.#statusMessage = message;
    for (const s of this.sessions.all()) s.setStatus(status, message);
    this.#onDidChangeStatus.fire(status);
  }

  async #onAgentStarted(client: AcpClient, restart: boolean): Promise<void> {
    // Lives as long as the client: a restart brings a new client and a new subscription.
    client.onDidReportMcpStatus(({ sessionId, servers }) => {
      for (const s of this.sessions.all()) s.mcpStatus(sessionId, servers);
    });
    const switched = this.#switching;
    this.#switching = false;
    const confinement = this.host.spec?.confinement;
    const opts = {
      restart: restart && !switched,
      builtin: this.host.spec?.builtin ?? true,
      ...(confinement ? { confinement } : {}),
      ...(switched ? { switchedTo: client.agentName } : {}),
    };
    await Promise.all(
      this.sessions
        .open()
        .map((s) => s.attach(client, opts).catch((err: unknown) => this.log.error(`[${s.folderName}] attach failed: ${errorText(err)}`))),
    );
  }

  /**
   * After `manifold.agent` changed: running turns are cancelled (each panel says so), every open
   * session is closed, the agent restarts as the new one and every open panel attaches to a new (or its
   * own earlier) session of it, the transcript so far kept above a divider (the I-95 re-attach path).
   */
  async switchAgent(to: string): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    // A session that could not be left cleanly is still switched: the restart ends it with the old agent.
    await Promise.all(
      this.sessions
        .open()
        .map((s) =>
          s.leaveForSwitch(to).catch((err: unknown) => this.log.warn(`[${s.folderName}] leaving the session: ${errorText(err)}`)),
        ),
    );
    this.#switching = this.sessions.open().length > 0;
    await this.host.restart();
  }

  /** Runs one of the agent's sign-in methods for the folder `s` (its card's button). */
  signIn(s: FolderSession): (methodId: string) => Promise<void> {
    return (methodId) =>
      signIn(
        s,
        methodId,
        signInIO({
          spec: () => this.host.spec,
          store: this.secrets,
          restartAgent: () => this.restartAgent(),
          extensionPath: this.context.extensionUri.fsPath,
        }),
      );
  }

  /** Binds `s` to a live session, starting the agent if needed (never in an untrusted workspace). */
  async ensureAttached(s: FolderSession): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.#setStatus("untrusted", "Manifold starts no agent until you trust this workspace.");
      return;
    }
    const client = await this.host.ensure();
    await s.whenAttached();
    const confinement = this.host.spec?.confinement;
    if (!s.sessionId && !s.state.auth)
      await s.attach(client, { restart: false, builtin: this.host.spec?.builtin ?? true, ...(confinement ? { confinement } : {}) });
  }

  async restartAgent(): Promise<void> {
    if (!vscode.workspace.isTrusted) return;
    await this.host.restart();
  }

  /** Stops listening; the agent's whole process tree starts ending (`shutdown` waits). */
  dispose(): void {
    this.#store.dispose();
    this.host.dispose();
  }

  /** Like `dispose`; resolves when the agent's whole process tree is gone (I-96). */
  shutdown(): Promise<void> {
    this.#store.dispose();
    return this.host.shutdown();
  }
}
