import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseMcpJson } from "../../../extension/mcp/mcpJson";
import { applyStatus } from "../../../extension/common/mcpRows";
import { collectSessionServers, type McpSources } from "../../../extension/mcp/sessionServers";
import { parseEnvFile } from "../../../extension/mcp/resolve";

const FOLDER_JSON = `{
  // VS Code accepts comments and trailing commas
  "inputs": [{ "type": "promptString", "id": "token", "description": "API token", "password": true }],
  "servers": {
    "local": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/srv.js"], "env": { "TOKEN": "\${input:token}", "N": 3 }, "envFile": "\${workspaceFolder}/.env" },
    "remote": { "type": "http", "url": "https://example.test/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
    "old": { "type": "sse", "url": "https://example.test/sse" },
    "broken": { "type": "stdio" },
  },
}`;

function sources(over: Partial<McpSources> & { answers?: boolean[] } = {}): McpSources & { asked: string[]; store: Map<string, string> } {
  // The first two lines of the question: the command and its args, or the url (the rest: consent.test.ts).
  const asked: string[] = [];
  const store = new Map<string, string>();
  const answers = [...(over.answers ?? [])];
  return {
    folder: "/w/a",
    folderName: "a",
    trusted: () => true,
    folderConfig: () => Promise.resolve(FOLDER_JSON),
    userConfig: () => undefined,
    consent: {
      get: (k) => store.get(k) as "allow" | "deny" | undefined,
      set: (k, v) => void store.set(k, v),
      ask: (q) => (asked.push(`${q.folderName}/${q.name}: ${shortGrant(q.detail)}`), Promise.resolve(answers.shift() ? "allow" : "deny")),
    },
    input: (_scope, def) => Promise.resolve(def.id === "token" ? "s3cret" : undefined),
    readEnvFile: () => Promise.resolve("FROM_FILE=1\nTOKEN=overridden\n"),
    fileDigest: () => Promise.resolve(undefined),
    env: {},
    userHome: "/home/u",
    ...over,
    asked,
    store,
  };
}

const all = { http: true, sse: false, confine: true };

/** `node ${workspaceFolder}/srv.js` or `http https://…`, from the question's lines. */
function shortGrant(detail: string[]): string {
  const cmd = detail.find((l) => l.startsWith("Command: "));
  if (!cmd) return detail[0]!.replace(/^Connects to: /, "");
  const args = detail.find((l) => l.startsWith("Arguments: "))!.slice(11);
  return [cmd.slice(9), ...(args === "none" ? [] : (JSON.parse(`[${args.split('" "').join('","')}]`) as string[]))].join(" ");
}

