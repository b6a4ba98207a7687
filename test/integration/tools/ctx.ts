// Builds a real ToolContext for tool tests: real sandbox, real task taskTable, scripted answers.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ApprovalPolicy, PermissionAnswer, SandboxMode } from "../../../agent-server/policy/types";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";
import type { TaskTable } from "../../../agent-server/tools/tasks/taskTable";
import type { ClientFs, PermissionAsk } from "../../../agent-server/runtime/capabilities";
import type { ToolCallPatch, ToolContext } from "../../../agent-server/tools/types";

export function tempDir(prefix = "mf-tools-"): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export interface TestCtx extends ToolContext {
  asks: PermissionAsk[];
  updates: ToolCallPatch[];
  answers: PermissionAnswer[];
  controller: AbortController;
}

export function makeCtx(opts: {
  sessionId?: string;
  root: string;
  mode?: SandboxMode;
  approval?: ApprovalPolicy;
  network?: boolean;
  tasks: TaskTable;
  answers?: PermissionAnswer[];
  clientFs?: Partial<ClientFs>;
  tmpDir?: string;
  /** Called on every streamed card update (lets a test react to progress instead of sleeping). */
  onUpdate?: (patch: ToolCallPatch) => void;
}): TestCtx {
  const sessionId = opts.sessionId ?? "sess-a";
  const sandbox: SandboxContext = {
    sessionId,
    mode: opts.mode ?? "workspace-write",
    approval: opts.approval ?? "on-request",
    root: fs.realpathSync(opts.root),
    // Next to the root (so the test's cleanup of the root's parent removes it too).
    tmpDir: opts.tmpDir ?? path.join(path.dirname(fs.realpathSync(opts.root)), ".tmp", sessionId),
    network: opts.network ?? false,
  };
  const controller = new AbortController();
  const asks: PermissionAsk[] = [];
  const updates: ToolCallPatch[] = [];
  const answers = opts.answers ?? [];
  const ctx: TestCtx = {
    sessionId,
    toolCallId: `call-${Math.random().toString(36).slice(2)}`,
    signal: controller.signal,
    sandbox,
    clientFs: opts.clientFs,
    tasks: opts.tasks.forOwner(sessionId, () => sandbox),
    // Tool tests run no sessions, so no subagent can be started.
    runSubagent: async () => ({ kind: "refused", why: "no subagents in tool tests" }),
    async requestPermission(ask) {
      asks.push(ask);
      return answers.shift() ?? "reject";
    },
    update(patch) {
      updates.push(patch);
      opts.onUpdate?.(patch);
    },
    asks,
    updates,
    answers,
    controller,
  };
  return ctx;
}

export type { CommandSandbox };
