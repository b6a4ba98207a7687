// The editor half of confining the window's third-party agent (extension/agent/confinement.ts): the
// fence's inputs from this window (its folders, Manifold's storage, the user's settings), the
// question when the fence cannot be set up (I-119: start unconfined once, always, or pick another
// agent; dismissing starts nothing), and the panel's one-time note when the agent hit a path its
// fence keeps read-only.
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { COMMANDS } from "../../api";
import { FencedConfigGuard } from "../../agent/configGuard";
import { confineAgent, chosen, readOnlyPath, WRITABLE_SETTING, type UnconfinedChoice } from "../../agent/confinement";
import type { AgentSpec } from "../../agent/agentSpec";
import { manifoldStorageDirs } from "../../agent/storageDirs";
import { agentWritablePaths, rememberUnconfined, runsUnconfined } from "../../vscode/config";
import { isInside } from "../../../sandbox/pathGuard";
import { errorText } from "../../common/text";
import type { CommandSandbox } from "../../../sandbox/types";
import type { FolderSession } from "../folderSession";
import { DisposableStore } from "../../../base/lifecycle";

export interface FencingDeps {
  context: vscode.ExtensionContext;
  /** The window's sandbox backend (probed once, shared with the terminals). */
  sandbox(): Promise<CommandSandbox>;
  /** The folder sessions with a panel open (the notes go there). */
  open(): FolderSession[];
  /** Folders the window serves that are not workspace folders (worktrees); absent: none. */
  sessionFolders?(): ReadonlyArray<{ path: string; name: string }>;
  log(line: string): void;
}

/** The window's folders on this machine's disk: the ones a fence can bind. */
const localFolders = (): vscode.WorkspaceFolder[] => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");

const ONCE = "Start Unconfined Once";
const ALWAYS = "Always Run Unconfined";
const OTHER = "Use Another Agent…";

export class AgentFencing {
  readonly #store = new DisposableStore();
  /** The user chose "once" after a fenced start failed: the next start of this agent runs unconfined. */
  #onceFor: string | undefined;
  /** Paths a read-only note was shown for, this window. */
  readonly #told = new Set<string>();
  /** Top-level config the fenced agent creates where none existed (configGuard.ts); none when unfenced. */
  #guard: FencedConfigGuard | undefined;

  constructor(private readonly deps: FencingDeps) {
    // What the user makes through the editor is theirs, never held.
    const mine = (uris: readonly vscode.Uri[]) => {
      for (const u of uris) if (u.scheme === "file") this.#guard?.userMade(u.fsPath);
    };
    this.#store.add(vscode.workspace.onDidCreateFiles((e) => mine(e.files)));
    this.#store.add(vscode.workspace.onDidRenameFiles((e) => mine(e.files.map((f) => f.newUri))));
    this.#store.add(vscode.workspace.onDidSaveTextDocument((d) => mine([d.uri])));
  }

  dispose(): void {
    this.#store.dispose();
  }

