// Git metadata must stay protected across commands and however `.git` is laid
// out (a directory, a `gitdir:` file, worktrees, submodules, `commondir`). The proof is always the
// host: after the attack, the host runs git (status, commit, an alias) in the repo and the marker
// a planted hook or config key would create must not exist.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type { CommandSandbox } from "../../../sandbox/types";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";
import { GIT_ENV } from "../../support/worktreeRepo";

let fx: Fixture;
let sb: CommandSandbox;
let n = 0;

before(async () => {
  fx = makeFixture("mf-esc-git-");
  sb = await detect();
});
after(() => fx.cleanup());

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "protocol.file.allow=always", "-c", "safe.directory=*", ...args], {
    cwd,
    env: GIT_ENV,
    stdio: ["ignore", "pipe", "pipe"],
  }).toString();
}
function initRepo(dir: string, ...initArgs: string[]): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", ...initArgs);
  fs.writeFileSync(path.join(dir, "f.txt"), "1\n");
  git(dir, "add", "f.txt");
  git(dir, "commit", "-qm", "init");
  return dir;
}

/** A fresh marker path outside every root, and the shell payloads that would create it. */
function payloads(): { marker: string; hook: string; configs: string[] } {
  const marker = path.join(fx.base, `marker-${++n}`);
  return {
    marker,
    hook: `printf '#!/bin/sh\\ntouch ${marker}\\n'`,
    configs: [
      `core.hooksPath ${fx.base}/nonexistent-hooks`,
      `core.fsmonitor "touch ${marker}"`,
      `core.sshCommand "touch ${marker}"`,
      `core.pager "touch ${marker}; cat"`,
      `alias.st "!touch ${marker}"`,
      `core.editor "touch ${marker}"`,
      `diff.external "touch ${marker}"`,
    ],
  };
}
/** Plant a hook into `hooksDir` and set every dangerous key with `git config` (all from bash). */
function plant(p: ReturnType<typeof payloads>, hooksDir: string, gitArgs = ""): string {
  const hooks = ["pre-commit", "post-commit", "post-checkout", "fsmonitor-watchman"]
    .map((h) => `{ ${p.hook} > ${hooksDir}/${h} && chmod +x ${hooksDir}/${h}; } 2>/dev/null`)
    .join("; ");
  const configs = p.configs.map((c) => `git ${gitArgs} config ${c} 2>/dev/null`).join("; ");
  return `${hooks}; ${configs}; true`;
}

/** The host uses the repo as a person would; nothing the sandbox planted may run. */
function hostUses(dir: string, marker: string, out: string): void {
  for (const args of [["status"], ["commit", "--allow-empty", "-qm", "host"], ["st"], ["log", "-1"], ["diff", "HEAD"]]) {
    spawnSync("git", ["-c", "safe.directory=*", "-c", "core.pager=cat", ...args], { cwd: dir, env: GIT_ENV, stdio: "ignore" });
  }
  assert.equal(fs.existsSync(marker), false, `host git ran something the sandbox planted; sandbox output:\n${out}`);
  const cfg = spawnSync("git", ["-c", "safe.directory=*", "config", "--list", "--show-origin"], {
    cwd: dir,
    env: GIT_ENV,
  }).stdout.toString();
  assert.doesNotMatch(cfg, /hookspath|fsmonitor|sshcommand|pager|alias\.|editor|external/i, `dangerous keys in the host's config:\n${cfg}`);
}

