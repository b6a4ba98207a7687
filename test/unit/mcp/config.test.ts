// `mcpServers` from the client: validated before anything starts (I-64: refused, never ignored).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { McpConfigError, parseMcpServers } from "../../../agent-server/mcp/config";

describe("parseMcpServers", () => {
  it("accepts stdio (no type) and http entries", () => {
    assert.deepEqual(
      parseMcpServers([
        { name: "a", command: "npx", args: ["x"], env: [{ name: "K", value: "v" }] },
        { type: "http", name: "b", url: "https://h/mcp", headers: [] },
      ]),
      [
        { transport: "stdio", name: "a", command: "npx", args: ["x"], env: [{ name: "K", value: "v" }] },
        { transport: "http", name: "b", url: "https://h/mcp", headers: [] },
      ],
    );
    assert.deepEqual(parseMcpServers([]), []);
    assert.deepEqual(parseMcpServers(undefined), []);
  });

  it("refuses sse, unknown types, bad urls, missing fields, duplicates and too many servers with a clear message", () => {
    const bad: Array<[unknown, RegExp]> = [
      [[{ type: "sse", name: "s", url: "http://h", headers: [] }], /SSE/],
      [[{ type: "acp", name: "s", serverId: "x" }], /unsupported MCP server type "acp"/],
      [[{ type: "http", name: "h", url: "ftp://h", headers: [] }], /http:\/\/ or https/],
      [[{ name: "s", command: "", args: [], env: [] }], /command/],
      [[{ name: "s", command: "x", args: "no", env: [] }], /args/],
      [
        [
          { name: "s", command: "x", args: [], env: [] },
          { type: "http", name: "s", url: "http://h", headers: [] },
        ],
        /used twice/,
      ],
      [Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, command: "x", args: [], env: [] })), /at most 20/],
      ["nope", /must be an array/],
    ];
    for (const [raw, re] of bad)
      assert.throws(
        () => parseMcpServers(raw),
        (e: unknown) => e instanceof McpConfigError && re.test(e.message),
        JSON.stringify(raw).slice(0, 80),
      );
  });
});
