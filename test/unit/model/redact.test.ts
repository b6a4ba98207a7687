// Pure helpers of the error mapping: key redaction (I-98) and retry-after parsing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { displayUrl, redact, retryAfterMs } from "../../../agent-server/model/errors";

describe("model error helpers", () => {
  it("I-98: redact removes the configured key and key-looking strings", () => {
    const cases: Array<[string, string]> = [
      ["Incorrect API key provided: sk-test-SECRET123.", "Incorrect API key provided: [redacted]."],
      ["Authorization: Bearer abc.def-ghi", "Authorization: [redacted]"],
      ['{"x-api-key":"whatever-it-is"}', '{"x-api-key":"[redacted]"}'],
      ["token=0123456789abcdef0123456789abcdef01&x=1", "token=[redacted]&x=1"],
      ["opaque 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc here", "opaque [redacted] here"],
      ["model not found: llama3.1", "model not found: llama3.1"],
    ];
    for (const [input, expected] of cases) assert.equal(redact(input), expected);
    assert.equal(redact("the key is hunter2-custom", ["hunter2-custom"]), "the key is [redacted]");
  });

  it("displayUrl drops query strings and credentials", () => {
    assert.equal(displayUrl("https://u:p@example.com/v1/chat?key=sk-test-SECRET123"), "https://example.com/v1/chat");
    assert.equal(displayUrl(undefined), "the model endpoint");
    assert.equal(displayUrl("not a url"), "the model endpoint");
  });

  it("retryAfterMs reads retry-after-ms, seconds and HTTP dates", () => {
    assert.equal(retryAfterMs({ "retry-after-ms": "250" }), 250);
    assert.equal(retryAfterMs({ "Retry-After": "2" }), 2000);
    const now = Date.parse("2026-11-30T09:00:00Z");
    assert.equal(retryAfterMs({ "retry-after": "Mon, 30 Nov 2026 09:00:05 GMT" }, now), 5000);
    assert.equal(retryAfterMs({ "retry-after": "soon" }), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });
});
