import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { detectSandbox } from "../../../sandbox/detect";
import { createNoSandbox } from "../../../sandbox/none";
import type { CommandSandbox, SandboxContext } from "../../../sandbox/types";
import { createToolRunner } from "../../../agent-server/tools/index";
import { createTaskTable, TaskNotFoundError, type TaskTable } from "../../../agent-server/tools/tasks/taskTable";
import { MAX_OUTPUT_CHARS, truncateMiddle } from "../../../agent-server/tools/truncate";
import { makeCtx } from "./ctx";
import { deferred, pidsMatching, pollUntil } from "./procs";

const linux = process.platform === "linux";
let base: string;
let rootA: string;
let rootB: string;

before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join("/var/tmp", "mf-tasks-")));
  rootA = path.join(base, "a");
  rootB = path.join(base, "b");
  fs.mkdirSync(rootA);
  fs.mkdirSync(rootB);
});
after(() => fs.rmSync(base, { recursive: true, force: true }));

function sbx(id: string, root: string, mode: SandboxContext["mode"] = "workspace-write"): SandboxContext {
  return { sessionId: id, mode, approval: "on-request", root, tmpDir: path.join(base, ".tmp", id), network: false };
}

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
  return "no error";
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("task taskTable: ownership (no sandbox needed: unconfined tasks)", () => {
  const none = createNoSandbox({ PATH: process.env.PATH });
  let reg: TaskTable;
  before(() => (reg = createTaskTable(none, { killGraceMs: 50 })));
  after(() => reg.disposeAll());

  it("I-55: a task needs an owner session id", () => {
    assert.throws(() => reg.forOwner("", () => sbx("", rootA)), /need an owner session id/);
  });

  it("I-55: a task's sandbox must belong to its owner", async () => {
    const a = reg.forOwner("A", () => sbx("B", rootB));
    assert.match(await errorOf(a.start("true", { cwd: rootB, unconfined: true })), /does not belong to its owner/);
  });

  it("I-57 I-58: another session never reads or signals a task; foreign and unknown ids give byte-identical errors", async () => {
    const a = reg.forOwner("A", () => sbx("A", rootA));
    const b = reg.forOwner("B", () => sbx("B", rootB));
    const { taskId } = await a.start("echo secret-of-A; sleep 300", { cwd: rootA, unconfined: true });
    await pollUntil(async () => (await a.output(taskId)).output.includes("secret"), "A's task output");
    const sweep: string[] = [];
    for (let i = 1; i <= 1000; i++) sweep.push(await errorOf(b.output(`bash-${i}`)), await errorOf(b.kill(`bash-${i}`)));
    assert.equal(
      sweep.some((e) => e.includes("secret")),
      false,
    );
    const foreignOut = await errorOf(b.output(taskId));
    const foreignKill = await errorOf(b.kill(taskId));
    const fake = taskId.slice(0, -1) + (taskId.endsWith("A") ? "B" : "A");
    const unknownOut = await errorOf(b.output(fake));
    assert.equal(foreignOut.replace(taskId, "<id>"), unknownOut.replace(fake, "<id>"));
    assert.equal(foreignKill.replace(taskId, "<id>"), unknownOut.replace(fake, "<id>"));
    assert.equal(foreignOut, `TaskNotFoundError: No background task ${JSON.stringify(taskId)} in this session.`);
    // A's task is untouched.
    assert.deepEqual(await a.output(taskId), { output: "secret-of-A\n", running: true, exitCode: null });
    await a.kill(taskId);
  });

  it("I-59: listing shows only the caller's own tasks", async () => {
    const a = reg.forOwner("LA", () => sbx("LA", rootA));
    const b = reg.forOwner("LB", () => sbx("LB", rootB));
    const { taskId } = await a.start("sleep 300", { cwd: rootA, unconfined: true });
    assert.deepEqual(a.list(), [{ taskId, command: "sleep 300", running: true }]);
    assert.deepEqual(b.list(), []);
    await reg.disposeOwner("LA");
  });

  it("I-62: task ids carry a random suffix, never sequential across sessions", async () => {
    const a = reg.forOwner("RA", () => sbx("RA", rootA));
    const b = reg.forOwner("RB", () => sbx("RB", rootB));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await (i % 2 ? b : a).start("true", { cwd: rootA, unconfined: true })).taskId);
    for (const id of ids) assert.match(id, /^bash-[A-Za-z0-9_-]{12}$/);
    assert.equal(new Set(ids).size, 4);
    // Not a counter: any two ids (consecutive ones across sessions included) share at most a short
    // prefix of their random part. (The old check, "the digits in the ids are not in sorted order",
    // failed in ~5% of runs: four random strings are sorted 1 time in 24.) A false failure here needs
    // 6 equal random base64url characters: p ≈ 6·64⁻⁶ ≈ 1e-10.
    const suffixes = ids.map((id) => id.slice("bash-".length));
    for (const [i, x] of suffixes.entries()) {
      for (const y of suffixes.slice(i + 1)) {
        let common = 0;
        while (common < x.length && x[common] === y[common]) common++;
        assert.ok(common < 6, `ids ${x} and ${y} share a ${common}-character prefix: they look sequential`);
      }
    }
    await reg.disposeOwner("RA");
    await reg.disposeOwner("RB");
  });

  it("I-56: ownership lives in the taskTable: new tool instances keep the owner's access and give none to others", async () => {
    const ctxA = makeCtx({ sessionId: "OA", root: rootA, tasks: reg, answers: ["allow_once"] });
    const ctxB = makeCtx({ sessionId: "OB", root: rootB, tasks: reg });
    const first = createToolRunner({ sandbox: none });
    const started = await first.run("bash", { command: "echo owned; sleep 300", background: true }, ctxA);
    const id = /bash-[A-Za-z0-9_-]+/.exec(started.output)?.[0] ?? "";
    const second = createToolRunner({ sandbox: none }); // fresh tool objects
    await pollUntil(
      async () => (await second.run("bash_output", { task_id: id }, ctxA)).output.startsWith("owned"),
      "the task's output through a fresh runner",
    );
    const foreign = await second.run("bash_kill", { task_id: id }, ctxB);
    assert.deepEqual(foreign, { output: `No background task ${JSON.stringify(id)} in this session.`, isError: true });
    assert.equal((await reg.forOwner("OA", () => ctxA.sandbox).output(id)).running, true);
    await reg.disposeOwner("OA");
  });

  it("I-61: disposing an owner resolves only after a task that ignores SIGTERM has exited (SIGKILL after the grace)", async () => {
    const a = reg.forOwner("DA", () => sbx("DA", rootA));
    const b = reg.forOwner("DB", () => sbx("DB", rootB));
    const { taskId } = await a.start("trap '' TERM; echo ready; while :; do sleep 0.05; done", { cwd: rootA, unconfined: true });
    const other = await b.start("sleep 300", { cwd: rootB, unconfined: true });
    await pollUntil(async () => (await a.output(taskId)).output.includes("ready"), "the TERM trap to be set");
    const pid = (await pidOfTask(a, taskId))!;
    await reg.disposeOwner("DA");
    assert.equal(alive(pid), false);
    assert.equal((await a.output(taskId)).running, false);
    assert.equal((await b.output(other.taskId)).running, true, "the other session's task is untouched");
    await reg.disposeOwner("DB");
  });

  it("I-60: after the owner is disposed, the same session id (a resumed agent) still reads its earlier task output", async () => {
    const a = reg.forOwner("RS", () => sbx("RS", rootA));
    const { taskId } = await a.start("echo before-resume; sleep 300", { cwd: rootA, unconfined: true });
    await pollUntil(async () => (await a.output(taskId)).output.includes("before"), "the task's output");
    await reg.disposeOwner("RS");
    const resumed = reg.forOwner("RS", () => sbx("RS", rootA));
    assert.deepEqual(await resumed.output(taskId), { output: "before-resume\n", running: false, exitCode: 128 });
    await reg.forgetOwner("RS");
    assert.equal(await errorOf(resumed.output(taskId)), new TaskNotFoundError(taskId).name + ": " + new TaskNotFoundError(taskId).message);
  });

  it("onExit reports the owner and task id", async () => {
    const seen: string[] = [];
    const exited = deferred();
    const off = reg.onExit((owner, exit) => (seen.push(`${owner} ${exit.taskId} ${exit.exitCode}`), exited.resolve()));
    const a = reg.forOwner("EX", () => sbx("EX", rootA));
    const { taskId } = await a.start("exit 7", { cwd: rootA, unconfined: true });
    await exited.promise;
    off();
    assert.deepEqual(seen, [`EX ${taskId} 7`]);
  });

  it("after disposeAll no new task starts", async () => {
    const reg2 = createTaskTable(none);
    await reg2.disposeAll();
    assert.match(await errorOf(reg2.forOwner("Z", () => sbx("Z", rootA)).start("true", { cwd: rootA, unconfined: true })), /shutting down/);
  });
});

