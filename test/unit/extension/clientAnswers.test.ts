// The answers the client gives any agent that are fixed by what real agents expect (issue #18).
import assert from "node:assert/strict";
import { test } from "node:test";
import { missingFileAnswer } from "../../../extension/client/fileService";

test("fs/read_text_file of a missing file inside the folder answers as Zed does: empty text (not an error), with _meta saying it does not exist", () => {
  // gemini-cli reads a write's target first and treats any error answer as a failure (its ACP layer
  // gets the JSON-RPC error as a plain object and only recognises Node's ENOENT), so an error here
  // meant it could never create a file; test/agent/realAgents.test.ts proves it with the real agent.
  assert.deepEqual(missingFileAnswer(), { content: "", _meta: { "manifold/exists": false } });
});
