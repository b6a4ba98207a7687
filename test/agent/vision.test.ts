// Agent tier: the built agent-server asks the endpoint whether a model sees images
// (Ollama's /api/show at the fake server), and a 400 naming images makes the model text-only: that
// turn is sent again without the image and goes on, and later turns send placeholders with a notice.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function promptWithImage(agent: AgentProcess, sessionId: string, text: string): Promise<acp.PromptResponse> {
  return agent.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [
      { type: "text", text },
      { type: "image", mimeType: "image/png", data: PNG },
    ],
  });
}

/** The content parts of the last user message of request `i`. */
function lastUserParts(server: FakeModelServer, i: number): unknown[] {
  const users = (server.requests[i]!.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === "user");
  const content = users[users.length - 1]!.content;
  return Array.isArray(content) ? content : [{ type: "text", text: content }];
}

const IMAGE_PART = { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } };

describe("vision from the endpoint (spawned)", () => {
  let server: FakeModelServer;
  const procs: AgentProcess[] = [];
  const ws = tempDir();
  const start = async (env: Record<string, string>): Promise<{ agent: AgentProcess; sessionId: string }> => {
    const agent = spawnAgent({ env });
    procs.push(agent);
    await agent.initialize();
    return { agent, sessionId: (await agent.newSession(ws.path)).sessionId };
  };

  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const p of procs) {
      await p.close();
      p.cleanup();
    }
    await server.close();
    ws.cleanup();
  });

  it("a model the name list does not know, whose /api/show says vision, gets the image as an image part", async () => {
    server.reset();
    server.capabilities = { "house-seer:7b": ["completion", "vision"] };
    const { agent, sessionId } = await start({ ...modelEnv(server.url), MANIFOLD_MODEL: "house-seer:7b" });
    server.enqueue({ text: "a pixel" });
    assert.deepEqual(await promptWithImage(agent, sessionId, "what is this?"), { stopReason: "end_turn" });
    assert.deepEqual(lastUserParts(server, 0), [{ type: "text", text: "what is this?" }, IMAGE_PART]);
    assert.ok(!agent.textOf(sessionId).includes("cannot see images"));
  });

  it("a 400 naming images: the turn goes on without the image, and later turns send placeholders with a notice", async () => {
    server.reset();
    server.capabilities = {};
    const { agent, sessionId } = await start({ ...modelEnv(server.url), MANIFOLD_MODEL_VISION: "1" });
    server.enqueue(
      { httpError: { status: 400, body: { error: { message: "image input is not supported", type: "invalid_request_error" } } } },
      { text: "I cannot see it" },
    );
    assert.deepEqual(await promptWithImage(agent, sessionId, "look"), { stopReason: "end_turn" });
    assert.equal(server.requests.length, 2);
    assert.deepEqual(lastUserParts(server, 0), [{ type: "text", text: "look" }, IMAGE_PART]);
    assert.deepEqual(lastUserParts(server, 1), [
      { type: "text", text: "look" },
      {
        type: "text",
        text: "[image: image/png, 1 KiB — not shown: the model's endpoint refused images, so this model is treated as text-only]",
      },
    ]);
    assert.match(agent.textOf(sessionId), /I cannot see it/);

    server.enqueue({ text: "still blind" });
    assert.deepEqual(await promptWithImage(agent, sessionId, "and this?"), { stopReason: "end_turn" });
    assert.equal(server.requests.length, 3);
    assert.ok(!JSON.stringify(server.requests[2]!.messages).includes(PNG), "no image is sent after the refusal");
    assert.deepEqual(lastUserParts(server, 2), [
      { type: "text", text: "and this?" },
      { type: "text", text: "[image: image/png, 1 KiB — not shown: this model cannot see images]" },
    ]);
    assert.match(agent.textOf(sessionId), /The selected model cannot see images/);
  });
});
