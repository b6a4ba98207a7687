// A folder's one bound session at a time (BoundSessionSlot): binding another session id leaves the
// one before, whose pending requests are answered as dismissals (never grants) and whose id the
// client no longer serves (FolderSession's new, switch and fork rely on it).
import assert from "node:assert/strict";
import { test } from "node:test";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import type { TranscriptEvent } from "../../../extension/common/transcript";
import { BoundSessionSlot } from "../../../extension/sessions/boundSession";
import { createNoSandbox } from "../../../sandbox/none";
import { askPermission, createFakeAgent } from "./fakeAgent";

test("binding another session id leaves the one before: its pending request is dismissed, its id no longer served", async () => {
  const fake = createFakeAgent({});
  const client = new AcpClient(fake.app);
  await client.initialize();
  const events: TranscriptEvent[] = [];
  let requested!: () => void;
  const asked = new Promise<void>((r) => (requested = r));
  const slot = new BoundSessionSlot(new PathConfinement("/w/alpha"), {
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
    emit: (...evs) => events.push(...evs),
    update: () => undefined,
    onPermissionRequested: () => requested(),
    onQuestionRequested: () => undefined,
  });

  slot.bind(client, "s1");
  const answer = askPermission(fake, fake.client(), "s1", "t1");
  await asked;
  assert.equal(slot.current?.pendingPermissions.length, 1);

  slot.bind(client, "s2");
  assert.equal(slot.current?.sessionId, "s2");
  assert.deepEqual(
    events.filter((e) => e.type === "permission/resolved").map((e) => e.outcome),
    [{ state: "selected", optionId: "reject", optionName: "Reject" }],
  );
  assert.deepEqual(await answer, { outcome: { outcome: "selected", optionId: "reject" } });
  // An unknown session id fails closed, and nothing reaches this folder.
  assert.deepEqual(await askPermission(fake, fake.client(), "s1", "t2"), { outcome: { outcome: "cancelled" } });
  assert.equal(events.filter((e) => e.type === "permission/requested").length, 1);

  slot.unbind();
  assert.equal(slot.current, undefined);
  await slot.tornDown();
});
