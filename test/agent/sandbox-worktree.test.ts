// A worktree session through the spawned agent-server (the built dist/agent-server.js, the fake
// model server driving bash): a session whose folder is a linked worktree outside its repository
// commits to its branch with git, and writes nothing else of the repository or of the other
// working trees; a plain folder that forges a `.git` pointer into that repository gets nothing.
// Workspaces live outside /tmp, which is private inside the sandbox.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, spawnAgent, toolOutputs, type AgentProcess } from "../support/agentProcess";
import { branchHead, git, makeWorktreeRepo, type WorktreeRepo } from "../support/worktreeRepo";

const linux = process.platform === "linux";
const GIT = "git -c user.name=t -c user.email=t@t";

/** One shell line per target: `refused <name>` or `WROTE <name>`. */
function tryWrites(targets: Array<[string, string]>): string {
  return targets.map(([name, p]) => `{ echo x >> '${p}'; } 2>/dev/null && echo 'WROTE ${name}' || echo 'refused ${name}'`).join("; ");
}

describe("I-122: a worktree session through the agent-server (spawned)", { skip: !linux && "Linux only" }, () => {
  let server: FakeModelServer;
  let agent: AgentProcess;
  let base: string;
  let r: WorktreeRepo;
  before(async () => {
    server = await startFakeModelServer();
    agent = spawnAgent({ env: { ...modelEnv(server.url), MANIFOLD_SANDBOX: "" } });
    await agent.initialize();
    base = fs.realpathSync(fs.mkdtempSync(path.join(fs.existsSync("/var/tmp") ? "/var/tmp" : "/tmp", "mf-agent-wt-")));
    fs.chmodSync(base, 0o755);
    r = makeWorktreeRepo(base, "repo");
    // Nothing asks in these tests; an unexpected question is refused rather than left hanging.
    agent.onPermission((req) => {
      const reject = req.options.find((o) => o.kind === "reject_once");
      return { outcome: reject ? { outcome: "selected", optionId: reject.optionId } : { outcome: "cancelled" } };
    });
  });
  after(async () => {
    await agent?.close();
    agent?.cleanup();
    await server?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it("I-122: bash in the worktree commits and moves refs/heads/task; the main tree, the other worktree, hooks, config and the other worktree's HEAD are refused", async () => {
    const before = { task: branchHead(r, "task"), main: branchHead(r, "main"), other: branchHead(r, "other") };
    const config = fs.readFileSync(path.join(r.common, "config"), "utf8");
    const otherHead = fs.readFileSync(path.join(r.otherGitDir, "HEAD"), "utf8");
    const sid = (await agent.newSession(r.wt)).sessionId;
    const command = [
      `echo change >> f.txt && ${GIT} add -A && ${GIT} commit -qm x && echo COMMITTED`,
      tryWrites([
        ["main", `${r.main}/f.txt`],
        ["other", `${r.other}/f.txt`],
        ["hook", `${r.common}/hooks/x`],
        ["config", `${r.common}/config`],
        ["other-head", `${r.otherGitDir}/HEAD`],
      ]),
    ].join("; ");
    server.route("[wt122]", { toolCalls: [{ name: "bash", args: { command } }] }, { text: "ok" });
    const res = await agent.prompt(sid, "[wt122] go");
    assert.equal(res.stopReason, "end_turn");
    const out = toolOutputs(agent, sid);
    assert.match(out, /COMMITTED/, out);
    for (const name of ["main", "other", "hook", "config", "other-head"]) assert.match(out, new RegExp(`refused ${name}\\b`), out);
    assert.doesNotMatch(out, /WROTE/, out);
    // The host: the branch moved to a commit holding the change; nothing else changed.
    assert.notEqual(branchHead(r, "task"), before.task);
    assert.equal(git(r.main, "show", "task:f.txt"), "1\nchange\n");
    assert.deepEqual([branchHead(r, "main"), branchHead(r, "other")], [before.main, before.other]);
    assert.equal(fs.readFileSync(path.join(r.main, "f.txt"), "utf8"), "1\n");
    assert.equal(fs.readFileSync(path.join(r.other, "f.txt"), "utf8"), "1\n");
    assert.equal(fs.existsSync(path.join(r.common, "hooks", "x")), false);
    assert.equal(fs.readFileSync(path.join(r.common, "config"), "utf8"), config);
    assert.equal(fs.readFileSync(path.join(r.otherGitDir, "HEAD"), "utf8"), otherHead);
  });

  it("I-122: a plain folder that forges `.git` into the repository (a worktree's git dir, or a crafted one with commondir) gets nothing writable", async () => {
    const targets: Array<[string, string]> = [
      ["ref", `${r.common}/refs/heads/forged`],
      ["object", `${r.common}/objects/forged`],
      ["log", `${r.common}/logs/forged`],
      ["wt-head", `${r.wtGitDir}/HEAD`],
    ];
    const crafted = "fake/worktrees/x";
    const forges: Record<string, (plain: string) => string> = {
      genuine: () => `echo 'gitdir: ${r.wtGitDir}' > .git && echo FORGED`,
      crafted: (plain) =>
        [
          `mkdir -p ${crafted}`,
          `echo '${r.common}' > ${crafted}/commondir`,
          `echo '${plain}/.git' > ${crafted}/gitdir`,
          `echo 'ref: refs/heads/task' > ${crafted}/HEAD`,
          `echo 'gitdir: ${plain}/${crafted}' > .git && echo FORGED`,
        ].join("; "),
    };
    for (const [kind, forge] of Object.entries(forges)) {
      // Each in a folder of its own: the first command forges, the next one (a new plan) tries the repository's dirs.
      const plain = path.join(base, `plain-${kind}`);
      fs.mkdirSync(plain);
      const sid = (await agent.newSession(plain)).sessionId;
      server.route(`[forge-${kind}]`, { toolCalls: [{ name: "bash", args: { command: forge(plain) } }] }, { text: "ok" });
      server.route(`[try-${kind}]`, { toolCalls: [{ name: "bash", args: { command: tryWrites(targets) } }] }, { text: "ok" });
      await agent.prompt(sid, `[forge-${kind}] go`);
      await agent.prompt(sid, `[try-${kind}] go`);
      const out = toolOutputs(agent, sid);
      assert.match(out, /FORGED/, out);
      for (const [name] of targets) assert.match(out, new RegExp(`refused ${name}\\b`), out);
      assert.doesNotMatch(out, /WROTE/, out);
    }
    for (const [, p] of targets.slice(0, 3)) assert.equal(fs.existsSync(p), false, p);
    assert.equal(fs.readFileSync(path.join(r.wtGitDir, "HEAD"), "utf8"), "ref: refs/heads/task\n");
  });
});
