// The file tools' writes: no check-then-write race, and atomic (the old content or the new, never part).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createNoSandbox } from "../../../sandbox/none";
import { guardPath } from "../../../sandbox/pathGuard";
import { writeChecked } from "../../../agent-server/tools/fsAccess";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { makeCtx, tempDir } from "./ctx";

const sandbox = createNoSandbox({});
const taskTable = createTaskTable(sandbox);
let base: string;
let root: string;
let outside: string;

before(() => {
  base = tempDir("mf-race-");
  root = path.join(base, "proj");
  outside = path.join(base, "outside");
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
});
after(async () => {
  await taskTable.disposeAll();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Every entry below `dir`, recursively (symlinks not followed). */
function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: false }) as string[];
}

describe("class 6: writes are race-free", () => {
  it("I-70: a missing parent is never created through a symlink swapped in after the check", async () => {
    fs.mkdirSync(path.join(root, "p1"));
    const target = guardPath("p1/new/deeper/f.txt", root, [root]);
    assert.equal(target.within, root);
    fs.rmdirSync(path.join(root, "p1"));
    fs.symlinkSync(outside, path.join(root, "p1"));
    await assert.rejects(writeChecked(makeCtx({ root, tasks: taskTable }), target, "x"), /changed while it was being written/);
    assert.deepEqual(tree(outside), [], "a directory was created outside");
    fs.unlinkSync(path.join(root, "p1"));
  });

  it("I-70: a hard-linked file's replacement never writes a temp file outside (swap before the temp is created)", async () => {
    fs.mkdirSync(path.join(root, "h"));
    fs.writeFileSync(path.join(base, "linked-src.txt"), "outside content");
    fs.linkSync(path.join(base, "linked-src.txt"), path.join(root, "h", "hard.txt"));
    const target = guardPath("h/hard.txt", root, [root]);
    fs.renameSync(path.join(root, "h"), path.join(root, "h-real"));
    fs.symlinkSync(outside, path.join(root, "h"));
    await assert.rejects(
      writeChecked(makeCtx({ root, tasks: taskTable }), target, "SECRET FULL CONTENT"),
      /changed while it was being written/,
    );
    assert.deepEqual(tree(outside), [], "a temp file with the full content was left outside");
    assert.equal(fs.readFileSync(path.join(base, "linked-src.txt"), "utf8"), "outside content");
    fs.unlinkSync(path.join(root, "h"));
  });

  it("I-70: thousands of writes race a background directory↔symlink swap; nothing ever appears outside and no temp file is left", async () => {
    const arena = path.join(root, "arena");
    fs.mkdirSync(arena);
    fs.mkdirSync(path.join(arena, "d.dir"));
    fs.symlinkSync(outside, path.join(arena, "d.link"));
    // A separate process swaps arena/d between a real directory and a symlink to `outside` as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        "-e",
        `const fs=require("fs");const a=process.argv[1];process.stdout.write("go\\n");
         for(;;){try{fs.renameSync(a+"/d.dir",a+"/d")}catch{}try{fs.renameSync(a+"/d",a+"/d.dir")}catch{}
                 try{fs.renameSync(a+"/d.link",a+"/d")}catch{}try{fs.renameSync(a+"/d",a+"/d.link")}catch{}}`,
        arena,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => swapper.stdout!.once("data", () => resolve()));
    const runner = createToolRunner({ sandbox });
    const ctx = makeCtx({ root, tasks: taskTable, approval: "never" });
    let written = 0;
    try {
      for (let i = 0; i < 2000; i++) {
        const p = i % 2 === 0 ? `arena/d/f${i % 7}.txt` : `arena/d/sub${i % 5}/g.txt`;
        const r = await runner.run("write_file", { path: p, content: `content ${i}` }, ctx);
        if (!r.isError) written++;
      }
    } finally {
      swapper.kill("SIGKILL");
      await new Promise((resolve) => swapper.once("exit", resolve));
    }
    assert.deepEqual(tree(outside), [], "something was written outside the folder");
    const temps = tree(root).filter((f) => /manifold-.*\.tmp$/.test(f));
    assert.deepEqual(temps, [], "temp files were left behind");
    assert.ok(written > 0, "no write ever succeeded (the race test exercised nothing)");
  });
});

describe("write_file and edit_file are atomic and keep the file mode", () => {
  it("the target keeps its old content until the new content is complete, and a failed write leaves no temp file", async () => {
    const f = path.join(root, "atomic.txt");
    fs.writeFileSync(f, "old content");
    const target = guardPath("atomic.txt", root, [root]);
    let seen = "";
    await writeChecked(makeCtx({ root, tasks: taskTable }), target, "new content", {
      beforeRename: () => (seen = fs.readFileSync(f, "utf8")),
    });
    assert.equal(seen, "old content", "the target was modified in place before the write completed");
    assert.equal(fs.readFileSync(f, "utf8"), "new content");
    await assert.rejects(
      writeChecked(makeCtx({ root, tasks: taskTable }), target, "never", {
        beforeRename: () => {
          throw new Error("killed");
        },
      }),
      /killed/,
    );
    assert.equal(fs.readFileSync(f, "utf8"), "new content");
    assert.deepEqual(
      fs.readdirSync(root).filter((n) => n.includes("manifold-")),
      [],
    );
  });

  it("a SIGKILL mid-write never leaves a half-written file", async () => {
    const f = path.join(root, "big.txt");
    fs.writeFileSync(f, "A".repeat(1000));
    const mod = path.resolve(__dirname, "../../../sandbox/safeWrite.ts");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "-e", `require(${JSON.stringify(mod)}).writeFileAtomic(${JSON.stringify(f)}, "B".repeat(200e6), {});`],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    // Kill as soon as the temp file exists (the write is under way).
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (fs.readdirSync(root).some((n) => n.startsWith(".big.txt.manifold-"))) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    assert.equal(fs.readFileSync(f, "utf8"), "A".repeat(1000));
  });

  it("an existing file keeps its permission bits (an executable script stays executable)", async () => {
    const runner = createToolRunner({ sandbox });
    const f = path.join(root, "run.sh");
    fs.writeFileSync(f, "#!/bin/sh\necho old\n");
    fs.chmodSync(f, 0o750);
    const ctx = makeCtx({ root, tasks: taskTable });
    assert.equal((await runner.run("write_file", { path: "run.sh", content: "#!/bin/sh\necho new\n" }, ctx)).isError, false);
    assert.equal((await runner.run("edit_file", { path: "run.sh", old_string: "new", new_string: "newer" }, ctx)).isError, false);
    assert.equal(fs.statSync(f).mode & 0o777, 0o750);
    assert.equal(fs.readFileSync(f, "utf8"), "#!/bin/sh\necho newer\n");
  });
});
