// Surfaces an agent question whose panel is not visible: a notification offering "Show" (it reveals
// the panel; it never answers — the question stays pending until the user answers or declines it in
// the panel, or it is cancelled). The sessions view counts it in its badge.
import * as vscode from "vscode";
import { oneLine } from "../../common/text";
import type { PendingQuestion } from "../questionBroker";

export function surfaceHiddenQuestion(folderName: string, q: PendingQuestion, reveal: () => void): void {
  const show = "Show";
  void vscode.window
    .showInformationMessage(`Manifold (${folderName}) has a question for you: ${oneLine(q.message)}`, show)
    .then((choice) => {
      if (choice === show) reveal();
    });
}
