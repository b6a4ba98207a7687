// The demo model offers an MCP call when asked and the session has MCP tools.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { demoStep, NO_MCP_TEXT } from "../../../agent-server/model/demo/script";
import type { ChatMessage } from "../../../agent-server/model/types";

const says = (text: string): ChatMessage[] => [{ role: "user", content: [{ type: "text", text }] }];

describe("demo model and MCP", () => {
  it("'use an mcp tool' calls the session's first MCP tool, or explains there is none", () => {
    const step = demoStep(says("use an MCP tool"), new Set(["read_file", "mcp__github__list_issues", "mcp__x__y"]));
    assert.deepEqual(step.toolCall, { toolName: "mcp__github__list_issues", input: {} });
    assert.deepEqual(demoStep(says("use an mcp tool"), new Set(["read_file"])), { text: NO_MCP_TEXT });
  });
});
