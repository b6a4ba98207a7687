import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FolderChangedError, FolderCheckpoints } from "../../../extension/checkpoints/folderCheckpoints";
import { ForeignRepoError, ShadowRepo } from "../../../extension/checkpoints/shadowRepo";
import { describeFailure } from "../../../extension/checkpoints/restore";
import { fingerprint, read, tempBase, write } from "./helpers";

function setup(opts: { sizeCap?: number } = {}) {
  const base = tempBase();
  const folder = join(base, "proj");
  mkdirSync(folder);
  const storage = join(base, "storage");
  return { base, folder, storage, ck: new FolderCheckpoints(storage, folder, opts) };
}

test("I-105: restoring session A changes nothing in folder B, and undoing the restore brings A back exactly", async () => {
  const base = tempBase();
  const storage = join(base, "storage");
  const a = join(base, "a");
  const b = join(base, "b");
  write(a, "src/one.ts", "one v1\n");
  write(a, "two.txt", "two v1\n");
  write(b, "shared.txt", "b v1\n");
  const ckA = new FolderCheckpoints(storage, a);
  const ckB = new FolderCheckpoints(storage, b);
  const first = await ckA.beforePrompt("sA", 0, "edit both");
  await ckB.beforePrompt("sB", 0, "in b");
  // The agent's turn in A: edits two files and a command creates a third.
  write(a, "src/one.ts", "one v2\n");
  rmSync(join(a, "two.txt"));
  write(a, "made-by-bash/out.log", "log\n");
  await ckA.afterTurn("sA");
  // B has changes of its own, not checkpointed yet.
  write(b, "shared.txt", "b v2 (uncommitted)\n");
  write(b, "new-in-b.txt", "b new\n");
  const bBefore = fingerprint(b);
  const aBeforeRestore = fingerprint(a);

  const plan = await ckA.planRestore("sA", first.id);
  assert.deepEqual(plan.items.map((i) => `${i.action} ${i.path}`).sort(), [
    "delete made-by-bash/out.log",
    "write src/one.ts",
    "write two.txt",
  ]);
  const { undo, results } = await ckA.restore(plan, new Set());
  assert.ok(
    results.every((r) => r.ok),
    JSON.stringify(results),
  );
  assert.equal(read(a, "src/one.ts"), "one v1\n");
  assert.equal(read(a, "two.txt"), "two v1\n");
  assert.equal(existsSync(join(a, "made-by-bash")), false, "the directory the command created goes too");
  assert.deepEqual(fingerprint(b), bBefore, "nothing in B changed");

  // Session B's records cannot name A's checkpoint.
  await assert.rejects(ckB.planRestore("sB", first.id), /No checkpoint/);

  const back = await ckA.planRestore("sA", undo.id);
  const r2 = await ckA.restore(back, new Set());
  assert.ok(r2.results.every((r) => r.ok));
  assert.deepEqual(fingerprint(a), aBeforeRestore, "undoing the restore brings back the state before it");
  assert.deepEqual(fingerprint(b), bBefore);
});

test("I-105: a shadow repository recorded for another folder is refused", async () => {
  const { folder, storage, base } = setup();
  write(folder, "x.txt", "x");
  const other = join(base, "other");
  write(other, "y.txt", "y");
  const repo = ShadowRepo.forFolder(storage, folder);
  await repo.snapshot();
  // Point the other folder's store at this repository (as a corrupted or copied store would).
  const foreign = ShadowRepo.forFolder(storage, other);
  mkdirSync(join(foreign.repo.gitDir, ".."), { recursive: true });
  execFileSync("cp", ["-r", repo.repo.gitDir, foreign.repo.gitDir]);
  await assert.rejects(foreign.snapshot(), ForeignRepoError);
});

