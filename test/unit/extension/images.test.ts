// Images in the composer: the one rule for types and size (equal to the built-in agent's),
// what the host accepts from the webview or the picker, the prompt blocks built, the transcript's
// thumbnails (sent and replayed) and the protocol messages. Pure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as agentPrompt from "../../../agent-server/acp/prompt";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, imageProblem, imageSrc, imageTypeOf } from "../../../extension/common/images";
import { NO_IMAGES, checkImage, checkImageFile } from "../../../extension/chat/imageAttachments";
import { buildPrompt, type ResolvedAttachment } from "../../../extension/chat/promptBuilder";
import { emptyTranscript, reduceTranscript, type TranscriptEvent, type UserEntry } from "../../../extension/common/transcript";
import { parseWebviewMessage } from "../../../extension/common/webviewMessages";

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const b64 = (bytes: number): string => Buffer.alloc(bytes, 1).toString("base64");

describe("images: one rule for the composer and the built-in agent", () => {
  it("the composer's types and limit are the built-in agent's (two copies: the agent-server cannot import extension code)", () => {
    assert.deepEqual(IMAGE_TYPES, agentPrompt.IMAGE_TYPES);
    assert.equal(MAX_IMAGE_BYTES, agentPrompt.MAX_IMAGE_BYTES);
  });

  it("accepts the four types up to 5 MiB; refuses other types, empty and oversized images with a clear sentence", () => {
    for (const t of ["image/png", "image/jpeg", "image/gif", "image/webp", "IMAGE/PNG"])
      assert.equal(imageProblem("a", t, MAX_IMAGE_BYTES), null, t);
    assert.equal(imageProblem("a.svg", "image/svg+xml", 10), "a.svg is not a PNG, JPEG, GIF or WebP image (image/svg+xml).");
    assert.equal(imageProblem("a.png", "image/png", 0), "a.png is empty.");
    assert.equal(
      imageProblem("big.png", "image/png", MAX_IMAGE_BYTES + 1),
      "big.png is too large (5.0 MiB; the limit is 5 MiB per image).",
    );
    assert.equal(imageProblem("big.png", "image/png", 8 * 1024 * 1024), "big.png is too large (8.0 MiB; the limit is 5 MiB per image).");
    assert.equal(imageTypeOf("shot.JPG"), "image/jpeg");
    assert.equal(imageTypeOf("notes.txt"), undefined);
  });

  it("a data: URL only for admitted types and base64 data (never SVG, never a smuggled string)", () => {
    assert.equal(imageSrc({ mimeType: "image/png", data: "iVBORw==" }), "data:image/png;base64,iVBORw==");
    assert.equal(imageSrc({ mimeType: "image/svg+xml", data: "PHN2Zz4=" }), undefined);
    assert.equal(imageSrc({ mimeType: "image/png", data: 'x" onerror="alert(1)' }), undefined);
    assert.equal(imageSrc({ mimeType: "image/png", data: "" }), undefined);
  });
});

describe("images: what the host attaches", () => {
  it("a pasted image becomes an attachment with a thumbnail; refused without the agent's image capability", () => {
    const data = PNG.toString("base64");
    const ok = checkImage("shot.png", "image/png", data, true);
    assert.deepEqual(ok, {
      ok: true,
      attachment: { kind: "image", name: "shot.png", mimeType: "image/png", data },
      thumbnail: `data:image/png;base64,${data}`,
    });
    assert.deepEqual(checkImage("shot.png", "image/png", data, false), { ok: false, message: NO_IMAGES });
    const named = checkImage("../../etc/x.png", "image/png", data, true);
    assert.equal(named.ok && named.attachment.name, "x.png");
    assert.equal(checkImage("x.tiff", "image/tiff", data, true).ok, false);
    assert.equal(checkImage("x.png", "image/png", "not base64!", true).ok, false);
    const big = checkImage("big.png", "image/png", b64(MAX_IMAGE_BYTES + 1), true);
    assert.deepEqual(big, { ok: false, message: "big.png is too large (5.0 MiB; the limit is 5 MiB per image)." });
  });

  it("a picked file: its type from its name, its size checked before it is encoded", () => {
    const r = checkImageFile("/ws/pics/a.webp", PNG, true);
    assert.equal(r.ok && r.attachment.mimeType, "image/webp");
    assert.equal(r.ok && r.attachment.name, "a.webp");
    assert.deepEqual(checkImageFile("/ws/a.bmp", PNG, true), { ok: false, message: "a.bmp is not a PNG, JPEG, GIF or WebP image." });
    assert.deepEqual(checkImageFile("/ws/a.png", new Uint8Array(MAX_IMAGE_BYTES + 1), true), {
      ok: false,
      message: "a.png is too large (5.0 MiB; the limit is 5 MiB per image).",
    });
    assert.deepEqual(checkImageFile("/ws/a.png", PNG, false), { ok: false, message: NO_IMAGES });
  });
});

