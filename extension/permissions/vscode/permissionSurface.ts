// Surfaces a permission request whose panel is not visible: a notification offering "Show" (it
// reveals the panel; it never answers) — the sessions view shows the badge. I-93.
import * as vscode from "vscode";
import { oneLine } from "../../common/text";
import type { PendingQuestion } from "../../questions/questionBroker";
import type { PendingPermission } from "../permissionBroker";

export function surfaceHiddenRequest(folderName: string, p: PendingPermission, reveal: () => void): void {
  const show = "Show";
  void vscode.window.showInformationMessage(`Manifold (${folderName}) is waiting for your approval: ${p.title}`, show).then((choice) => {
    if (choice === show) reveal();
  });
}

export interface PendingItem extends vscode.QuickPickItem {
  folder: string;
}

/**
 * "Show Pending Approvals": every pending permission request and agent question across folders;
 * picking one reveals its panel (answering happens there).
 */
export async function pickPendingApproval(
  all: { folder: string; folderName: string; pending: PendingPermission[]; questions: PendingQuestion[] }[],
): Promise<string | undefined> {
  const items: PendingItem[] = all.flatMap((f) => [
    ...f.pending.map((p) => ({
      label: `$(shield) ${oneLine(p.title)}`,
      description: f.folderName,
      detail: p.options.map((o) => o.name).join(" · "),
      folder: f.folder,
    })),
    ...f.questions.map((q) => ({
      label: `$(question) ${oneLine(q.message)}`,
      description: f.folderName,
      detail: "A question from the agent",
      folder: f.folder,
    })),
  ]);
  if (items.length === 0) {
    void vscode.window.showInformationMessage("Manifold: no approvals are pending, and no questions.");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { placeHolder: "Pending approvals and questions — pick one to open its panel" });
  return picked?.folder;
}
