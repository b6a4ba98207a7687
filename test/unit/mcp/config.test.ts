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

  it("I-114: a folder-defined server's _meta mark is kept (network off unless set); a malformed mark is refused, never dropped", () => {
    const mark = (v: unknown) => ({ name: "f", command: "node", args: [], env: [], _meta: { "manifold.dev/confine": v, other: 1 } });
    const [on] = parseMcpServers([mark({ sandbox: true, network: true })]);
    assert.deepEqual(on, { transport: "stdio", name: "f", command: "node", args: [], env: [], confine: { network: true } });
    assert.deepEqual(parseMcpServers([mark({ sandbox: true })])[0], {
      transport: "stdio",
      name: "f",
      command: "node",
      args: [],
      env: [],
      confine: { network: false },
    });
    assert.equal("confine" in parseMcpServers([mark({ sandbox: false })])[0]!, false);
    assert.equal("confine" in parseMcpServers([{ name: "u", command: "node", args: [], env: [], _meta: null }])[0]!, false);
    for (const bad of [true, "yes", { sandbox: "true" }, { sandbox: true, network: 1 }, { sandbox: true, extra: 1 }])
      assert.throws(
        () => parseMcpServers([mark(bad)]),
        (e: unknown) => e instanceof McpConfigError && /manifold\.dev\/confine/.test(e.message),
        JSON.stringify(bad),
      );
  });
});