describe("images: the prompt blocks", () => {
  const img: ResolvedAttachment = { kind: "image", name: "a.png", mimeType: "image/png", data: "iVBORw==" };
  const file: ResolvedAttachment = { kind: "file", path: "/ws/a.ts", text: "x" };

  it("ACP image blocks in the same prompt as the text, after it", () => {
    assert.deepEqual(buildPrompt("look", [img, file], { embeddedContext: false, image: true }), [
      { type: "text", text: "look" },
      { type: "image", mimeType: "image/png", data: "iVBORw==" },
      { type: "resource_link", uri: "file:///ws/a.ts", name: "a.ts" },
    ]);
  });

  it("an image alone is the whole prompt (no empty text block)", () => {
    assert.deepEqual(buildPrompt("  ", [img], { embeddedContext: true, image: true }), [
      { type: "image", mimeType: "image/png", data: "iVBORw==" },
    ]);
  });

  it("an agent without promptCapabilities.image is sent no image", () => {
    assert.deepEqual(buildPrompt("look", [img], { embeddedContext: true, image: false }), [{ type: "text", text: "look" }]);
  });
});

describe("images: the transcript", () => {
  const fold = (events: TranscriptEvent[]) => events.reduce(reduceTranscript, emptyTranscript("alpha", "agent"));
  const users = (events: TranscriptEvent[]) => fold(events).entries.filter((e): e is UserEntry => e.kind === "user");

  it("a sent prompt keeps its images for the thumbnails", () => {
    const [u] = users([{ type: "user/prompt", text: "look", attachments: [], images: [{ mimeType: "image/png", data: "iVBORw==" }] }]);
    assert.deepEqual(u?.images, [{ mimeType: "image/png", data: "iVBORw==" }]);
  });

  it("a replayed user message (session/load) shows its image blocks as images, not as “[image]”", () => {
    const chunk = (content: import("@agentclientprotocol/sdk").ContentBlock): TranscriptEvent => ({
      type: "acp",
      update: { sessionUpdate: "user_message_chunk", content, messageId: "m1" },
    });
    const [u] = users([
      chunk({ type: "text", text: "what is this?" }),
      chunk({ type: "image", mimeType: "image/png", data: "iVBORw==" }),
      chunk({ type: "image", mimeType: "image/jpeg", data: "/9j/" }),
    ]);
    assert.equal(u?.text, "what is this?");
    assert.deepEqual(u?.images, [
      { mimeType: "image/png", data: "iVBORw==" },
      { mimeType: "image/jpeg", data: "/9j/" },
    ]);
    const [alone] = users([chunk({ type: "image", mimeType: "image/png", data: "iVBORw==" })]);
    assert.deepEqual(alone && { text: alone.text, images: alone.images }, {
      text: "",
      images: [{ mimeType: "image/png", data: "iVBORw==" }],
    });
  });

  it("an image of a type the panel does not show stays a text label", () => {
    const [u] = users([
      {
        type: "acp",
        update: { sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" } },
      },
    ]);
    assert.equal(u?.text, "[image]");
    assert.equal(u?.images, undefined);
  });
});

describe("images: the webview protocol", () => {
  it("accepts an image message and the picker request; refuses extra fields and data past the limit", () => {
    const good = [{ type: "composer/image", name: "a.png", mimeType: "image/png", data: "iVBORw==" }, { type: "composer/pickImages" }];
    assert.deepEqual(good.map(parseWebviewMessage), good);
    const bad: unknown[] = [
      { type: "composer/image", name: "", mimeType: "image/png", data: "x" },
      { type: "composer/image", name: "a.png", mimeType: "image/png" },
      { type: "composer/image", name: "a.png", mimeType: "image/png", data: "x".repeat(7 * 1024 * 1024 + 1) },
      { type: "composer/pickImages", path: "/etc/passwd" },
    ];
    assert.deepEqual(
      bad.map((m) => parseWebviewMessage(m)),
      bad.map(() => undefined),
    );
  });
});
