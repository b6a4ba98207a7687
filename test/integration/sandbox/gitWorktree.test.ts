// Worktree mode of the git plan (sandbox/gitWorktree.ts): a session whose root is a genuine linked
// worktree outside its repository may commit to its branch through git, and nothing else of the
// shared repository becomes writable; a forged `.git` pointer gets nothing. The plan is checked on
// disk, each backend's rules from it (bubblewrap's argv and mount check, Landlock's helper argv, the
// Seatbelt profile), and the real backends of this machine run the commit and the attacks.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { BindChangedError, BindFds, releaseDescriptors } from "../../../sandbox/bindFds";
import { createBwrapSandbox, gitProtectionArgs } from "../../../sandbox/bwrap";
import { detectSandbox } from "../../../sandbox/detect";
import { gitProtectionPlan, type GitProtection } from "../../../sandbox/gitPlan";
import { linkedWorktreeOf } from "../../../sandbox/gitWorktree";
import { landlockArgs } from "../../../sandbox/landlock";
import { LANDLOCK_HELPER_SOURCE } from "../../../sandbox/landlockHelper";
import { writableDests } from "../../../sandbox/mountCheck";
import { isInside } from "../../../sandbox/pathGuard";
import { seatbeltProfile } from "../../../sandbox/seatbelt";
import type { CommandSandbox } from "../../../sandbox/types";
import { branchHead, git, makeWorktreeRepo, type WorktreeRepo } from "../../support/worktreeRepo";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";

let fx: Fixture;
let n = 0;
before(() => {
  fx = makeFixture("mf-worktree-");
});
after(() => fx.cleanup());

const repo = (): WorktreeRepo => makeWorktreeRepo(fx.base, `repo${++n}`);
const outsideEntries = (plan: GitProtection, root: string): string[] =>
  [...plan.pinned, ...plan.writable, ...plan.readOnly, ...plan.masked].filter((p) => !isInside(p, root));
/** The plan as without worktree mode: nothing granted, every entry inside the root. */
function assertNothingGranted(root: string): void {
  const plan = gitProtectionPlan(root);
  assert.deepEqual(plan.writable, []);
  assert.deepEqual(outsideEntries(plan, root), []);
}
/** A fake git dir (HEAD, objects, refs) at `dir`, and under it `worktrees/<id>` naming `dotgit`. */
function craftCommon(dir: string, id: string, dotgit: string, commondir = "../.."): string {
  for (const d of ["objects", "refs/heads", "logs", "hooks"]) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
  const g = path.join(dir, "worktrees", id);
  fs.mkdirSync(g, { recursive: true });
  fs.writeFileSync(path.join(g, "HEAD"), "ref: refs/heads/x\n");
  fs.writeFileSync(path.join(g, "commondir"), `${commondir}\n`);
  fs.writeFileSync(path.join(g, "gitdir"), `${dotgit}\n`);
  return g;
}

