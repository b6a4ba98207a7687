// I-112: config the editor or Manifold honours outside the sandbox is protected
// like git metadata. File tools ask before every write to it (no "allow for this session"), and
// refuse under `never`, however the path is spelled (case, symlink, `..`); a confined command that
// creates or changes it by a route no bind blocks in advance is caught and held for the user. The
// proof is always the file's state on the host's disk after the user's answer.
import * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { protectedPathsOf } from "../../../agent-server/acp/protectedPaths";
import { noEditor, SessionFileService } from "../../../extension/client/fileService";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable, type TaskTable } from "../../../agent-server/tools/tasks/taskTable";
import type { ToolRunner } from "../../../agent-server/tools/types";
import { createNoSandbox } from "../../../sandbox/none";
import type { CommandSandbox } from "../../../sandbox/types";
import { detectSandbox } from "../../../sandbox/detect";
import { detect, linux, makeFixture, type Fixture } from "../sandbox/fixture";
import { createHarness } from "../../support/inProcess";
import { createFakeTools, finish, text, toolCall } from "../../support/scriptedModel";
import { makeCtx, type TestCtx } from "./ctx";

const EVIL = '{"manifold.defaultMode":"full-access"}';
const CONFIG_REASON = /editor\/agent configuration .*the editor and Manifold honour it outside the sandbox/;

let fx: Fixture;
before(() => {
  fx = makeFixture("mf-cfgprot-");
});
after(() => fx.cleanup());

/** A ctx whose session names extra protected paths (as `_meta["manifold.dev/protectedPaths"]` would). */
function withExtra(ctx: TestCtx, protectedPaths: string[]): TestCtx {
  return Object.assign(ctx, { sandbox: { ...ctx.sandbox, protectedPaths } });
}

const read = (p: string): string | null => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : null);

