// Manifold: Select Agent…, Update Agent…, Remove Agent…: the built-in agent, the ACP registry's
// agents and `manifold.agents` entries. Picking is the only way an installed agent comes to run
// (I-107): the choice is written to the user's settings, never read from a workspace.
import * as vscode from "vscode";
import { COMMANDS } from "../../api";
import { errorText, oneLine } from "../../common/text";
import type { DisposableStore } from "../../../base/lifecycle";
import { registryRows, rowStateText, type RegistryRow } from "../listing";
import { registryAgentId, registryAgentSetting } from "../settings";
import { SNAPSHOT_SOURCE, type LoadedRegistry } from "../source";
import { selectedAgent, SETTINGS, thirdPartyAgents } from "../../vscode/config";
import type { SessionManager } from "../../sessions/vscode/sessionManager";
import { RegistryAgents } from "./registryAgents";

type AgentItem = vscode.QuickPickItem & {
  pick?: { kind: "builtin" } | { kind: "named"; name: string } | { kind: "registry"; row: RegistryRow } | { kind: "configure" };
};

async function restart(manager: SessionManager): Promise<void> {
  try {
    await manager.agent.restartAgent();
  } catch (err) {
    void vscode.window.showErrorMessage(`Manifold: Restart Agent failed: ${errorText(err)}`);
  }
}

/**
 * Selects an agent for the window. The same agent again restarts it; another one is a switch: running
 * turns are cancelled and every panel re-attaches under an "Agent switched" divider (`switchAgent`).
 */
async function choose(manager: SessionManager, setting: string): Promise<void> {
  const current = selectedAgent();
  await vscode.workspace.getConfiguration("manifold").update(SETTINGS.agent, setting, vscode.ConfigurationTarget.Global);
  if (setting === current) return restart(manager);
  try {
    await manager.agent.switchAgent(setting);
  } catch (err) {
    void vscode.window.showErrorMessage(`Manifold: Select Agent failed: ${errorText(err)}`);
  }
}

function originText(loaded: LoadedRegistry): string {
  if (loaded.origin === "snapshot") return `bundled snapshot of ${SNAPSHOT_SOURCE.date} (the registry could not be read)`;
  if (loaded.origin === "cache") return `as of ${new Date(loaded.fetchedAt ?? "").toLocaleString()}`;
  return "";
}

const ROW_ICON: Record<RegistryRow["state"], string> = {
  "not-installed": "$(cloud-download)",
  installed: "$(check)",
  "update-available": "$(arrow-up)",
  "not-in-registry": "$(check)",
};

function registryItems(rows: RegistryRow[], current: string): AgentItem[] {
  return rows.map((row) => ({
    label: `${ROW_ICON[row.state]} ${oneLine(row.name, 60)}`,
    description: rowStateText(row) + (registryAgentSetting(row.id) === current ? " (current)" : ""),
    ...(row.description ? { detail: oneLine(row.description) } : {}),
    pick: { kind: "registry", row },
  }));
}

async function loadRows(registry: RegistryAgents): Promise<{ loaded: LoadedRegistry; rows: RegistryRow[] }> {
  const [loaded, installed] = await Promise.all([registry.source().load(), registry.store.all()]);
  return { loaded, rows: registryRows(loaded.registry, installed, registry.platform) };
}

