import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { detectSandbox } from "../../../sandbox/detect";
import { createNoSandbox } from "../../../sandbox/none";
import type { CommandSandbox } from "../../../sandbox/types";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable, type TaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { makeCtx } from "./ctx";
import { deferred, pidsMatching, pollUntil } from "./procs";

const linux = process.platform === "linux";
const KEY = "sk-ant-manifold-recognisable-KEY-98";
let sb: CommandSandbox;
let taskTable: TaskTable;
let base: string;
let root: string;
let outside: string;

before(async () => {
  sb = await detectSandbox(
    { ...process.env, MANIFOLD_TEST_API_KEY: KEY, ANTHROPIC_API_KEY: KEY, GITHUB_TOKEN: KEY, MANIFOLD_SANDBOX: "" },
    { log: () => {} },
  );
  taskTable = createTaskTable(sb, { killGraceMs: 50 });
  base = fs.realpathSync(fs.mkdtempSync(path.join("/var/tmp", "mf-bash-")));
  root = path.join(base, "proj");
  outside = path.join(base, "outside");
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
});
after(async () => {
  await taskTable.disposeAll();
  fs.rmSync(base, { recursive: true, force: true });
});

const ctx = (o: Partial<Parameters<typeof makeCtx>[0]> = {}) =>
  makeCtx({ root, tasks: taskTable, tmpDir: path.join(base, ".tmp", o.sessionId ?? "sess-a"), ...o });

describe("bash tool (bubblewrap)", { skip: !linux && "Linux only" }, () => {
  it("runs in the session root, streams output into its card, reports the exit code", async () => {
    const runner = createToolRunner({ sandbox: sb });
    // The command waits for a file the test creates on the first streamed update: no timing involved.
    // The first two lines are one write (one pipe chunk), so a flush tick cannot fall between them.
    const gate = path.join(root, "go");
    const c = ctx({ onUpdate: () => fs.writeFileSync(gate, "") });
    const r = await runner.run(
      "bash",
      { command: "printf '%s\\none\\n' \"$(pwd)\"; while [ ! -e go ]; do sleep 0.02; done; rm go; echo two; exit 3" },
      c,
    );
    const text = `${root}\none\ntwo\nExit code 3.`;
    assert.deepEqual(r, { output: text, isError: true, content: [{ type: "content", content: { type: "text", text } }] });
    assert.ok(c.updates.length >= 2, "streamed at least once before the end");
    assert.deepEqual(c.updates[0], { content: [{ type: "content", content: { type: "text", text: `${root}\none\n` } }] });
  });

  it("live output is throttled: one card update per 150 ms tick at most (plus the last), each the whole output so far", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const c = ctx();
    // 100 writes 20 ms apart: each arrives as its own chunk, so an update per chunk would give ~100.
    // The bound is computed from the measured run time, so a slow machine loosens it instead of failing.
    const started = Date.now();
    const r = await runner.run("bash", { command: "for i in $(seq 1 100); do echo line-$i; sleep 0.02; done" }, c);
    const ticks = Math.ceil((Date.now() - started) / 150);
    assert.equal(r.isError, false);
    assert.ok(c.updates.length >= 1 && c.updates.length <= ticks + 1, `${c.updates.length} updates in ${ticks} ticks for 100 writes`);
    for (const u of c.updates) {
      assert.deepEqual(Object.keys(u), ["content"]);
      assert.match(
        JSON.stringify(u.content),
        /^\[\{"type":"content","content":\{"type":"text","text":"line-1\\n/,
        "each update is the output from its start",
      );
    }
  });

  it("I-98: a recognisable API key in the server env never appears in the command's environment", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const r = await runner.run("bash", { command: "env; cat /proc/1/environ; echo; ls /proc" }, ctx());
    assert.equal(r.output.includes(KEY), false);
    assert.doesNotMatch(r.output, /API_KEY|GITHUB_TOKEN/);
  });

  it("a timeout kills the whole tree and says so", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const marker = `mf-timeout-${process.pid}-${Date.now()}`;
    const r = await runner.run(
      "bash",
      { command: `(setsid bash -c 'exec -a ${marker} sleep 300' &); exec -a ${marker} sleep 300`, timeout_ms: 500 },
      ctx(),
    );
    assert.deepEqual(r.isError, true);
    assert.match(r.output, /Command timed out after 500 ms and was killed\.$/);
    assert.deepEqual(pidsMatching(marker), []);
  });

  it("cancel (ctx.signal) kills the whole process tree, setsid grandchildren included", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const started = deferred();
    const c = ctx({ onUpdate: (u) => JSON.stringify(u).includes("started") && started.resolve() });
    const marker = `mf-cancel-${process.pid}-${Date.now()}`;
    const p = runner.run(
      "bash",
      {
        command: `(setsid bash -c 'exec -a ${marker} sleep 300' &); (nohup bash -c 'exec -a ${marker} sleep 300' >/dev/null 2>&1 &); echo started; exec -a ${marker} sleep 300`,
      },
      c,
    );
    await started.promise;
    // The three sleeps exec asynchronously after "started": the process table has no event.
    await pollUntil(() => pidsMatching(marker).length >= 3, "three marker processes");
    assert.equal(pidsMatching(marker).length, 3);
    c.controller.abort();
    const r = await p;
    assert.match(r.output, /Command was cancelled\.$/);
    assert.deepEqual(pidsMatching(marker), []);
  });

  it("untrusted: read-only commands run without asking, others ask", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const c = ctx({ approval: "untrusted", answers: ["reject"] });
    assert.equal((await runner.run("bash", { command: "ls" }, c)).isError, false);
    assert.equal(c.asks.length, 0);
    const r = await runner.run("bash", { command: "touch untrusted.txt" }, c);
    assert.equal(r.isError, true);
    assert.deepEqual(c.asks, [
      {
        title: "Run touch untrusted.txt",
        reason: "approval policy `untrusted` asks before commands that are not read-only",
        grantKey: "bash:prefix:touch",
        allowSession: true,
      },
    ]);
    assert.equal(fs.existsSync(path.join(root, "untrusted.txt")), false);
  });

  it("I-74: an approved `unsandboxed` call runs outside the sandbox once; the next identical call asks again", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const c = ctx({ answers: ["allow_session", "reject"] });
    const cmd = { command: `echo esc >> ${outside}/esc.txt`, unsandboxed: true };
    assert.equal((await runner.run("bash", cmd, c)).isError, false);
    assert.equal(c.asks[0]?.allowSession, false);
    assert.equal((await runner.run("bash", cmd, c)).isError, true);
    assert.equal(c.asks.length, 2);
    assert.equal(fs.readFileSync(path.join(outside, "esc.txt"), "utf8"), "esc\n");
    // Without the escalation the same write is blocked by the sandbox.
    const confined = await runner.run("bash", { command: `echo x >> ${outside}/esc.txt` }, c);
    assert.equal(confined.isError, true);
    assert.equal(fs.readFileSync(path.join(outside, "esc.txt"), "utf8"), "esc\n");
  });

  it("I-74: read-only mode denies bash writes inside the root", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const r = await runner.run("bash", { command: "touch ro.txt" }, ctx({ mode: "read-only" }));
    assert.equal(r.isError, true);
    assert.equal(fs.existsSync(path.join(root, "ro.txt")), false);
  });

  it("background bash returns a task id; bash_output and bash_kill work on it", async () => {
    const runner = createToolRunner({ sandbox: sb });
    const c = ctx({ sessionId: "bg" });
    const started = await runner.run("bash", { command: "echo first; sleep 300", background: true }, c);
    const id = /bash-[A-Za-z0-9_-]+/.exec(started.output)?.[0] ?? "";
    assert.notEqual(id, "");
    // A task's output has no event: poll bash_output itself (bounded).
    const out = await pollUntil(async () => {
      const o = await runner.run("bash_output", { task_id: id }, c);
      return o.output.startsWith("first") && o;
    }, "the background task's first line");
    assert.deepEqual(out, { output: "first\n\nStill running.", isError: false });
    const killed = await runner.run("bash_kill", { task_id: id }, c);
    assert.match(killed.output, /^first\n\nTask stopped \(exit code \d+\)\.$/);
    assert.equal((await runner.run("bash_output", { task_id: id }, c)).output.endsWith("Still running."), false);
  });
});

