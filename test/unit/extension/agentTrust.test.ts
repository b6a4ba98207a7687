// The pure parts of sign-in and agent trust: the agent's sign-in methods as the panel offers them, which protection a
// panel says applies, a mode that acts without asking, the transcript's sign-in card and agent
// divider, and the spawn env of a signed-in third-party agent (never logged).
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { agentSecretKey, authMethodViews, isAuthRequired } from "../../../extension/common/auth";
import { autoApprovingMode, protectionOf, reportedBackend } from "../../../extension/common/protection";
import { emptyTranscript, reduceTranscript, type TranscriptEvent } from "../../../extension/common/transcript";

test("authMethods: codex-acp 0.16.0's list (agent + env_var) as offered; unknown kinds and malformed entries left out", () => {
  // Verbatim from codex-acp 0.16.0's initialize answer.
  const codex = [
    {
      id: "chatgpt",
      name: "Login with ChatGPT",
      description: "Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)",
    },
    {
      type: "env_var",
      id: "codex-api-key",
      name: "Use CODEX_API_KEY",
      description: "Requires setting the `CODEX_API_KEY` environment variable.",
      vars: [{ name: "CODEX_API_KEY" }],
    },
  ];
  assert.deepEqual(authMethodViews(codex), [
    {
      kind: "agent",
      id: "chatgpt",
      name: "Login with ChatGPT",
      description: "Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)",
    },
    {
      kind: "env_var",
      id: "codex-api-key",
      name: "Use CODEX_API_KEY",
      description: "Requires setting the `CODEX_API_KEY` environment variable.",
      vars: [{ name: "CODEX_API_KEY", secret: true, optional: false }],
    },
  ]);
  assert.deepEqual(
    authMethodViews([
      { type: "terminal", id: "t", name: "TUI", args: ["--login"] },
      { type: "env_var", id: "old", name: "Old draft", varName: "OLD_KEY" },
      { type: "env_var", id: "bad", name: "Bad name", vars: [{ name: "A;rm -rf" }] },
      { type: "carrier-pigeon", id: "p", name: "?" },
      { id: 3 },
      "nope",
    ]).map((m) => `${m.kind}:${m.id}`),
    ["terminal:t", "env_var:old"],
  );
  assert.deepEqual(authMethodViews(undefined), []);
});

test("auth_required is JSON-RPC -32000; secrets are keyed by agent and variable", () => {
  assert.equal(isAuthRequired({ code: -32000, message: "Authentication required" }), true);
  assert.equal(isAuthRequired({ code: -32603 }), false);
  assert.equal(isAuthRequired(new Error("x")), false);
  assert.notEqual(agentSecretKey("a/b", "K"), agentSecretKey("a", "b/K"));
});

const sandboxOption = (value: string, description: string): SessionConfigOption => ({
  id: "sandbox",
  name: "Sandbox",
  type: "select",
  currentValue: value,
  description,
  options: [
    { value: "read-only", name: "Read-only" },
    { value: "workspace-write", name: "Workspace write" },
    { value: "danger-full-access", name: "Full access (no sandbox)" },
  ],
});

test("protection: the built-in agent says its sandbox and backend; a third-party agent runs as you", () => {
  const bw = [sandboxOption("workspace-write", "Commands run under bwrap; file tools are confined by the path guard.")];
  assert.equal(reportedBackend(bw), "bwrap");
  assert.deepEqual(protectionOf({ builtin: true, folderName: "alpha", configOptions: bw }), {
    kind: "sandboxed",
    text: "Sandboxed: writes confined to alpha (bwrap).",
    backend: "bwrap",
  });
  const none = [sandboxOption("workspace-write", "No sandbox backend works on this machine: every command asks first.")];
  assert.match(protectionOf({ builtin: true, folderName: "alpha", configOptions: none })?.text ?? "", /no sandbox backend/);
  assert.equal(
    protectionOf({ builtin: true, folderName: "a", configOptions: [sandboxOption("danger-full-access", "")] })?.kind,
    "unconfined",
  );
  assert.deepEqual(protectionOf({ builtin: false, folderName: "alpha", configOptions: [] }), {
    kind: "runs-as-you",
    text: "Runs as you: only its fs/* and terminal/* requests through Manifold are confined to alpha; it may run commands and write files itself.",
  });
  assert.equal(protectionOf({ folderName: "alpha", configOptions: [] }), undefined);
});

