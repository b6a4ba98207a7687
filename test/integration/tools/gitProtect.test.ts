// Git metadata is read-only for every tool, identified by what git would use
// (not only the name `.git`), and the server's data dir and other sessions' temp areas are refused
// to every file tool, in every mode.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createNoSandbox } from "../../../sandbox/none";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { makeCtx, tempDir } from "./ctx";

const sandbox = createNoSandbox({});
const taskTable = createTaskTable(sandbox);
let base: string;
let root: string;

/** A minimal directory git accepts as a git dir: HEAD + objects + refs. */
function gitDir(dir: string): void {
  fs.mkdirSync(path.join(dir, "objects"), { recursive: true });
  fs.mkdirSync(path.join(dir, "refs"), { recursive: true });
  fs.writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
  fs.writeFileSync(path.join(dir, "config"), "[core]\n\tbare = false\n");
}

before(() => {
  base = tempDir("mf-gitprot-");
  root = path.join(base, "proj");
  fs.mkdirSync(root);
  gitDir(path.join(root, ".git"));
  fs.mkdirSync(path.join(root, ".git", "hooks"));
  // A submodule's git dir and a linked worktree's admin dir (HEAD + commondir).
  gitDir(path.join(root, ".git", "modules", "lib"));
  fs.mkdirSync(path.join(root, ".git", "worktrees", "wt"), { recursive: true });
  fs.writeFileSync(path.join(root, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt\n");
  fs.writeFileSync(path.join(root, ".git", "worktrees", "wt", "commondir"), "../..\n");
  // Nested checkout whose `.git` is a symlink to a git dir with another name.
  gitDir(path.join(root, "store", "repo-meta"));
  fs.mkdirSync(path.join(root, "nested"));
  fs.symlinkSync(path.join(root, "store", "repo-meta"), path.join(root, "nested", ".git"));
  // A `gitdir:` file pointing at a git dir inside the folder.
  gitDir(path.join(root, "gd-target"));
  fs.mkdirSync(path.join(root, "sub"));
  fs.writeFileSync(path.join(root, "sub", ".git"), `gitdir: ${path.join(root, "gd-target")}\n`);
  // A bare repository inside the folder.
  gitDir(path.join(root, "bare.git"));
  fs.writeFileSync(path.join(root, "fsmon.sh"), "#!/bin/sh\n");
});
after(async () => {
  await taskTable.disposeAll();
  fs.rmSync(base, { recursive: true, force: true });
});

const protectedTargets = (): string[] => [
  ".git/config",
  ".git/hooks/pre-commit",
  ".git/hooks/new-dir/x",
  ".git/config.worktree",
  ".GIT/config",
  ".git/modules/lib/config",
  ".git/modules/lib/hooks/post-checkout",
  ".git/worktrees/wt/config.worktree",
  "nested/.git/config",
  "store/repo-meta/config",
  "store/repo-meta/hooks/pre-commit",
  "gd-target/config",
  "bare.git/hooks/post-update",
  "sub/.git",
  "fresh/.git/config",
];

describe("I-106 class 4: git metadata asks before every file-tool write, in every mode short of danger-full-access", () => {
  const runner = createToolRunner({ sandbox });
  it("agent mode (workspace-write, on-request): each git-metadata write asks, without 'allow for session', and a rejection leaves it unchanged", async () => {
    for (const target of protectedTargets()) {
      const ctx = makeCtx({ root, tasks: taskTable, answers: ["reject"] });
      const before = fs.existsSync(path.join(root, target)) ? fs.readFileSync(path.join(root, target), "utf8") : null;
      const r = await runner.run("write_file", { path: target, content: "[core]\n\tfsmonitor = ./fsmon.sh\n" }, ctx);
      assert.equal(r.isError, true, `${target}: ${r.output}`);
      assert.equal(ctx.asks.length, 1, `${target} was written without asking`);
      assert.equal(ctx.asks[0]?.allowSession, false, target);
      assert.match(ctx.asks[0]?.reason ?? "", /git/, target);
      const after = fs.existsSync(path.join(root, target)) ? fs.readFileSync(path.join(root, target), "utf8") : null;
      assert.equal(after, before, target);
    }
  });
  it("edit_file of .git/config (the core.fsmonitor attack) asks too; 'allow for session' counts once", async () => {
    const ctx = makeCtx({ root, tasks: taskTable, answers: ["allow_session"] });
    const r = await runner.run(
      "edit_file",
      { path: ".git/config", old_string: "bare = false", new_string: "bare = false\n\tfsmonitor = ./fsmon.sh" },
      ctx,
    );
    assert.equal(r.isError, false, r.output);
    assert.equal(ctx.asks.length, 1);
    const again = await runner.run(
      "edit_file",
      { path: ".git/config", old_string: "fsmonitor = ./fsmon.sh", new_string: "fsmonitor = ./x" },
      ctx,
    );
    assert.equal(again.isError, true, "a second write was not asked again");
    assert.equal(ctx.asks.length, 2);
    fs.writeFileSync(path.join(root, ".git", "config"), "[core]\n\tbare = false\n");
  });
  it("untrusted and read-only ask too; `never` refuses with a clear message", async () => {
    for (const [mode, approval] of [
      ["workspace-write", "untrusted"],
      ["read-only", "on-request"],
    ] as const) {
      const ctx = makeCtx({ root, tasks: taskTable, mode, approval, answers: ["reject"] });
      await runner.run("write_file", { path: ".git/hooks/pre-push", content: "x" }, ctx);
      assert.equal(ctx.asks.length, 1, `${mode}/${approval}`);
      assert.equal(ctx.asks[0]?.allowSession, false);
    }
    const never = makeCtx({ root, tasks: taskTable, approval: "never" });
    const r = await runner.run("write_file", { path: ".git/hooks/pre-push", content: "x" }, never);
    assert.equal(r.isError, true);
    assert.match(r.output, /^Write refused: .*git.*`never`/);
    assert.equal(fs.existsSync(path.join(root, ".git", "hooks", "pre-push")), false);
  });
  it("ordinary files near git metadata are not protected (.gitignore, .github/, a file named config)", async () => {
    for (const target of [".gitignore", ".github/workflows/ci.yml", "config", "src/hooks/useX.ts", ".git-blame-ignore-revs"]) {
      const ctx = makeCtx({ root, tasks: taskTable, approval: "never" });
      const r = await runner.run("write_file", { path: target, content: "ok" }, ctx);
      assert.equal(r.isError, false, `${target}: ${r.output}`);
    }
  });
});

describe("class 4: the data dir and other sessions' temp areas are refused to every file tool", () => {
  it("a session whose folder contains the data dir cannot read, grep, list or write session logs; nor another session's temp area", async () => {
    const home = path.join(base, "home");
    const dataDir = path.join(home, ".local", "share", "manifold");
    fs.mkdirSync(path.join(dataDir, "sessions"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "sessions", "other.jsonl"), "SECRET-LOG-LINE\n");
    const tmpBase = path.join(base, "tmpbase");
    fs.mkdirSync(path.join(tmpBase, "B"), { recursive: true });
    fs.writeFileSync(path.join(tmpBase, "B", "b-secret.txt"), "SECRET-TMP-B\n");
    const runner = createToolRunner({ sandbox, hidden: [dataDir] });
    const mk = (mode: "workspace-write" | "danger-full-access" = "workspace-write") =>
      makeCtx({
        sessionId: "A",
        root: home,
        tasks: taskTable,
        mode,
        tmpDir: path.join(tmpBase, "A"),
        answers: ["allow_once", "allow_once"],
      });
    for (const mode of ["workspace-write", "danger-full-access"] as const) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ["read_file", { path: ".local/share/manifold/sessions/other.jsonl" }],
        ["read_file", { path: path.join(dataDir, "sessions", "other.jsonl") }],
        ["read_file", { path: path.join(tmpBase, "B", "b-secret.txt") }],
        ["grep", { pattern: "SECRET" }],
        ["grep", { pattern: "SECRET", path: path.join(tmpBase, "B") }],
        ["grep", { pattern: "SECRET", path: ".local" }],
        ["list_files", { path: ".local/share/manifold/sessions" }],
        ["list_files", { path: path.join(tmpBase, "B") }],
        ["write_file", { path: ".local/share/manifold/sessions/new.jsonl", content: "x" }],
        ["write_file", { path: path.join(tmpBase, "B", "planted.txt"), content: "x" }],
      ];
      for (const [tool, args] of calls) {
        const r = await runner.run(tool, args, mk(mode));
        const what = `${mode} ${tool} ${JSON.stringify(args)}`;
        assert.doesNotMatch(r.output, /SECRET-/, what);
        if (args.path !== undefined && args.path !== ".local")
          assert.match(r.output, /^Access refused: .* belongs to the agent server or to another session\.$/, what);
        else assert.doesNotMatch(r.output, /other\.jsonl|b-secret/, what);
      }
      const listed = await runner.run("list_files", { path: ".", pattern: "**/*.jsonl" }, mk(mode));
      assert.doesNotMatch(listed.output, /other\.jsonl/);
      assert.equal(fs.existsSync(path.join(dataDir, "sessions", "new.jsonl")), false);
      assert.equal(fs.existsSync(path.join(tmpBase, "B", "planted.txt")), false);
    }
    // The session's own temp area stays usable.
    const own = await runner.run("write_file", { path: path.join(tmpBase, "A", "mine.txt"), content: "mine" }, mk());
    assert.equal(own.isError, false, own.output);
    assert.equal((await runner.run("read_file", { path: path.join(tmpBase, "A", "mine.txt") }, mk())).output, "1\tmine");
  });
});
