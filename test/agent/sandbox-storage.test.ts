// I-116 through the spawned agent-server: Manifold's storage (folder B's checkpoint shadow repository,
// the window's log, VS Code's state files with queues and secrets) is hidden from folder A's session
// when the extension passes it the way it does (resolveAgentSpec → MANIFOLD_HIDE_DIRS). Every permission
// request is rejected; the oracles are the tool results and the host's files. Without the list the
// same attack leaks, so this test can fail.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type * as acp from "@agentclientprotocol/sdk";
import { resolveAgentSpec } from "../../extension/agent/agentSpec";
import { manifoldStorageDirs } from "../../extension/agent/storageDirs";
import { repoDirFor } from "../../extension/checkpoints/shadowRepo";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, type AgentProcess } from "../support/agentProcess";

const linux = process.platform === "linux";
const SECRET = "CHECKPOINT-OF-FOLDER-B-9173";
/** What the attack searches for: it never names SECRET itself, so an echo of its own input is no leak. */
const SEARCH = "CHECKPOINT-OF-FOLDER-B-[0-9]+";
/** A file name only a listing of B's storage could show (no call names it). */
const NAME = "listed-only-name-of-b-5521";
const WRITTEN = "WRITTEN-BY-SESSION-A";

interface Layout {
  base: string;
  wsA: string;
  wsB: string;
  globalStorage: string;
  workspaceStorage: string;
  logs: string;
  /** Host files holding SECRET (B's shadow repo, the log, VS Code's state databases). */
  secretFiles: string[];
  shadowRepo: string;
}

function layout(base: string): Layout {
  const userData = path.join(base, "user-data");
  const globalStorage = path.join(userData, "User", "globalStorage", "manifold.manifold");
  const workspaceStorage = path.join(userData, "User", "workspaceStorage", "0f3a", "manifold.manifold");
  const logs = path.join(userData, "logs", "20260101T000000", "window1", "exthost", "manifold.manifold");
  const wsA = path.join(base, "ws-a");
  const wsB = path.join(base, "ws-b");
  for (const d of [wsA, wsB, globalStorage, workspaceStorage, logs]) fs.mkdirSync(d, { recursive: true });
  const shadowRepo = repoDirFor(path.join(globalStorage, "checkpoints"), fs.realpathSync(wsB));
  const put = (file: string, text: string): string => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  put(path.join(shadowRepo, "objects", "cd", NAME), `blob ${SECRET}\n`);
  const secretFiles = [
    put(path.join(shadowRepo, "objects", "ab", "0123456789"), `blob ${SECRET}\n`),
    put(path.join(shadowRepo, "HEAD"), `ref: refs/heads/${SECRET}\n`),
    put(path.join(globalStorage, "checkpoints", "records", path.basename(shadowRepo, ".git")), `{"label":"${SECRET}"}\n`),
    put(path.join(logs, "Manifold.log"), `[info] folder B said ${SECRET}\n`),
    put(path.join(userData, "User", "globalStorage", "state.vscdb"), `secret://mcp ${SECRET}\n`),
    put(path.join(userData, "User", "workspaceStorage", "0f3a", "state.vscdb"), `manifold.queues ${SECRET}\n`),
  ];
  return { base, wsA, wsB, globalStorage, workspaceStorage, logs, secretFiles, shadowRepo };
}

/** The environment the extension gives the built-in agent for these storage locations. */
function extensionEnv(l: Layout): Record<string, string | undefined> {
  const spec = resolveAgentSpec({
    settings: { agent: "builtin", agents: [] },
    secrets: {},
    baseEnv: {},
    execPath: process.execPath,
    extensionPath: path.resolve(__dirname, "../.."),
    dataDir: path.join(l.globalStorage, "sessions"),
    cwd: l.globalStorage,
    hideDirs: manifoldStorageDirs({
      globalStorageUri: { fsPath: l.globalStorage },
      storageUri: { fsPath: l.workspaceStorage },
      logUri: { fsPath: l.logs },
    }),
  });
  return { MANIFOLD_HIDE_DIRS: spec.env.MANIFOLD_HIDE_DIRS, ELECTRON_RUN_AS_NODE: spec.env.ELECTRON_RUN_AS_NODE };
}

function results(agent: AgentProcess, sessionId: string): string {
  return agent
    .updatesOf(sessionId)
    .flatMap((u) =>
      u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed")
        ? [JSON.stringify(u.content ?? [])]
        : [],
    )
    .join("\n");
}

