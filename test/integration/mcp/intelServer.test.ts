import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@agentclientprotocol/sdk";
import * as assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import type { LanguageIntelligence, Position } from "../../../extension/mcp/intelligence";
import { IntelHttpServer } from "../../../extension/mcp/intelHttp";

const range = { start: { line: 1, character: 1 }, end: { line: 1, character: 5 } };

const problems = (all: { a: string; b: string }) => [
  { path: join(all.a, "x.ts"), severity: "error" as const, message: "secret-a problem", range },
  { path: join(all.b, "y.ts"), severity: "error" as const, message: "secret-b problem", range },
];

/** A fake editor that answers about anything, and records what it was asked. */
function fakeIntel(all: { a: string; b: string }): LanguageIntelligence & { asked: string[] } {
  const asked: string[] = [];
  const note = (what: string, p?: string) => asked.push(`${what} ${p ?? "*"}`);
  return {
    asked,
    fileDiagnostics: (p) => {
      note("diagnostics", p);
      // `slow.ts`: its server did not report within the bound.
      const outcome = p.endsWith("slow.ts") ? ("none" as const) : ("settled" as const);
      return Promise.resolve({
        path: p,
        languageId: "typescript",
        outcome,
        waitedMs: 15_000,
        problems: problems(all).filter((d) => d.path === p),
      });
    },
    folderDiagnostics: () => {
      note("diagnostics");
      const unknown = [join(all.a, "slow.ts"), join(all.b, "secret-b-slow.ts")].map((path) => ({ path, languageId: "typescript" }));
      return Promise.resolve({ problems: problems(all), unknown, waitedMs: 15_000 });
    },
    definitions: (p: string, _at: Position) => (
      note("definitions", p),
      Promise.resolve([
        { path: join(all.b, "y.ts"), range },
        { path: p, range },
      ])
    ),
    references: (p) => (note("references", p), Promise.resolve([])),
    hover: (p) => (note("hover", p), Promise.resolve([`hover of ${p}`])),
    documentSymbols: (p) => (note("documentSymbols", p), Promise.resolve([{ name: "f", kind: "Function", path: p, range }])),
    workspaceSymbols: () =>
      Promise.resolve([
        { name: "inB", kind: "Class", path: join(all.b, "y.ts"), range },
        { name: "inA", kind: "Class", path: join(all.a, "x.ts"), range },
      ]),
    openEditors: () => Promise.resolve([{ path: join(all.b, "y.ts"), active: true, dirty: false, languageId: "typescript" }]),
    selection: () => Promise.resolve({ path: join(all.b, "y.ts"), range, text: "secret-b selection" }),
  };
}

async function connect(entry: McpServer, headers?: Record<string, string>): Promise<Client> {
  assert.ok("url" in entry);
  const h = headers ?? Object.fromEntries(entry.headers.map((x) => [x.name, x.value]));
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: h } }));
  return client;
}

