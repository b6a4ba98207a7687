// Images, live output and the plan in the alpha panel: an image pasted into the composer (a ClipboardEvent carrying a PNG
// File, dispatched in the webview) shows as a thumbnail, is sent with the text and reaches the fake
// model as an OpenAI `image_url` part, and the user message shows it (image-composer.png, image-prompt.png); a running
// command's output appears in its tool card while it still runs (live-output.png); the plan checklist
// is updated in place by a second `update_plan` (plan.png). Every wait is on an event: the command
// waits for a file the test creates, the model's second plan step hangs until the test releases it.
import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { screenshot } from "../support/browser";
import { byTestId, dismissToasts, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A small RGB gradient PNG, so the thumbnail in the screenshot is visibly an image. */
function gradientPng(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) rows.set([Math.round((255 * x) / w), 90, Math.round((255 * y) / h)], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Pastes a PNG into the composer as the browser does for a copied screenshot. */
async function pastePng(panel: FrameLocator, png: Buffer): Promise<void> {
  await panel.locator(byTestId(TEST_IDS.composerInput)).evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "image.png", { type: "image/png" }));
    (el as HTMLTextAreaElement).focus();
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, png.toString("base64"));
}

/** Pastes a file of `size` zero bytes named as a PNG: past the limit, the composer refuses it. */
async function pasteBlank(panel: FrameLocator, size: number): Promise<void> {
  await panel.locator(byTestId(TEST_IDS.composerInput)).evaluate((el, n) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(n)], "huge.png", { type: "image/png" }));
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, size);
}

/** The image parts (OpenAI `image_url`) of the last user message of a recorded request. */
function imageUrls(messages: unknown[]): string[] {
  const users = (messages as Array<{ role?: unknown; content?: unknown }>).filter((m) => m.role === "user");
  const content = users[users.length - 1]?.content;
  if (!Array.isArray(content)) return [];
  return (content as Array<{ type?: unknown; image_url?: { url?: unknown } }>)
    .filter((p) => p.type === "image_url")
    .map((p) => String(p.image_url?.url));
}

