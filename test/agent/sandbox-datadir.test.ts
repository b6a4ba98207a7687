// The hidden data dir through the spawned agent-server: session logs stay unreadable from other
// sessions' commands when the data dir is given relative, and when it lies inside a session's
// folder (the default ~/.local/share/… with a session whose folder is the home directory).
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, toolOutputs } from "../support/agentProcess";

const linux = process.platform === "linux";
const SECRET = "SECRET-OF-SESSION-A-4711";

describe("the data dir through the agent-server (spawned)", { skip: !linux && "Linux only" }, () => {
  let server: FakeModelServer;
  let base: string;
  before(async () => {
    server = await startFakeModelServer();
    base = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : "/tmp", "mf-agent-data-")));
  });
  after(async () => {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Session A writes a secret into its log; session B's bash tries to read and append to every log. */
  async function attack(dataDirArg: string, absData: string, wsA: string, wsB: string): Promise<{ outB: string; stderr: string }> {
    for (const d of [wsA, wsB]) fs.mkdirSync(d, { recursive: true });
    const agent = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_SANDBOX: "" }, dataDir: dataDirArg });
    try {
      await agent.initialize();
      const sa = (await agent.newSession(wsA)).sessionId;
      const sb = (await agent.newSession(wsB)).sessionId;
      server.route(`[${SECRET}]`, { text: "noted" });
      await agent.prompt(sa, `[${SECRET}] remember this`);
      const logs = fs.readdirSync(absData).filter((n) => n.endsWith(".jsonl"));
      assert.ok(
        logs.some((n) => fs.readFileSync(path.join(absData, n), "utf8").includes(SECRET)),
        "A's log holds the secret on the host",
      );
      const tag = `[dd-${path.basename(wsB)}]`;
      server.route(
        tag,
        {
          toolCalls: [
            {
              name: "bash",
              args: {
                command: `cat ${absData}/*.jsonl; for f in ${absData}/*.jsonl; do echo APPENDED-BY-B >> "$f"; done; ls -A ${absData}`,
              },
            },
          ],
        },
        { text: "ok" },
      );
      await agent.prompt(sb, `${tag} go`);
      for (const n of logs) assert.doesNotMatch(fs.readFileSync(path.join(absData, n), "utf8"), /^APPENDED-BY-B$/m, "B appended to a log");
      return { outB: toolOutputs(agent, sb), stderr: agent.stderr() };
    } finally {
      await agent.close();
    }
  }

  it("a relative --data-dir is made absolute at start-up, so commands still find it masked", async () => {
    const absData = path.join(base, "rel-data");
    const rel = path.relative(process.cwd(), absData);
    assert.equal(path.isAbsolute(rel), false);
    const { outB, stderr } = await attack(rel, absData, path.join(base, "rel-a"), path.join(base, "rel-b"));
    assert.equal(outB.includes(SECRET), false, outB);
    assert.match(stderr, new RegExp(`data dir ${absData.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")};`));
  });

  it("a data dir inside a session's folder (home directory as workspace) stays hidden from that session's commands", async () => {
    const home = path.join(base, "home");
    const absData = path.join(home, ".local", "share", "manifold", "sessions");
    const { outB } = await attack(absData, absData, path.join(base, "home-a"), home);
    assert.equal(outB.includes(SECRET), false, outB);
  });
});
