// The recent output of each terminal of the window (the `@` mention "Terminal output"),
// through shell integration: a command's output can only be read from its start
// (`onDidStartTerminalShellExecution` → `execution.read()`), so it is recorded as it runs, bounded per
// terminal (extension/common/terminalLog.ts), and forgotten with its terminal. Terminals without
// shell integration report nothing; the mention says so.
import * as vscode from "vscode";
import { TerminalLog, type TerminalRun } from "../../common/terminalLog";
import { DisposableStore } from "../../../base/lifecycle";
import { ignoreError } from "../../../base/errors";

export class TerminalOutputs implements vscode.Disposable {
  readonly #store = new DisposableStore();
  readonly #logs = new Map<vscode.Terminal, TerminalLog>();
  readonly #running = new Map<vscode.TerminalShellExecution, TerminalRun>();
  #disposed = false;

  constructor() {
    this.#store.add(vscode.window.onDidStartTerminalShellExecution((e) => this.#start(e)));
    this.#store.add(vscode.window.onDidEndTerminalShellExecution((e) => this.#end(e)));
    this.#store.add(vscode.window.onDidCloseTerminal((t) => this.#logs.delete(t)));
  }

  /** What `terminal` ran since Manifold started (newest last), within the bound. */
  runs(terminal: vscode.Terminal): readonly TerminalRun[] {
    return this.#logs.get(terminal)?.runs() ?? [];
  }

  #start(e: vscode.TerminalShellExecutionStartEvent): void {
    let log = this.#logs.get(e.terminal);
    if (!log) this.#logs.set(e.terminal, (log = new TerminalLog()));
    const cwd = e.execution.cwd ?? e.shellIntegration.cwd;
    const run = log.start(e.execution.commandLine.value, cwd?.scheme === "file" ? cwd.fsPath : undefined);
    this.#running.set(e.execution, run);
    const target = log;
    void (async () => {
      for await (const data of e.execution.read()) {
        if (this.#disposed) return;
        target.append(run, data);
      }
    })().catch(ignoreError("a terminal closed mid-read: what was read stays"));
  }

  #end(e: vscode.TerminalShellExecutionEndEvent): void {
    const run = this.#running.get(e.execution);
    this.#running.delete(e.execution);
    if (run) this.#logs.get(e.terminal)?.end(run, e.exitCode);
  }

  dispose(): void {
    this.#disposed = true;
    this.#store.dispose();
    this.#logs.clear();
    this.#running.clear();
  }
}