  /** What a window's fence lets the agent write in: its folders on this disk, then its worktrees. */
  #folders(): Array<{ path: string; name: string }> {
    return [...localFolders().map((f) => ({ path: f.uri.fsPath, name: f.name })), ...(this.deps.sessionFolders?.() ?? [])];
  }

  /** The spec to spawn for `setting` (the `manifold.agent` value): fenced, or unconfined by the user's choice. */
  async confine(spec: AgentSpec, setting: string): Promise<AgentSpec> {
    if (spec.builtin) return spec;
    const folders = this.#folders();
    const once = this.#onceFor === setting;
    this.#onceFor = undefined;
    const storage = this.deps.context.globalStorageUri.fsPath;
    const confined = await confineAgent(spec, {
      ...this.#fenceOptions(setting, folders, "agent-tmp"),
      onceUnconfined: once,
      choose: (name, reason) => this.#choose(setting, name, reason),
    });
    this.#guard =
      confined.confinement?.kind === "confined"
        ? new FencedConfigGuard(
            folders.map((f) => f.path),
            path.join(storage, "held-config"),
          )
        : undefined;
    return confined;
  }

  /**
   * The spec of a delegated child agent (`setting` names it), fenced to the one folder it works in.
   * It serves exactly one session, so its fence is exactly that folder. Where the fence cannot be set
   * up it runs only by the user's standing choice for that agent; nothing asks mid-turn.
   */
  confineTo(spec: AgentSpec, setting: string, folder: { path: string; name: string }): Promise<AgentSpec> {
    if (spec.builtin) return Promise.resolve(spec);
    return confineAgent(spec, {
      ...this.#fenceOptions(setting, [folder], "delegate-tmp"),
      choose: () => Promise.resolve(undefined),
    });
  }

  #fenceOptions(setting: string, folders: ReadonlyArray<{ path: string; name: string }>, tmpArea: string) {
    const storage = this.deps.context.globalStorageUri.fsPath;
    return {
      sandbox: () => this.deps.sandbox(),
      fence: {
        home: os.homedir(),
        folders: folders.map((f) => f.path),
        extraWritable: agentWritablePaths(setting),
        tmpDir: path.join(storage, tmpArea, setting.replace(/[^\w.-]/g, "_") || "agent"),
        storage: manifoldStorageDirs(this.deps.context),
      },
      folderNames: folders.map((f) => f.name),
      alwaysUnconfined: runsUnconfined(setting),
    };
  }

  /**
   * A turn of `s` ended: config the fenced agent created at a folder's top level meanwhile is moved
   * out of the folder (I-112), and `s`'s panel says what and where to.
   */
  afterTurn(s: FolderSession, agentName: string): void {
    let held;
    try {
      held = this.#guard?.check() ?? [];
    } catch (err) {
      s.emit({ type: "notice", severity: "error", text: `Manifold could not check the folders' config after the turn: ${errorText(err)}` });
      return;
    }
    for (const h of held)
      s.emit({
        type: "notice",
        severity: "warning",
        text: `${agentName} created ${h.name} in ${path.basename(h.folder)}. Manifold moved it out of the folder, to ${h.heldAt}: such config runs or applies outside the fence. To keep it, move it back yourself.`,
      });
  }

  /** A fenced start failed: ask the user; true when the next start runs it unconfined. */
  async startFailed(spec: AgentSpec, setting: string, why: string): Promise<boolean> {
    try {
      await chosen(spec, `it stopped while starting inside the fence: ${why}`, {
        choose: (name, reason) => this.#choose(setting, name, reason),
      });
    } catch {
      return false;
    }
    this.#onceFor = setting;
    return true;
  }

  async #choose(setting: string, name: string, reason: string): Promise<UnconfinedChoice | undefined> {
    this.deps.log(`${name} cannot start inside the fence: ${reason}`);
    const picked = await vscode.window.showWarningMessage(
      `${name} cannot start inside Manifold's fence.`,
      {
        modal: true,
        detail: `Why: ${reason}\n\nUnconfined, it runs as you: it can write anywhere you can and read your home folder's secrets. Manifold starts it only if you choose so.`,
      },
      ONCE,
      ALWAYS,
      OTHER,
    );
    if (picked === ALWAYS) await rememberUnconfined(setting);
    if (picked === OTHER) void vscode.commands.executeCommand(COMMANDS.selectAgent);
    return picked === ONCE ? "once" : picked === ALWAYS ? "always" : picked === OTHER ? "other" : undefined;
  }

  /**
   * The window's folders changed: a fenced agent writes only in those it started with, until it
   * restarts. Offers the restart (which ends running turns), and says so; nothing happens unasked.
   */
  async foldersChanged(spec: AgentSpec | undefined, restart: () => Promise<void>): Promise<void> {
    const had = spec?.confinement?.kind === "confined" ? (spec.confinement.folders ?? []) : undefined;
    if (!had) return;
    const added = this.#folders()
      .filter((f) => !had.includes(f.path))
      .map((f) => f.name);
    if (added.length === 0) return;
    const RESTART = "Restart Agent";
    const picked = await vscode.window.showInformationMessage(
      `${spec?.name ?? "The agent"} can write in ${added.join(", ")} only after it restarts: its fence was set up for the folders it started with. Restarting ends running turns.`,
      RESTART,
    );
    if (picked === RESTART) await restart();
  }

  /** A line of the agent's stderr: a write its fence refused gets one note per path in every open panel. */
  stderrLine(line: string, spec: AgentSpec): void {
    if (spec.confinement?.kind !== "confined") return;
    const p = readOnlyPath(line);
    if (p === undefined || this.#told.has(p)) return;
    this.#told.add(p);
    const inFolder = (spec.confinement.folders ?? []).some((f) => isInside(p, f));
    const text = inFolder
      ? `${spec.name} tried to write ${p}: Manifold keeps git hooks and config and editor and agent config read-only for every agent (they would run or apply outside the fence).`
      : `${spec.name} tried to write ${p}, which its fence keeps read-only. To let it write there, add the path to ${WRITABLE_SETTING} in your User settings and restart the agent.`;
    for (const s of this.deps.open()) s.emit({ type: "notice", severity: "warning", text });
  }
}
