// The transcript's scroll decisions — follow the latest entry near the bottom, ask for each
// earlier page once (where entries stand and which are rendered: transcriptLayout.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { earlierRequest, followsLatest, STICK_PX } from "../../../extension/webview/transcriptScroll";

test("the transcript follows new entries only within a few px of the bottom", () => {
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 }), true);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 - STICK_PX + 1 }), true);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 - STICK_PX }), false);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 0 }), false);
  assert.equal(followsLatest({ scrollHeight: 300, clientHeight: 600, scrollTop: 0 }), true, "nothing to scroll");
});

test("earlier entries are asked for once per first entry, and only while the host has more", () => {
  assert.equal(earlierRequest("e100", 99, undefined), "e100");
  assert.equal(earlierRequest("e100", 99, "e100"), undefined, "already asked");
  assert.equal(earlierRequest("e1", 99, "e100"), "e1", "a page arrived: the new first entry");
  assert.equal(earlierRequest("e1", 0, undefined), undefined, "nothing earlier");
  assert.equal(earlierRequest(undefined, 10, undefined), undefined, "no entries held");
});
