// Tool names of MCP tools towards the model: charset, length, de-duplication (I-99: they carry the server).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { baseToolName, exposedToolNames, MAX_TOOL_NAME } from "../../../agent-server/mcp/names";
import { builtinTools } from "../../../agent-server/tools";
import { createNoSandbox } from "../../../sandbox/none";

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe("MCP tool names", () => {
  it("carry the server, use only the charset both model APIs accept, and fit 64 characters", () => {
    assert.equal(baseToolName("github", "create_issue"), "mcp__github__create_issue");
    assert.equal(baseToolName("my server.v2", "read/file ünï"), "mcp__my_server_v2__read_file__n_");
    const long = baseToolName("s".repeat(80), "t".repeat(80));
    assert.equal(long.length, MAX_TOOL_NAME);
    assert.match(long, VALID);
    assert.notEqual(long, baseToolName("s".repeat(80), `${"t".repeat(79)}u`), "cut names keep a hash of the original");
  });

  it("are unique within a session even when sanitizing or cutting makes them collide", () => {
    const names = exposedToolNames([
      { server: "a.b", tool: "x" },
      { server: "a_b", tool: "x" },
      { server: "a b", tool: "x" },
      { server: "z".repeat(90), tool: "y" },
      { server: "z".repeat(90), tool: "y" },
    ]);
    assert.equal(new Set(names).size, names.length, names.join(","));
    for (const n of names) assert.match(n, VALID);
    assert.deepEqual(names.slice(0, 3), ["mcp__a_b__x", "mcp__a_b__x_2", "mcp__a_b__x_3"]);
  });

  it("never collide with a built-in tool", () => {
    for (const t of builtinTools(createNoSandbox({}))) assert.ok(!t.name.startsWith("mcp__"), t.name);
  });
});