test("a restore lists files the user changed by hand since the checkpoint, and can leave them alone", async () => {
  const { folder, ck } = setup();
  write(folder, "agent.txt", "a1\n");
  write(folder, "mine.txt", "m1\n");
  const c1 = await ck.beforePrompt("s", 0, "first");
  write(folder, "agent.txt", "a2\n");
  await ck.afterTurn("s");
  write(folder, "mine.txt", "m2 by hand\n"); // between turns: the user's
  await ck.beforePrompt("s", 1, "second");
  write(folder, "agent.txt", "a3\n");
  await ck.afterTurn("s");
  const plan = await ck.planRestore("s", c1.id);
  const mine = plan.items.find((i) => i.path === "mine.txt");
  assert.equal(mine?.userEdit, "changed by hand since this checkpoint");
  assert.equal(plan.items.find((i) => i.path === "agent.txt")?.userEdit, undefined);
  await ck.restore(plan, new Set(plan.items.filter((i) => i.userEdit).map((i) => i.path)));
  assert.equal(read(folder, "agent.txt"), "a1\n");
  assert.equal(read(folder, "mine.txt"), "m2 by hand\n", "the user's edit is kept");
});

test("files with unsaved editor changes are listed as user edits", async () => {
  const base = tempBase();
  const folder = join(base, "p");
  write(folder, "f.txt", "1");
  const ck = new FolderCheckpoints(join(base, "s"), folder, { dirtyFiles: () => [join(folder, "f.txt")] });
  const c = await ck.beforePrompt("s", 0, "x");
  write(folder, "f.txt", "2");
  const plan = await ck.planRestore("s", c.id);
  assert.equal(plan.items[0]?.userEdit, "has unsaved changes in the editor");
});

test("a restore refuses when the folder changed after the plan was shown", async () => {
  const { folder, ck } = setup();
  write(folder, "f.txt", "1");
  const c = await ck.beforePrompt("s", 0, "x");
  write(folder, "f.txt", "2");
  const plan = await ck.planRestore("s", c.id);
  write(folder, "f.txt", "3 meanwhile");
  await assert.rejects(ck.restore(plan, new Set()), FolderChangedError);
  assert.equal(read(folder, "f.txt"), "3 meanwhile");
});

test("changes since the last prompt with +/- counts; keep and undo per file and for all", async () => {
  const { folder, ck } = setup();
  write(folder, "a.txt", "1\n2\n3\n");
  write(folder, "b.txt", "b\n");
  await ck.beforePrompt("s", 0, "x");
  write(folder, "a.txt", "1\n2 changed\n3\n4\n");
  write(folder, "b.txt", "b2\n");
  write(folder, "c.txt", "new\n");
  const ch = await ck.changes("s");
  assert.deepEqual(
    ch.files.map((f) => `${f.status} ${f.path} +${f.added} -${f.removed}`),
    ["M a.txt +2 -1", "M b.txt +1 -1", "A c.txt +1 -0"],
  );
  assert.equal((await ck.baselineContent("s", "a.txt"))?.toString(), "1\n2\n3\n");
  await ck.keep("s", ["a.txt"]);
  assert.deepEqual(
    (await ck.changes("s")).files.map((f) => f.path),
    ["b.txt", "c.txt"],
  );
  await ck.undoFiles("s", ["b.txt"]);
  assert.equal(read(folder, "b.txt"), "b\n");
  assert.equal(read(folder, "a.txt"), "1\n2 changed\n3\n4\n", "kept");
  await ck.undoFiles("s", "all");
  assert.equal(existsSync(join(folder, "c.txt")), false);
  assert.deepEqual((await ck.changes("s")).files, []);
});

