// A long session's edit texts stay with the host for "Open diff"; the latest stay plain,
// older ones are compressed, and every one still reads back exactly, whichever form it is in.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DiffTexts } from "../../../extension/sessions/diffTexts";

const file = (n: number, variant: string): string =>
  Array.from({ length: 80 }, (_, i) => `export function step${i}(x: number): number { return x + ${i} /* ${variant} ${n} */; }\n`).join("");

function edit(texts: DiffTexts, n: number, variant = "v1"): void {
  texts.view({
    sessionUpdate: "tool_call",
    toolCallId: `t${n}`,
    title: `Edit ${n}`,
    content: [{ type: "diff", path: `/w/f${n}.ts`, oldText: n % 5 === 0 ? null : file(n, "old"), newText: file(n, variant) }],
  });
}

test("every diff reads back exactly; beyond the plain limit the older ones are held compressed", async () => {
  const texts = new DiffTexts(4);
  for (let n = 0; n < 40; n++) edit(texts, n);
  await texts.compressed();
  const raw = 40 * 2 * file(0, "old").length;
  assert.ok(texts.compressedBytes > 0, "older texts compressed");
  assert.ok(texts.compressedBytes < raw / 4, `${texts.compressedBytes} B compressed for ≈ ${raw} B of text`);
  for (let n = 0; n < 40; n++)
    assert.deepEqual(await texts.get(`t${n}`, 0), {
      path: `/w/f${n}.ts`,
      oldText: n % 5 === 0 ? null : file(n, "old"),
      newText: file(n, "v1"),
    });
  assert.equal(await texts.get("t0", 1), undefined);
});

test("a newer text for the same edit replaces the older one, even while the older is being compressed", async () => {
  const texts = new DiffTexts(2);
  edit(texts, 1);
  edit(texts, 2);
  edit(texts, 3); // t1 is set aside now, its compression in flight
  edit(texts, 1, "v2"); // …and replaced before it ends
  await texts.compressed();
  assert.equal((await texts.get("t1", 0))?.newText, file(1, "v2"));
  for (let n = 4; n < 10; n++) edit(texts, n);
  await texts.compressed();
  assert.equal((await texts.get("t1", 0))?.newText, file(1, "v2"));
  texts.clear();
  assert.equal(await texts.get("t1", 0), undefined);
  assert.equal(texts.compressedBytes, 0);
});
