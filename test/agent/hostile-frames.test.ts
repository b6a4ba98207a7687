// Agent tier, I-108: no frame a client can send ends the process or stops it serving the other
// sessions — any depth, size, encoding or type — and every request gets an answer.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";
import { isAlive, nestedArray, nestedObject, replyTo, waitForFrame, writeRaw, type Frame } from "../support/rawFrames";

const DEEP = 10_000;

function errorCode(f: Frame): number | undefined {
  const e = f.error as { code?: unknown } | undefined;
  return typeof e?.code === "number" ? e.code : undefined;
}

describe("I-108: hostile frames (spawned agent)", () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  const wsA = tempDir();
  const wsB = tempDir();
  let sessionA = "";
  let sessionB = "";
  let serial = 0;

  /** The other session still streams and ends its turn, and the process is alive. */
  async function otherSessionServes(): Promise<void> {
    assert.ok(isAlive(agent), `the agent exited: ${agent.stderr().slice(-2000)}`);
    const marker = `[B${++serial}]`;
    server.route(marker, { text: `B still fine ${serial}` });
    assert.deepEqual(await agent.prompt(sessionB, `${marker} go`), { stopReason: "end_turn" });
    assert.ok(agent.textOf(sessionB).endsWith(`B still fine ${serial}`));
  }

  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: modelEnv(server.url) });
    await agent.initialize();
    sessionA = (await agent.newSession(wsA.path)).sessionId;
    sessionB = (await agent.newSession(wsB.path)).sessionId;
  });
  after(async () => {
    agent.cleanup();
    await server.close();
    wsA.cleanup();
    wsB.cleanup();
  });

  it("I-108: an initialize sent just before a 10,000-deep frame is answered, and so is the deep frame", async () => {
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: "init-before-deep",
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
    const deep = `{"jsonrpc":"2.0","id":"deep-params-0","method":"session/new","params":{"cwd":${nestedArray(DEEP)},"mcpServers":[]}}`;
    await writeRaw(agent, `${init}\n${deep}\n`);
    const a = await replyTo(agent, "init-before-deep");
    assert.ok("result" in a, JSON.stringify(a));
    const b = await replyTo(agent, "deep-params-0");
    assert.equal(errorCode(b), -32600);
    assert.ok(JSON.stringify(b).length < 1000, "the error is small (it does not echo the frame)");
    await otherSessionServes();
  });

  it("I-108: 10,000 deep in the id, the method, the params and a content block's _meta: each answered, the process lives", async () => {
    const idNullBefore = agent.frames.filter((f) => (f as Frame).id === null).length;
    // id nested: it cannot be echoed, so the answer carries id null.
    await writeRaw(agent, `{"jsonrpc":"2.0","id":${nestedArray(DEEP)},"method":"session/list","params":{}}\n`);
    await waitForFrame(
      agent,
      (f) => f.id === null && errorCode(f) === -32600 && agent.frames.filter((x) => (x as Frame).id === null).length > idNullBefore,
      "an id-null error",
    );
    await writeRaw(agent, `{"jsonrpc":"2.0","id":"deep-method","method":${nestedObject(DEEP)},"params":{}}\n`);
    assert.equal(errorCode(await replyTo(agent, "deep-method")), -32600);
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","id":"deep-params","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":${nestedArray(DEEP)}}}\n`,
    );
    assert.equal(errorCode(await replyTo(agent, "deep-params")), -32600);
    const block = `{"type":"text","text":"hello","_meta":{"x":${nestedObject(DEEP)}}}`;
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","id":"deep-meta","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":[${block}]}}\n`,
    );
    assert.equal(errorCode(await replyTo(agent, "deep-meta")), -32600);
    // The same deep _meta arriving as a notification is dropped without a word, and nothing breaks.
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"${sessionA}","_meta":${nestedObject(DEEP)}}}\n`,
    );
    await otherSessionServes();
    // Session A itself still works.
    server.route("[A-after-deep]", { text: "A fine" });
    assert.deepEqual(await agent.prompt(sessionA, "[A-after-deep] hi"), { stopReason: "end_turn" });
  });

  it("I-108: a 20 MB prompt gets a clear error; a 40 MB line too; the process lives", async () => {
    const big = "x".repeat(20 * 1024 * 1024);
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","id":"big-20","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"${big}"}]}}\n`,
    );
    const r20 = await replyTo(agent, "big-20");
    assert.ok(errorCode(r20) === -32602 || errorCode(r20) === -32600, JSON.stringify(r20).slice(0, 300));
    const huge = "y".repeat(40 * 1024 * 1024);
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","id":"big-40","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"${huge}"}]}}\n`,
    );
    const r40 = await replyTo(agent, "big-40");
    assert.equal(errorCode(r40), -32600);
    assert.match(JSON.stringify(r40), /too large/);
    // The id is found even when it comes after the oversized part.
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"${huge}"}]},"id":"big-40-id-last"}\n`,
    );
    assert.equal(errorCode(await replyTo(agent, "big-40-id-last")), -32600);
    await otherSessionServes();
  });

  it("I-108: invalid UTF-8 inside and outside strings is answered, never fatal", async () => {
    const head = Buffer.from(
      `{"jsonrpc":"2.0","id":"bad-utf8","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"`,
    );
    const tail = Buffer.from(`"}]}}\n`);
    await writeRaw(agent, Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), tail]));
    const r = await replyTo(agent, "bad-utf8");
    assert.ok(errorCode(r) !== undefined, JSON.stringify(r));
    assert.match(JSON.stringify(r), /UTF-8/);
    // Broken outside its strings, the line is no message: a parse error with id null (JSON-RPC).
    const idNullBefore = agent.frames.filter((f) => (f as Frame).id === null).length;
    await writeRaw(
      agent,
      Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":"bad-utf8-2",`),
        Buffer.from([0xc0, 0xaf, 0x80]),
        Buffer.from(`"method":"session/list"}\n`),
      ]),
    );
    await waitForFrame(
      agent,
      (f) => f.id === null && errorCode(f) === -32700 && agent.frames.filter((x) => (x as Frame).id === null).length > idNullBefore,
      "an id-null parse error",
    );
    await otherSessionServes();
  });

  it("I-108: wrong types (_meta: 5, params as array, string, number, null, ids of the wrong type) get errors", async () => {
    const cases: Array<[string, string]> = [
      ["meta-5-block", `{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"hi","_meta":5}]}`],
      ["meta-5-params", `{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"hi"}],"_meta":5}`],
      ["meta-array", `{"sessionId":"${sessionA}","prompt":[{"type":"text","text":"hi","_meta":[1,2]}]}`],
      ["params-array", `["${sessionA}"]`],
      ["params-string", `"${sessionA}"`],
      ["params-number", `5`],
      ["params-null", `null`],
      ["prompt-object", `{"sessionId":"${sessionA}","prompt":{"type":"text","text":"hi"}}`],
      ["session-number", `{"sessionId":5,"prompt":[{"type":"text","text":"hi"}]}`],
    ];
    for (const [id, params] of cases) {
      await writeRaw(agent, `{"jsonrpc":"2.0","id":"${id}","method":"session/prompt","params":${params}}\n`);
      const r = await replyTo(agent, id);
      assert.equal(errorCode(r), -32602, `${id}: ${JSON.stringify(r).slice(0, 300)}`);
    }
    // Nothing of those was queued: A's next prompt is its own.
    server.route("[A-types]", { text: "A typed" });
    assert.deepEqual(await agent.prompt(sessionA, "[A-types] ok"), { stopReason: "end_turn" });
    // Ids of the wrong type are answered with id null and a small error.
    const before = agent.frames.length;
    await writeRaw(
      agent,
      `{"jsonrpc":"2.0","id":{"a":1},"method":"session/list","params":{}}\n{"jsonrpc":"2.0","id":true,"method":"session/list","params":{}}\n`,
    );
    await waitForFrame(
      agent,
      (f) => f.id === null && agent.frames.slice(before).filter((x) => (x as Frame).id === null).length >= 2,
      "two id-null errors",
    );
    for (const f of agent.frames.slice(before)) assert.ok(JSON.stringify(f).length < 1000);
    await otherSessionServes();
  });

  it("I-108: a flood of 5,000 small bad frames: every one answered, the other session unaffected", async () => {
    const n = 5000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const kind = i % 4;
      if (kind === 0)
        lines.push(`{"jsonrpc":"2.0","id":"flood-${i}","method":"session/prompt","params":{"sessionId":"nope-${i}","prompt":[]}}`);
      else if (kind === 1) lines.push(`{"jsonrpc":"2.0","id":"flood-${i}","method":"no/such/method","params":{}}`);
      else if (kind === 2)
        lines.push(
          `{"jsonrpc":"2.0","id":"flood-${i}","method":"session/prompt","params":{"sessionId":"${sessionA}","prompt":${nestedArray(200)}}}`,
        );
      else
        lines.push(
          `{"jsonrpc":"2.0","id":"flood-${i}","method":"session/set_config_option","params":{"sessionId":"${sessionA}","configId":"sandbox","value":{"x":1}}}`,
        );
    }
    await writeRaw(agent, lines.join("\n") + "\n");
    // Replies come in the order their handlers finish, not the order of the frames: wait for all.
    const floodReplies = (): unknown[] =>
      agent.frames.flatMap((f) =>
        typeof (f as Frame).id === "string" && ((f as Frame).id as string).startsWith("flood-") ? [(f as Frame).id] : [],
      );
    // Counted incrementally: rescanning every recorded frame on each stdout chunk is quadratic.
    const seen = new Set<unknown>();
    let scanned = 0;
    const allAnswered = (): boolean => {
      for (; scanned < agent.frames.length; scanned++) {
        const id = (agent.frames[scanned] as Frame).id;
        if (typeof id === "string" && id.startsWith("flood-")) seen.add(id);
      }
      return seen.size >= n;
    };
    await waitForFrame(agent, allAnswered, `replies to all ${n} flood frames`);
    assert.equal(new Set(floodReplies()).size, n);
    assert.equal(floodReplies().length, n, "exactly one reply per request");
    await otherSessionServes();
  });

  it("I-108: a malformed response to the agent's own request settles that request (never a grant)", async () => {
    // A permission request is answered with a 10,000-deep result: the tool must not run, the turn ends.
    server.route(
      "[perm]",
      { toolCalls: [{ name: "write_file", args: { path: "/etc/manifold-hostile-test", content: "x" } }] },
      { text: "done" },
    );
    agent.onPermission(() => new Promise(() => undefined)); // the SDK client never answers: we answer raw below
    const done = agent.prompt(sessionA, "[perm] write outside");
    const req = await waitForFrame(agent, (f) => f.method === "session/request_permission", "a permission request");
    await writeRaw(agent, `{"jsonrpc":"2.0","id":${JSON.stringify(req.id)},"result":{"outcome":${nestedObject(DEEP)}}}\n`);
    const res = await done;
    assert.equal(res.stopReason, "end_turn");
    assert.doesNotMatch(agent.textOf(sessionA), /manifold-hostile-test/);
    await otherSessionServes();
    assert.ok(isAlive(agent));
  });

  it("I-108: the connection still answers through the SDK client after all of it", async () => {
    const list = await agent.agent.request(acp.methods.agent.session.list, {});
    assert.ok(list.sessions.length >= 2);
    await otherSessionServes();
  });
});