test("the user's own git repository is never touched: no commits, stashes, index or config changes", async () => {
  const { folder, ck } = setup();
  const g = (...args: string[]) =>
    execFileSync("git", ["-C", folder, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" });
  g("init", "-q");
  write(folder, "tracked.txt", "t1\n");
  g("add", "tracked.txt");
  g("commit", "-q", "-m", "init");
  write(folder, "tracked.txt", "t2 staged\n");
  g("add", "tracked.txt");
  write(folder, "tracked.txt", "t3 unstaged\n");
  const gitBefore = fingerprint(join(folder, ".git"));
  const c = await ck.beforePrompt("s", 0, "x");
  write(folder, "tracked.txt", "agent\n");
  await ck.afterTurn("s");
  await ck.changes("s");
  await ck.restore(await ck.planRestore("s", c.id), new Set());
  assert.equal(read(folder, "tracked.txt"), "t3 unstaged\n");
  assert.deepEqual(fingerprint(join(folder, ".git")), gitBefore, "the user's .git is byte-identical");
});

test("ignored and large files follow the rule: not recorded, and a restore leaves them as they are", async () => {
  const { folder, ck } = setup({ sizeCap: 1000 });
  write(folder, ".gitignore", "build/\n");
  write(folder, "build/out.js", "v1");
  write(folder, "big.bin", "x".repeat(2000));
  write(folder, "small.txt", "s1");
  const c = await ck.beforePrompt("s", 0, "x");
  assert.deepEqual(c.skipped, [{ path: "big.bin", reason: "larger than 0 MB" }]);
  write(folder, "build/out.js", "v2");
  write(folder, "big.bin", "y".repeat(3000));
  write(folder, "small.txt", "s2");
  const plan = await ck.planRestore("s", c.id);
  assert.deepEqual(
    plan.items.map((i) => i.path),
    ["small.txt"],
  );
  await ck.restore(plan, new Set());
  assert.equal(read(folder, "build/out.js"), "v2");
  assert.equal(read(folder, "big.bin"), "y".repeat(3000));
  // A file that was small at the checkpoint and is over the cap now is left alone, with the reason.
  write(folder, "small.txt", "z".repeat(5000));
  const plan2 = await ck.planRestore("s", c.id);
  const res = await ck.restore(plan2, new Set());
  assert.match(res.results.find((r) => r.path === "small.txt")?.reason ?? "", /not recorded now/);
  assert.equal(read(folder, "small.txt"), "z".repeat(5000));
});

test("a file deleted and recreated as a directory gets a clear message; the rest is restored and the undo point exists", async () => {
  const { folder, ck } = setup();
  write(folder, ".gitignore", "*.log\n");
  write(folder, "f.txt", "file");
  write(folder, "g.txt", "g1");
  const c = await ck.beforePrompt("s", 0, "x");
  rmSync(join(folder, "f.txt"));
  write(folder, "f.txt/inner.txt", "now a dir");
  write(folder, "f.txt/keep.log", "ignored, so not ours to delete");
  write(folder, "g.txt", "g2");
  const plan = await ck.planRestore("s", c.id);
  const { results, undo } = await ck.restore(plan, new Set());
  const f = results.find((r) => r.path === "f.txt");
  assert.equal(f?.ok, false);
  assert.match(f?.reason ?? "", /directory/);
  assert.equal(read(folder, "g.txt"), "g1");
  assert.equal(read(folder, "f.txt/keep.log"), "ignored, so not ours to delete", "the directory is not removed");
  assert.equal(undo.kind, "restore");
});

test("a directory swapped for a symlink to outside the folder is never written through", async () => {
  const { folder, ck, base } = setup();
  write(folder, "sub/f.txt", "inside v1");
  const c = await ck.beforePrompt("s", 0, "x");
  const outside = join(base, "outside");
  mkdirSync(outside);
  rmSync(join(folder, "sub"), { recursive: true });
  symlinkSync(outside, join(folder, "sub"));
  const plan = await ck.planRestore("s", c.id);
  const { results } = await ck.restore(plan, new Set());
  assert.equal(existsSync(join(outside, "f.txt")), false, "nothing written outside");
  assert.ok(
    results.some((r) => r.path === "sub/f.txt" && !r.ok && /outside the folder/.test(r.reason ?? "")),
    JSON.stringify(results),
  );
});

test("restores the executable bit, and failures name their cause", async () => {
  const { folder, ck } = setup();
  write(folder, "run.sh", "#!/bin/sh\n");
  chmodSync(join(folder, "run.sh"), 0o755);
  const c = await ck.beforePrompt("s", 0, "x");
  rmSync(join(folder, "run.sh"));
  await ck.restore(await ck.planRestore("s", c.id), new Set());
  assert.equal(statSync(join(folder, "run.sh")).mode & 0o111, 0o111);
  assert.match(describeFailure(Object.assign(new Error("x"), { code: "ENOSPC" })), /disk is full/);
  assert.match(describeFailure(Object.assign(new Error("x"), { code: "EACCES" })), /permission denied/);
  assert.match(describeFailure(Object.assign(new Error("x"), { code: "EBUSY" })), /locked/);
});

test("git never runs programs from the user's config or the folder's attributes (hooks, fsmonitor, filters)", async () => {
  const { folder, storage, base } = setup();
  const marker = join(base, "pwned");
  const script = join(base, "evil.sh");
  writeFileSync(script, `#!/bin/sh\ntouch ${marker}\ncat\n`);
  chmodSync(script, 0o755);
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(
    join(home, ".gitconfig"),
    `[core]\n\tfsmonitor = ${script}\n\thooksPath = ${base}\n[filter "evil"]\n\tclean = ${script}\n\tsmudge = ${script}\n`,
  );
  write(folder, ".gitattributes", "* filter=evil\n");
  write(folder, "a.txt", "a");
  // The host's HOME holds the evil config, and a host GIT_DIR must not leak in either.
  const ck = new FolderCheckpoints(storage, folder, { env: { ...process.env, HOME: home, GIT_DIR: join(folder, ".git") } });
  const c = await ck.beforePrompt("s", 0, "x");
  write(folder, "a.txt", "b");
  await ck.afterTurn("s");
  await ck.restore(await ck.planRestore("s", c.id), new Set());
  assert.equal(existsSync(marker), false, "no program ran");
  assert.equal(read(folder, "a.txt"), "a");
  assert.equal(existsSync(join(folder, ".git")), false, "no .git appeared in the folder");
});

test("checkpoints survive a restart (a new instance reads them) and are deleted with their session", async () => {
  const { folder, ck, storage } = setup();
  write(folder, "f.txt", "1");
  const c = await ck.beforePrompt("s", 0, "x");
  await ck.beforePrompt("other", 0, "y");
  write(folder, "f.txt", "2");
  const again = new FolderCheckpoints(storage, folder);
  assert.deepEqual(
    (await again.list("s")).map((x) => x.id),
    [c.id],
  );
  await again.restore(await again.planRestore("s", c.id), new Set());
  assert.equal(read(folder, "f.txt"), "1");
  await again.deleteSession("s");
  assert.deepEqual(await again.list("s"), []);
  assert.equal((await again.list("other")).length, 1, "another session's checkpoints stay");
  const refs = execFileSync("git", ["--git-dir", again.repo.repo.gitDir, "for-each-ref", "--format=%(refname)"], { encoding: "utf8" });
  assert.equal(refs.split("\n").filter(Boolean).length, 1);
});

test("old checkpoints beyond the per-session bound are dropped", async () => {
  const base = tempBase();
  const folder = join(base, "p");
  write(folder, "f.txt", "0");
  const ck = new FolderCheckpoints(join(base, "s"), folder, { maxPerSession: 3 });
  for (let i = 0; i < 5; i++) {
    write(folder, "f.txt", String(i));
    await ck.beforePrompt("s", i, `p${i}`);
  }
  assert.deepEqual(
    (await ck.list("s")).map((c) => c.label),
    ["p2", "p3", "p4"],
  );
});

test("a fork keeps the checkpoints before the fork point", async () => {
  const { folder, ck } = setup();
  write(folder, "f.txt", "0");
  await ck.beforePrompt("s", 0, "p0");
  write(folder, "f.txt", "1");
  await ck.beforePrompt("s", 1, "p1");
  await ck.fork("s", "t", 1);
  assert.deepEqual(
    (await ck.list("t")).map((c) => c.label),
    ["p0"],
  );
  await ck.deleteSession("s");
  const only = (await ck.list("t"))[0]!;
  write(folder, "f.txt", "later");
  await ck.restore(await ck.planRestore("t", only.id), new Set());
  assert.equal(read(folder, "f.txt"), "0", "the fork's checkpoints outlive the parent");
});
