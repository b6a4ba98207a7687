// The conventions claude-agent-acp and codex-acp send beyond ACP v1, from a scripted SDK agent through
// the extension's AcpClient into a FolderSession's transcript: a subagent's calls nested under their
// Task card, a compaction as one entry (both forms), a switch_mode plan approved through the agent's
// own permission options and the mode it then reports.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { FolderSession } from "../../../extension/sessions/folderSession";
import type { CompactionEntry, PermissionEntry, ToolEntry, TranscriptState } from "../../../extension/common/transcript";
import { planOptionLabel } from "../../../extension/common/adapterConventions";
import { nestedView } from "../../../extension/common/nestedTools";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

async function oneSession(setup: (fake: FakeAgent) => void = () => {}): Promise<{
  fake: FakeAgent;
  s: FolderSession;
  when: (pred: (st: TranscriptState) => boolean) => Promise<void>;
}> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-adapters-")));
  const folder = join(base, "alpha");
  mkdirSync(folder);
  const fake = createFakeAgent({});
  setup(fake);
  const client = new AcpClient(fake.app);
  await client.initialize();
  const waiters = stateWaiters();
  const bindings = new Map<string, string>();
  const s = new FolderSession(folder, "alpha", {
    bindings: { get: (k) => bindings.get(k), set: (k, id) => void (id ? bindings.set(k, id) : bindings.delete(k)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(s);
  s.onDidEmit(() => waiters.changed(s));
  await s.attach(client, { restart: false });
  return { fake, s, when: (pred) => waiters.when(s, pred) };
}

const send = (c: AgentContext, sessionId: string, update: SessionUpdate) =>
  c.notify(acp.methods.client.session.update, { sessionId, update });
const tools = (st: TranscriptState) => st.entries.filter((e): e is ToolEntry => e.kind === "tool");
const go = (s: FolderSession) => s.prompt([{ type: "text", text: "go" }], { text: "go", attachments: [] });

test("claude-agent-acp's subagent calls (parentToolUseId) nest under their Task card, also when they come first", async () => {
  const { s } = await oneSession((fake) => {
    fake.onPrompt = async ({ params, client: c }) => {
      const sid = params.sessionId;
      // One call of the subagent arrives before its Task card; the rest after it.
      const child = (i: number): SessionUpdate => ({
        sessionUpdate: "tool_call",
        toolCallId: `toolu_child_${i}`,
        title: `Read file ${i}`,
        kind: "read",
        status: "pending",
        _meta: { claudeCode: { toolName: "Read", parentToolUseId: "toolu_task" } },
      });
      await send(c, sid, child(0));
      await send(c, sid, {
        sessionUpdate: "tool_call",
        toolCallId: "toolu_task",
        title: "Explore the code",
        kind: "think",
        status: "in_progress",
        rawInput: { description: "Explore the code", prompt: "look", subagent_type: "Explore" },
        _meta: { claudeCode: { toolName: "Task" } },
      });
      for (let i = 1; i < 12; i++) await send(c, sid, child(i));
      for (let i = 0; i < 12; i++)
        await send(c, sid, {
          sessionUpdate: "tool_call_update",
          toolCallId: `toolu_child_${i}`,
          status: "completed",
          _meta: { claudeCode: { toolName: "Read", parentToolUseId: "toolu_task" } },
        });
      await send(c, sid, { sessionUpdate: "tool_call_update", toolCallId: "toolu_task", status: "completed" });
      return "end_turn";
    };
  });
  await go(s);
  const task = tools(s.state).find((t) => t.toolCallId === "toolu_task");
  assert.equal(task?.nested, 12);
  assert.equal(tools(s.state).filter((t) => t.parentToolCallId === "toolu_task").length, 12);
  const view = nestedView(s.state.entries);
  assert.deepEqual(
    view.top.filter((e) => e.kind === "tool").map((e) => (e as ToolEntry).toolCallId),
    ["toolu_task"],
  );
  assert.ok(view.childrenOf("toolu_task").every((t) => t.status === "completed"));
});

test("the synthetic 'Compact conversation' call and compaction_update each show as one compaction entry", async () => {
  let agent: FakeAgent | undefined;
  const { s } = await oneSession((fake) => {
    agent = fake;
    fake.onPrompt = async ({ params, client: c }) => {
      const sid = params.sessionId;
      await send(c, sid, {
        sessionUpdate: "tool_call",
        toolCallId: "compact-1",
        title: "Compact conversation",
        kind: "think",
        status: "in_progress",
      });
      await send(c, sid, {
        sessionUpdate: "tool_call_update",
        toolCallId: "compact-1",
        status: "completed",
        _meta: { contextCompaction: { trigger: "manual", preTokens: 48_000, postTokens: 6_000, durationMs: 2500 } },
      });
      // Without its _meta: the title and kind alone mark it.
      await send(c, sid, {
        sessionUpdate: "tool_call",
        toolCallId: "compact-2",
        title: "Compact conversation",
        kind: "think",
        status: "completed",
      });
      await send(c, sid, { sessionUpdate: "compaction_update", compactionId: "k7", status: "in_progress" });
      await send(c, sid, { sessionUpdate: "compaction_update", compactionId: "k7", status: "failed", error: "context too small" });
      return "end_turn";
    };
  });
  // compaction_update is only for a client that advertised it.
  assert.deepEqual(agent?.clientCapabilities?.session?.compaction, {});
  await go(s);
  assert.equal(tools(s.state).length, 0, "no stray tool card");
  const c = s.state.entries.filter((e): e is CompactionEntry => e.kind === "compaction");
  assert.deepEqual(
    c.map((e) => [e.toolCallId, e.status, e.trigger, e.preTokens, e.postTokens, e.durationMs, e.error]),
    [
      ["compact-1", "completed", "manual", 48_000, 6_000, 2500, undefined],
      ["compact-2", "completed", undefined, undefined, undefined, undefined, undefined],
      ["compaction:k7", "failed", undefined, undefined, undefined, undefined, "context too small"],
    ],
  );
});

test("a switch_mode plan is shown on its permission card; Approve answers the agent's allow option and the new mode shows", async () => {
  const answers: RequestPermissionResponse[] = [];
  const plan = "## Plan\n\n1. Add the **parser**\n2. <script>alert(1)</script> Test it";
  const { s, when } = await oneSession((fake) => {
    fake.modes = {
      currentModeId: "plan",
      availableModes: [
        { id: "default", name: "Default" },
        { id: "acceptEdits", name: "Accept Edits" },
        { id: "plan", name: "Plan Mode" },
      ],
    };
    fake.onPrompt = async ({ params, client: c }) => {
      const sid = params.sessionId;
      await send(c, sid, {
        sessionUpdate: "tool_call",
        toolCallId: "toolu_exit",
        title: "Ready to code?",
        kind: "switch_mode",
        status: "pending",
        rawInput: { plan },
      });
      const res = await c.request(acp.methods.client.session.requestPermission, {
        sessionId: sid,
        toolCall: { toolCallId: "toolu_exit", title: "Ready to code?", kind: "switch_mode", rawInput: { plan } },
        options: [
          { optionId: "acceptEdits", name: "Yes, and auto-accept edits", kind: "allow_always" },
          { optionId: "default", name: "Yes, and manually approve edits", kind: "allow_once" },
          { optionId: "plan", name: "No, keep planning", kind: "reject_once" },
        ],
      });
      answers.push(res);
      if (res.outcome.outcome === "selected" && res.outcome.optionId !== "plan")
        await send(c, sid, { sessionUpdate: "current_mode_update", currentModeId: res.outcome.optionId });
      return "end_turn";
    };
  });
  const turn = go(s);
  await when((st) => st.entries.some((e) => e.kind === "permission"));
  const card = s.state.entries.find((e): e is PermissionEntry => e.kind === "permission");
  assert.equal(card?.plan, plan);
  assert.deepEqual(
    card?.options.map((o) => planOptionLabel(card, o)),
    ["Approve: Yes, and auto-accept edits", "Approve: Yes, and manually approve edits", "Keep planning"],
  );
  assert.equal(s.answerPermission(card.requestId, "acceptEdits"), true);
  await turn;
  assert.deepEqual(answers, [{ outcome: { outcome: "selected", optionId: "acceptEdits" } }]);
  assert.equal(s.state.modes?.currentModeId, "acceptEdits");
});
