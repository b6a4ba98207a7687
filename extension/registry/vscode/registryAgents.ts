// The editor side of the ACP registry: where installs and the cache live in global storage, the
// source for the configured URL, and installing with a cancellable progress notification.
import * as vscode from "vscode";
import type { RegistryLaunch } from "../../agent/agentSpec";
import { errorText } from "../../common/text";
import { installAgent, updateAgent } from "../installer";
import { platformTarget } from "../platform";
import type { RegistryAgent } from "../schema";
import { registryAgentId } from "../settings";
import { RegistrySource } from "../source";
import { AgentStore, launchOf, type InstalledAgent } from "../store";
import { agentRegistryUrl } from "../../vscode/config";

/** `<globalStorage>/registry-agents/<id>/<version>/` (`<globalStorage>/agents/` holds the running agents' records). */
export function agentStore(context: vscode.ExtensionContext): AgentStore {
  return new AgentStore(vscode.Uri.joinPath(context.globalStorageUri, "registry-agents").fsPath);
}

/** How the picked registry agent starts, when `manifold.agent` names one and it is installed. */
export async function installedRegistryLaunch(context: vscode.ExtensionContext, agentSetting: string): Promise<RegistryLaunch | undefined> {
  const id = registryAgentId(agentSetting);
  const installed = id === undefined ? undefined : await agentStore(context).installed(id);
  return installed ? { setting: agentSetting, ...launchOf(installed) } : undefined;
}

export class RegistryAgents {
  readonly store: AgentStore;
  readonly platform = platformTarget(process.platform, process.arch);
  #source: RegistrySource | undefined;
  #swept = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.store = agentStore(context);
  }

  /** The registry at the configured URL (user or machine settings only, I-107); read only when a command needs it. */
  source(): RegistrySource {
    const url = agentRegistryUrl();
    if (this.#source?.url !== url) {
      this.#source = new RegistrySource({
        url,
        cacheFile: vscode.Uri.joinPath(this.context.globalStorageUri, "registry-cache.json").fsPath,
      });
    }
    return this.#source;
  }

  /**
   * Installs (or updates) with a cancellable notification. Resolves with the install, or undefined
   * when the user cancelled or it failed (already said in a message).
   */
  async install(agent: RegistryAgent, mode: "install" | "update"): Promise<InstalledAgent | undefined> {
    if (!this.#swept) {
      this.#swept = true;
      // Leftovers of an unfinished install only take space; the install goes on.
      await this.store.sweep().catch((err: unknown) => this.log.warn(`registry: could not remove unfinished installs: ${errorText(err)}`));
    }
    const title = `${mode === "install" ? "Installing" : "Updating"} ${agent.name} ${agent.version}`;
    this.log.info(`registry: ${title}`);
    const abort = new AbortController();
    try {
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          const opts = {
            store: this.store,
            platform: this.platform,
            baseEnv: process.env,
            signal: abort.signal,
            onProgress: (message: string) => {
              this.log.info(`registry: ${agent.id}: ${message}`);
              progress.report({ message });
            },
            onOutput: (chunk: string) => this.log.trace(chunk.trimEnd()),
          };
          return (mode === "install" ? installAgent(agent, opts) : updateAgent(agent, opts)).finally(() => sub.dispose());
        },
      );
    } catch (err) {
      this.log.warn(`registry: ${agent.id}: ${errorText(err)}`);
      if (abort.signal.aborted)
        void vscode.window.showInformationMessage(`Manifold: installing ${agent.name} was cancelled; nothing was installed.`);
      else void vscode.window.showErrorMessage(`Manifold: could not install ${agent.name}: ${errorText(err)}`);
      return undefined;
    }
  }
}
