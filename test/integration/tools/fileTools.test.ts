import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createNoSandbox } from "../../../sandbox/none";
import { guardPath } from "../../../sandbox/pathGuard";
import { writeChecked } from "../../../agent-server/tools/fsAccess";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { makeCtx, tempDir } from "./ctx";

// File tools never touch the command sandbox: a `none` backend keeps these tests platform-neutral.
const sandbox = createNoSandbox({});
const taskTable = createTaskTable(sandbox);
let base: string;
let rootA: string;
let rootB: string;
let outside: string;

before(() => {
  base = tempDir("mf-files-");
  rootA = path.join(base, "proj");
  rootB = path.join(base, "other");
  outside = path.join(base, "outside");
  for (const d of [rootA, rootB, outside, path.join(base, "proj-evil")]) fs.mkdirSync(d);
  fs.symlinkSync(outside, path.join(rootA, "link"));
  fs.symlinkSync(path.join(outside, "dangling.txt"), path.join(rootA, "dangling"));
});
after(async () => {
  await taskTable.disposeAll();
  fs.rmSync(base, { recursive: true, force: true });
});

const ctxA = (o: Parameters<typeof makeCtx>[0] extends infer T ? Partial<T> : never = {}) =>
  makeCtx({ root: rootA, tasks: taskTable, ...o });