/** Session A (folder A, default mode, every ask rejected) tries every tool on B's storage. */
async function attack(
  l: Layout,
  hideEnv: Record<string, string | undefined>,
  server: FakeModelServer,
): Promise<{ out: string; stderr: string }> {
  const dataDir = path.join(l.globalStorage, "sessions");
  const agent = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_SANDBOX: "", ...hideEnv }, dataDir });
  try {
    await agent.initialize();
    agent.onPermission((): acp.RequestPermissionResponse => ({ outcome: { outcome: "cancelled" } }));
    const a = (await agent.newSession(l.wsA)).sessionId;
    const tag = `[storage-${path.basename(l.base)}]`;
    const userData = path.dirname(path.dirname(path.dirname(l.globalStorage)));
    const readable = l.secretFiles.filter((f) => !f.endsWith("HEAD"));
    server.route(
      tag,
      {
        toolCalls: [
          ...l.secretFiles.map((f) => ({ name: "read_file", args: { path: f } })),
          { name: "grep", args: { pattern: SEARCH, path: userData } },
          { name: "grep", args: { pattern: SEARCH, path: l.shadowRepo } },
          { name: "list_files", args: { path: l.globalStorage, glob: "**/*" } },
          { name: "list_files", args: { path: path.join(l.shadowRepo, "objects", "cd") } },
          {
            name: "bash",
            args: {
              command: [
                ...readable.map((f) => `cat '${f}'`),
                `ls -laR '${userData}'`,
                `grep -rE '${SEARCH}' '${userData}'`,
                `echo ${WRITTEN} > '${path.join(l.shadowRepo, "planted")}'`,
                `echo ${WRITTEN} >> '${path.join(l.logs, "Manifold.log")}'`,
                "echo RAN-IN-A",
              ].join("; "),
            },
          },
        ],
      },
      { text: "done" },
    );
    const res = await agent.prompt(a, `${tag} go`);
    assert.equal(res.stopReason, "end_turn");
    return { out: results(agent, a), stderr: agent.stderr() };
  } finally {
    await agent.close();
  }
}

function hostUntouched(l: Layout): void {
  assert.equal(fs.existsSync(path.join(l.shadowRepo, "planted")), false, "session A created a file in B's shadow repository");
  for (const f of l.secretFiles) assert.doesNotMatch(fs.readFileSync(f, "utf8"), new RegExp(WRITTEN), `session A wrote ${f}`);
}

describe("I-116: Manifold's storage through the agent-server (spawned)", { skip: !linux && "Linux only" }, () => {
  let server: FakeModelServer;
  let root: string;
  before(async () => {
    server = await startFakeModelServer();
    root = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : "/tmp", "mf-storage-")));
  });
  after(async () => {
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("I-116: folder A's read_file, grep, list_files and bash read and write no byte of B's checkpoints, the logs or VS Code's state", async () => {
    const l = layout(path.join(root, "hidden"));
    const env = extensionEnv(l);
    assert.ok(env.MANIFOLD_HIDE_DIRS, "the extension passes the storage dirs");
    const { out, stderr } = await attack(l, env, server);
    assert.match(stderr, /\[agent-server\] hidden from sessions: /);
    const backend = /\[sandbox\] backend: (\S+)/.exec(stderr)?.[1];
    // Landlock cannot mask reads (logged as weaker); without a backend the command asks, and is rejected.
    if (backend === "bubblewrap") assert.match(out, /RAN-IN-A/, "the command ran confined");
    const fileTools = out.split("\n").filter((line) => !line.includes("RAN-IN-A"));
    const checked = backend === "landlock" ? fileTools.join("\n") : out;
    assert.equal(checked.includes(SECRET), false, checked);
    assert.equal(checked.includes(NAME), false, checked);
    assert.match(out, /Access refused/, "the file tools refuse the fenced areas");
    hostUntouched(l);
  });

  it("I-116: without the hide list the same attack reads B's checkpoints (the test above can fail)", async () => {
    const l = layout(path.join(root, "open"));
    const { out } = await attack(l, {}, server);
    assert.ok(out.includes(SECRET), "read_file/grep/bash reached B's storage");
    assert.ok(out.includes(NAME), "list_files listed B's storage");
  });
});