describe("bash tool without a sandbox backend", () => {
  const none = createNoSandbox({ PATH: process.env.PATH });
  const reg = createTaskTable(none);
  after(() => reg.disposeAll());

  it("I-73: every command asks (showing the command); a rejection means it never runs", async () => {
    const runner = createToolRunner({ sandbox: none });
    const c = makeCtx({ root, tasks: reg, answers: ["reject"] });
    const r = await runner.run("bash", { command: "touch no-backend.txt" }, c);
    assert.equal(r.isError, true);
    assert.deepEqual(c.asks, [
      {
        title: "Run touch no-backend.txt",
        reason: "no sandbox backend works on this machine: the command would run unconfined",
        grantKey: "bash:prefix:touch",
        allowSession: false,
      },
    ]);
    assert.equal(fs.existsSync(path.join(root, "no-backend.txt")), false);
  });

  it("I-73: under approval `never` the command fails with a clear message and does not run", async () => {
    const runner = createToolRunner({ sandbox: none });
    const c = makeCtx({ root, tasks: reg, approval: "never" });
    const r = await runner.run("bash", { command: "touch no-backend.txt" }, c);
    assert.deepEqual(r, {
      output:
        "Command refused: no sandbox backend works on this machine, so commands cannot run confined, and the approval policy is `never`.",
      isError: true,
    });
    assert.equal(c.asks.length, 0);
    assert.equal(fs.existsSync(path.join(root, "no-backend.txt")), false);
    const bg = await runner.run("bash", { command: "touch no-backend.txt", background: true }, c);
    assert.equal(bg.isError, true);
    assert.equal(fs.existsSync(path.join(root, "no-backend.txt")), false);
  });

  it("I-73: an approved command runs (unconfined, still with a clean environment)", async () => {
    const runner = createToolRunner({ sandbox: none });
    const c = makeCtx({ root, tasks: reg, answers: ["allow_once"] });
    const r = await runner.run("bash", { command: "echo ran; env | grep -c API_KEY || true" }, c);
    assert.equal(r.output, "ran\n0\nExit code 0.");
  });
});