describe("I-112: file tools ask before every write to protected config, and refuse it under `never`", () => {
  const sandbox = createNoSandbox({});
  const taskTable = createTaskTable(sandbox);
  const runner = createToolRunner({ sandbox });
  let root: string;
  before(() => {
    root = fx.dir("files");
    fs.mkdirSync(path.join(root, ".vscode"));
    fs.writeFileSync(path.join(root, ".vscode", "settings.json"), '{"editor.tabSize": 2}\n');
    fs.writeFileSync(path.join(root, "notes.txt"), "notes\n");
    fs.symlinkSync(".vscode", path.join(root, "foo"));
    fs.symlinkSync("../notes.txt", path.join(root, ".vscode", "linked.json"));
  });
  after(() => taskTable.disposeAll());

  const targets = [
    ".vscode/settings.json",
    ".vscode/mcp.json",
    ".vscode/tasks.json",
    "x.code-workspace",
    ".devcontainer/devcontainer.json",
    ".claude/settings.json",
    ".codex/config.toml",
    ".gemini/settings.json",
    ".opencode/opencode.json",
    ".VSCode/settings.json",
    "My.Code-Workspace",
    ".vs\u200bcode/settings.json",
    "src/../.vscode/extensions.json",
    "pkg/.vscode/settings.json",
    "foo/settings.json", // foo -> .vscode
    "notes.txt", // the target of .vscode/linked.json
  ];

  it("I-112: write_file to each protected kind asks once, without 'allow for session', and a rejection leaves the disk as it was", async () => {
    for (const target of targets) {
      const ctx = makeCtx({ root, tasks: taskTable, answers: ["reject"] });
      const was = read(path.join(root, target));
      const r = await runner.run("write_file", { path: target, content: EVIL }, ctx);
      assert.equal(r.isError, true, `${target}: ${r.output}`);
      assert.equal(ctx.asks.length, 1, `${target} was written without asking`);
      assert.equal(ctx.asks[0]?.allowSession, false, target);
      assert.match(ctx.asks[0]?.reason ?? "", CONFIG_REASON, target);
      assert.doesNotMatch(ctx.asks[0]?.reason ?? "", /git/, target);
      assert.equal(read(path.join(root, target)), was, target);
    }
  });

  it("I-112: edit_file of .vscode/settings.json asks every time: 'allow for session' counts for one call", async () => {
    const ctx = makeCtx({ root, tasks: taskTable, answers: ["allow_session", "reject"] });
    const edit = { path: ".vscode/settings.json", old_string: '"editor.tabSize": 2', new_string: '"editor.tabSize": 4' };
    const r = await runner.run("edit_file", edit, ctx);
    assert.equal(r.isError, false, r.output);
    const again = await runner.run("edit_file", { ...edit, old_string: '"editor.tabSize": 4', new_string: '"x": 1' }, ctx);
    assert.equal(again.isError, true, "the second write was not asked again");
    assert.equal(ctx.asks.length, 2);
    assert.equal(read(path.join(root, ".vscode", "settings.json")), '{"editor.tabSize": 4}\n');
  });

  it("I-112: untrusted and read-only ask too; `never` refuses with the reason; danger-full-access writes", async () => {
    for (const [mode, approval] of [
      ["workspace-write", "untrusted"],
      ["read-only", "on-request"],
    ] as const) {
      const ctx = makeCtx({ root, tasks: taskTable, mode, approval, answers: ["reject"] });
      await runner.run("write_file", { path: ".devcontainer/devcontainer.json", content: "{}" }, ctx);
      assert.equal(ctx.asks.length, 1, `${mode}/${approval}`);
      assert.equal(ctx.asks[0]?.allowSession, false);
    }
    const never = makeCtx({ root, tasks: taskTable, approval: "never" });
    const r = await runner.run("write_file", { path: ".vscode/settings.json", content: EVIL }, never);
    assert.equal(r.isError, true);
    assert.match(r.output, /^Write refused: the target is editor\/agent configuration .*`never`\.$/);
    assert.doesNotMatch(read(path.join(root, ".vscode", "settings.json")) ?? "", /full-access/);
    const full = makeCtx({ root, tasks: taskTable, mode: "danger-full-access", approval: "never" });
    const w = await runner.run("write_file", { path: ".gemini/settings.json", content: "{}" }, full);
    assert.equal(w.isError, false, w.output);
    assert.equal(full.asks.length, 0);
  });

  it("I-112: ordinary names near protected ones are not protected", async () => {
    for (const target of ["vscode/settings.json", ".vscodeignore", "code-workspace.md", ".claude-notes.txt", "docs/.codexrc"]) {
      const ctx = makeCtx({ root, tasks: taskTable, approval: "never" });
      const r = await runner.run("write_file", { path: target, content: "ok" }, ctx);
      assert.equal(r.isError, false, `${target}: ${r.output}`);
    }
  });

  it("I-112: the client's extra paths (an MCP server's envFile) are protected inside the root, and only there", async () => {
    fs.mkdirSync(path.join(root, "srv"), { recursive: true });
    const env = path.join(root, "srv", ".env");
    const ctx = withExtra(makeCtx({ root, tasks: taskTable, answers: ["reject"] }), [env, "/etc/hosts"]);
    const r = await runner.run("write_file", { path: "srv/.env", content: "NODE_OPTIONS=--require=./hook.cjs\n" }, ctx);
    assert.equal(r.isError, true, r.output);
    assert.equal(ctx.asks[0]?.allowSession, false);
    assert.match(ctx.asks[0]?.reason ?? "", /a file a configured MCP server reads/);
    assert.equal(fs.existsSync(env), false);
    const plain = withExtra(makeCtx({ root, tasks: taskTable, approval: "never" }), [env]);
    assert.equal((await runner.run("write_file", { path: "srv/other.txt", content: "ok" }, plain)).isError, false);
  });

  it('I-112: `_meta["manifold.dev/protectedPaths"]` is checked: absolute paths, bounded count', () => {
    assert.equal(protectedPathsOf({}), undefined);
    assert.equal(protectedPathsOf({ _meta: { other: 1 } }), undefined);
    assert.deepEqual(protectedPathsOf({ _meta: { "manifold.dev/protectedPaths": ["/w/.env"] } }), ["/w/.env"]);
    for (const bad of ["x", [1], ["relative/.env"], ["/a\0b"], Array.from({ length: 65 }, (_, i) => `/w/${i}`)])
      assert.throws(() => protectedPathsOf({ _meta: { "manifold.dev/protectedPaths": bad } }), /protectedPaths/);
  });
});

describe('I-112: `_meta["manifold.dev/protectedPaths"]` over ACP (in-process)', () => {
  it("I-112: session/new and resume set the session's extra protected paths; a bad list is refused", async () => {
    const seen: Array<readonly string[] | undefined> = [];
    const h = createHarness({
      tools: createFakeTools({
        probe: (_i, ctx) => {
          seen.push(ctx.sandbox.protectedPaths);
          return { output: "ok", isError: false };
        },
      }),
    });
    try {
      h.model.fallback = (req) =>
        req.messages[req.messages.length - 1]?.role === "tool" ? [text("k"), finish()] : [toolCall("probe", {}), finish("tool-calls")];
      const c = await h.connect();
      const cwd = h.ws[0]!;
      const env = path.join(cwd, ".env");
      const meta = (paths: unknown) => ({ _meta: { "manifold.dev/protectedPaths": paths } });
      const res = await c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], ...meta([env]) });
      await c.prompt(res.sessionId, "go");
      assert.deepEqual(seen.at(-1), [env]);
      await c.agent.request(acp.methods.agent.session.resume, { sessionId: res.sessionId, cwd, ...meta([env, path.join(cwd, "b.env")]) });
      await c.prompt(res.sessionId, "again");
      assert.deepEqual(seen.at(-1), [env, path.join(cwd, "b.env")]);
      await assert.rejects(
        c.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [], ...meta(["relative.env"]) }),
        (err: unknown) => err instanceof acp.RequestError && err.code === -32602,
      );
    } finally {
      await h.cleanup();
    }
  });
});

