// Agent tier: tools and the sandbox through the real server (spawned dist/agent-server.js), driven
// by the SDK client against the fake model server. Workspaces live outside /tmp (which is private
// inside the sandbox) so that cross-session attempts hit real, visible paths.
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, toolOutputList, type AgentProcess } from "../support/agentProcess";

const linux = process.platform === "linux";
const KEY = "sk-test-not-a-real-key"; // what modelEnv() puts in OPENAI_API_KEY

function workspace(name: string, cleanups: Array<() => void>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : "/tmp", `mf-agent-${name}-`)));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Resolves once the agent's stderr matches. The log travels on another pipe than the ACP responses,
 * so a response can arrive before a line logged earlier: wait for the line itself, not for a reply.
 * (The 20 s deadline is a safety net against a hanging run, not a timing assertion.)
 */
function stderrMatches(agent: AgentProcess, re: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(safety);
      agent.child.stderr?.off("data", onData);
      agent.child.off("exit", onExit);
    };
    const onData = (): void => {
      if (!re.test(agent.stderr())) return;
      stop();
      resolve();
    };
    const onExit = (): void => (stop(), reject(new Error(`agent exited before logging ${re}; stderr:\n${agent.stderr()}`)));
    const safety = setTimeout(() => (stop(), reject(new Error(`no ${re} on the agent's stderr:\n${agent.stderr()}`))), 20_000);
    agent.child.stderr?.on("data", onData);
    agent.child.once("exit", onExit);
    onData();
  });
}

async function setConfig(agent: AgentProcess, sessionId: string, configId: string, value: string): Promise<void> {
  await agent.agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
}

/** A fake model server and a spawned agent-server (MANIFOLD_SANDBOX=`sandbox`) for one describe block. */
function useSpawnedAgent(sandbox: string, cleanups: Array<() => void>, bind: (server: FakeModelServer, agent: AgentProcess) => void): void {
  let server: FakeModelServer | undefined;
  let agent: AgentProcess | undefined;
  before(async () => {
    const s = await startFakeModelServer();
    const a = spawnAgent({ env: { ...modelEnv(s.url), MANIFOLD_SANDBOX: sandbox } });
    server = s;
    agent = a;
    cleanups.push(() => a.cleanup());
    bind(s, a);
    await a.initialize();
  });
  after(async () => {
    await agent?.close();
    for (const c of cleanups) c();
    await server?.close();
  });
}

