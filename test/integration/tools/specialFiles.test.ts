// I-111: no file-tool input blocks the event loop or the thread pool: FIFOs,
// devices, huge sparse files and catastrophic regular expressions.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createNoSandbox } from "../../../sandbox/none";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { makeCtx, tempDir } from "./ctx";

const sandbox = createNoSandbox({});
const taskTable = createTaskTable(sandbox);
const runner = createToolRunner({ sandbox });
let base: string;
let root: string;

before(() => {
  base = tempDir("mf-special-");
  root = path.join(base, "proj");
  fs.mkdirSync(path.join(root, "tree"), { recursive: true });
  execFileSync("mkfifo", [path.join(root, "fifo")]);
  execFileSync("mkfifo", [path.join(root, "tree", "fifo-in-tree")]);
  fs.symlinkSync("fifo", path.join(root, "fifo-link"));
  fs.writeFileSync(path.join(root, "tree", "normal.txt"), "needle here\n");
  // 600 MB sparse: costs no disk, but a naive read allocates all of it.
  const fd = fs.openSync(path.join(root, "tree", "sparse.bin"), "w");
  fs.ftruncateSync(fd, 600 * 1024 * 1024);
  fs.closeSync(fd);
  fs.writeFileSync(path.join(root, "evil.txt"), `${"a".repeat(40)}!\n`.repeat(3));
});
after(async () => {
  await taskTable.disposeAll();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Largest event-loop delay (ms) observed while `work` runs, sampled by a 10 ms timer. */
async function maxLag<T>(work: () => Promise<T>): Promise<{ result: T; lag: number }> {
  let lag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 10);
    last = now;
  }, 10);
  try {
    const result = await work();
    return { result, lag };
  } finally {
    clearInterval(timer);
  }
}

/** The thread pool still serves four concurrent reads promptly (nothing of ours sits blocked in it). */
async function threadPoolFree(): Promise<void> {
  const t = performance.now();
  await Promise.all(Array.from({ length: 8 }, () => fs.promises.readFile(path.join(root, "tree", "normal.txt"))));
  assert.ok(performance.now() - t < 1000, "the thread pool is blocked");
}

const ctx = (o: Partial<Parameters<typeof makeCtx>[0]> = {}) => makeCtx({ root, tasks: taskTable, ...o });

describe("I-111 class 7: special files are refused without blocking", () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["write_file", { path: "fifo", content: "x" }, /is a FIFO, not a regular file/],
    ["write_file", { path: "fifo-link", content: "x" }, /is a FIFO, not a regular file/],
    ["edit_file", { path: "fifo", old_string: "a", new_string: "b" }, /is a FIFO, not a regular file/],
    ["read_file", { path: "fifo" }, /is a FIFO, not a regular file/],
    ["read_file", { path: "fifo-link" }, /is a FIFO, not a regular file/],
    ["read_file", { path: "/dev/zero" }, /is a character device, not a regular file/],
    ["read_file", { path: "/dev/stdin" }, /not a regular file|File not found|Could not access/],
    ["read_file", { path: "/proc/self/fd/0" }, /not a regular file|File not found|Could not access/],
    ["read_file", { path: "/dev/tty" }, /not a regular file|File not found|Could not access|No such device/],
    ["grep", { pattern: "x", path: "fifo" }, /is a FIFO, not a regular file/],
    ["grep", { pattern: "x", path: "/dev/zero" }, /is a character device, not a regular file/],
  ];
  for (const [tool, args, expected] of cases) {
    it(`${tool} ${JSON.stringify(args)} is refused at once; the event loop and thread pool stay free`, async () => {
      const { result, lag } = await maxLag(() => runner.run(tool, args, ctx()));
      assert.equal(result.isError, true, result.output);
      assert.match(result.output, expected);
      assert.ok(lag < 500, `event loop blocked for ${lag} ms`);
      await threadPoolFree();
      assert.equal(fs.lstatSync(path.join(root, "fifo")).isFIFO(), true, "the FIFO was replaced");
    });
  }
  it("grep over a tree with a FIFO and a 600 MB sparse file finds the match quickly and skips both", async () => {
    const rss = process.memoryUsage().rss;
    const { result, lag } = await maxLag(() => runner.run("grep", { pattern: "needle", path: "tree" }, ctx()));
    assert.deepEqual(result, { output: "tree/normal.txt:1:needle here", isError: false });
    assert.ok(lag < 500, `event loop blocked for ${lag} ms`);
    assert.ok(process.memoryUsage().rss - rss < 100e6, "grep read the sparse file into memory");
    await threadPoolFree();
  });
  it("read_file of a 600 MB sparse file is refused by size without reading it", async () => {
    const rss = process.memoryUsage().rss;
    const r = await runner.run("read_file", { path: "tree/sparse.bin" }, ctx());
    assert.equal(r.isError, true);
    assert.match(r.output, /over the \d+-byte limit of this tool; read parts of it with bash/);
    assert.ok(process.memoryUsage().rss - rss < 100e6, "read_file allocated the file");
  });
});

describe("I-111 class 7: catastrophic regular expressions never run on the main thread", () => {
  for (const pattern of ["(a+)+$", "(a|aa)+$", "(a*)*b", "^(\\w+\\s?)*$"]) {
    it(`grep ${pattern}: the event loop stays responsive and cancel frees the call at once`, async () => {
      const c = ctx();
      const { result, lag } = await maxLag(async () => {
        const pending = runner.run("grep", { pattern, path: "evil.txt" }, c);
        setTimeout(() => c.controller.abort(), 300);
        return pending;
      });
      assert.equal(result.isError, true, result.output);
      assert.ok(lag < 500, `event loop blocked for ${lag} ms`);
    });
  }
  it("a grep cancelled at any point never answers 'No matches' (a false answer to the model)", async () => {
    // Under load the cancel above can land while the file is still being read. Cancel after 0, 1, 2, …
    // turns of the event loop: each lands in another phase (before the call, in stat, in the read, in
    // the worker); the search matches ("a"), so "No matches" can only be an interrupted search.
    const answers = new Set<string>();
    for (let turns = 0; turns < 40; turns++) {
      const c = ctx();
      const pending = runner.run("grep", { pattern: "a", path: "evil.txt" }, c);
      for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
      c.controller.abort();
      const result = await pending;
      answers.add(result.output.split("\n")[0] ?? "");
      assert.doesNotMatch(result.output, /^No matches/, `cancelled after ${turns} turns`);
    }
    assert.ok(answers.has("grep was cancelled before it finished."), `never cancelled mid-search: ${[...answers].join(" | ")}`);
  });
  it("without cancel, a catastrophic pattern stops at the time budget with a clear message", async () => {
    const t = performance.now();
    const { result, lag } = await maxLag(() => runner.run("grep", { pattern: "(a+)+$", path: "evil.txt" }, ctx()));
    assert.match(result.output, /^grep stopped: The pattern took longer than \d+ s to match/);
    assert.ok(lag < 500, `event loop blocked for ${lag} ms`);
    assert.ok(performance.now() - t < 15_000);
  });
});
