import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { exactIdProblem, isExactSessionId } from "../../../base/sessionIds";
import { isSessionNotFound, mintSessionId } from "../../../extension/sessions/sessionIds";
import { escapeSessionId } from "../../../agent-server/session/fileName";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("I-7: a labelled start mints `${label}-session-${uuid}`, twice gives two ids; no label gives a UUID v4", () => {
  const a = mintSessionId("review");
  const b = mintSessionId("review");
  assert.match(a, /^review-session-[0-9a-f-]{36}$/);
  assert.match(b, /^review-session-[0-9a-f-]{36}$/);
  assert.notEqual(a, b);
  assert.match(a.slice("review-session-".length), UUID_V4);
  assert.match(mintSessionId(), UUID_V4);
  assert.notEqual(mintSessionId(), mintSessionId());
  assert.ok(isExactSessionId(a) && isExactSessionId(mintSessionId()));
});

test("I-75: an exact id is 1-128 of [A-Za-z0-9._-] starting with a letter or digit, so it is one plain file name", () => {
  for (const ok of ["a", "A.b_c-d", "0", "x".repeat(128), "review-session-0e8b1a6e-4a1f-4c1e-9d7b-1f1e2d3c4b5a"]) {
    assert.equal(exactIdProblem(ok), undefined, ok);
    assert.equal(escapeSessionId(ok).includes("/"), false);
  }
  for (const bad of [
    "",
    ".",
    "..",
    "../x",
    "a/b",
    "a\\b",
    ".hidden",
    "-x",
    "_x",
    "x".repeat(129),
    "a b",
    "é",
    "a%2F",
    7,
    null,
    undefined,
  ]) {
    assert.notEqual(exactIdProblem(bad), undefined, String(bad));
    assert.equal(isExactSessionId(bad), false);
  }
});

test("a not-found answer is recognised, other errors are not", () => {
  assert.equal(isSessionNotFound(acp.RequestError.sessionNotFound("x")), true);
  assert.equal(isSessionNotFound(acp.RequestError.invalidParams(undefined, "no")), false);
  assert.equal(isSessionNotFound(acp.RequestError.internalError(undefined, "no")), false);
  assert.equal(isSessionNotFound(new Error("Resource not found")), false);
  assert.equal(isSessionNotFound(undefined), false);
});