describe("file tools through the runner", () => {
  const runner = createToolRunner({ sandbox });

  it("I-65: relative paths resolve against each session's own cwd, never process.cwd()", async () => {
    const a = makeCtx({ sessionId: "A", root: rootA, tasks: taskTable });
    const b = makeCtx({ sessionId: "B", root: rootB, tasks: taskTable });
    const [ra, rb] = await Promise.all([
      runner.run("write_file", { path: "x.txt", content: "from A" }, a),
      runner.run("write_file", { path: "x.txt", content: "from B" }, b),
    ]);
    assert.deepEqual([ra.isError, rb.isError], [false, false]);
    assert.deepEqual(
      [fs.readFileSync(path.join(rootA, "x.txt"), "utf8"), fs.readFileSync(path.join(rootB, "x.txt"), "utf8")],
      ["from A", "from B"],
    );
    assert.equal(fs.existsSync(path.join(process.cwd(), "x.txt")), false);
  });

  it("write_file creates parent directories and returns a diff for the card", async () => {
    const r = await runner.run("write_file", { path: "new/dir/f.txt", content: "hello\n" }, ctxA());
    const real = path.join(rootA, "new", "dir", "f.txt");
    assert.deepEqual(r, {
      output: "Created new/dir/f.txt (2 lines).",
      isError: false,
      content: [{ type: "diff", path: real, oldText: null, newText: "hello\n" }],
      locations: [{ path: real }],
    });
    const again = await runner.run("write_file", { path: "new/dir/f.txt", content: "bye\n" }, ctxA());
    assert.deepEqual(again.content, [{ type: "diff", path: real, oldText: "hello\n", newText: "bye\n" }]);
  });

  it("read_file numbers lines and pages with offset/limit", async () => {
    fs.writeFileSync(path.join(rootA, "lines.txt"), Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const r = await runner.run("read_file", { path: "lines.txt", offset: 10, limit: 2 }, ctxA());
    assert.deepEqual(r, {
      output: "10\tline 10\n11\tline 11\n\n[1 more lines; read again with offset 12]",
      isError: false,
      locations: [{ path: path.join(rootA, "lines.txt"), line: 10 }],
    });
  });

  it("read_file of a long file is truncated with a note that says so", async () => {
    fs.writeFileSync(path.join(rootA, "long.txt"), Array.from({ length: 3000 }, (_, i) => `l${i}`).join("\n"));
    const r = await runner.run("read_file", { path: "long.txt" }, ctxA());
    assert.equal(r.isError, false);
    assert.match(r.output, /\[1000 more lines; read again with offset 2001\]$/);
    fs.writeFileSync(path.join(rootA, "wide.txt"), Array.from({ length: 100 }, () => "x".repeat(1000)).join("\n"));
    const wide = await runner.run("read_file", { path: "wide.txt" }, ctxA());
    assert.match(wide.output, /\[output truncated: showing the first \d+ of \d+ lines \(30000 of \d+ characters\)\]$/);
  });

  it("read_file errors are written for the model", async () => {
    const missing = await runner.run("read_file", { path: "nope.txt" }, ctxA());
    assert.deepEqual(missing, { output: "File not found: nope.txt", isError: true });
    const dir = await runner.run("read_file", { path: "new" }, ctxA());
    assert.deepEqual(dir, { output: "new is a directory; use list_files to see its contents.", isError: true });
  });

  it("invalid arguments give a model-readable error, not a throw", async () => {
    const r = await runner.run("read_file", { path: 42 }, ctxA());
    assert.equal(r.isError, true);
    assert.match(r.output, /^Invalid arguments for read_file:\n- path: .+\nFix the arguments and call read_file again\.$/);
    assert.deepEqual(await runner.run("nope", {}, ctxA()), {
      output:
        'Unknown tool "nope". Available tools: read_file, write_file, edit_file, list_files, grep, bash, bash_output, bash_kill, update_plan.',
      isError: true,
    });
  });

  it("edit_file replaces exactly one match, refuses zero or several, and honours replace_all", async () => {
    fs.writeFileSync(path.join(rootA, "e.txt"), "a b a\nc\n");
    const none = await runner.run("edit_file", { path: "e.txt", old_string: "zzz", new_string: "y" }, ctxA());
    assert.deepEqual(none, {
      output: "old_string was not found in e.txt. Read the file again and copy the exact text, including whitespace.",
      isError: true,
    });
    const many = await runner.run("edit_file", { path: "e.txt", old_string: "a", new_string: "y" }, ctxA());
    assert.deepEqual(many, {
      output: "old_string occurs 2 times in e.txt. Add surrounding lines to make it unique, or set replace_all to true.",
      isError: true,
    });
    assert.equal(fs.readFileSync(path.join(rootA, "e.txt"), "utf8"), "a b a\nc\n");
    const one = await runner.run("edit_file", { path: "e.txt", old_string: "c", new_string: "$&d" }, ctxA());
    assert.deepEqual(one.content, [{ type: "diff", path: path.join(rootA, "e.txt"), oldText: "a b a\nc\n", newText: "a b a\n$&d\n" }]);
    assert.deepEqual(one.locations, [{ path: path.join(rootA, "e.txt"), line: 2 }]);
    const all = await runner.run("edit_file", { path: "e.txt", old_string: "a", new_string: "y", replace_all: true }, ctxA());
    assert.equal(all.output, "Edited e.txt: 2 replacements.");
    assert.equal(fs.readFileSync(path.join(rootA, "e.txt"), "utf8"), "y b y\n$&d\n");
  });

  it("list_files lists one level, or globs recursively (skipping .git)", async () => {
    const dir = path.join(rootA, "ls");
    fs.mkdirSync(path.join(dir, "src", "deep"), { recursive: true });
    fs.mkdirSync(path.join(dir, ".git"));
    fs.writeFileSync(path.join(dir, ".git", "x.ts"), "");
    fs.writeFileSync(path.join(dir, "a.ts"), "");
    fs.writeFileSync(path.join(dir, "src", "b.ts"), "");
    fs.writeFileSync(path.join(dir, "src", "deep", "c.tsx"), "");
    assert.equal((await runner.run("list_files", { path: "ls" }, ctxA())).output, ".git/\na.ts\nsrc/");
    assert.equal((await runner.run("list_files", { path: "ls", pattern: "**/*.ts" }, ctxA())).output, "a.ts\nsrc/b.ts");
    assert.equal((await runner.run("list_files", { path: "ls", pattern: "*.{ts,tsx}" }, ctxA())).output, "a.ts\nsrc/b.ts\nsrc/deep/c.tsx");
    assert.equal((await runner.run("list_files", { path: "ls", pattern: "src/**" }, ctxA())).output, "src/b.ts\nsrc/deep/\nsrc/deep/c.tsx");
  });

  it("grep finds path:line:text, filtered by glob", async () => {
    const dir = path.join(rootA, "g");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.ts"), "const needle = 1;\nother\n");
    fs.writeFileSync(path.join(dir, "b.md"), "needle in md\n");
    const r = await runner.run("grep", { pattern: "need+le", path: "g", glob: "*.ts" }, ctxA());
    assert.deepEqual(r, { output: "g/a.ts:1:const needle = 1;", isError: false });
    const none = await runner.run("grep", { pattern: "absent", path: "g" }, ctxA());
    assert.deepEqual(none, { output: 'No matches for "absent" in g.', isError: false });
  });
});

describe("file tools: escapes are refused (workspace-write)", () => {
  const runner = createToolRunner({ sandbox });
  const escapes = (): Array<[string, string]> => [
    ["../outside/x.txt", path.join(outside, "x.txt")],
    ["sub/../../outside/y.txt", path.join(outside, "y.txt")],
    [path.join(outside, "abs.txt"), path.join(outside, "abs.txt")],
    ["../proj-evil/x.txt", path.join(base, "proj-evil", "x.txt")],
    ["link/x.txt", path.join(outside, "x2.txt")],
    ["dangling", path.join(outside, "dangling.txt")],
    [path.join(rootB, "from-a.txt"), path.join(rootB, "from-a.txt")],
  ];
  it("I-66 I-67 I-68 I-69: under approval `never` each escape is denied and leaves no file", async () => {
    for (const [input, target] of escapes()) {
      const ctx = ctxA({ approval: "never" });
      const r = await runner.run("write_file", { path: input, content: "pwned" }, ctx);
      assert.deepEqual(
        { input, ...r },
        { input, output: "Write refused: the target is outside the workspace and the approval policy is `never`.", isError: true },
      );
      assert.equal(ctx.asks.length, 0);
      assert.equal(fs.existsSync(target === path.join(outside, "x2.txt") ? path.join(outside, "x.txt") : target), false, target);
    }
  });
  it("I-66 I-68 I-69: under `on-request` each escape asks first, and a rejection writes nothing", async () => {
    for (const [input] of escapes()) {
      const ctx = ctxA({ answers: ["reject"] });
      const r = await runner.run("write_file", { path: input, content: "pwned" }, ctx);
      assert.equal(r.isError, true);
      assert.equal(ctx.asks.length, 1, input);
      assert.equal(ctx.asks[0]?.reason, "the target is outside the workspace");
    }
    assert.deepEqual(fs.readdirSync(outside), []);
    assert.equal(fs.existsSync(path.join(rootB, "from-a.txt")), false);
  });
  it("%2e%2e spellings are plain names inside the root", async () => {
    const r = await runner.run("write_file", { path: "%2e%2e/x.txt", content: "ok" }, ctxA({ approval: "never" }));
    assert.equal(r.isError, false);
    assert.equal(fs.readFileSync(path.join(rootA, "%2e%2e", "x.txt"), "utf8"), "ok");
  });
  it("a NUL byte in a path is refused before anything else", async () => {
    const ctx = ctxA();
    const r = await runner.run("write_file", { path: "a\0b", content: "x" }, ctx);
    assert.deepEqual(r, { output: "Invalid path: The path contains a NUL byte.", isError: true });
    assert.equal(ctx.asks.length, 0);
  });
  it("a pre-existing hard link to an outside file is replaced, never written through", async () => {
    fs.writeFileSync(path.join(outside, "target.txt"), "original");
    fs.linkSync(path.join(outside, "target.txt"), path.join(rootA, "hard.txt"));
    const r = await runner.run("write_file", { path: "hard.txt", content: "new" }, ctxA());
    assert.equal(r.isError, false);
    assert.equal(fs.readFileSync(path.join(outside, "target.txt"), "utf8"), "original");
    assert.equal(fs.readFileSync(path.join(rootA, "hard.txt"), "utf8"), "new");
    assert.equal(fs.statSync(path.join(rootA, "hard.txt")).nlink, 1);
    fs.unlinkSync(path.join(outside, "target.txt"));
  });
  it("I-70: a directory swapped for a symlink between check and write is caught; nothing lands outside", async () => {
    const dir = path.join(rootA, "swap");
    fs.mkdirSync(dir);
    const target = guardPath("swap/f.txt", rootA, [rootA]);
    assert.equal(target.within, rootA);
    // Swap after the runner's check, just before the write's own re-check.
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(outside, dir);
    await assert.rejects(writeChecked(ctxA(), target, "x"), /changed while it was being written/);
    assert.equal(fs.existsSync(path.join(outside, "f.txt")), false);
    fs.unlinkSync(dir);
  });
  it("I-70: a swap after the directory was verified cannot redirect the write: it lands in the verified directory, never outside", async () => {
    const dir = path.join(rootA, "swap2");
    fs.mkdirSync(dir);
    const target = guardPath("swap2/f.txt", rootA, [rootA]);
    const hook = () => {
      fs.renameSync(dir, path.join(rootA, "swap2-moved"));
      fs.symlinkSync(outside, dir);
    };
    await writeChecked(ctxA(), target, "x", { beforeCreate: hook });
    assert.equal(fs.existsSync(path.join(outside, "f.txt")), false);
    assert.equal(fs.readFileSync(path.join(rootA, "swap2-moved", "f.txt"), "utf8"), "x");
    fs.unlinkSync(dir);
  });
});

describe("file tools through the ACP client fs", () => {
  const runner = createToolRunner({ sandbox });
  it("reads and writes go through clientFs after the guard approved the path; escapes never reach it", async () => {
    const calls: string[] = [];
    const clientFs = {
      async readTextFile(p: string) {
        calls.push(`read ${p}`);
        return "unsaved buffer\n";
      },
      async writeTextFile(p: string, c: string) {
        calls.push(`write ${p} ${c}`);
      },
    };
    fs.writeFileSync(path.join(rootA, "c.txt"), "on disk\n");
    const ctx = ctxA({ clientFs, approval: "never" });
    const read = await runner.run("read_file", { path: "c.txt" }, ctx);
    assert.equal(read.output, "1\tunsaved buffer");
    await runner.run("write_file", { path: "c.txt", content: "via client" }, ctx);
    const denied = await runner.run("write_file", { path: "../outside/c.txt", content: "x" }, ctx);
    assert.equal(denied.isError, true);
    const real = path.join(rootA, "c.txt");
    assert.deepEqual(calls, [`read ${real}`, `read ${real}`, `write ${real} via client`]);
    assert.equal(fs.readFileSync(real, "utf8"), "on disk\n");
  });
  it("an approved write outside the folder goes to the disk: the client serves its session folder only (I-94)", async () => {
    const calls: string[] = [];
    const clientFs = {
      async readTextFile(p: string) {
        calls.push(`read ${p}`);
        throw new Error(`${p} is outside the session folder`);
      },
      async writeTextFile(p: string) {
        calls.push(`write ${p}`);
        throw new Error(`${p} is outside the session folder`);
      },
    };
    const ctx = ctxA({ clientFs, approval: "on-request", answers: ["allow_once"] });
    const r = await runner.run("write_file", { path: "../outside/approved.txt", content: "yes" }, ctx);
    assert.equal(r.isError, false, r.output);
    assert.equal(ctx.asks.length, 1);
    assert.equal(fs.readFileSync(path.join(outside, "approved.txt"), "utf8"), "yes");
    assert.deepEqual(calls, [], "nothing outside the folder was sent to the client");
    fs.unlinkSync(path.join(outside, "approved.txt"));
  });
});

describe("permissions for file writes", () => {
  it("I-47: allow once covers one call; allow for the session covers later calls with the same key in that session only", async () => {
    const runner = createToolRunner({ sandbox });
    const a = ctxA({ sessionId: "grant-a", approval: "untrusted", answers: ["allow_once", "allow_session"] });
    const call = { path: "granted.txt", content: "1" };
    assert.equal((await runner.run("write_file", call, a)).isError, false);
    assert.equal((await runner.run("write_file", call, a)).isError, false);
    assert.equal(a.asks.length, 2, "allow once did not cover the second identical call");
    assert.deepEqual(a.asks[1], {
      title: "Write granted.txt",
      reason: "approval policy `untrusted` asks before every write",
      grantKey: `write_file:${path.join(rootA, "granted.txt")}`,
      allowSession: true,
    });
    assert.equal((await runner.run("write_file", call, a)).isError, false);
    assert.equal(a.asks.length, 2, "the session grant covers the same key");
    // Outside the key: another path, another tool.
    assert.equal((await runner.run("write_file", { path: "other.txt", content: "1" }, a)).isError, true);
    assert.equal((await runner.run("edit_file", { path: "granted.txt", old_string: "1", new_string: "2" }, a)).isError, true);
    assert.equal(a.asks.length, 4);
    // Another session with the same call is asked.
    const b = ctxA({ sessionId: "grant-b", approval: "untrusted" });
    assert.equal((await runner.run("write_file", call, b)).isError, true);
    assert.equal(b.asks.length, 1);
    // forgetSession drops the grants.
    runner.forgetSession("grant-a");
    await runner.run("write_file", call, a);
    assert.equal(a.asks.length, 5);
  });

  it("I-74: in read-only an approved write widens that one call only; an identical second call is asked (and denied) again", async () => {
    const runner = createToolRunner({ sandbox });
    const ctx = ctxA({ sessionId: "ro", mode: "read-only", answers: ["allow_session", "reject"] });
    const call = { path: "ro.txt", content: "escalated" };
    const first = await runner.run("write_file", call, ctx);
    assert.equal(first.isError, false);
    assert.equal(ctx.asks[0]?.allowSession, false);
    fs.rmSync(path.join(rootA, "ro.txt"));
    const second = await runner.run("write_file", call, ctx);
    assert.equal(second.isError, true);
    assert.equal(ctx.asks.length, 2);
    assert.equal(fs.existsSync(path.join(rootA, "ro.txt")), false);
    const never = ctxA({ sessionId: "ro", mode: "read-only", approval: "never" });
    assert.deepEqual(await runner.run("write_file", call, never), {
      output: "Write refused: the session is read-only and the approval policy is `never`.",
      isError: true,
    });
  });

  it("a cancelled permission request is a refusal", async () => {
    const runner = createToolRunner({ sandbox });
    const ctx = ctxA({ approval: "untrusted", answers: ["cancelled"] });
    const r = await runner.run("write_file", { path: "cancelled.txt", content: "x" }, ctx);
    assert.deepEqual(r, { output: "The permission request was cancelled; the call did not run.", isError: true });
    assert.equal(fs.existsSync(path.join(rootA, "cancelled.txt")), false);
  });

  it("describe() never throws and gives title, kind and locations", () => {
    const runner = createToolRunner({ sandbox });
    assert.deepEqual(runner.describe("write_file", { path: "a.txt", content: "" }, rootA), {
      title: "Write a.txt",
      kind: "edit",
      locations: [{ path: path.join(rootA, "a.txt") }],
    });
    assert.deepEqual(runner.describe("write_file", { nope: 1 }, rootA), { title: "write_file", kind: "edit", locations: [] });
    assert.deepEqual(runner.describe("zzz", null, rootA), { title: "zzz", kind: "other", locations: [] });
  });

  it("specs() gives JSON Schema for every tool", () => {
    const specs = createToolRunner({ sandbox }).specs();
    assert.deepEqual(
      specs.map((s) => s.name),
      ["read_file", "write_file", "edit_file", "list_files", "grep", "bash", "bash_output", "bash_kill", "update_plan"],
    );
    const edit = specs.find((s) => s.name === "edit_file");
    assert.deepEqual(edit?.inputSchema.required, ["path", "old_string", "new_string"]);
    assert.equal(edit?.inputSchema.type, "object");
  });
});