export function imageTests(scenario: () => Scenario): void {
  describe("images, live command output and the plan", () => {
    it("a pasted image shows as a thumbnail, is removable, is sent with the text and reaches the model as an image part; one past 5 MiB is refused", () => {
      const s = scenario();
      return s.step("image-prompt", async () => {
        s.model.route("[img]", { text: "a gradient, blue to red" });
        const png = gradientPng(64, 40);
        const alpha = await s.reveal("alpha");
        const chips = alpha.locator(`${byTestId(TEST_IDS.attachment)}[data-kind="image"]`);
        // Past the limit: refused in the composer with the reason, nothing attached.
        await pasteBlank(alpha, 5 * 1024 * 1024 + 1);
        await alpha.locator(byTestId(TEST_IDS.imageNotice), { hasText: "huge.png is too large" }).waitFor({ timeout: 30_000 });
        assert.equal(await chips.count(), 0);
        // Paste twice, remove one by its keyboard-reachable button: the other stays.
        await pastePng(alpha, png);
        await pastePng(alpha, png);
        await chips.nth(1).waitFor({ state: "visible", timeout: 30_000 });
        const remove = chips.nth(1).getByRole("button", { name: /^Remove image / });
        await remove.focus();
        await remove.press("Enter");
        await chips.nth(1).waitFor({ state: "detached", timeout: 30_000 });
        assert.equal(await chips.count(), 1);
        await chips.locator(byTestId(TEST_IDS.imageThumbnail)).waitFor({ state: "visible" });
        await screenshot(s.page, "image-composer");
        const before = s.model.requests.length;
        await dismissToasts(s.page);
        await alpha.locator(byTestId(TEST_IDS.composerInput)).fill("[img] what is in this picture?");
        await alpha.locator(byTestId(TEST_IDS.send)).click();
        const message = alpha.locator(byTestId(TEST_IDS.userMessage), { hasText: "[img] what is in this picture?" });
        await message.locator(byTestId(TEST_IDS.messageImage)).waitFor({ state: "visible", timeout: 30_000 });
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "a gradient, blue to red" }).waitFor({ timeout: 60_000 });
        assert.equal(await chips.count(), 0, "the sent image left the composer");
        const [req] = (await s.model.waitForRequests(before + 1)).slice(before);
        assert.ok(req, "the model got the prompt");
        assert.ok(req.lastUserText.includes("[img] what is in this picture?"));
        assert.deepEqual(imageUrls(req.messages), [`data:image/png;base64,${png.toString("base64")}`]);
        await screenshot(s.page, "image-prompt");
      });
    });

    it("a running command's output shows in its tool card before the command ends, then the whole output", () => {
      const s = scenario();
      return s.step("live-output", async () => {
        const gate = ".manifold-live-output-release";
        // Prints one line, waits for the test's file, prints two more; no line's text is in the command.
        const command = `i=1; echo line-$i; while [ ! -e ${gate} ]; do sleep 0.1; done; for i in 2 3; do echo line-$i; done`;
        s.model.route("[live]", { toolCalls: [{ name: "bash", args: { command } }] }, { text: "the command finished" });
        const alpha = await s.reveal("alpha");
        await s.send("alpha", "[live] run the slow command");
        const card = alpha.locator(byTestId(TEST_IDS.toolCard)).filter({ hasText: "Run i=1" }).last();
        const output = card.locator(".tool-output");
        // A sandbox that cannot confine asks first: allow it once (the output is what is under test).
        const asked = alpha.locator(`${byTestId(TEST_IDS.permissionCard)}.pending`);
        const settle = (p: Promise<void>) => p.catch(() => undefined);
        await Promise.race([
          settle(output.filter({ hasText: "line-1" }).waitFor({ timeout: 60_000 })),
          settle(asked.waitFor({ timeout: 60_000 })),
        ]);
        if ((await asked.count()) > 0)
          await asked
            .locator(byTestId(TEST_IDS.permissionOption), { hasText: /allow once/i })
            .first()
            .click();
        await output.filter({ hasText: "line-1" }).waitFor({ timeout: 60_000 });
        // Still running: the card says so and the later lines are not there yet (the command waits for us).
        assert.equal(await card.getAttribute("data-status"), "in_progress");
        assert.doesNotMatch((await output.textContent()) ?? "", /line-2/);
        await screenshot(s.page, "live-output");
        writeFileSync(join(s.workspace.alpha, gate), "");
        await alpha
          .locator(`${byTestId(TEST_IDS.toolCard)}[data-status="completed"]`)
          .filter({ hasText: "Run i=1" })
          .waitFor({ state: "attached", timeout: 60_000 });
        assert.match((await output.textContent()) ?? "", /line-1\s+line-2\s+line-3/);
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "the command finished" }).waitFor({ timeout: 60_000 });
        rmSync(join(s.workspace.alpha, gate), { force: true });
      });
    });

    it("the plan checklist shows the first update_plan, then the second one in the same element", () => {
      const s = scenario();
      return s.step("plan", async () => {
        const step = (first: string, second: string) => [
          { step: "Read the code", status: first },
          { step: "Fix the bug", status: second },
        ];
        s.model.route(
          "[plan]",
          { toolCalls: [{ name: "update_plan", args: { plan: step("in_progress", "pending") } }] },
          { hang: true, then: { toolCalls: [{ name: "update_plan", args: { plan: step("completed", "completed") } }] } },
          { text: "all done" },
        );
        const alpha = await s.reveal("alpha");
        const before = s.model.requests.length;
        await s.send("alpha", "[plan] plan it");
        const plan = alpha.locator(byTestId(TEST_IDS.plan));
        const items = plan.locator(byTestId(TEST_IDS.planItem));
        await items.nth(1).waitFor({ state: "visible", timeout: 60_000 });
        // The step after the first plan has been asked for and hangs: the first plan is what the panel shows.
        await s.model.waitForRequests(before + 2);
        assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))), ["in_progress", "pending"]);
        // Mark the element: the update must change it, not add a second list.
        await plan.evaluate((el) => el.setAttribute("data-probe", "first"));
        await screenshot(s.page, "plan");
        s.model.release();
        await alpha
          .locator(`${byTestId(TEST_IDS.planItem)}[data-status="completed"]`)
          .nth(1)
          .waitFor({ timeout: 60_000 });
        assert.equal(await plan.count(), 1, "one checklist");
        assert.equal(await plan.getAttribute("data-probe"), "first", "the same element was updated");
        assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-status"))), ["completed", "completed"]);
        await alpha.locator(byTestId(TEST_IDS.agentMessage), { hasText: "all done" }).waitFor({ timeout: 60_000 });
      });
    });
  });
}
