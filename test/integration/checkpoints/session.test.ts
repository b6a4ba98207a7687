// FolderSession + checkpoints: a checkpoint before each prompt, edit and resend with and without a fork.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { FolderCheckpoints } from "../../../extension/checkpoints/folderCheckpoints";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { createFakeAgent } from "../extension/fakeAgent";
import { read, tempBase, write } from "./helpers";

async function setup(caps: acp.AgentCapabilities) {
  const base = tempBase();
  const folder = join(base, "proj");
  mkdirSync(folder);
  const ck = new FolderCheckpoints(join(base, "storage"), folder);
  const fake = createFakeAgent(caps);
  const client = new AcpClient(fake.app);
  await client.initialize();
  const m = new Map<string, string>();
  const s = new FolderSession(folder, "proj", {
    bindings: { get: (f) => m.get(f), set: (f, id) => void (id ? m.set(f, id) : m.delete(f)) },
    editor: { openDocumentText: () => undefined, writeOpenDocument: async () => false },
    terminalSandbox: async () => createNoSandbox({}, "none"),
    checkpoints: ck,
  });
  await s.attach(client, { restart: false });
  return { folder, ck, fake, s };
}

const text = (t: string): acp.ContentBlock[] => [{ type: "text", text: t }];

test("a checkpoint is taken before the prompt reaches the agent; its end is recorded after the turn", async () => {
  const { folder, ck, fake, s } = await setup({});
  write(folder, "a.txt", "before");
  fake.onPrompt = async () => {
    write(folder, "a.txt", "agent wrote this");
    return "end_turn";
  };
  await s.prompt(text("change a"), { text: "change a", attachments: [] });
  const [c] = await ck.list(s.sessionId!);
  assert.equal(c?.label, "change a");
  assert.equal(c?.promptIndex, 0);
  assert.ok(c?.after, "the turn's end is recorded");
  assert.deepEqual(
    (await ck.changes(s.sessionId!)).files.map((f) => f.path),
    ["a.txt"],
  );
  await ck.restore(await ck.planRestore(s.sessionId!, c!.id), new Set());
  assert.equal(read(folder, "a.txt"), "before");
});

test("edit and resend with an agent that forks before a prompt: the panel moves to the fork, later messages go", async () => {
  const { fake, s, ck } = await setup({
    sessionCapabilities: { resume: {} },
    _meta: { "session/fork": { "manifold.dev/keepPrompts": true } },
  });
  const first = s.sessionId!;
  await s.prompt(text("one"), { text: "one", attachments: [] });
  await s.prompt(text("two"), { text: "two", attachments: [] });
  assert.ok(s.forgetsOnResend);
  await s.editAndResend(1, text("two, edited"), { text: "two, edited", attachments: [] });
  assert.ok(fake.calls.includes(`session/fork ${first} keep=1`), fake.calls.join(","));
  assert.notEqual(s.sessionId, first);
  assert.deepEqual(
    s.state.entries.filter((e) => e.kind === "user").map((e) => (e.kind === "user" ? e.text : "")),
    ["one", "two, edited"],
  );
  assert.deepEqual(
    (await ck.list(s.sessionId!)).map((c) => c.label),
    ["one", "two, edited"],
    "the fork keeps the checkpoints before the cut",
  );
});

test("edit and resend with an agent that cannot fork says plainly that it remembers", async () => {
  const { fake, s } = await setup({});
  const first = s.sessionId;
  await s.prompt(text("one"), { text: "one", attachments: [] });
  assert.equal(s.forgetsOnResend, false);
  await s.editAndResend(0, text("one, edited"), { text: "one, edited", attachments: [] });
  assert.equal(s.sessionId, first);
  assert.ok(!fake.calls.some((c) => c.startsWith("session/fork")));
  assert.ok(s.state.entries.some((e) => e.kind === "notice" && /still remembers/.test(e.text)));
});
