// The window's delegation (extension/delegation/childRun.ts `Delegation`): the agents of
// `manifold.delegation.agents` (User settings only) that can start here are offered to every session
// whose agent advertises delegation, and a run starts the named one as a child process in the
// session's folder, fenced to exactly that folder (a second built-in agent keeps its sessions in a
// temporary data folder of its own, removed after the task).
import { mkdtemp, rm } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import { AgentProcess, type AgentLog } from "../../agent/agentProcess";
import { resolveAgentSpec, type AgentSpec } from "../../agent/agentSpec";
import { manifoldStorageDirs } from "../../agent/storageDirs";
import { installedRegistryLaunch } from "../../registry/vscode/registryAgents";
import { registryAgentId } from "../../registry/settings";
import { delegationAgents, readAgentSettings, readSecrets, traceEnabled } from "../../vscode/config";
import type { AgentSecretStore } from "../../sessions/vscode/agentAuth";
import type { AgentFencing } from "../../sessions/vscode/agentFencing";
import { runChild, type ChildParent, type ChildResult, type Delegation } from "../childRun";
import type { DelegateParams, DelegateTarget } from "../../agent/delegateProtocol";
import { ignoreError } from "../../../base/errors";

export interface WindowDelegationDeps {
  context: vscode.ExtensionContext;
  log: AgentLog;
  fencing: AgentFencing;
  secrets: AgentSecretStore;
}

const BUILTIN = "builtin";

export class WindowDelegation implements Delegation {
  constructor(private readonly deps: WindowDelegationDeps) {}

  /** The allowed agents that name something that can start: the built-in agent, a `manifold.agents` entry, a registry agent. */
  offered(): DelegateTarget[] {
    const agents = readAgentSettings().agents;
    return delegationAgents().flatMap((id): DelegateTarget[] => {
      if (id === BUILTIN) return [{ id, name: "Manifold agent", description: "a second built-in agent process" }];
      const entry = agents.find((a) => a.name === id);
      if (entry) return [{ id, name: entry.name }];
      const reg = registryAgentId(id);
      return reg !== undefined ? [{ id, name: reg, description: "from the ACP agent registry" }] : [];
    });
  }

  async run(params: DelegateParams, folder: string, parent: ChildParent, signal: AbortSignal): Promise<ChildResult> {
    if (!this.offered().some((t) => t.id === params.agent))
      return { stopReason: "error", text: "", error: `"${params.agent}" is not in manifold.delegation.agents` };
    const dataDir = await mkdtemp(path.join(this.deps.context.globalStorageUri.fsPath, "delegate-"));
    try {
      const spec = await this.#spec(params.agent, folder, dataDir);
      this.deps.log.info(`[delegate] ${params.delegateId}: ${spec.name} in ${folder} (${spec.confinement?.kind ?? "built-in"})`);
      return await runChild({
        target: { sessionId: params.sessionId, toolCallId: params.toolCallId, delegateId: params.delegateId },
        folder,
        task: params.task,
        parent,
        start: () => Promise.resolve(new AgentProcess(spec, this.deps.log, traceEnabled())),
        ...(spec.offer ? { offer: spec.offer } : {}),
        signal,
        onRouteError: (err) => this.deps.log.warn(`[delegate] ${params.delegateId}: ${String(err)}`),
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true }).catch(ignoreError("a leftover temporary data folder is harmless"));
    }
  }

  async #spec(agent: string, folder: string, dataDir: string): Promise<AgentSpec> {
    const { context } = this.deps;
    const settings = { ...readAgentSettings(), agent };
    const spec = resolveAgentSpec({
      settings,
      registryAgent: await installedRegistryLaunch(context, agent),
      secrets: { ...(await readSecrets(context.secrets)), agentEnv: await this.deps.secrets.read(agent) },
      baseEnv: process.env,
      execPath: process.execPath,
      extensionPath: context.extensionUri.fsPath,
      dataDir,
      cwd: folder,
      hideDirs: manifoldStorageDirs(context),
    });
    const name = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder))?.name ?? path.basename(folder);
    return this.deps.fencing.confineTo(spec, agent, { path: folder, name });
  }
}
