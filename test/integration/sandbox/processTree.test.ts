// spawnTree().kill(): the tree ends, and kill() resolves only after it has. Without a PID namespace (a
// plain command, as under the `none`, Landlock and sandbox-exec backends) a setsid'd child leaves the
// process group, so a group signal alone would miss it; kill() finds it among the leader's descendants.
// (A grandchild orphaned before the kill is no one's descendant any more: only bubblewrap's PID
// namespace catches that one, see test/integration/tools/bash.test.ts.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { descendantsOf, stillAlive } from "../../../sandbox/procfs";
import { spawnTree } from "../../../sandbox/processTree";
import { pidsMatching, pollUntil } from "../tools/procs";

const linux = process.platform === "linux";

describe("process trees", { skip: !linux && "reads /proc" }, () => {
  it("kill() ends a setsid'd child outside the process group, and resolves only when it is gone", async () => {
    const marker = `mf-tree-${process.pid}-${Date.now()}`;
    const proc = spawnTree(
      {
        file: "bash",
        args: ["-c", `setsid bash -c 'exec -a ${marker} sleep 300' >/dev/null 2>&1 & exec -a ${marker} sleep 300`],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        cwd: process.cwd(),
      },
      () => undefined,
    );
    // The sleeps exec asynchronously: the process table has no event.
    await pollUntil(() => pidsMatching(marker).length >= 2, "two marker processes");
    const [setsidOne, ...more] = pidsMatching(marker).filter((pid) => pid !== proc.child.pid);
    assert.ok(setsidOne !== undefined && more.length === 0, "one child besides the leader");
    assert.notEqual(
      readFileSync(`/proc/${setsidOne}/stat`, "utf8").split(") ")[1]?.split(" ")[3],
      String(proc.child.pid),
      "the child left the group",
    );
    await proc.kill(50);
    assert.deepEqual(pidsMatching(marker), [], "a process of the tree outlived kill()");
  });

  it("ended: after a kill() nobody awaited (a timeout, a cancel), it resolves only when the whole tree is gone", async () => {
    // The children ignore SIGTERM (the disposition survives exec) and hold no pipe, so the leader's exit
    // comes first and only kill()'s SIGKILL ends them, after `exited`. Twenty of them: dying takes the
    // kernel a moment, long enough that a check right after `exited` would still see some.
    const marker = `mf-ended-${process.pid}-${Date.now()}`;
    const proc = spawnTree(
      {
        file: "bash",
        args: [
          "-c",
          `for i in $(seq 20); do (trap '' TERM; exec -a ${marker} sleep 300) </dev/null >/dev/null 2>&1 & done; exec sleep 300`,
        ],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        cwd: process.cwd(),
      },
      () => undefined,
    );
    await pollUntil(() => pidsMatching(marker).length >= 20, "the marker processes");
    let killFinished = false;
    void proc.kill(5_000).then(() => (killFinished = true));
    await proc.ended;
    assert.equal(killFinished, true, "`ended` resolved before the kill had finished");
    assert.deepEqual(pidsMatching(marker), [], "a process of the tree outlived `ended`");
  });

  it("descendantsOf names children and grandchildren with their start time; stillAlive drops the dead", async () => {
    const marker = `mf-desc-${process.pid}-${Date.now()}`;
    const proc = spawnTree(
      {
        file: "bash",
        args: ["-c", `bash -c 'exec -a ${marker} sleep 300' & exec -a ${marker} sleep 300`],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        cwd: process.cwd(),
      },
      () => undefined,
    );
    await pollUntil(() => pidsMatching(marker).length >= 2, "two marker processes");
    assert.ok(proc.child.pid);
    const tree = descendantsOf(process.pid);
    const mine = pidsMatching(marker);
    for (const pid of mine)
      assert.ok(
        tree.some((r) => r.pid === pid && r.start !== ""),
        `${pid} is not among the descendants`,
      );
    assert.deepEqual(
      descendantsOf(proc.child.pid).map((r) => r.pid),
      mine.filter((pid) => pid !== proc.child.pid),
      "the leader's one child",
    );
    const refs = tree.filter((r) => mine.includes(r.pid));
    await proc.kill(50);
    assert.deepEqual(stillAlive(refs), []);
    // A ref whose start time differs (a reused pid) is never taken for a live process.
    assert.deepEqual(stillAlive([{ pid: process.pid, start: "not-a-start-time" }]), []);
  });
});