test("a mode that acts without asking is detected from legacy modes and from a mode option (claude-agent-acp's auto)", () => {
  const modes = (current: string) => ({
    currentModeId: current,
    availableModes: [
      { id: "default", name: "Default" },
      { id: "acceptEdits", name: "Accept Edits" },
      { id: "plan", name: "Plan Mode" },
      { id: "auto", name: "Auto" },
    ],
  });
  assert.equal(autoApprovingMode({ modes: modes("auto"), configOptions: [] }), "Auto");
  assert.equal(autoApprovingMode({ modes: modes("acceptEdits"), configOptions: [] }), "Accept Edits");
  assert.equal(autoApprovingMode({ modes: modes("default"), configOptions: [] }), undefined);
  const option = (v: string): SessionConfigOption => ({
    id: "mode",
    name: "Mode",
    category: "mode",
    type: "select",
    currentValue: v,
    options: [
      { value: "default", name: "Default" },
      { value: "bypassPermissions", name: "Bypass Permissions" },
    ],
  });
  // The option is what the agent uses when it offers both.
  assert.equal(autoApprovingMode({ modes: modes("default"), configOptions: [option("bypassPermissions")] }), "Bypass Permissions");
  assert.equal(autoApprovingMode({ modes: modes("auto"), configOptions: [option("default")] }), undefined);
});

test("transcript: the sign-in card until a session is bound; the agent divider keeps what came before", () => {
  const fold = (events: TranscriptEvent[]) => events.reduce(reduceTranscript, emptyTranscript("alpha", "Fake"));
  const methods = authMethodViews([{ id: "login", name: "Log in" }]);
  const asked = fold([
    { type: "agent", agentName: "Fake", builtin: false },
    { type: "auth/required", methods, message: "Authentication required" },
    { type: "auth/busy", busy: "Signing in…" },
    { type: "session/bound", sessionId: undefined, clearHistory: true },
  ]);
  assert.deepEqual(asked.auth, { methods, message: "Authentication required", busy: "Signing in…" });
  assert.equal(asked.builtin, false);
  const bound = reduceTranscript(asked, { type: "session/bound", sessionId: "s1", clearHistory: true });
  assert.deepEqual([bound.auth, bound.builtin], [undefined, false]);
  const switched = fold([
    { type: "user/prompt", text: "hi", attachments: [] },
    { type: "agent/switched", agentName: "Other" },
    { type: "session/bound", sessionId: "s2", clearHistory: false },
  ]);
  assert.deepEqual(
    switched.entries.map((e) => [e.kind, "text" in e ? e.text : "", e.kind === "notice" ? e.divider : undefined]),
    [
      ["user", "hi", undefined],
      ["notice", "Agent switched to Other", true],
    ],
  );
});

test("I-98: a signed-in third-party agent gets its stored variables in the spawn env, named as secrets (never logged)", () => {
  const spec = resolveAgentSpec({
    settings: { agent: "codex", agents: [{ name: "codex", command: "codex-acp", env: { CODEX_API_KEY: "from-settings" } }] },
    secrets: { agentEnv: { CODEX_API_KEY: "from-sign-in", OTHER: "x" } },
    baseEnv: { PATH: "/bin" },
    execPath: "/vscode/code",
    extensionPath: "/ext",
    dataDir: "/gs/sessions",
    cwd: "/gs",
  });
  assert.deepEqual(
    { env: spec.env, secret: ["CODEX_API_KEY", "OTHER"].every((k) => spec.secretEnvNames.includes(k)) },
    { env: { PATH: "/bin", CODEX_API_KEY: "from-sign-in", OTHER: "x" }, secret: true },
  );
});