describe("task taskTable: what a closed session's tasks keep (I-110)", () => {
  const none = createNoSandbox({ PATH: process.env.PATH });

  /** A forced full GC without starting node with --expose-gc (the flag is read when `gc` is first looked up in a new context). */
  function forceGc(): void {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  }

  it("I-110: a disposed owner's finished task record does not keep the agent (its sandbox closure) reachable", async () => {
    const reg = createTaskTable(none, { killGraceMs: 50 });
    let agentRef: WeakRef<object> | undefined;
    let taskId = "";
    await (async () => {
      // Stands in for the Agent: only the owner's sandbox closure refers to it.
      const fakeAgent = { history: "h".repeat(100_000), ctx: sbx("GC", rootA) };
      agentRef = new WeakRef(fakeAgent);
      const access = reg.forOwner("GC", () => fakeAgent.ctx);
      ({ taskId } = await access.start("echo kept-output; sleep 300", { cwd: rootA, unconfined: true }));
      await pollUntil(async () => (await access.output(taskId)).output.includes("kept"), "the task's output");
    })();
    await reg.disposeOwner("GC");
    await new Promise((r) => setImmediate(r)); // WeakRef targets stay alive until the current job ends
    forceGc();
    assert.equal(agentRef!.deref(), undefined, "the closed session's agent is still reachable from the task table");
    // …while its output stays readable by the same session id (I-60).
    assert.deepEqual(await reg.forOwner("GC", () => sbx("GC", rootA)).output(taskId), {
      output: "kept-output\n",
      running: false,
      exitCode: 128,
    });
    await reg.disposeAll();
  });

  it("I-110: a finished task keeps at most what bash_output shows (head and tail), not its whole output buffer", async () => {
    const reg = createTaskTable(none, { killGraceMs: 50 });
    const a = reg.forOwner("BIG", () => sbx("BIG", rootA));
    const exited = deferred();
    const off = reg.onExit(() => exited.resolve());
    const { taskId } = await a.start("seq 1 100000; echo the-end", { cwd: rootA, unconfined: true });
    await exited.promise;
    off();
    const { output } = await a.output(taskId);
    assert.ok(output.length <= MAX_OUTPUT_CHARS, `a finished task keeps ${output.length} characters`);
    assert.match(output, /^1\n2\n3\n/);
    assert.match(output, /the-end\n$/);
    assert.equal(truncateMiddle(output), output, "bash_output shows it as kept (no second truncation marker)");
    await reg.disposeAll();
  });

  it("I-110: records of closed sessions are bounded (oldest dropped first); a live session's finished records too", async () => {
    const reg = createTaskTable(none, { killGraceMs: 50, maxClosedTasks: 3, maxFinishedPerSession: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const a = reg.forOwner(`C${i}`, () => sbx(`C${i}`, rootA));
      ids.push((await a.start(`echo out-${i}; sleep 300`, { cwd: rootA, unconfined: true })).taskId);
      await pollUntil(async () => (await a.output(ids[i]!)).output.includes("out"), "the task's output");
      await reg.disposeOwner(`C${i}`);
    }
    const readable = async (owner: string, id: string): Promise<boolean> =>
      (await errorOf(reg.forOwner(owner, () => sbx(owner, rootA)).output(id))) === "no error";
    assert.deepEqual(await Promise.all(ids.map((id, i) => readable(`C${i}`, id))), [false, false, true, true, true]);
    // A live session: its own finished records beyond the bound go oldest first; running ones never.
    const live = reg.forOwner("LIVE", () => sbx("LIVE", rootA));
    const running = (await live.start("sleep 300", { cwd: rootA, unconfined: true })).taskId;
    const done: string[] = [];
    for (let i = 0; i < 4; i++) {
      const exited = deferred();
      const off = reg.onExit((owner) => owner === "LIVE" && exited.resolve());
      done.push((await live.start(`echo ${i}`, { cwd: rootA, unconfined: true })).taskId);
      await exited.promise;
      off();
    }
    assert.deepEqual(
      live.list().map((t) => t.taskId),
      [running, done[2], done[3]],
    );
    await reg.disposeAll();
  });
});

/** The leader pid of a task (test-only: through the process table, by its command text). */
async function pidOfTask(_a: unknown, _id: string): Promise<number | undefined> {
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, "utf8").includes("trap '' TERM; echo ready")) return Number(name);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