describe("MCP servers of a folder session (I-102)", () => {
  it("parses VS Code's mcp.json; a bad entry is reported by name and loses nothing else", () => {
    const f = parseMcpJson(FOLDER_JSON, "a/.vscode/mcp.json");
    assert.deepEqual(
      f.servers.map((s) => s.name),
      ["local", "remote", "old"],
    );
    assert.equal(f.problems.length, 1);
    assert.match(f.problems[0]!, /server "broken" was left out: .*command/);
    assert.match(parseMcpJson("{ nope", "x").problems[0]!, /not valid JSON/);
    assert.match(parseMcpJson(`{"servers":{"manifold":{"command":"x"}}}`, "x").problems[0]!, /Manifold's own/);
  });

  it("mcp.json is JSONC as VS Code reads it: '//' inside strings is kept, a parse error names its line and column", () => {
    const f = parseMcpJson(`{ /* c */ "servers": { "u": { "url": "https://example.test//mcp", "headers": { "X": "a/*b*/" }, }, }, }`, "x");
    assert.deepEqual(f.problems, []);
    assert.deepEqual(f.servers[0]?.config, { type: "http", url: "https://example.test//mcp", headers: { X: "a/*b*/" } });
    const bad = parseMcpJson(`{\n  "servers": {\n    "a": { "command": "x" }\n    "b": { "command": "y" }\n  }\n}`, "a/.vscode/mcp.json");
    assert.deepEqual(bad.servers, [], "a file with a syntax error is not half-used");
    assert.match(bad.problems[0]!, /^a\/\.vscode\/mcp\.json: not valid JSON \(CommaExpected at line 4, column 5\)/);
    assert.match(parseMcpJson("", "x").problems[0]!, /not valid JSON \(ValueExpected at line 1, column 1\)/);
  });

  it("parses env files (comments, export, quotes)", () => {
    assert.deepEqual(parseEnvFile("# c\nexport A=1\nB=\"two words\"\nC='x' \nD=v # note\nbad line"), {
      A: "1",
      B: "two words",
      C: "x",
      D: "v",
    });
  });

  it("I-102: in an untrusted workspace no folder server is passed and none is asked about", async () => {
    const src = sources({ trusted: () => false, answers: [true, true, true] });
    const r = await collectSessionServers(src, all);
    assert.deepEqual(r.servers, []);
    assert.deepEqual(src.asked, []);
    assert.ok(r.rows.filter((x) => x.source === "folder" && x.state !== "invalid").every((x) => x.state === "needs-trust"));
  });

  it("I-102: a folder server starts only after consent; the answer is remembered per exact config", async () => {
    const src = sources({ answers: [true, false] });
    const r = await collectSessionServers(src, all);
    assert.deepEqual(src.asked, ["a/local: node ${workspaceFolder}/srv.js", "a/remote: http https://example.test/mcp"]);
    assert.deepEqual(r.servers, [
      {
        name: "local",
        command: "node",
        args: ["/w/a/srv.js"],
        env: [
          { name: "FROM_FILE", value: "1" },
          { name: "TOKEN", value: "s3cret" },
          { name: "N", value: "3" },
        ],
        // A folder's stdio server starts inside the session's sandbox; "Allow" grants network (I-114).
        _meta: { "manifold.dev/confine": { sandbox: true, network: true } },
      },
    ]);
    assert.deepEqual(
      r.rows.map((x) => [x.name, x.state]),
      [
        [".vscode/mcp.json", "invalid"],
        ["local", "passed"],
        ["remote", "declined"],
        ["old", "not-passed"],
      ],
    );
    // Asked once: the same config is not asked about again.
    src.asked.length = 0;
    const again = await collectSessionServers(src, all);
    assert.deepEqual(src.asked, []);
    assert.equal(again.servers.length, 1);
    // A changed config asks again.
    const changed = sources({ folderConfig: () => Promise.resolve(FOLDER_JSON.replace("srv.js", "other.js")), answers: [false] });
    for (const [k, v] of src.store) changed.store.set(k, v);
    await collectSessionServers(changed, all);
    assert.deepEqual(changed.asked, ["a/local: node ${workspaceFolder}/other.js"]);
  });

  it("I-102: a folder's consent is not another folder's (the key holds the folder)", async () => {
    const a = sources({ answers: [true, true] });
    await collectSessionServers(a, all);
    const b = sources({ folder: "/w/b", folderName: "b", answers: [] });
    for (const [k, v] of a.store) b.store.set(k, v);
    const r = await collectSessionServers(b, all);
    assert.deepEqual(b.asked, ["b/local: node ${workspaceFolder}/srv.js", "b/remote: http https://example.test/mcp"]);
    assert.deepEqual(r.servers, []);
  });

  it("I-114: a folder's own stdio server goes only to an agent that confines it; others list it as not passed, unasked", async () => {
    const src = sources({ answers: [true, true] });
    const r = await collectSessionServers(src, { http: true, sse: false });
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ["remote"],
    );
    const local = r.rows.find((x) => x.name === "local");
    assert.equal(local?.state, "not-passed");
    assert.match(local?.detail ?? "", /outside Manifold's sandbox/);
    assert.ok(!src.asked.some((q) => q.startsWith("a/local")), "no consent is asked for a server that is not passed");
  });

  it("passes only the transports the agent advertises; the others are listed with the reason", async () => {
    const src = sources({ answers: [true, true] });
    const own = { type: "http" as const, name: "manifold", url: "http://127.0.0.1:1/mcp/x", headers: [] };
    const r = await collectSessionServers(src, { http: false, sse: false, confine: true }, own);
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ["local"],
    );
    const notPassed = r.rows.filter((x) => x.state === "not-passed");
    assert.deepEqual(
      notPassed.map((x) => x.name),
      ["manifold", "remote", "old"],
    );
    assert.ok(notPassed.every((x) => /mcpCapabilities\.(http|sse)/.test(x.detail ?? "")));
  });

  it("user servers reach every session without a question; a folder server cannot take their name", async () => {
    const user = { servers: { local: { command: "uvx", args: ["tool"] } } };
    const src = sources({ userConfig: () => user, answers: [true, true] });
    const r = await collectSessionServers(src, all);
    assert.deepEqual(
      r.servers.map((s) => [s.name, "command" in s ? s.command : s.url]),
      [
        ["local", "uvx"],
        ["remote", "https://example.test/mcp"],
      ],
    );
    assert.equal(r.rows.find((x) => x.name === "local" && x.source === "folder")?.state, "not-passed");
    assert.deepEqual(src.asked, ["a/remote: http https://example.test/mcp"]);
  });

  it("the agent's status reports change only the rows that were passed", () => {
    const rows = applyStatus(
      [
        { name: "a", source: "folder", state: "passed" },
        { name: "b", source: "folder", state: "declined" },
        { name: "c", source: "user", state: "starting" },
      ],
      [
        { name: "a", state: "ready", tools: 3 },
        { name: "b", state: "ready", tools: 1 },
        { name: "c", state: "failed", error: "spawn ENOENT" },
      ],
    );
    assert.deepEqual(rows, [
      { name: "a", source: "folder", state: "ready", tools: 3 },
      { name: "b", source: "folder", state: "declined" },
      { name: "c", source: "user", state: "failed", detail: "spawn ENOENT" },
    ]);
  });
});