describe(`bubblewrap: git metadata stays protected (${asWho})`, { skip: !linux && "Linux only" }, () => {
  it("`mv .git .realgit && ln -s .realgit .git`, then a hook through the link: refused, nothing runs on the host", async () => {
    const root = initRepo(fx.dir("two-cmds"));
    const p = payloads();
    const r1 = await runIn(sb, fx.ctxFor("g", root), "mv .git .realgit && ln -s .realgit .git && echo MOVED");
    const r2 = await runIn(sb, fx.ctxFor("g", root), plant(p, ".git/hooks"));
    assert.equal(fs.lstatSync(path.join(root, ".git")).isDirectory(), true, r1.out);
    hostUses(root, p.marker, r1.out + r2.out);
  });

  it("replacing .git with a new directory in one command (rm -rf, mkdir, git init) plants nothing", async () => {
    const root = initRepo(fx.dir("replace"));
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `rm -rf .git 2>/dev/null; mv .git gone 2>/dev/null; git init -q . 2>/dev/null; mkdir -p .git/hooks; ${plant(p, ".git/hooks")}`,
    );
    hostUses(root, p.marker, r.out);
  });

  it("every dangerous config key set with `git config` (also --worktree, --file) is refused", async () => {
    const root = initRepo(fx.dir("config"));
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `${plant(p, ".git/hooks")}; git config extensions.worktreeConfig true 2>/dev/null; ${plant(p, ".git/hooks", "--worktree")}; ${plant(p, ".git/hooks", "--file .git/config")}; printf '[core]\\n\\tfsmonitor = touch ${p.marker}\\n' > .git/config.worktree 2>/dev/null; cp .git/config c && echo '[core] fsmonitor = touch ${p.marker}' >> c && mv c .git/config 2>/dev/null; true`,
    );
    hostUses(root, p.marker, r.out);
  });

  it("a `.git` file (gitdir: …) inside the root: its git dir, the pointer and a parent of the git dir are all protected", async () => {
    const root = fx.dir("gitfile");
    fs.mkdirSync(path.join(root, "meta"));
    initRepo(root, "--separate-git-dir", path.join(root, "meta", "gitdir"));
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      [
        plant(p, "meta/gitdir/hooks"),
        // rename a parent of the git dir, then rebuild a copy with hooks where the pointer looks
        `mv meta meta2 2>/dev/null && cp -a meta2 meta && ${plant(p, "meta/gitdir/hooks")}`,
        // point .git somewhere else
        `cp -a meta/gitdir evil 2>/dev/null; ${plant(p, "evil/hooks")}; echo "gitdir: evil" > .git 2>/dev/null; rm -f .git 2>/dev/null && echo "gitdir: evil" > .git`,
      ].join("; "),
    );
    assert.match(fs.readFileSync(path.join(root, ".git"), "utf8"), /meta\/gitdir/);
    hostUses(root, p.marker, r.out);
  });

  it("a linked worktree's `commondir` and `config.worktree` inside the main repo are protected", async () => {
    const root = initRepo(fx.dir("main"));
    const linked = path.join(fx.base, `linked-${n}`);
    git(root, "config", "extensions.worktreeConfig", "true");
    git(root, "worktree", "add", "-q", linked);
    const id = fs.readdirSync(path.join(root, ".git", "worktrees"))[0] ?? "";
    const p = payloads();
    const wt = `.git/worktrees/${id}`;
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `cp -a .git evilcommon; ${plant(p, "evilcommon/hooks")}; echo ${root}/evilcommon > ${wt}/commondir 2>/dev/null; printf '[core]\\n\\tfsmonitor = touch ${p.marker}\\n' > ${wt}/config.worktree 2>/dev/null; true`,
    );
    hostUses(linked, p.marker, r.out);
    hostUses(root, p.marker, r.out);
  });

  it("a submodule's git dir (.git/modules/<name>) is protected: hooks, config, and the dir itself", async () => {
    const lib = initRepo(path.join(fx.base, `lib-${++n}`));
    const root = initRepo(fx.dir("super"));
    git(root, "submodule", "add", "-q", lib, "sub");
    git(root, "commit", "-qm", "sub");
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `${plant(p, ".git/modules/sub/hooks")}; (cd sub && ${plant(p, "../.git/modules/sub/hooks")}); mv .git/modules/sub .git/modules/old 2>/dev/null && cp -a .git/modules/old .git/modules/sub && ${plant(p, ".git/modules/sub/hooks")}; true`,
    );
    hostUses(path.join(root, "sub"), p.marker, r.out);
    hostUses(root, p.marker, r.out);
  });

  it("hard links to protected files cannot be made; a symlinked hooks dir does not open a way in", async () => {
    const root = initRepo(fx.dir("links"));
    fs.renameSync(path.join(root, ".git", "hooks"), path.join(root, "myhooks"));
    fs.symlinkSync("../myhooks", path.join(root, ".git", "hooks"));
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `ln .git/config cfg 2>/dev/null && echo '[core] fsmonitor = touch ${p.marker}' >> cfg; ${plant(p, "myhooks")}; rm -f .git/hooks 2>/dev/null; mkdir -p .git/hooks; ${plant(p, ".git/hooks")}; true`,
    );
    hostUses(root, p.marker, r.out);
  });

  it("a pre-existing `.git` symlink: the git dir it points to is protected", async () => {
    const root = initRepo(fx.dir("symlinked"));
    fs.renameSync(path.join(root, ".git"), path.join(root, ".realgit"));
    fs.symlinkSync(".realgit", path.join(root, ".git"));
    const p = payloads();
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `${plant(p, ".git/hooks")}; ${plant(p, ".realgit/hooks")}; mv .realgit .r2 2>/dev/null && cp -a .r2 .realgit && ${plant(p, ".realgit/hooks")}; true`,
    );
    hostUses(root, p.marker, r.out);
  });

  it("ordinary git work still runs inside: add, commit, branch (objects, refs, index stay writable)", async () => {
    const root = initRepo(fx.dir("work"));
    const r = await runIn(
      sb,
      fx.ctxFor("g", root),
      `export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@a GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@a; echo 2 > f.txt && git add f.txt && git commit -qm two && git branch b2 && git log --format=%s -1`,
    );
    assert.equal(r.out, "two\n");
  });
});