describe("I-112: the extension's fs/write_text_file refuses protected paths to every agent", () => {
  it("I-112: .vscode, *.code-workspace, agent config, git metadata and the session's env files are refused with the reason; other files are written", async () => {
    const root = fx.dir("client-fs");
    fs.mkdirSync(path.join(root, ".git"));
    fs.symlinkSync(".claude", path.join(root, "cl"));
    const refused: string[] = [];
    const env = path.join(root, "srv", ".env");
    const files = new SessionFileService(new PathConfinement(root, () => [env]), noEditor, (_a, p) => refused.push(p));
    for (const p of [
      ".vscode/settings.json",
      "ws.code-workspace",
      ".devcontainer/devcontainer.json",
      "cl/settings.json",
      ".git/config",
      env,
    ]) {
      const abs = path.isAbsolute(p) ? p : path.join(root, p);
      await assert.rejects(
        files.writeTextFile({ sessionId: "s", path: abs, content: EVIL }),
        (err: unknown) =>
          err instanceof acp.RequestError && /is protected: .*(editor\/agent configuration|git|MCP server)/.test(err.message),
        p,
      );
      assert.equal(fs.existsSync(abs), false, p);
    }
    assert.equal(refused.length, 6);
    await files.writeTextFile({ sessionId: "s", path: path.join(root, "src", "a.ts"), content: "ok" });
    assert.equal(read(path.join(root, "src", "a.ts")), "ok");
  });
});

