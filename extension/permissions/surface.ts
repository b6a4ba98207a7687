// Surfaces a permission request whose panel is not visible: a notification offering "Show" (it
// reveals the panel; it never answers) — the sessions view shows the badge. I-93.
import * as vscode from "vscode";
import type { PendingPermission } from "./permissionBroker";

export function surfaceHiddenRequest(folderName: string, p: PendingPermission, reveal: () => void): void {
  const show = "Show";
  void vscode.window.showInformationMessage(`Manifold (${folderName}) is waiting for your approval: ${p.title}`, show).then((choice) => {
    if (choice === show) reveal();
  });
}

export interface PendingItem extends vscode.QuickPickItem {
  folder: string;
}

/** "Show Pending Approvals": every pending request across folders; picking one reveals its panel. */
export async function pickPendingApproval(all: { folder: string; folderName: string; pending: PendingPermission[] }[]): Promise<string | undefined> {
  const items: PendingItem[] = all.flatMap((f) =>
    f.pending.map((p) => ({ label: `$(shield) ${p.title}`, description: f.folderName, detail: p.options.map((o) => o.name).join(" · "), folder: f.folder })),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage("Manifold: no approvals are pending.");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: "Pending approvals — pick one to open its panel" });
  return picked?.folder;
}
