// A delegated task in a real child ACP agent process (the built agent-server, against the fake
// model server): the child's updates and permission requests reach only the parent session, nested
// under its delegate card; the child's own session id never leaves its connection; cancelling ends
// the child's process.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { AgentProcess } from "../../extension/agent/agentProcess";
import type { SessionServices } from "../../extension/agent/clientHandlers";
import { PARENT_TOOL_CALL_META } from "../../extension/delegation/childNesting";
import { runChild } from "../../extension/delegation/childRun";
import { AGENT_BUNDLE } from "../support/agentProcess";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";

const quiet = { info: () => {}, warn: () => {}, error: () => {}, trace: () => {} };
const notUsed = (): Promise<never> => Promise.reject(new Error("not used by this test"));

describe("a delegated task in a child agent process", () => {
  let fake: FakeModelServer;
  let root: string;
  before(async () => {
    fake = await startFakeModelServer();
  });
  after(() => fake.close());
  afterEach(() => {
    fake.reset();
    rmSync(root, { recursive: true, force: true });
  });

  function setup(): { folder: string; dataDir: string; start: () => Promise<AgentProcess>; procs: AgentProcess[] } {
    root = mkdtempSync(join(tmpdir(), "manifold-delegate-"));
    const folder = join(root, "folder");
    const dataDir = join(root, "child-data");
    mkdirSync(folder);
    const procs: AgentProcess[] = [];
    const start = async (): Promise<AgentProcess> => {
      const p = new AgentProcess(
        {
          name: "child",
          builtin: true,
          command: process.execPath,
          args: [AGENT_BUNDLE, "--data-dir", dataDir],
          env: { ...process.env, ...fake.agentEnv() },
          cwd: folder,
          secretEnvNames: [],
        },
        quiet,
        false,
      );
      procs.push(p);
      return p;
    };
    return { folder, dataDir, start, procs };
  }

  function parentSide(answer: acp.RequestPermissionResponse): {
    updates: acp.SessionUpdate[];
    asks: acp.RequestPermissionRequest[];
    services: SessionServices;
  } {
    const updates: acp.SessionUpdate[] = [];
    const asks: acp.RequestPermissionRequest[] = [];
    return {
      updates,
      asks,
      services: {
        requestPermission: (r) => {
          asks.push(r);
          return Promise.resolve(answer);
        },
        elicit: () => Promise.resolve({ action: "decline" }),
        readTextFile: notUsed,
        writeTextFile: notUsed,
        createTerminal: notUsed,
        terminalOutput: notUsed,
        waitForTerminalExit: notUsed,
        killTerminal: notUsed,
        releaseTerminal: notUsed,
      },
    };
  }

  const target = { sessionId: "parent-1", toolCallId: "card-7", delegateId: "parent-1-sub-0b6f" };

  it("I-121: the child's cards and its permission request reach the parent nested under the delegate card; I-14: its own id never does", async () => {
    const { folder, dataDir, start, procs } = setup();
    fake.script((req) => {
      if (req.afterToolResult) return { text: "child finished the task" };
      return { toolCalls: [{ name: "write_file", args: { path: join(root, "outside.txt"), content: "x" } }] };
    });
    const parent = parentSide({ outcome: { outcome: "selected", optionId: "reject_once" } });
    const result = await runChild({
      target,
      folder,
      task: "write outside",
      parent: { applyUpdate: (u) => void parent.updates.push(u), services: parent.services },
      start,
      signal: new AbortController().signal,
    });
    assert.deepEqual(result, { stopReason: "end_turn", text: "child finished the task" });
    assert.equal(parent.asks.length, 1);
    const ask = parent.asks[0]!;
    assert.equal(ask.sessionId, "parent-1");
    assert.ok(ask.toolCall.toolCallId.startsWith("parent-1-sub-0b6f/"));
    assert.equal(ask.toolCall._meta?.[PARENT_TOOL_CALL_META], "card-7");
    const cards = parent.updates.filter((u) => u.sessionUpdate === "tool_call");
    assert.equal(cards.length, 1);
    assert.equal(cards[0]!.sessionUpdate === "tool_call" && cards[0]!.toolCallId, ask.toolCall.toolCallId);
    for (const u of parent.updates) assert.equal(u._meta?.[PARENT_TOOL_CALL_META], "card-7", `nested: ${u.sessionUpdate}`);
    assert.ok(
      parent.updates.every((u) =>
        ["agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"].includes(u.sessionUpdate),
      ),
      "nothing of the child's own session (commands, mode, config) reaches the parent",
    );
    const childIds = readdirSync(dataDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => f.replace(/^.*\//, "").replace(/\.jsonl$/, ""));
    assert.equal(childIds.length, 1, "the child kept its own session log");
    const seen = JSON.stringify([parent.updates, parent.asks]);
    assert.ok(!seen.includes(childIds[0]!), "the child's session id stays on its connection");
    await procs[0]!.exited; // the task's end stopped the child
  });

  it("I-121: cancelling the parent's delegation ends the child's process", async () => {
    const { folder, start, procs } = setup();
    fake.script(() => ({ hang: true }));
    const parent = parentSide({ outcome: { outcome: "cancelled" } });
    const controller = new AbortController();
    const run = runChild({
      target,
      folder,
      task: "take forever",
      parent: { applyUpdate: (u) => void parent.updates.push(u), services: parent.services },
      start,
      signal: controller.signal,
    });
    await fake.waitForHang(1);
    const pid = procs[0]!.child.pid!;
    controller.abort();
    assert.equal((await run).stopReason, "cancelled");
    await procs[0]!.exited;
    assert.throws(() => process.kill(pid, 0), "the child process is gone");
  });

  it("a child that exits before answering ends the delegation with an error instead of waiting", async () => {
    const { folder } = setup();
    const parent = parentSide({ outcome: { outcome: "cancelled" } });
    const crashing = new AgentProcess(
      {
        name: "crash",
        builtin: true,
        command: process.execPath,
        args: ["-e", "process.exit(3)"],
        env: process.env,
        cwd: folder,
        secretEnvNames: [],
      },
      quiet,
      false,
    );
    const result = await runChild({
      target,
      folder,
      task: "t",
      parent: { applyUpdate: (u) => void parent.updates.push(u), services: parent.services },
      start: () => Promise.resolve(crashing),
      signal: new AbortController().signal,
    });
    assert.equal(result.stopReason, "error");
    assert.match(result.error ?? "", /exited|closed/);
  });
});