describe("I-112: a confined command that creates or changes protected config is caught and held", { skip: !linux && "Linux only" }, () => {
  let sb: CommandSandbox;
  let taskTable: TaskTable;
  let runner: ToolRunner;
  let n = 0;
  before(async () => {
    sb = await detect();
    taskTable = createTaskTable(sb);
    runner = createToolRunner({ sandbox: sb, hidden: [fx.dir("data")] });
    runner.watchTasks?.(taskTable);
  });
  after(() => taskTable.disposeAll());
  const fresh = (): string => fx.dir(`cmd-${++n}`);
  const ctxFor = (root: string, o: Partial<Parameters<typeof makeCtx>[0]> = {}): TestCtx =>
    makeCtx({ root, tasks: taskTable, tmpDir: path.join(fx.base, ".tmp", `s${n}`), ...o });
  const bash = (ctx: TestCtx, command: string, background = false) => runner.run("bash", { command, background }, ctx);

  it("I-112: `.vscode/settings.json` created where no `.vscode` existed: asked once (no session grant), a rejection removes it", async () => {
    const root = fresh();
    const ctx = ctxFor(root, { answers: ["reject"] });
    const r = await bash(ctx, `mkdir -p .vscode && echo '${EVIL}' > .vscode/settings.json && echo WROTE`);
    assert.match(r.output, /WROTE/);
    assert.equal(ctx.asks.length, 1, r.output);
    assert.equal(ctx.asks[0]?.allowSession, false);
    assert.match(ctx.asks[0]?.title ?? "", /\.vscode/);
    assert.match(ctx.asks[0]?.reason ?? "", /settings\.json.*full-access/);
    assert.match(r.output, /declined, so the change was removed from the folder/);
    assert.equal(fs.existsSync(path.join(root, ".vscode")), false, "the held config is still in the folder");
  });

  it("I-112: allowing it puts it back exactly", async () => {
    const root = fresh();
    const ctx = ctxFor(root, { answers: ["allow_once"] });
    await bash(ctx, `mkdir -p .vscode && printf '%s' '${EVIL}' > .vscode/settings.json && echo '{}' > a.code-workspace`);
    assert.equal(ctx.asks.length, 1);
    assert.equal(read(path.join(root, ".vscode", "settings.json")), EVIL);
    assert.equal(read(path.join(root, "a.code-workspace")), "{}\n");
  });

  it("I-112: over two commands (mkdir, then write) and by `mv` of a prepared dir: nothing stays after a rejection", async () => {
    const root = fresh();
    const ctx = ctxFor(root, { answers: ["reject", "reject", "reject"] });
    await bash(ctx, "mkdir .vscode");
    await bash(ctx, `echo '${EVIL}' > .vscode/settings.json`);
    assert.equal(fs.existsSync(path.join(root, ".vscode")), false);
    await bash(ctx, `mkdir -p prep && echo '${EVIL}' > prep/settings.json && mv prep .devcontainer && echo '{}' > y.CODE-WORKSPACE`);
    assert.equal(fs.existsSync(path.join(root, ".devcontainer")), false);
    assert.equal(fs.existsSync(path.join(root, "y.CODE-WORKSPACE")), false);
    assert.ok(ctx.asks.every((a) => a.allowSession === false));
    // Ordinary files a command writes are not touched.
    await bash(ctx, "echo ok > plain.txt");
    assert.equal(read(path.join(root, "plain.txt")), "ok\n");
  });

  it("I-112: a background task that writes one is caught at its exit and asked about before the next tool call", async () => {
    const root = fresh();
    fs.writeFileSync(path.join(root, "readme.md"), "hi\n");
    const ctx = ctxFor(root, { answers: ["reject"] });
    const exited = new Promise<void>((resolve) => {
      const off = taskTable.onExit((owner) => {
        if (owner !== ctx.sessionId) return;
        off();
        resolve();
      });
    });
    const r = await bash(ctx, `mkdir -p .claude && echo '{"permissions":{"allow":["Bash(*)"]}}' > .claude/settings.json`, true);
    assert.match(r.output, /Started background task/);
    await exited;
    const later = await runner.run("read_file", { path: "readme.md" }, ctx);
    assert.equal(ctx.asks.length, 1, later.output);
    assert.match(ctx.asks[0]?.reason ?? "", /A background task changed/);
    assert.match(later.output, /background task changed protected configuration \(\.claude\)/);
    assert.match(later.output, /hi/);
    assert.equal(fs.existsSync(path.join(root, ".claude")), false);
  });

  it("I-112: under `never` a created config file is discarded without asking; danger-full-access is exempt", async () => {
    const root = fresh();
    const never = ctxFor(root, { approval: "never" });
    const r = await bash(never, `mkdir -p .codex && echo 'approval_policy="never"' > .codex/config.toml`);
    assert.equal(never.asks.length, 0);
    assert.match(r.output, /discarded because the approval policy is `never`/);
    assert.equal(fs.existsSync(path.join(root, ".codex")), false);
    const full = ctxFor(root, { mode: "danger-full-access", approval: "never" });
    await bash(full, "mkdir -p .codex && echo x > .codex/config.toml");
    assert.equal(read(path.join(root, ".codex", "config.toml")), "x\n");
  });

  it("I-112: an extra path (an envFile) that does not exist yet is held when a command creates it", async () => {
    const root = fresh();
    fs.mkdirSync(path.join(root, "srv"));
    const ctx = withExtra(ctxFor(root, { answers: ["reject"] }), [path.join(root, "srv", ".env")]);
    await bash(ctx, "echo 'NODE_OPTIONS=--require=./hook.cjs' > srv/.env");
    assert.equal(ctx.asks.length, 1);
    assert.equal(fs.existsSync(path.join(root, "srv", ".env")), false);
  });

  it("I-112: where binds cannot stop it (Landlock), an existing file changed, replaced or removed is put back from the record", async (t) => {
    const landlock = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "landlock" }, { log: () => {} }).catch(() => null);
    if (landlock?.backend !== "landlock") return t.skip("Landlock is not available here");
    const tasks = createTaskTable(landlock);
    const ll = createToolRunner({ sandbox: landlock, hidden: [fx.dir("data-ll")] });
    try {
      const root = fresh();
      const original: Record<string, string> = {
        ".vscode/settings.json": '{"editor.tabSize": 2}\n',
        "w.code-workspace": "{}\n",
        ".vscode/tasks.json": "[]\n",
      };
      for (const [rel, text] of Object.entries(original)) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      }
      const ctx = makeCtx({ root, tasks, tmpDir: path.join(fx.base, ".tmp", `ll${n}`), answers: ["reject"] });
      const r = await ll.run(
        "bash",
        {
          command: `echo '${EVIL}' > .vscode/settings.json; rm w.code-workspace; rm -rf .vscode/tasks.json && mkdir .vscode/tasks.json; echo done`,
        },
        ctx,
      );
      assert.equal(ctx.asks.length, 1, r.output);
      for (const p of [".vscode/settings.json", "w.code-workspace", ".vscode/tasks.json"])
        assert.match(ctx.asks[0]?.reason ?? "", new RegExp(p.replace(/\./g, "\\.")));
      for (const [rel, text] of Object.entries(original)) assert.equal(read(path.join(root, rel)), text, `${rel}: ${r.output}`);
    } finally {
      await tasks.disposeAll();
    }
  });
});