describe("I-122: the git plan's worktree mode", { skip: !linux && "Linux (the plan reads real paths)" }, () => {
  it("I-122: a genuine linked worktree gets its own git dir and the repository's objects, refs and logs writable, its pointers read-only, nothing else", () => {
    const r = repo();
    const plan = gitProtectionPlan(r.wt);
    assert.deepEqual(linkedWorktreeOf(r.wt), { gitDir: r.wtGitDir, commonDir: r.common });
    assert.equal(r.wtGitDir, path.join(r.common, "worktrees", "task"));
    assert.deepEqual(plan.writable, [path.join(r.common, "objects"), path.join(r.common, "refs"), path.join(r.common, "logs"), r.wtGitDir]);
    // The branches the main working tree and the other worktree stand on stay where they are.
    assert.deepEqual(plan.readOnly, [
      path.join(r.wt, ".git"),
      path.join(r.wtGitDir, "commondir"),
      path.join(r.wtGitDir, "gitdir"),
      path.join(r.common, "refs", "heads", "main"),
      path.join(r.common, "refs", "heads", "other"),
    ]);
    assert.deepEqual(plan.masked, [path.join(r.wtGitDir, "config.worktree")]);
    assert.deepEqual(plan.pinned, []);
    // Nothing of the repository's top level, the other worktree or a working tree is granted.
    for (const w of plan.writable) {
      for (const p of ["hooks", "config", "HEAD", "index", "packed-refs"].map((x) => path.join(r.common, x)))
        assert.equal(isInside(p, w), false, `${p} inside the grant ${w}`);
      assert.equal(isInside(r.otherGitDir, w) || isInside(r.main, w) || isInside(r.other, w), false);
    }
  });

  it("I-122: a missing logs/ is created; an existing config.worktree and a modules/ dir stay read-only", () => {
    const r = repo();
    fs.rmSync(path.join(r.common, "logs"), { recursive: true });
    fs.writeFileSync(path.join(r.wtGitDir, "config.worktree"), "");
    fs.mkdirSync(path.join(r.wtGitDir, "modules"));
    const plan = gitProtectionPlan(r.wt);
    assert.equal(fs.statSync(path.join(r.common, "logs")).isDirectory(), true);
    assert.ok(plan.writable.includes(path.join(r.common, "logs")));
    assert.deepEqual(
      plan.readOnly.filter((p) => isInside(p, r.wtGitDir)).sort(),
      ["commondir", "config.worktree", "gitdir", "modules"].map((f) => path.join(r.wtGitDir, f)),
    );
    assert.deepEqual(plan.masked, []);
  });

  it("I-122: the main working tree's session (its .git a directory) gets no grant outside it", () => {
    const r = repo();
    assertNothingGranted(r.main);
  });

  it("I-122: a plain folder's forged `.git` naming another worktree's genuine git dir gets nothing", () => {
    const r = repo();
    const plain = fx.dir(`plain-${n}`);
    fs.writeFileSync(path.join(plain, ".git"), `gitdir: ${r.wtGitDir}\n`);
    assertNothingGranted(plain);
    // Through a symlink in the folder, or a relative spelling: the same genuine dir, the same answer.
    fs.symlinkSync(path.join(r.common, "worktrees"), path.join(plain, "wts"));
    fs.writeFileSync(path.join(plain, ".git"), "gitdir: wts/task\n");
    assertNothingGranted(plain);
  });

  it("I-122: a crafted git dir (in the folder or outside it) whose commondir names another repository gets nothing", () => {
    const r = repo();
    const plain = fx.dir(`plain-${n}`);
    const dotgit = path.join(plain, ".git");
    // In the folder: <folder>/fake/worktrees/x, commondir → the victim.
    const inFolder = craftCommon(path.join(plain, "fake"), "x", dotgit, r.common);
    fs.writeFileSync(dotgit, `gitdir: ${inFolder}\n`);
    assertNothingGranted(plain);
    // Outside the folder (a temp area): the same.
    const outside = craftCommon(path.join(fx.base, ".tmp", `s${n}`, "fake"), "x", dotgit, r.common);
    fs.writeFileSync(dotgit, `gitdir: ${outside}\n`);
    assertNothingGranted(plain);
    // A crafted dir whose `worktrees` is a symlink into the victim: realpath lands on a genuine dir naming another .git.
    const viaLink = path.join(fx.base, ".tmp", `s${n}`, "linked");
    fs.mkdirSync(viaLink, { recursive: true });
    fs.symlinkSync(path.join(r.common, "worktrees"), path.join(viaLink, "worktrees"));
    fs.writeFileSync(dotgit, `gitdir: ${viaLink}/worktrees/task\n`);
    assertNothingGranted(plain);
  });

  it("I-122: a self-consistent forged repository inside the folder gets nothing (the common dir must lie outside the root)", () => {
    const plain = fx.dir(`selfmade-${++n}`);
    const g = craftCommon(path.join(plain, "c"), "x", path.join(plain, ".git"));
    fs.writeFileSync(path.join(plain, ".git"), `gitdir: ${g}\n`);
    assertNothingGranted(plain);
  });

  it("I-122: a `.git` symlink (to a genuine pointer file) and symlinked pointers inside the git dir get nothing", () => {
    const r = repo();
    const pointer = path.join(r.wt, ".git");
    const copy = path.join(fx.base, `pointer-${n}`);
    fs.copyFileSync(pointer, copy);
    fs.rmSync(pointer);
    fs.symlinkSync(copy, pointer);
    assertNothingGranted(r.wt);
    fs.rmSync(pointer);
    fs.copyFileSync(copy, pointer);
    assert.notDeepEqual(gitProtectionPlan(r.wt).writable, []);
    for (const f of ["commondir", "gitdir", "config.worktree"]) {
      const p = path.join(r.wtGitDir, f);
      const saved = path.join(fx.base, `saved-${f}-${n}`);
      if (fs.existsSync(p)) fs.renameSync(p, saved);
      else fs.writeFileSync(saved, "");
      fs.symlinkSync(saved, p);
      assertNothingGranted(r.wt);
      fs.rmSync(p);
      fs.renameSync(saved, p);
    }
  });

  it("I-122: `..` in a pointer resolves as the kernel and git resolve it, not lexically", () => {
    const r = repo();
    const pointer = path.join(r.wt, ".git");
    // Lexically `<wt>/lnk/../../../<repo>/.git/worktrees/task` is the genuine git dir; the kernel
    // follows `lnk` to `/` first and finds nothing there, and git with it: no grant.
    fs.symlinkSync("/", path.join(r.wt, "lnk"));
    const rel = path.relative(fx.base, r.wtGitDir);
    fs.writeFileSync(pointer, `gitdir: lnk/../../../${rel}\n`);
    assert.equal(path.resolve(r.wt, `lnk/../../../${rel}`), r.wtGitDir);
    assertNothingGranted(r.wt);
    // The other way round: lexically nothing, by the kernel the genuine git dir: granted.
    fs.symlinkSync(r.otherGitDir, path.join(r.wt, "lnk2"));
    fs.writeFileSync(pointer, "gitdir: lnk2/../task\n");
    assert.equal(fs.existsSync(path.resolve(r.wt, "lnk2/../task")), false);
    assert.ok(gitProtectionPlan(r.wt).writable.includes(r.wtGitDir));
  });

  it("I-122: a worktree inside its common dir, or a common dir whose objects are a symlink, gets nothing", () => {
    const r = repo();
    const inside = path.join(r.common, "inside-wt");
    git(r.main, "worktree", "add", "-q", "-b", "inside", inside, "HEAD");
    assert.notEqual(fs.readFileSync(path.join(inside, ".git"), "utf8"), "");
    assertNothingGranted(inside);
    const objects = path.join(r.common, "objects");
    fs.renameSync(objects, path.join(r.common, "objects.real"));
    fs.symlinkSync("objects.real", objects);
    assertNothingGranted(r.wt);
  });

  it("I-122: the backends bind or name exactly the plan's grants, and the mount check expects them", () => {
    const r = repo();
    const ctx = fx.ctxFor(`b${n}`, r.wt);
    const grants = gitProtectionPlan(r.wt).writable;
    const bw = createBwrapSandbox({ bwrapPath: "/usr/bin/bwrap", env: process.env }).wrap("true", ctx, { cwd: r.wt, unconfined: false });
    releaseDescriptors(bw);
    const dashDash = bw.args.indexOf("--");
    const binds = bw.args.slice(0, dashDash).flatMap((a, i, all) => (a === "--bind-fd" ? [all[i + 2] ?? ""] : []));
    for (const g of grants) assert.ok(binds.includes(g), `bwrap binds ${g} writable`);
    for (const g of grants) assert.ok(writableDests(bw.args).includes(g), `the mount check expects ${g}`);
    const roBinds = bw.args.flatMap((a, i, all) => (a === "--ro-bind-fd" ? [all[i + 2] ?? ""] : []));
    for (const f of ["commondir", "gitdir", "config.worktree"]) assert.ok(roBinds.includes(path.join(r.wtGitDir, f)), f);
    // After the grant of the git dir: a read-only bind below it must not be covered by it.
    assert.ok(bw.args.indexOf(r.wtGitDir) < bw.args.indexOf(path.join(r.wtGitDir, "commondir")));
    const ll = landlockArgs("true", ctx);
    const llRoots = ll.slice(5, ll.indexOf("--"));
    assert.deepEqual(llRoots, [r.wt, ctx.tmpDir, ...grants]);
  });

  it("I-122: a grant swapped for a symlink after the plan refuses the command; a plan entry outside its grants is refused", () => {
    const r = repo();
    const plan = gitProtectionPlan(r.wt);
    const refs = path.join(r.common, "refs");
    const elsewhere = fx.dir(`elsewhere-${n}`);
    fs.renameSync(refs, path.join(r.common, "refs.real"));
    fs.symlinkSync(elsewhere, refs);
    const fds = new BindFds();
    try {
      assert.throws(() => gitProtectionArgs(r.wt, plan, fds), BindChangedError);
    } finally {
      fds.close();
    }
    fs.rmSync(refs);
    fs.renameSync(path.join(r.common, "refs.real"), refs);
    const bad: GitProtection[] = [
      { ...plan, readOnly: [...plan.readOnly, path.join(r.common, "config")] },
      { ...plan, writable: [...plan.writable, path.dirname(r.wt)] },
      { ...plan, pinned: [path.join(r.common, "hooks")] },
    ];
    for (const p of bad) {
      const f = new BindFds();
      try {
        assert.throws(() => gitProtectionArgs(r.wt, p, f), /Refusing to bind/);
      } finally {
        f.close();
      }
    }
  });

  it("I-122: a self-consistent forgery in the session temp area is granted by no backend (a masked dir)", () => {
    const plain = fx.dir(`tmpforge-${++n}`);
    const ctx = fx.ctxFor(`t${n}`, plain);
    const g = craftCommon(path.join(ctx.tmpDir, "c"), "x", path.join(plain, ".git"));
    fs.writeFileSync(path.join(plain, ".git"), `gitdir: ${g}\n`);
    const crafted = path.join(ctx.tmpDir, "c");
    const bw = createBwrapSandbox({ bwrapPath: "/usr/bin/bwrap", env: process.env }).wrap("true", ctx, { cwd: plain, unconfined: false });
    releaseDescriptors(bw);
    assert.equal(
      bw.args.some((a) => a.startsWith(crafted)),
      false,
      "bwrap binds nothing of the crafted dir",
    );
    assert.equal(
      landlockArgs("true", ctx).some((a) => a.startsWith(crafted)),
      false,
    );
    assert.equal(
      seatbeltProfile(ctx, (p) => p).params.some(([, v]) => v.startsWith(crafted)),
      false,
    );
  });

  it("I-122: Seatbelt: each grant is a writable root minus the git dir's pointers, pinned itself; the repository's top level is not writable", () => {
    const r = repo();
    const ctx = fx.ctxFor(`sb${n}`, r.wt);
    const { params, profile } = seatbeltProfile(ctx, (p) => p);
    const rootParams = params.filter(([k]) => /^WRITABLE_ROOT_\d+$/.test(k)).map(([, v]) => v);
    assert.deepEqual(rootParams, [
      r.wt,
      path.join(r.common, "objects"),
      path.join(r.common, "refs"),
      path.join(r.common, "logs"),
      r.wtGitDir,
      ctx.tmpDir,
    ]);
    const g = params.find(([, v]) => v === r.wtGitDir)?.[0] ?? "";
    assert.equal(g, "WRITABLE_ROOT_4");
    assert.deepEqual(
      params.filter(([k]) => k.startsWith(`${g}_`)),
      [
        [`${g}_RO_0`, path.join(r.wtGitDir, "commondir")],
        [`${g}_RO_1`, path.join(r.wtGitDir, "gitdir")],
        [`${g}_RO_2`, path.join(r.wtGitDir, "config.worktree")],
        [`${g}_PIN_0`, r.wtGitDir],
      ],
    );
    assert.match(
      profile,
      new RegExp(
        `\\(require-all \\(subpath \\(param "${g}"\\)\\) \\(require-not \\(subpath \\(param "${g}_RO_0"\\)\\)\\) \\(require-not \\(subpath \\(param "${g}_RO_1"\\)\\)\\) \\(require-not \\(subpath \\(param "${g}_RO_2"\\)\\)\\) \\(require-not \\(literal \\(param "${g}_PIN_0"\\)\\)\\)\\)`,
      ),
    );
    for (const k of ["WRITABLE_ROOT_1", "WRITABLE_ROOT_3"])
      assert.match(
        profile,
        new RegExp(`\\(require-all \\(subpath \\(param "${k}"\\)\\) \\(require-not \\(literal \\(param "${k}_PIN_0"\\)\\)\\)\\)`),
      );
    // refs/ minus the branches the other working trees stand on.
    assert.deepEqual(
      params.filter(([k]) => k.startsWith("WRITABLE_ROOT_2_RO_")),
      [
        ["WRITABLE_ROOT_2_RO_0", path.join(r.common, "refs", "heads", "main")],
        ["WRITABLE_ROOT_2_RO_1", path.join(r.common, "refs", "heads", "other")],
      ],
    );
    assert.equal(
      params.some(([, v]) => v === r.common || v === r.otherGitDir || v === r.main),
      false,
    );
  });
});

