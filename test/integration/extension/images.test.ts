// Images at the extension level: an image attached in the composer reaches the agent as an ACP image
// block in the same prompt as the text, and shows in the transcript; an agent that does not advertise
// `promptCapabilities.image` gets no image (the host refuses to attach one, and drops any attached
// before); a session/load replay shows the user message's image again. Against the in-process fake agent.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { NO_IMAGES, checkImage } from "../../../extension/chat/imageAttachments";
import { composePrompt, type ResolvedAttachment } from "../../../extension/chat/promptBuilder";
import type { UserEntry } from "../../../extension/common/transcript";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

// A 1×1 PNG's first bytes: enough for the checks, which look at the type and the size only.
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex").toString("base64");

async function setup(
  caps: acp.AgentCapabilities,
  boundTo?: string,
): Promise<{ fake: FakeAgent; client: AcpClient; s: FolderSession; prompts: acp.ContentBlock[][] }> {
  const folder = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-images-"))), "alpha");
  const fake = createFakeAgent(caps);
  const prompts: acp.ContentBlock[][] = [];
  fake.onPrompt = async ({ params }) => {
    prompts.push(params.prompt);
    return "end_turn";
  };
  const client = new AcpClient(fake.app);
  await client.initialize();
  const binds = new Map<string, string>(boundTo ? [[folder, boundTo]] : []);
  const s = new FolderSession(folder, "alpha", {
    bindings: { get: (f) => binds.get(f), set: (f, id) => void (id ? binds.set(f, id) : binds.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(s);
  return { fake, client, s, prompts };
}

/** What the panel does on `composer/image`, then `prompt/send`. */
async function pasteAndSend(s: FolderSession, text: string): Promise<void> {
  const check = checkImage("shot.png", "image/png", PNG, s.state.promptCapabilities.image);
  const atts: ResolvedAttachment[] = check.ok ? [check.attachment] : [];
  const p = composePrompt(text, atts, s.state.promptCapabilities);
  await s.prompt(p.blocks, p.display);
}

const users = (s: FolderSession) => s.state.entries.filter((e): e is UserEntry => e.kind === "user");

test("a pasted image reaches an agent with promptCapabilities.image as an image block beside the text, and shows in the transcript", async () => {
  const { client, s, prompts } = await setup({ promptCapabilities: { image: true } });
  await s.attach(client, { restart: false });
  assert.equal(s.state.promptCapabilities.image, true);
  await pasteAndSend(s, "what is in this screenshot?");
  assert.deepEqual(prompts, [
    [
      { type: "text", text: "what is in this screenshot?" },
      { type: "image", mimeType: "image/png", data: PNG },
    ],
  ]);
  assert.deepEqual(
    users(s).map((u) => ({ text: u.text, images: u.images })),
    [{ text: "what is in this screenshot?", images: [{ mimeType: "image/png", data: PNG }] }],
  );
});

test("an agent without promptCapabilities.image gets no image: none is attached, and one attached before is not sent", async () => {
  const { client, s, prompts } = await setup({ promptCapabilities: { image: false } });
  await s.attach(client, { restart: false });
  assert.equal(s.state.promptCapabilities.image, false);
  assert.deepEqual(checkImage("shot.png", "image/png", PNG, s.state.promptCapabilities.image), { ok: false, message: NO_IMAGES });
  // An image attached while another agent served the panel.
  const before = checkImage("shot.png", "image/png", PNG, true);
  assert.ok(before.ok);
  const p = composePrompt("and now?", [before.attachment], s.state.promptCapabilities);
  assert.equal(p.droppedImages, 1);
  await s.prompt(p.blocks, p.display);
  assert.deepEqual(prompts, [[{ type: "text", text: "and now?" }]]);
  assert.equal(users(s)[0]?.images, undefined);
});

test("session/load replays the user message with its image: the transcript shows the thumbnail again", async () => {
  const { fake, client, s } = await setup({ loadSession: true, promptCapabilities: { image: true } }, "s-old");
  fake.onLoad = async (params, client) => {
    for (const content of [
      { type: "text" as const, text: "what is in this screenshot?" },
      { type: "image" as const, mimeType: "image/png", data: PNG },
    ])
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "user_message_chunk", content, messageId: "m1" },
      });
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a cat" } },
    });
  };
  const waiters = stateWaiters();
  s.onDidEmit(() => waiters.changed(s));
  await s.attach(client, { restart: false });
  assert.deepEqual(fake.calls, ["session/load"]);
  await waiters.when(s, (st) => st.entries.some((e) => e.kind === "agent" && e.text === "a cat"));
  assert.deepEqual(
    users(s).map((u) => ({ text: u.text, images: u.images })),
    [{ text: "what is in this screenshot?", images: [{ mimeType: "image/png", data: PNG }] }],
  );
});