describe("sandbox and tools through the agent-server (spawned)", { skip: !linux && "Linux only" }, () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const cleanups: Array<() => void> = [];
  useSpawnedAgent("", cleanups, (s, a) => {
    server = s;
    agent = a;
  });

  it("logs the bubblewrap backend at start-up and reports it to the client on the sandbox option", async () => {
    const ws = workspace("log", cleanups);
    const created = await agent.newSession(ws); // waits for start-up
    await stderrMatches(agent, /\[sandbox\] backend: /);
    assert.match(agent.stderr(), /\[sandbox\] backend: bubblewrap/);
    const option = created.configOptions?.find((o) => o.id === "sandbox");
    assert.equal(option?.description, "Commands run under bubblewrap; file tools are confined by the path guard.");
  });

  it("I-65: relative paths resolve against each session's cwd: both sessions write x.txt into their own workspace", async () => {
    const a = workspace("a", cleanups);
    const b = workspace("b", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    const sb = (await agent.newSession(b)).sessionId;
    server.route("[w65A]", { toolCalls: [{ name: "write_file", args: { path: "x.txt", content: "from A" } }] }, { text: "ok" });
    server.route("[w65B]", { toolCalls: [{ name: "write_file", args: { path: "x.txt", content: "from B" } }] }, { text: "ok" });
    const [ra, rb] = await Promise.all([agent.prompt(sa, "[w65A] go"), agent.prompt(sb, "[w65B] go")]);
    assert.deepEqual([ra.stopReason, rb.stopReason], ["end_turn", "end_turn"]);
    assert.deepEqual(
      [fs.readFileSync(path.join(a, "x.txt"), "utf8"), fs.readFileSync(path.join(b, "x.txt"), "utf8")],
      ["from A", "from B"],
    );
  });

  it("I-72: concurrent bash calls of two sessions cannot write into each other's projects", async () => {
    const a = workspace("a72", cleanups);
    const b = workspace("b72", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    const sb = (await agent.newSession(b)).sessionId;
    server.route(
      "[b72A]",
      { toolCalls: [{ name: "bash", args: { command: `echo a > own.txt; echo a > ${b}/marker-from-a.txt` } }] },
      { text: "ok" },
    );
    server.route(
      "[b72B]",
      { toolCalls: [{ name: "bash", args: { command: `echo b > own.txt; echo b > ${a}/marker-from-b.txt` } }] },
      { text: "ok" },
    );
    await Promise.all([agent.prompt(sa, "[b72A] go"), agent.prompt(sb, "[b72B] go")]);
    assert.deepEqual([fs.existsSync(path.join(b, "marker-from-a.txt")), fs.existsSync(path.join(a, "marker-from-b.txt"))], [false, false]);
    assert.deepEqual([fs.readFileSync(path.join(a, "own.txt"), "utf8"), fs.readFileSync(path.join(b, "own.txt"), "utf8")], ["a\n", "b\n"]);
    assert.match(toolOutputList(agent, sa).join(""), /Read-only file system/);
  });

  it("I-66: under approval `never`, a write_file into the sibling session's cwd is denied and leaves no file", async () => {
    const a = workspace("a66", cleanups);
    const b = workspace("b66", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    await agent.newSession(b);
    await setConfig(agent, sa, "approval", "never");
    const target = path.join(b, "planted.txt");
    server.route("[w66]", { toolCalls: [{ name: "write_file", args: { path: target, content: "x" } }] }, { text: "ok" });
    const before = agent.permissionRequests.length;
    await agent.prompt(sa, "[w66] go");
    assert.equal(fs.existsSync(target), false);
    assert.equal(agent.permissionRequests.length, before);
    assert.match(
      toolOutputList(agent, sa).join(""),
      /Write refused: the target is outside the workspace and the approval policy is `never`\./,
    );
  });

  it("I-66: under `on-request`, the write asks the owning session first; a rejection leaves no file", async () => {
    const a = workspace("a66b", cleanups);
    const b = workspace("b66b", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    await agent.newSession(b);
    const target = path.join(b, "asked.txt");
    agent.onPermission((req) => {
      const reject = req.options.find((o) => o.kind === "reject_once");
      return { outcome: reject ? { outcome: "selected", optionId: reject.optionId } : { outcome: "cancelled" } };
    });
    server.route("[w66b]", { toolCalls: [{ name: "write_file", args: { path: target, content: "x" } }] }, { text: "ok" });
    const before = agent.permissionRequests.length;
    await agent.prompt(sa, "[w66b] go");
    const asked = agent.permissionRequests.slice(before);
    assert.deepEqual(
      asked.map((r) => r.sessionId),
      [sa],
    );
    assert.equal(fs.existsSync(target), false);
  });

  it("I-76: each session's /tmp is its own: B cannot read the secret A wrote there; A still can", async () => {
    const a = workspace("a76", cleanups);
    const b = workspace("b76", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    const sb = (await agent.newSession(b)).sessionId;
    server.route(
      "[t76A1]",
      { toolCalls: [{ name: "bash", args: { command: "echo SECRET-76 > /tmp/secret && echo written" } }] },
      { text: "ok" },
    );
    await agent.prompt(sa, "[t76A1] go");
    server.route("[t76B]", { toolCalls: [{ name: "bash", args: { command: `cat /tmp/secret; ls -A ${agent.dataDir}` } }] }, { text: "ok" });
    await agent.prompt(sb, "[t76B] go");
    server.route("[t76A2]", { toolCalls: [{ name: "bash", args: { command: "cat /tmp/secret" } }] }, { text: "ok" });
    await agent.prompt(sa, "[t76A2] go");
    const outB = toolOutputList(agent, sb).join("");
    const outA = toolOutputList(agent, sa).join("");
    assert.equal(outB.includes("SECRET-76"), false);
    assert.match(outB, /No such file or directory/);
    assert.match(outA, /written[\s\S]*SECRET-76/);
  });

  it("I-74: in read-only an approved write widens that one call only; the identical next call is asked again", async () => {
    const ws = workspace("ro74", cleanups);
    const sid = (await agent.newSession(ws)).sessionId;
    await setConfig(agent, sid, "mode", "read-only");
    const answers = ["allow", "reject"];
    agent.onPermission((req) => {
      const want = answers.shift() === "allow" ? ["allow_always", "allow_once"] : ["reject_once"];
      const opt = want.map((k) => req.options.find((o) => o.kind === k)).find((o) => o !== undefined);
      return { outcome: opt ? { outcome: "selected", optionId: opt.optionId } : { outcome: "cancelled" } };
    });
    const before = agent.permissionRequests.length;
    server.route("[ro74a]", { toolCalls: [{ name: "write_file", args: { path: "ro.txt", content: "escalated" } }] }, { text: "ok" });
    await agent.prompt(sid, "[ro74a] go");
    assert.equal(fs.readFileSync(path.join(ws, "ro.txt"), "utf8"), "escalated");
    fs.rmSync(path.join(ws, "ro.txt"));
    server.route("[ro74b]", { toolCalls: [{ name: "write_file", args: { path: "ro.txt", content: "escalated" } }] }, { text: "ok" });
    await agent.prompt(sid, "[ro74b] go");
    const asked = agent.permissionRequests.slice(before);
    assert.equal(asked.length, 2);
    assert.deepEqual(
      asked[0]?.options.map((o) => o.kind),
      ["allow_once", "reject_once"],
      "no 'Allow for this session' for a read-only escalation",
    );
    assert.equal(fs.existsSync(path.join(ws, "ro.txt")), false);
  });

  it("I-47: 'Allow for this session' covers the same command prefix in that session only", async () => {
    const a = workspace("g47a", cleanups);
    const b = workspace("g47b", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    const sb = (await agent.newSession(b)).sessionId;
    await setConfig(agent, sa, "approval", "untrusted");
    await setConfig(agent, sb, "approval", "untrusted");
    agent.onPermission((req) => {
      const opt = req.options.find((o) => o.kind === "allow_always") ?? req.options.find((o) => o.kind === "reject_once");
      return { outcome: opt ? { outcome: "selected", optionId: opt.optionId } : { outcome: "cancelled" } };
    });
    const before = agent.permissionRequests.length;
    server.route("[g47a1]", { toolCalls: [{ name: "bash", args: { command: "touch one.txt" } }] }, { text: "ok" });
    await agent.prompt(sa, "[g47a1] go");
    server.route("[g47a2]", { toolCalls: [{ name: "bash", args: { command: "touch two.txt" } }] }, { text: "ok" });
    await agent.prompt(sa, "[g47a2] go");
    assert.equal(agent.permissionRequests.length - before, 1, "the second `touch` in A reused the session grant");
    server.route("[g47a3]", { toolCalls: [{ name: "bash", args: { command: "mkdir d" } }] }, { text: "ok" });
    await agent.prompt(sa, "[g47a3] go");
    server.route("[g47b]", { toolCalls: [{ name: "bash", args: { command: "touch one.txt" } }] }, { text: "ok" });
    await agent.prompt(sb, "[g47b] go");
    const asked = agent.permissionRequests.slice(before).map((r) => r.sessionId);
    assert.deepEqual(asked, [sa, sa, sb], "a command outside the key, and the same command in another session, are asked");
    assert.deepEqual([fs.existsSync(path.join(a, "one.txt")), fs.existsSync(path.join(a, "two.txt"))], [true, true]);
  });

  it("I-98: the model key in the server env never reaches a bash tool's environment or the model", async () => {
    const a = workspace("a98", cleanups);
    const sa = (await agent.newSession(a)).sessionId;
    server.route("[k98]", { toolCalls: [{ name: "bash", args: { command: "env; cat /proc/1/environ" } }] }, { text: "ok" });
    const first = server.requests.length;
    await agent.prompt(sa, "[k98] go");
    const toolOut = toolOutputList(agent, sa).join("");
    assert.match(toolOut, /PATH=/);
    assert.equal(toolOut.includes(KEY), false);
    const sentBack = server.requests
      .slice(first)
      .map((r) => JSON.stringify(r.messages))
      .join("");
    assert.match(sentBack, /PATH=/);
    assert.equal(sentBack.includes(KEY), false);
  });
});

describe("no sandbox backend through the agent-server (MANIFOLD_SANDBOX=none)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const cleanups: Array<() => void> = [];
  useSpawnedAgent("none", cleanups, (s, a) => {
    server = s;
    agent = a;
  });

  it("I-73: a bash call asks the user with the exact command; a rejection means it never runs", async () => {
    const ws = workspace("none", cleanups);
    const created = await agent.newSession(ws);
    const sid = created.sessionId;
    await stderrMatches(agent, /\[sandbox\] backend: /);
    assert.match(agent.stderr(), /\[sandbox\] backend: none/);
    // The client is told too: the sandbox option says that every command asks.
    assert.match(
      created.configOptions?.find((o) => o.id === "sandbox")?.description ?? "",
      /^No sandbox backend works on this machine: every command asks first/,
    );
    agent.onPermission((req) => {
      const reject = req.options.find((o) => o.kind === "reject_once");
      return { outcome: reject ? { outcome: "selected", optionId: reject.optionId } : { outcome: "cancelled" } };
    });
    server.route("[n73]", { toolCalls: [{ name: "bash", args: { command: "touch ran.txt" } }] }, { text: "ok" });
    await agent.prompt(sid, "[n73] go");
    assert.equal(agent.permissionRequests.length, 1);
    assert.equal(agent.permissionRequests[0]?.sessionId, sid);
    assert.match(JSON.stringify(agent.permissionRequests[0]), /touch ran\.txt/);
    assert.equal(fs.existsSync(path.join(ws, "ran.txt")), false);
  });

  it("I-73: under approval `never` the command fails closed with a clear message", async () => {
    const ws = workspace("none2", cleanups);
    const sid = (await agent.newSession(ws)).sessionId;
    await setConfig(agent, sid, "approval", "never");
    const before = agent.permissionRequests.length;
    server.route("[n73b]", { toolCalls: [{ name: "bash", args: { command: "touch ran.txt" } }] }, { text: "ok" });
    await agent.prompt(sid, "[n73b] go");
    assert.equal(agent.permissionRequests.length, before);
    assert.equal(fs.existsSync(path.join(ws, "ran.txt")), false);
    assert.match(toolOutputList(agent, sid).join(""), /no sandbox backend works on this machine/);
  });
});
