import assert from "node:assert/strict";
import { test } from "node:test";
import { agentFeatures } from "../../../extension/agent/acpClient";
import { Backoff, resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { contentSecurityPolicy, renderShell } from "../../../extension/chat/html";
import { buildPrompt } from "../../../extension/chat/promptBuilder";
import { PermissionBroker, dismissalResponse } from "../../../extension/permissions/permissionBroker";

test("the panel HTML has a strict CSP: nothing by default, nonce'd script, own resources only", () => {
  const csp = contentSecurityPolicy("https://x.vscode-cdn.net", "abc");
  assert.equal(
    csp,
    "default-src 'none'; img-src https://x.vscode-cdn.net data:; style-src https://x.vscode-cdn.net; font-src https://x.vscode-cdn.net; script-src 'nonce-abc'",
  );
  const html = renderShell(
    {
      cspSource: "https://x.vscode-cdn.net",
      scriptUri: "https://x/main.js",
      styleUri: "https://x/s.css",
      codiconUri: "https://x/c.css",
      folder: '/ws/"><script>',
      title: "Manifold: a<b",
    },
    "n1",
  );
  assert.match(html, /<script nonce="n1" src="https:\/\/x\/main.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /content="\/ws\/&quot;&gt;&lt;script&gt;"/);
  assert.match(html, /<title>Manifold: a&lt;b<\/title>/);
});

test("the built-in agent runs on VS Code's runtime with settings and keys in its environment; third-party agents get their own", () => {
  const common = {
    secrets: { openaiApiKey: "sk-1234" },
    baseEnv: { PATH: "/bin", ELECTRON_RUN_AS_NODE: "1" },
    execPath: "/vscode/code",
    extensionPath: "/ext",
    dataDir: "/gs/sessions",
    cwd: "/gs",
  };
  const builtin = resolveAgentSpec({
    ...common,
    settings: {
      agent: "builtin",
      agents: [],
      modelProvider: "openai-compatible",
      modelBaseUrl: "http://localhost:11434/v1",
      modelName: "qwen",
    },
  });
  assert.deepEqual(builtin, {
    name: "Manifold agent",
    builtin: true,
    command: "/vscode/code",
    args: ["/ext/dist/agent-server.js", "--data-dir", "/gs/sessions"],
    env: {
      PATH: "/bin",
      ELECTRON_RUN_AS_NODE: "1",
      MANIFOLD_MODEL_PROVIDER: "openai-compatible",
      MANIFOLD_MODEL_BASE_URL: "http://localhost:11434/v1",
      MANIFOLD_MODEL: "qwen",
      NODE_COMPILE_CACHE: "/gs/compile-cache",
      OPENAI_API_KEY: "sk-1234",
    },
    cwd: "/gs",
    secretEnvNames: ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"],
  });
  const third = resolveAgentSpec({
    ...common,
    settings: { agent: "gemini", agents: [{ name: "gemini", command: "gemini", args: ["--acp"], env: { GEMINI_API_KEY: "g" } }] },
  });
  assert.deepEqual(
    { command: third.command, args: third.args, env: third.env, secrets: third.secretEnvNames },
    {
      command: "gemini",
      args: ["--acp"],
      env: { PATH: "/bin", GEMINI_API_KEY: "g" },
      secrets: ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"],
    },
  );
  assert.throws(() => resolveAgentSpec({ ...common, settings: { agent: "nope", agents: [] } }), /no entry with that name/);
});

test("restart backoff doubles and gives up after repeated rapid crashes", () => {
  const b = new Backoff(3, 60_000);
  assert.deepEqual([b.next(0), b.next(1), b.next(2), b.next(3)], [500, 1000, 2000, undefined]);
  assert.equal(b.next(120_000), 500);
});

test("capabilities: object-valued capabilities are on when present, off when absent or null", () => {
  assert.deepEqual(
    agentFeatures({ loadSession: true, sessionCapabilities: { resume: {}, list: null }, promptCapabilities: { embeddedContext: true } }),
    {
      load: true,
      resume: true,
      list: false,
      close: false,
      delete: false,
      additionalDirectories: false,
      embeddedContext: true,
      image: false,
      mcp: { http: false, sse: false },
      mcpStatus: false,
      mcpRestart: false,
      mcpConfine: false,
      forkAtPrompt: false,
      steering: false,
      logout: false,
      delegate: false,
      exactSessionIds: false,
      historyPages: false,
    },
  );
  assert.deepEqual(agentFeatures({ mcpCapabilities: { http: true }, _meta: { manifold: { mcpStatus: true } } }).mcp, {
    http: true,
    sse: false,
  });
  assert.equal(agentFeatures({ _meta: { manifold: { mcpStatus: true } } }).mcpStatus, true);
  assert.equal(agentFeatures({ _meta: { manifold: { mcpConfine: true } } }).mcpConfine, true);
  // Manifold's fork-before-a-prompt extension is read from agentCapabilities._meta["session/fork"].
  assert.equal(agentFeatures({ _meta: { "session/fork": { "manifold.dev/keepPrompts": true } } }).forkAtPrompt, true);
  assert.equal(agentFeatures({ _meta: { "session/fork": {} } }).forkAtPrompt, false);
});

test("I-104: steering is read from the initialize answer's top-level _meta, not from agentCapabilities", () => {
  assert.equal(agentFeatures({}, { steering: { supported: true } }).steering, true);
  assert.equal(agentFeatures({}, { steering: { supported: false } }).steering, false);
  assert.equal(agentFeatures({}, { steering: true }).steering, false);
  assert.equal(agentFeatures({ _meta: { steering: { supported: true } } }).steering, false);
});

test("prompts: files are embedded when the agent accepts embedded context, else linked; selections are quoted", () => {
  const atts = [
    { kind: "file" as const, path: "/ws/a.ts", text: "x" },
    { kind: "selection" as const, path: "/ws/b.ts", startLine: 2, endLine: 3, text: "sel" },
  ];
  assert.deepEqual(buildPrompt("hi", atts, { embeddedContext: true, image: false }), [
    { type: "text", text: "hi" },
    { type: "resource", resource: { uri: "file:///ws/a.ts", text: "x", mimeType: "text/plain" } },
    { type: "resource", resource: { uri: "file:///ws/b.ts#L2-L3", text: "sel", mimeType: "text/plain" } },
  ]);
  assert.deepEqual(buildPrompt("hi", atts, { embeddedContext: false, image: false }), [
    { type: "text", text: "hi\n\nSelection from /ws/b.ts (lines 2-3):\n```\nsel\n```" },
    { type: "resource_link", uri: "file:///ws/a.ts", name: "a.ts" },
  ]);
});

test("I-93: a permission request the agent withdraws is settled `cancelled`; a dismissal never selects an allow option", async () => {
  const events: string[] = [];
  const broker = new PermissionBroker("s1", {
    requested: (p) => events.push(`req ${p.title}`),
    resolved: (id, o) => events.push(`res ${o.state}`),
  });
  const ac = new AbortController();
  const p = broker.request(
    { sessionId: "s1", toolCall: { toolCallId: "t", title: "rm" }, options: [{ optionId: "y", name: "Allow", kind: "allow_always" }] },
    ac.signal,
  );
  ac.abort();
  assert.deepEqual(await p, { outcome: { outcome: "cancelled" } });
  assert.deepEqual(events, ["req rm", "res cancelled"]);
  for (const options of [
    [
      { optionId: "a", name: "Allow", kind: "allow_once" as const },
      { optionId: "r", name: "Reject", kind: "reject_once" as const },
    ],
    [
      { optionId: "a", name: "Allow", kind: "allow_once" as const },
      { optionId: "aa", name: "Always", kind: "allow_always" as const },
    ],
    [{ optionId: "rr", name: "Never", kind: "reject_always" as const }],
  ]) {
    const r = dismissalResponse(options);
    const picked =
      r.outcome.outcome === "selected"
        ? options.find((o) => r.outcome.outcome === "selected" && o.optionId === r.outcome.optionId)
        : undefined;
    assert.ok(!picked || picked.kind === "reject_once", JSON.stringify(r));
  }
  // A request for another session is refused outright.
  assert.deepEqual(await broker.request({ sessionId: "other", toolCall: { toolCallId: "t" }, options: [] }), {
    outcome: { outcome: "cancelled" },
  });
});
