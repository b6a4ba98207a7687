// Agent tier, I-109: the data dir on a real small file system (tmpfs, needs root). A write that
// fails reaches the client as an error on that session, never as a saved turn; the log keeps no
// torn line and no sequence gap; once there is room again the session continues, also after a restart.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { mountSmallDisk, unavailable, type SmallDisk } from "../support/smallDisk";

const skip = unavailable();

/** Every log in the dir: whole lines only, seq 1..n. */
function assertLogsWhole(dataDir: string): void {
  for (const name of readdirSync(dataDir).filter((n) => n.endsWith(".jsonl"))) {
    const text = readFileSync(join(dataDir, name), "utf8");
    assert.ok(text.endsWith("\n"), `${name} ends with a whole line`);
    const lines = text.split("\n").filter((l) => l !== "");
    const seqs = lines.slice(1).map((l) => (JSON.parse(l) as { seq: number }).seq);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      `${name}: no gap`,
    );
  }
}

const isInternal = (re: RegExp) => (e: unknown) => e instanceof acp.RequestError && e.code === -32603 && re.test(e.message);
/** Enough streamed text to need new pages on the full disk (the log's last page has some slack). */
const bigReply = Array.from({ length: 40 }, (_, i) => `chunk-${i}-${"z".repeat(500)} `);

describe("I-109: a full, read-only or vanished data dir (spawned, real tmpfs)", { skip: skip ?? false }, () => {
  let server: FakeModelServer;
  let disk: SmallDisk;
  let dataDir: string;
  const ws = tempDir();
  const wsB = tempDir();
  const procs: AgentProcess[] = [];
  const start = async (): Promise<AgentProcess> => {
    const p = spawnAgent({ env: modelEnv(server.url), dataDir });
    procs.push(p);
    await p.initialize();
    return p;
  };
  const load = (p: AgentProcess, sessionId: string, cwd: string) =>
    p.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });

  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    await server.close();
    ws.cleanup();
    wsB.cleanup();
  });
  beforeEach(() => {
    disk = mountSmallDisk(512);
    dataDir = join(disk.path, "sessions");
    server.reset();
  });
  afterEach(() => {
    for (const p of procs.splice(0)) p.cleanup();
    disk.unmount();
  });

  it("I-109: the disk fills mid-turn: the prompt is not answered as saved; freed, the session continues, also after a restart", async () => {
    const p = await start();
    const a = (await p.newSession(ws.path)).sessionId;
    const b = (await p.newSession(wsB.path)).sessionId;
    server.route("[A1]", { text: "first answer" });
    assert.deepEqual(await p.prompt(a, "[A1] one"), { stopReason: "end_turn" });
    server.route("[A2]", { hang: true, then: { text: bigReply } });
    const turn = p.prompt(a, "[A2] long answer");
    await server.waitForHang(1);
    disk.fill(); // mid-turn: the turn's start is on disk, its reply is not yet
    server.release();
    await assert.rejects(turn, isInternal(/not saved|could not be saved/));
    assertLogsWhole(dataDir);
    disk.free();
    // The same live session continues once there is room again.
    server.route("[A3]", { text: "third answer" });
    assert.deepEqual(await p.prompt(a, "[A3] three"), { stopReason: "end_turn" });
    server.route("[B1]", { text: "B fine" });
    assert.deepEqual(await p.prompt(b, "[B1] hi"), { stopReason: "end_turn" });
    await p.kill("SIGKILL");
    assertLogsWhole(dataDir);
    const p2 = await start();
    await load(p2, a, ws.path);
    await load(p2, b, wsB.path);
    server.route("[A4]", { text: "after restart" });
    assert.deepEqual(await p2.prompt(a, "[A4] four"), { stopReason: "end_turn" });
    assert.match(p2.textOf(a), /first answer/);
    assert.match(p2.textOf(a), /third answer/);
    await p2.close();
    assertLogsWhole(dataDir);
  });

  it("I-109: the disk is full before the turn: the prompt fails with 'not saved'; no torn line; then it continues", async () => {
    const p = await start();
    const a = (await p.newSession(ws.path)).sessionId;
    server.route("[A1]", { text: "first" });
    assert.deepEqual(await p.prompt(a, "[A1] one"), { stopReason: "end_turn" });
    disk.fill();
    server.route("[A2]", { text: bigReply });
    await assert.rejects(p.prompt(a, "[A2] two"), isInternal(/not saved|could not be saved/));
    assertLogsWhole(dataDir);
    // A new session cannot even be created: a clear error, not a crash.
    await assert.rejects(p.newSession(wsB.path), (e: unknown) => e instanceof acp.RequestError);
    disk.free();
    server.route("[A3]", { text: "third" });
    assert.deepEqual(await p.prompt(a, "[A3] three"), { stopReason: "end_turn" });
    await p.kill("SIGKILL");
    const p2 = await start();
    await load(p2, a, ws.path);
    assert.match(p2.textOf(a), /third/);
    assertLogsWhole(dataDir);
  });

  it("I-109: a read-only data dir: load and new fail with a clear error, nothing crashes; writable again, the session continues", async () => {
    const p = await start();
    const a = (await p.newSession(ws.path)).sessionId;
    server.route("[A1]", { text: "first" });
    assert.deepEqual(await p.prompt(a, "[A1] one"), { stopReason: "end_turn" });
    await p.close();
    disk.readOnly(true); // (a mount with files open for writing cannot be made read-only: between runs)
    const p2 = await start();
    await assert.rejects(load(p2, a, ws.path), (e: unknown) => e instanceof acp.RequestError && /read-only/i.test(JSON.stringify(e)));
    await assert.rejects(p2.newSession(wsB.path), (e: unknown) => e instanceof acp.RequestError && /read-only/i.test(JSON.stringify(e)));
    // The failed load left nothing half-open: the same id loads once the dir is writable again.
    disk.readOnly(false);
    await load(p2, a, ws.path);
    server.route("[A2]", { text: "second" });
    assert.deepEqual(await p2.prompt(a, "[A2] two"), { stopReason: "end_turn" });
    await p2.kill("SIGKILL");
    assertLogsWhole(dataDir);
  });

  it("I-109: a vanished data dir: the turn is reported as not saved, never as a success; the process keeps serving", async () => {
    const p = await start();
    const a = (await p.newSession(ws.path)).sessionId;
    server.route("[A1]", { text: "first" });
    assert.deepEqual(await p.prompt(a, "[A1] one"), { stopReason: "end_turn" });
    rmSync(dataDir, { recursive: true, force: true });
    server.route("[A2]", { text: "second" });
    await assert.rejects(p.prompt(a, "[A2] two"), isInternal(/not saved|removed/));
    // A new session recreates the data dir and works.
    const c = (await p.newSession(wsB.path)).sessionId;
    server.route("[C1]", { text: "fresh" });
    assert.deepEqual(await p.prompt(c, "[C1] hi"), { stopReason: "end_turn" });
  });
});
