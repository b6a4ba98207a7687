// Prompt admission of images (I-31): PNG, JPEG, GIF and WebP up to 5 MiB decoded each, as image
// blocks or embedded image resources; anything else is refused with a message naming the rule. Pure.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkPrompt, imageProblem, MAX_IMAGE_BYTES } from "../../../agent-server/acp/prompt";

const b64 = (bytes: number): string => Buffer.alloc(bytes).toString("base64");

describe("image admission", () => {
  it("accepts the four types at the limit, refuses other types, oversize and non-base64 data", () => {
    for (const t of ["image/png", "image/jpeg", "image/gif", "image/webp", "IMAGE/PNG"])
      assert.equal(imageProblem(t, b64(MAX_IMAGE_BYTES)), null, t);
    assert.match(imageProblem("image/svg+xml", b64(3)) ?? "", /unsupported image type "image\/svg\+xml": send PNG, JPEG, GIF or WebP/);
    assert.match(
      imageProblem("image/png", b64(MAX_IMAGE_BYTES + 1)) ?? "",
      /too large \(5242881 bytes; the limit is 5242880 bytes, 5 MiB, per image\)/,
    );
    assert.match(imageProblem("image/png", "data:image/png;base64,AAAA") ?? "", /not base64/);
    assert.match(imageProblem("image/png", "") ?? "", /no data/);
  });

  it("checkPrompt applies it to image blocks and embedded image resources alike; an image alone is a prompt", () => {
    assert.deepEqual(checkPrompt([{ type: "image", mimeType: "image/png", data: b64(3) }]), { ok: true, title: null });
    assert.equal(checkPrompt([{ type: "image", mimeType: "image/tiff", data: b64(3) }]).ok, false);
    assert.equal(
      checkPrompt([{ type: "resource", resource: { uri: "file:///a.png", mimeType: "image/png", blob: b64(MAX_IMAGE_BYTES + 3) } }]).ok,
      false,
    );
    assert.equal(
      checkPrompt([{ type: "resource", resource: { uri: "file:///a.bin", mimeType: "application/octet-stream", blob: b64(3) } }]).ok,
      true,
    );
  });
});