const GIT = "git -c user.name=t -c user.email=t@t";
/** The commit, then every write worktree mode must still refuse; one line per outcome. */
function attempts(r: WorktreeRepo, pointers = true): string {
  const tries: Array<[string, string]> = [
    ["main", `${r.main}/planted.txt`],
    ["other", `${r.other}/planted.txt`],
    ["hook", `${r.common}/hooks/post-commit`],
    ["config", `${r.common}/config`],
    ["common-new", `${r.common}/planted`],
    ["other-head", `${r.otherGitDir}/HEAD`],
  ];
  if (pointers)
    tries.push(
      ["commondir", `${r.wtGitDir}/commondir`],
      ["gitdir", `${r.wtGitDir}/gitdir`],
      ["config-worktree", `${r.wtGitDir}/config.worktree`],
    );
  // Moving a branch another working tree has checked out (bwrap binds its loose ref read-only).
  const refMoves = pointers
    ? ["main", "other"].map((b) => `${GIT} update-ref refs/heads/${b} HEAD 2>/dev/null && echo 'WROTE ${b}-ref' || echo 'refused ${b}-ref'`)
    : [];
  return [
    `echo change >> f.txt && ${GIT} add -A && ${GIT} commit -qm x && echo COMMITTED`,
    ...tries.map(([name, p]) => `{ echo x >> '${p}'; } 2>/dev/null && echo 'WROTE ${name}' || echo 'refused ${name}'`),
    ...refMoves,
    `mv '${r.wtGitDir}' '${r.wtGitDir}.moved' 2>/dev/null && echo 'MOVED gitdir' || echo 'refused mv'`,
  ].join("; ");
}

