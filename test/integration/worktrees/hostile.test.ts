// A repository whose hooks, filters, merge drivers and fsmonitor would run programs: creating a
// worktree, reading its changes, applying, merging and discarding run none of them. The last step
// runs the same repository with plain git, which does run them: the markers prove the trap is live.
import assert from "node:assert/strict";
import { chmodSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { applyToFolder } from "../../../extension/worktrees/apply";
import { changes } from "../../../extension/worktrees/changes";
import { mergeBranch } from "../../../extension/worktrees/merge";
import { forgetProfiles } from "../../../extension/worktrees/userGit";
import { createWorktree, discardWorktree } from "../../../extension/worktrees/worktreeGit";
import { makeRepo, read, sh, tempBase, write } from "./helpers";

const HOOKS = [
  "post-checkout",
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-merge-commit",
  "post-merge",
  "reference-transaction",
  "post-index-change",
];

function trap(base: string, folder: string): string {
  const marks = join(base, "marks");
  sh(base, "init", "-q", "marks");
  const script = (name: string) => `#!/bin/sh\ntouch '${join(marks, name)}'\n`;
  for (const hook of HOOKS) {
    write(folder, `.git/hooks/${hook}`, script(`hook-${hook}`));
    chmodSync(join(folder, ".git/hooks", hook), 0o755);
  }
  write(base, "evil/fsmonitor", script("fsmonitor"));
  chmodSync(join(base, "evil/fsmonitor"), 0o755);
  // After the commit, so that setting the trap up ran none of it.
  sh(folder, "config", "filter.evil.clean", `sh -c 'touch ${join(marks, "filter-clean")}; cat'`);
  sh(folder, "config", "filter.evil.smudge", `sh -c 'touch ${join(marks, "filter-smudge")}; cat'`);
  sh(folder, "config", "filter.evil.required", "true");
  sh(folder, "config", "merge.evil.driver", `touch ${join(marks, "merge-driver")}; false`);
  sh(folder, "config", "diff.evil.textconv", `sh -c 'touch ${join(marks, "textconv")}; cat'`);
  sh(folder, "config", "diff.external", join(base, "evil/fsmonitor"));
  sh(folder, "config", "core.fsmonitor", join(base, "evil/fsmonitor"));
  return marks;
}

/** What the test's own plain git steps pass, so that only Manifold's runs are under test. */
const SAFE = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "filter.evil.clean=",
  "filter.evil.smudge=",
  "filter.evil.required=false",
];

const marked = (marks: string) => readdirSync(marks).filter((n) => n !== ".git");

test("I-122: a repository's hooks, filters, merge drivers and fsmonitor run nothing during create, changes, apply, merge and discard", async () => {
  const base = tempBase();
  const folder = makeRepo(base, {
    ".gitattributes": "*.txt filter=evil merge=evil diff=evil\n",
    "a.txt": "one\ntwo\nthree\nfour\nfive\n",
    "b.txt": "bee\n",
  });
  const marks = trap(base, folder);
  forgetProfiles();
  const rec = await createWorktree(folder, { branch: "trapped" });
  assert.equal(read(rec.path, "a.txt"), "one\ntwo\nthree\nfour\nfive\n");
  assert.deepEqual(marked(marks), [], "create ran something");
  write(rec.path, "a.txt", "ONE\ntwo\nthree\nfour\nfive\n");
  write(rec.path, "c.txt", "new\n");
  assert.deepEqual((await changes(rec)).map((c) => c.path).sort(), ["a.txt", "c.txt"]);
  assert.deepEqual(marked(marks), [], "changes ran something");
  const applied = await applyToFolder(rec);
  assert.deepEqual("applied" in applied && applied.applied.sort(), ["a.txt", "c.txt"]);
  assert.deepEqual(marked(marks), [], "apply ran something");
  // Undo the apply in the folder and let the folder move on in another line, so the merge is a real
  // three-way merge of a.txt (where a merge driver would run).
  const quiet = (...args: string[]) => sh(folder, ...SAFE.flatMap((c) => ["-c", c]), ...args);
  quiet("checkout", "-q", "--", "a.txt");
  quiet("clean", "-q", "-f", "--", "c.txt");
  write(folder, "a.txt", "one\ntwo\nthree\nfour\nFIVE\n");
  quiet("commit", "-q", "-am", "the folder moves on");
  assert.deepEqual(marked(marks), [], "the test's own steps ran something");
  const merged = await mergeBranch(rec, { message: "agent work" });
  assert.ok(merged.merged, JSON.stringify(merged));
  assert.equal(read(folder, "a.txt"), "ONE\ntwo\nthree\nfour\nFIVE\n");
  assert.deepEqual(marked(marks), [], "merge ran something");
  await discardWorktree(rec, { deleteBranch: true });
  assert.equal(existsSync(rec.path), false);
  assert.deepEqual(marked(marks), [], "discard ran something");

  // Plain git on the same repository runs the trap: the assertions above could fail.
  sh(folder, "worktree", "add", "-q", "-b", "plain", join(base, "plain"));
  const plain = marked(marks);
  assert.ok(plain.includes("hook-post-checkout") && plain.includes("filter-smudge"), plain.join(", "));
});