async function selectAgent(manager: SessionManager, registry: RegistryAgents): Promise<void> {
  const current = selectedAgent();
  const qp = vscode.window.createQuickPick<AgentItem>();
  qp.placeholder = "Which ACP agent serves this window?";
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  const fixed: AgentItem[] = [
    {
      label: "$(hubot) Built-in",
      description: "Manifold's own agent" + (current === "builtin" ? " (current)" : ""),
      pick: { kind: "builtin" },
    },
  ];
  const named: AgentItem[] = thirdPartyAgents().map((a) => ({
    label: `$(terminal) ${a.name}`,
    description: `${a.command} ${(a.args ?? []).join(" ")}` + (a.name === current ? " (current)" : ""),
    pick: { kind: "named", name: a.name },
  }));
  const tail: AgentItem[] = [
    ...(named.length > 0 ? [{ label: "manifold.agents", kind: vscode.QuickPickItemKind.Separator }, ...named] : []),
    { label: "", kind: vscode.QuickPickItemKind.Separator },
    { label: "$(gear) Configure agents…", description: "manifold.agents in settings", pick: { kind: "configure" } },
  ];
  qp.items = [...fixed, ...tail];
  qp.show();
  const picked = new Promise<AgentItem | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]));
    qp.onDidHide(() => resolve(undefined));
  });
  void loadRows(registry)
    .then(({ loaded, rows }) => {
      const header: AgentItem = {
        label: ["ACP registry", originText(loaded)].filter(Boolean).join(" · "),
        kind: vscode.QuickPickItemKind.Separator,
      };
      qp.items = [...fixed, header, ...registryItems(rows, current), ...tail];
    })
    .catch((err: unknown) => manager.log.warn(`registry: ${errorText(err)}`))
    .finally(() => (qp.busy = false));
  const item = await picked;
  qp.dispose();
  const pick = item?.pick;
  if (!pick) return;
  if (pick.kind === "configure") return void (await vscode.commands.executeCommand("workbench.action.openSettings", "manifold.agents"));
  if (pick.kind === "builtin") return choose(manager, "builtin");
  if (pick.kind === "named") return choose(manager, pick.name);
  const { row } = pick;
  if (row.state === "not-installed" && row.agent) {
    const install = "Install";
    const answer = await vscode.window.showInformationMessage(
      `Install ${row.name} ${row.registryVersion} from the ACP registry?`,
      {
        modal: true,
        detail: `${row.description}\n\nIt is installed into Manifold's storage and then runs as this window's agent, as your user.`,
      },
      install,
    );
    if (answer !== install) return;
    if (!(await registry.install(row.agent, "install"))) return;
  }
  await choose(manager, registryAgentSetting(row.id));
}

async function pickInstalled(
  registry: RegistryAgents,
  placeHolder: string,
  filter: (r: RegistryRow) => boolean,
): Promise<RegistryRow | undefined> {
  const { rows } = await loadRows(registry);
  const items = rows
    .filter((r) => r.state !== "not-installed" && filter(r))
    .map((row) => ({ label: row.name, description: rowStateText(row), row }));
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      "Manifold: no agent from the ACP registry is installed" + (placeHolder.startsWith("Update") ? " with an update available." : "."),
    );
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.row;
}

async function updateAgentCommand(manager: SessionManager, registry: RegistryAgents): Promise<void> {
  const row = await pickInstalled(registry, "Update which agent?", (r) => r.state === "update-available");
  if (!row?.agent) return;
  if (!(await registry.install(row.agent, "update"))) return;
  if (registryAgentId(selectedAgent()) === row.id) await restart(manager);
}

async function removeAgentCommand(manager: SessionManager, registry: RegistryAgents): Promise<void> {
  const row = await pickInstalled(registry, "Remove which agent?", () => true);
  if (!row) return;
  const remove = "Remove";
  const running = registryAgentId(selectedAgent()) === row.id;
  const answer = await vscode.window.showWarningMessage(
    `Remove ${row.name} ${row.installedVersion}?`,
    { modal: true, ...(running ? { detail: "It serves this window now: the built-in agent takes over." } : {}) },
    remove,
  );
  if (answer !== remove) return;
  // The window stops running it before its files go.
  if (running) await choose(manager, "builtin");
  try {
    await registry.store.remove(row.id);
  } catch (err) {
    void vscode.window.showErrorMessage(`Manifold: could not remove ${row.name}: ${errorText(err)}`);
  }
}

export function registerAgentPicker(manager: SessionManager, context: vscode.ExtensionContext, store: DisposableStore): void {
  const registry = new RegistryAgents(context, manager.log);
  store.add(vscode.commands.registerCommand(COMMANDS.selectAgent, () => selectAgent(manager, registry)));
  store.add(vscode.commands.registerCommand(COMMANDS.updateAgent, () => updateAgentCommand(manager, registry)));
  store.add(vscode.commands.registerCommand(COMMANDS.removeAgent, () => removeAgentCommand(manager, registry)));
}
