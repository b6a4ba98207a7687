// Agent tier: images in prompts. Checked at admission (type, 5 MiB decoded), sent to a vision model
// as the provider's image part (OpenAI `image_url` data URL, Anthropic base64 `image` source), and to
// a model that cannot see images as a text placeholder, with a notice in the transcript. Whether it
// sees them is asked of its endpoint (Ollama's /api/show at the fake server), and a 400 naming images
// makes it text-only: that turn is sent again without the image, later turns send placeholders.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, tempDir, type AgentProcess } from "../support/agentProcess";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function promptWithImage(
  agent: AgentProcess,
  sessionId: string,
  text: string,
  mimeType = "image/png",
  data = PNG,
): Promise<acp.PromptResponse> {
  return agent.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [
      { type: "text", text },
      { type: "image", mimeType, data },
    ],
  });
}

/** The content parts of the last user message of request `i` (default: the last request). */
function lastUserParts(server: FakeModelServer, i = server.requests.length - 1): unknown[] {
  const req = server.requests[i]!;
  const users = (req.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === "user");
  const content = users[users.length - 1]!.content;
  return Array.isArray(content) ? content : [{ type: "text", text: content }];
}

const IMAGE_PART = { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } };

describe("images (spawned)", () => {
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

  it("a vision model gets the image as an OpenAI image_url data URL; load replays the image block", async () => {
    server.reset();
    const { agent, sessionId } = await start({ ...modelEnv(server.url), MANIFOLD_MODEL_VISION: "1" });
    server.enqueue({ text: "a red pixel" });
    assert.deepEqual(await promptWithImage(agent, sessionId, "what is this?"), { stopReason: "end_turn" });
    assert.deepEqual(lastUserParts(server), [
      { type: "text", text: "what is this?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
    assert.ok(!agent.textOf(sessionId).includes("cannot see images"));
    await agent.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.path, mcpServers: [] });
    assert.deepEqual(
      agent
        .updatesOf(sessionId)
        .filter((u) => u.sessionUpdate === "user_message_chunk" && u.content.type === "image")
        .map((u) => (u.sessionUpdate === "user_message_chunk" ? u.content : null)),
      [{ type: "image", mimeType: "image/png", data: PNG }],
    );
  });

  it("Anthropic: the image is a base64 image source", async () => {
    server.reset();
    const { agent, sessionId } = await start(server.agentEnv("anthropic", "claude-sonnet-4-5"));
    server.enqueue({ text: "a pixel" });
    assert.deepEqual(await promptWithImage(agent, sessionId, "and this?"), { stopReason: "end_turn" });
    const parts = lastUserParts(server) as Array<Record<string, unknown>>;
    assert.deepEqual(
      parts.map(({ cache_control: _c, ...p }) => p),
      [
        { type: "text", text: "and this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
      ],
    );
  });

  it("a model that cannot see images gets a placeholder naming the image, and the transcript says so plainly (not a failure)", async () => {
    server.reset();
    const { agent, sessionId } = await start({ ...modelEnv(server.url), MANIFOLD_MODEL_VISION: "0" });
    server.enqueue({ text: "I cannot see it" });
    assert.deepEqual(await promptWithImage(agent, sessionId, "look"), { stopReason: "end_turn" });
    assert.deepEqual(lastUserParts(server), [
      { type: "text", text: "look" },
      { type: "text", text: "[image: image/png, 1 KiB — not shown: this model cannot see images]" },
    ]);
    assert.ok(!JSON.stringify(server.requests[0]!.body).includes(PNG));
    assert.match(
      agent.textOf(sessionId),
      /The selected model cannot see images \(MANIFOLD_MODEL_VISION says so\), so it was told an image was attached but not shown/,
    );
    // Said once: a later turn without images says nothing again (its request still has the placeholder).
    server.enqueue({ text: "ok" });
    await agent.prompt(sessionId, "and now?");
    assert.equal(agent.textOf(sessionId).split("cannot see images (MANIFOLD_MODEL_VISION says so), so it was told").length - 1, 1);
    assert.ok(JSON.stringify(server.requests[1]!.messages).includes("not shown: this model cannot see images"));
  });

  it("admission: an unsupported type or an image over 5 MiB is refused with a clear error naming the limit", async () => {
    const { agent, sessionId } = await start({ ...modelEnv(server.url), MANIFOLD_MODEL_VISION: "1" });
    const refused = (pattern: RegExp) => (e: unknown) =>
      e instanceof acp.RequestError && e.code === -32602 && pattern.test(`${e.message} ${JSON.stringify(e.data)}`);
    await assert.rejects(
      promptWithImage(agent, sessionId, "x", "image/bmp"),
      refused(/unsupported image type "image\/bmp": send PNG, JPEG, GIF or WebP/),
    );
    const big = "A".repeat(Math.ceil(((5 * 1024 * 1024 + 1) * 4) / 3 / 4) * 4);
    await assert.rejects(
      promptWithImage(agent, sessionId, "x", "image/png", big),
      refused(/too large .*the limit is 5242880 bytes, 5 MiB, per image/),
    );
    await assert.rejects(promptWithImage(agent, sessionId, "x", "image/png", "not base64!"), refused(/not base64/));
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