function textOf(r: unknown): string {
  return (r as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

describe("Manifold's own MCP server (I-103)", () => {
  let dir: string;
  let a: string;
  let b: string;
  let server: IntelHttpServer;
  let intel: ReturnType<typeof fakeIntel>;
  let entryA: McpServer;
  let entryB: McpServer;

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "intel-")));
    a = join(dir, "a");
    b = join(dir, "b");
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, "x.ts"), "let x: number = 'no';\n");
    writeFileSync(join(b, "y.ts"), "export class InB {}\n");
    symlinkSync(join(b, "y.ts"), join(a, "link.ts"));
    intel = fakeIntel({ a, b });
    server = new IntelHttpServer();
    entryA = await server.endpoint("a", new PathConfinement(a), intel);
    entryB = await server.endpoint("b", new PathConfinement(b), intel);
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the folder's own files, on 127.0.0.1 only, with read-only tools", async () => {
    assert.ok("url" in entryA && entryA.url.startsWith("http://127.0.0.1:"));
    const c = await connect(entryA);
    const tools = await c.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name).sort(), [
      "definition",
      "diagnostics",
      "document_symbols",
      "hover",
      "open_editors",
      "references",
      "selection",
      "workspace_symbols",
    ]);
    assert.ok(tools.tools.every((t) => t.annotations?.readOnlyHint === true));
    const d = textOf(await c.callTool({ name: "diagnostics", arguments: { path: "x.ts" } }));
    assert.match(d, /^x\.ts:1:1 error: secret-a problem$/);
    await c.close();
  });

  it("a file its server reported without problems is 'no problems'; one with no report in the bound is unknown, never 'no problems'", async () => {
    const c = await connect(entryA);
    const clean = textOf(await c.callTool({ name: "diagnostics", arguments: { path: "clean.ts" } }));
    assert.equal(clean, "Reported by the TypeScript language service: no problems in clean.ts.");
    const slow = textOf(await c.callTool({ name: "diagnostics", arguments: { path: "slow.ts" } }));
    assert.match(slow, /^No report within 15 s for slow\.ts: the result is unknown \(waited for typescript's diagnostics/);
    assert.doesNotMatch(slow, /no problems/i);
    const folder = textOf(await c.callTool({ name: "diagnostics", arguments: {} }));
    assert.match(folder, /^x\.ts:1:1 error: secret-a problem\nNo report within 15 s for 1 open file\(s\): their results are unknown/);
    assert.match(folder, /^- slow\.ts \(waited for typescript's diagnostics/m);
    assert.doesNotMatch(folder, /no problems|secret-b/i);
    await c.close();
  });

  it("I-103: a path outside the folder (absolute, ../, or a symlink out) is refused before the editor is asked", async () => {
    const c = await connect(entryA);
    intel.asked.length = 0;
    for (const path of [join(b, "y.ts"), "../b/y.ts", "link.ts", "/etc/passwd"]) {
      for (const [name, args] of [
        ["diagnostics", { path }],
        ["hover", { path, line: 1, character: 1 }],
        ["definition", { path, line: 1, character: 1 }],
        ["references", { path, line: 1, character: 1 }],
        ["document_symbols", { path }],
      ] as const) {
        const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
        assert.equal(r.isError, true, `${name} ${path} answered: ${textOf(r)}`);
        assert.match(textOf(r), /^Refused: /);
      }
    }
    assert.deepEqual(intel.asked, [], "the editor must not be asked about an outside path");
    await c.close();
  });

  it("I-103: answers never describe another folder (whole-folder lists and locations are filtered)", async () => {
    const c = await connect(entryA);
    const all = [
      textOf(await c.callTool({ name: "diagnostics", arguments: {} })),
      textOf(await c.callTool({ name: "workspace_symbols", arguments: { query: "In" } })),
      textOf(await c.callTool({ name: "open_editors", arguments: {} })),
      textOf(await c.callTool({ name: "selection", arguments: {} })),
      textOf(await c.callTool({ name: "definition", arguments: { path: "x.ts", line: 1, character: 1 } })),
    ].join("\n");
    assert.doesNotMatch(all, /secret-b|inB|y\.ts|\/b\//);
    assert.match(all, /secret-a problem/);
    assert.match(all, /inA/);
    await c.close();
  });

  it("I-103: another session's secret, no secret, or a revoked secret gets no answer", async () => {
    assert.ok("url" in entryA && "url" in entryB);
    const bHeaders = Object.fromEntries(entryB.headers.map((x) => [x.name, x.value]));
    await assert.rejects(connect(entryA, bHeaders), /401|unauthorized/i, "B's secret on A's endpoint");
    await assert.rejects(connect(entryA, {}), /401|unauthorized/i, "no secret");
    await assert.rejects(connect(entryA, { Authorization: "Bearer AAAA" }), /401|unauthorized/i, "a wrong secret");
    const rotated = await server.endpoint("a", new PathConfinement(a), intel);
    await assert.rejects(connect(entryA), /401|unauthorized/i, "the previous secret after rotation");
    const c = await connect(rotated);
    await c.close();
    server.revoke("a");
    await assert.rejects(connect(rotated), /401|unauthorized/i, "a revoked endpoint");
    entryA = await server.endpoint("a", new PathConfinement(a), intel);
  });

  it("I-103: a request with a browser Origin or a foreign Host is refused", async () => {
    assert.ok("url" in entryA);
    const auth = entryA.headers[0]!.value;
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const base = {
      method: "POST",
      body,
      headers: { Authorization: auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
    };
    const withOrigin = await fetch(entryA.url, { ...base, headers: { ...base.headers, Origin: "http://evil.example" } });
    assert.equal(withOrigin.status, 403);
    const ok = await fetch(entryA.url, base);
    assert.equal(ok.status, 200);
  });
});