describe("task table under bubblewrap", { skip: !linux && "Linux only" }, () => {
  let sb: CommandSandbox;
  let reg: TaskTable;
  before(async () => {
    sb = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "" }, { log: () => {} });
    reg = createTaskTable(sb, { killGraceMs: 50 });
  });
  after(() => reg.disposeAll());

  it("I-61: disposing an owner kills its confined tasks' whole tree, setsid grandchildren included", async () => {
    assert.equal(sb.backend, "bubblewrap");
    const marker = `mf-task-tree-${process.pid}-${Date.now()}`;
    const a = reg.forOwner("TA", () => sbx("TA", rootA));
    await a.start(`(setsid bash -c 'exec -a ${marker} sleep 300' &); exec -a ${marker} sleep 300`, { cwd: rootA, unconfined: false });
    await pollUntil(() => pidsMatching(marker).length >= 2, "both marker processes");
    await reg.disposeOwner("TA");
    assert.deepEqual(pidsMatching(marker), []);
  });

  it("I-72: background tasks of two sessions are confined to their own roots", async () => {
    const a = reg.forOwner("CA", () => sbx("CA", rootA));
    const b = reg.forOwner("CB", () => sbx("CB", rootB));
    const exits = new Set<string>();
    const bothExited = deferred();
    const off = reg.onExit((owner, exit) => {
      if (owner === "CA" || owner === "CB") exits.add(exit.taskId);
      if (exits.size === 2) bothExited.resolve();
    });
    const ta = await a.start(`{ echo a > ${rootB}/task-from-a; } 2>/dev/null || echo DENIED`, { cwd: rootA, unconfined: false });
    const tb = await b.start(`{ echo b > ${rootA}/task-from-b; } 2>/dev/null || echo DENIED`, { cwd: rootB, unconfined: false });
    await bothExited.promise;
    off();
    assert.deepEqual([...exits].sort(), [ta.taskId, tb.taskId].sort());
    const [oa, ob] = [await a.output(ta.taskId), await b.output(tb.taskId)];
    assert.deepEqual([oa.running, ob.running], [false, false]);
    assert.deepEqual([oa.output, ob.output], ["DENIED\n", "DENIED\n"]);
    assert.deepEqual([fs.existsSync(path.join(rootB, "task-from-a")), fs.existsSync(path.join(rootA, "task-from-b"))], [false, false]);
  });
});