/** Host-side: only the branch moved; nothing outside the worktree changed. */
function assertOnlyBranchMoved(r: WorktreeRepo, before: { task: string; main: string; other: string; config: string }): void {
  assert.notEqual(branchHead(r, "task"), before.task, "refs/heads/task moved");
  assert.deepEqual([branchHead(r, "main"), branchHead(r, "other")], [before.main, before.other]);
  assert.equal(fs.readFileSync(path.join(r.common, "config"), "utf8"), before.config);
  assert.equal(fs.existsSync(path.join(r.common, "hooks", "post-commit")), false);
  assert.equal(fs.existsSync(path.join(r.main, "planted.txt")) || fs.existsSync(path.join(r.other, "planted.txt")), false);
  assert.equal(git(r.wt, "status", "--porcelain"), "");
}
const snapshot = (r: WorktreeRepo) => ({
  task: branchHead(r, "task"),
  main: branchHead(r, "main"),
  other: branchHead(r, "other"),
  config: fs.readFileSync(path.join(r.common, "config"), "utf8"),
});

describe(
  `I-122: a confined command in a linked worktree commits, and writes nothing else (${asWho})`,
  { skip: !linux && "Linux only" },
  () => {
    let sb: CommandSandbox;
    before(async () => {
      sb = await detect();
    });

    it("I-122: bubblewrap: `git commit` moves refs/heads/task; the main tree, the other worktree, hooks, config, other git dirs and the pointers are refused", async (t) => {
      if (sb.backend !== "bubblewrap") return t.skip(`backend is ${sb.backend}`);
      const r = repo();
      const before = snapshot(r);
      const out = (await runIn(sb, fx.ctxFor(`w${n}`, r.wt), attempts(r))).out;
      assert.match(out, /^COMMITTED$/m, out);
      assert.doesNotMatch(out, /WROTE|MOVED/, out);
      assertOnlyBranchMoved(r, before);
    });

    const landlock =
      fs.existsSync("/usr/bin/python3") &&
      spawnSync("/usr/bin/python3", ["-I", "-c", LANDLOCK_HELPER_SOURCE, "0", "-", "/nonexistent", "--", "/bin/true"]).status === 0;
    it("I-122: Landlock: the same commit works; the repository's hooks, config, other worktrees and working trees stay refused", async (t) => {
      if (!landlock) return t.skip("needs Landlock and /usr/bin/python3");
      const ll = await detectSandbox({ ...process.env, MANIFOLD_SANDBOX: "landlock" }, { log: () => {} });
      const r = repo();
      const before = snapshot(r);
      const out = (await runIn(ll, fx.ctxFor(`l${n}`, r.wt), attempts(r, false))).out;
      assert.match(out, /^COMMITTED$/m, out);
      // Landlock grants whole hierarchies: the worktree's own pointers are writable with its git dir
      // (as a folder's .git/config is under Landlock); everything outside the grants stays refused.
      for (const name of ["main", "other", "hook", "config", "common-new", "other-head"])
        assert.match(out, new RegExp(`^refused ${name}$`, "m"), out);
      assert.match(out, /^refused mv$/m, out);
      assertOnlyBranchMoved(r, before);
    });
  },
);
