// Delegation end to end through the extension's own code: the built agent-server as the window's
// agent, two real FolderSessions on it, and a delegated task run in a second built agent-server
// process (the child), all against the fake model server. The delegation and the child's permission
// request are asked in the delegating folder's panel only; the child's answer reaches that folder's
// model; the other folder sees nothing; the parent's cancel ends the child's process.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { AcpClient } from "../../extension/agent/acpClient";
import { AgentProcess } from "../../extension/agent/agentProcess";
import { noEditor } from "../../extension/client/fileService";
import type { PermissionEntry, TranscriptState } from "../../extension/common/transcript";
import { runChild, type Delegation } from "../../extension/delegation/childRun";
import { FolderSession } from "../../extension/sessions/folderSession";
import { createNoSandbox } from "../../sandbox/none";
import { stateWaiters } from "../integration/extension/stateWaiters";
import { AGENT_BUNDLE } from "../support/agentProcess";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";

const quiet = { info: () => {}, warn: () => {}, error: () => {}, trace: () => {} };
const permissions = (st: TranscriptState): PermissionEntry[] => st.entries.filter((e): e is PermissionEntry => e.kind === "permission");

describe("delegation through the folder sessions", () => {
  let fake: FakeModelServer;
  let root: string;
  const procs: AgentProcess[] = [];
  const sessions: FolderSession[] = [];
  before(async () => {
    fake = await startFakeModelServer();
  });
  after(() => fake.close());
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.shutdown()));
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    fake.reset();
    rmSync(root, { recursive: true, force: true });
  });

  function spawnAgent(dataDir: string, cwd: string): AgentProcess {
    const p = new AgentProcess(
      {
        name: "agent",
        builtin: true,
        command: process.execPath,
        args: [AGENT_BUNDLE, "--data-dir", dataDir],
        env: { ...process.env, ...fake.agentEnv() },
        cwd,
        secretEnvNames: [],
      },
      quiet,
      false,
    );
    procs.push(p);
    return p;
  }

  async function setup(): Promise<{
    a: FolderSession;
    b: FolderSession;
    children: AgentProcess[];
    window: AgentProcess;
    waiters: ReturnType<typeof stateWaiters>;
  }> {
    root = realpathSync(mkdtempSync(join(tmpdir(), "manifold-delegate-folders-")));
    const folders = [join(root, "alpha"), join(root, "beta")];
    for (const f of folders) mkdirSync(f);
    const window = spawnAgent(join(root, "window-data"), root);
    const client = new AcpClient(window.stream);
    await client.initialize();
    assert.equal(client.features.delegate, true);
    const children: AgentProcess[] = [];
    const delegation: Delegation = {
      offered: () => [{ id: "builtin", name: "Manifold agent", description: "a second built-in agent process" }],
      run: (params, folder, parent, signal) =>
        runChild({
          target: { sessionId: params.sessionId, toolCallId: params.toolCallId, delegateId: params.delegateId },
          folder,
          task: params.task,
          parent,
          start: () => {
            const c = spawnAgent(join(root, `child-data-${children.length}`), folder);
            children.push(c);
            return Promise.resolve(c);
          },
          signal,
        }),
    };
    const waiters = stateWaiters();
    const bindings = new Map<string, string>();
    const [a, b] = folders.map((f) => {
      const s = new FolderSession(f, f.split("/").pop()!, {
        bindings: { get: (k) => bindings.get(k), set: (k, id) => void (id ? bindings.set(k, id) : bindings.delete(k)) },
        editor: noEditor,
        terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
        delegation,
      });
      sessions.push(s);
      s.onDidEmit(() => waiters.changed(s));
      return s;
    }) as [FolderSession, FolderSession];
    for (const s of [a, b]) await s.attach(client, { restart: false });
    return { a, b, children, window, waiters };
  }

  it("I-121: the delegation and the child's own permission request are asked in the delegating folder only; the child's answer reaches its model", async () => {
    const { a, b, children, waiters } = await setup();
    fake.script((req) => {
      const child = req.lastUserText.startsWith("CHILD:");
      if (child && !req.afterToolResult)
        return { toolCalls: [{ name: "write_file", args: { path: join(root, "outside.txt"), content: "x" } }] };
      if (child) return { text: "child done, the write was refused" };
      if (!req.afterToolResult) return { toolCalls: [{ name: "delegate", args: { agent: "builtin", task: "CHILD: write outside" } }] };
      return { text: "parent heard back" };
    });
    const turn = a.prompt([{ type: "text", text: "please delegate" }], { text: "please delegate", attachments: [] });
    await waiters.when(a, (st) => permissions(st).length === 1);
    const ask = permissions(a.state)[0]!;
    assert.match(ask.title, /Delegate to builtin/);
    assert.ok(a.answerPermission(ask.requestId, "allow_once"));
    await waiters.when(a, (st) => permissions(st).length === 2);
    const childAsk = permissions(a.state)[1]!;
    assert.match(childAsk.toolCallId, new RegExp(`^${a.sessionId}-sub-[0-9a-f-]{36}/`), "the child's card, under the parent-minted id");
    assert.ok(a.answerPermission(childAsk.requestId, "reject_once"));
    await turn;
    const aText = JSON.stringify(a.state.entries);
    assert.match(aText, /parent heard back/);
    const delegateResult = fake.requests.find((r) => !r.lastUserText.startsWith("CHILD:") && r.afterToolResult);
    assert.match(
      JSON.stringify(delegateResult?.messages),
      /child done, the write was refused/,
      "the child's answer went back to the parent model",
    );
    assert.equal(permissions(b.state).length, 0);
    assert.doesNotMatch(JSON.stringify(b.state.entries), /CHILD|child done/);
    assert.equal(children.length, 1);
    await children[0]!.exited; // the task's end stopped the child
  });

  /**
   * A delegation whose child hangs: alpha's turn, the delegation allowed, the child's model request hanging.
   * Then `end` ends it some way (cancel, close, the window agent's exit); the child's process must be gone.
   */
  async function childEndsWith(end: (s: Awaited<ReturnType<typeof setup>>) => Promise<void> | void): Promise<"settled" | "failed"> {
    const set = await setup();
    const { a, children, waiters } = set;
    fake.script((req) => {
      if (req.lastUserText.startsWith("CHILD:")) return { hang: true };
      if (!req.afterToolResult) return { toolCalls: [{ name: "delegate", args: { agent: "builtin", task: "CHILD: take forever" } }] };
      return { text: "parent done" };
    });
    const turn = a.prompt([{ type: "text", text: "go" }], { text: "go", attachments: [] });
    await waiters.when(a, (st) => permissions(st).length === 1);
    a.answerPermission(permissions(a.state)[0]!.requestId, "allow_once");
    await fake.waitForHang(1);
    assert.equal(children.length, 1);
    const pid = children[0]!.child.pid!;
    await end(set);
    const outcome = await turn.then(
      () => "settled" as const,
      () => "failed" as const,
    );
    await children[0]!.exited;
    assert.throws(() => process.kill(pid, 0), "the child process is gone");
    return outcome;
  }

  it("I-121: cancelling the delegating turn ends the child's process", async () => {
    assert.equal(await childEndsWith(({ a }) => a.cancel()), "settled", "a cancelled turn settles, it does not fail");
  });

  it("I-121: closing the delegating session ends the child's process", async () => {
    await childEndsWith(({ a }) => a.close());
  });

  it("I-121: the agent's exit ends the child's process", async () => {
    await childEndsWith(({ window }) => void window.child.kill("SIGKILL"));
  });
});
