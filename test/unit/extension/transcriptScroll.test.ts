// The transcript's scroll decisions — follow the latest entry near the bottom, keep the
// reader's entry in place when earlier ones are put above it, ask for each earlier page once.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TranscriptEntry } from "../../../extension/common/transcript";
import { earlierRequest, entriesPutAbove, followsLatest, STICK_PX } from "../../../extension/webview/transcriptScroll";

const entry = (id: string): TranscriptEntry => ({ kind: "agent", id, text: id });
const ids = (...xs: string[]) => xs.map(entry);

test("the transcript follows new entries only within a few px of the bottom", () => {
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 }), true);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 - STICK_PX + 1 }), true);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 4400 - STICK_PX }), false);
  assert.equal(followsLatest({ scrollHeight: 5000, clientHeight: 600, scrollTop: 0 }), false);
  assert.equal(followsLatest({ scrollHeight: 300, clientHeight: 600, scrollTop: 0 }), true, "nothing to scroll");
});

test("entries put above the first one are counted; appended, replaced or first-ever entries are not", () => {
  assert.equal(entriesPutAbove("e5", ids("e1", "e2", "e3", "e4", "e5", "e6")), 4);
  assert.equal(entriesPutAbove("e5", ids("e5", "e6", "e7")), 0, "appended at the end");
  assert.equal(entriesPutAbove("e5", ids("e9", "e10")), 0, "a snapshot replaced them");
  assert.equal(entriesPutAbove(undefined, ids("e1")), 0, "the first render");
  assert.equal(entriesPutAbove("e1", []), 0, "cleared");
});

test("earlier entries are asked for once per first entry, and only while the host has more", () => {
  assert.equal(earlierRequest("e100", 99, undefined), "e100");
  assert.equal(earlierRequest("e100", 99, "e100"), undefined, "already asked");
  assert.equal(earlierRequest("e1", 99, "e100"), "e1", "a page arrived: the new first entry");
  assert.equal(earlierRequest("e1", 0, undefined), undefined, "nothing earlier");
  assert.equal(earlierRequest(undefined, 10, undefined), undefined, "no entries held");
});
