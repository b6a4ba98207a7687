// Surfaces an agent question whose panel is not visible: a notification offering "Show" (it reveals
// the panel; it never answers — the question stays pending until the user answers or declines it in
// the panel, or it is cancelled). The sessions view counts it in its badge.
import * as vscode from "vscode";
import type { PendingQuestion } from "./questionBroker";

const PREVIEW_MAX = 120;

export function surfaceHiddenQuestion(folderName: string, q: PendingQuestion, reveal: () => void): void {
  const show = "Show";
  const oneLine = q.message.replace(/\s+/g, " ").trim();
  const preview = oneLine.length > PREVIEW_MAX ? `${oneLine.slice(0, PREVIEW_MAX - 1)}…` : oneLine;
  void vscode.window.showInformationMessage(`Manifold (${folderName}) has a question for you: ${preview}`, show).then((choice) => {
    if (choice === show) reveal();
  });
}
