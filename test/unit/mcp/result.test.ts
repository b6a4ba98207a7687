// MCP results from an untrusted server → model text (bounded) and ACP card blocks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { convertResult, MAX_IMAGE_CHARS } from "../../../agent-server/mcp/result";
import { MAX_OUTPUT_CHARS } from "../../../agent-server/tools/truncate";

describe("convertResult", () => {
  it("text, image and resource_link become ACP content blocks; the model reads placeholders", () => {
    const r = convertResult("srv", "t", {
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "aGk=", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///x", name: "x", mimeType: "text/plain" },
      ],
    });
    assert.equal(r.isError, false);
    assert.deepEqual(
      r.content?.map((c) => (c.type === "content" ? c.content.type : c.type)),
      ["text", "image", "resource_link"],
    );
    assert.match(r.output, /hello\n\[image image\/png, 3 bytes\]\n\[resource x: file:\/\/\/x\]/);
  });

  it("huge text is truncated with a note; oversized or mistyped images are not carried; isError is kept", () => {
    const r = convertResult("srv", "t", { content: [{ type: "text", text: "y".repeat(MAX_OUTPUT_CHARS * 3) }], isError: true });
    assert.ok(r.output.length < MAX_OUTPUT_CHARS + 500);
    assert.match(r.output, /truncated/);
    assert.match(r.output, /reported an error/);
    assert.equal(r.isError, true);
    const img = convertResult("srv", "t", {
      content: [
        { type: "image", data: "a".repeat(MAX_IMAGE_CHARS + 1), mimeType: "image/png" },
        { type: "image", data: "aGk=", mimeType: "text/html" },
      ],
    });
    assert.ok(img.content?.every((c) => c.type === "content" && c.content.type === "text"));
  });

  it("structured content stands in when there is no content; empty results say so", () => {
    assert.equal(convertResult("s", "t", { content: [], structuredContent: { a: 1 } }).output, '{"a":1}');
    assert.equal(convertResult("s", "t", { content: [] }).output, "(no output)");
  });
});
