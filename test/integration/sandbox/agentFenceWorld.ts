// The world of the agent-fence attack tests (agentFence.test.ts, agentFenceTree.test.ts): two
// workspace folders that are git repos, a fake home full of secrets, the scripted agent
// (fencedAgentProbe.mjs) started as the extension starts one, and listeners it tries to reach.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before } from "node:test";
import { fenceFor } from "../../../extension/agent/agentProfiles";
import { spawnTree, type RunningProcess } from "../../../sandbox/processTree";
import type { AgentCommand, AgentFence, CommandSandbox, WrappedCommand } from "../../../sandbox/types";
import { detect, linux, makeFixture, type Fixture } from "./fixture";
export { listen, type Listener } from "./hostPeers";

export const PROBE = path.join(__dirname, "fencedAgentProbe.mjs");
export const MARK = "PROBE-WAS-HERE";
/** What the extension's own environment holds and the agent must never get (the fence passes `cmd.env` only). */
export const PARENT_SECRETS = { GITHUB_TOKEN: "ghp_PARENT-TOKEN-NEVER-PASSED", AWS_SECRET_ACCESS_KEY: "PARENT-AWS-SECRET-NEVER-PASSED" };
/** The agent's own key, in the env the extension gives it: it reaches the agent, never bwrap's argv (readable by every process of the user). */
export const AGENT_KEY = "AGENT-OWN-KEY-ONLY-IN-ENV";
/** File contents that must never show up in anything the agent prints. */
export const SECRETS = {
  ssh: "SECRET-SSH-PRIVATE-KEY",
  aws: "SECRET-AWS-CREDENTIALS",
  netrc: "SECRET-NETRC-PASSWORD",
  codex: "SECRET-OTHER-AGENT-AUTH",
  storage: "SECRET-MANIFOLD-STORAGE",
};

export interface Attempt {
  code: number | null;
  out: string;
}
export interface ByBoth {
  node: string;
  shell: Attempt;
}
export interface SocketOutcome {
  node: string;
  /** From a child of the shell (node -e), and per kind: bash's /dev/tcp for TCP, curl for unix sockets. */
  shellNode: Attempt;
  devTcp?: Attempt;
  curl?: Attempt;
}
export interface ProbeResult {
  writes: Record<string, ByBoth>;
  reads: Record<string, ByBoth>;
  renames: Record<string, ByBoth>;
  symlinks: Record<string, ByBoth>;
  status: { node: Record<string, string>; shell: Record<string, string> };
  privileged: Record<string, Attempt>;
  sockets: Record<string, SocketOutcome>;
  env: { node: Record<string, string>; shell: string[] };
  cwd: string;
}

export let fx: Fixture;
export let sb: CommandSandbox;
export let skip: string | false = false;

/** Registers the file's hooks: a fixture, and the backend detected with the extension's tokens in its env. */
export function fenceSetup(): void {
  before(async () => {
    fx = makeFixture("mf-agentfence-");
    // The backend reads the extension's environment (with its tokens); the fence must not pass any of it.
    sb = await detect({}, { ...process.env, ...PARENT_SECRETS });
    skip = !linux
      ? "Linux only"
      : sb.backend !== "bubblewrap" || !sb.fenceAgent
        ? `no bubblewrap agent fence (backend: ${sb.backend})`
        : false;
  });
  after(() => fx.cleanup());
}

export const gitEnv = (home: string) => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: home });

/** A workspace folder: a real repo (hooks/, config), a `.vscode/settings.json`, a dir to try mounts on. */
export function workspace(name: string): string {
  const root = fx.dir(name);
  execFileSync("git", ["init", "-q", root], { env: gitEnv(root) });
  fs.mkdirSync(path.join(root, ".vscode"));
  fs.writeFileSync(path.join(root, ".vscode", "settings.json"), '{ "editor.tabSize": 2 }\n');
  fs.mkdirSync(path.join(root, "mnt"));
  return root;
}

/** A fake home: every secret of the table's kinds, another agent's credentials, and one readable control file. */
export function fakeHome(): string {
  const home = fx.dir("home");
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    fs.writeFileSync(path.join(home, rel), `${text}\n`);
  };
  put(".ssh/id_x", SECRETS.ssh);
  put(".aws/credentials", SECRETS.aws);
  put(".netrc", SECRETS.netrc);
  put(".codex/auth.json", SECRETS.codex);
  put("notes.txt", "READABLE-CONTROL");
  return home;
}

export interface World {
  home: string;
  a: string;
  b: string;
  outside: string;
  storage: string;
  fence: AgentFence;
  env: Record<string, string>;
}

export function world(): World {
  const home = fakeHome();
  const a = workspace("folder-a");
  const b = workspace("folder-b");
  const outside = fx.dir("outside");
  const storage = fx.dir("storage");
  fs.writeFileSync(path.join(storage, "sessions.jsonl"), `${SECRETS.storage}\n`);
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    PROBE_AGENT_SETTING: "kept",
    PROBE_AGENT_API_KEY: AGENT_KEY,
  };
  const { profile, fence } = fenceFor({
    who: { registryId: "probe-agent", command: "probe-agent", args: [] },
    env,
    home,
    folders: [a, b],
    tmpDir: path.join(fx.base, "agent-tmp", "probe"),
    storage: [storage],
  });
  assert.equal(profile.id, "probe-agent", "the default profile, named after the registry id");
  return { home, a, b, outside, storage, fence, env };
}

/** `fenceAgent` of the probe with `plan`, spawned as the extension spawns an agent. */
export function startProbe(w: World, plan: object): { p: RunningProcess; wrapped: WrappedCommand; output: () => string } {
  const cmd: AgentCommand = { command: process.execPath, args: [PROBE, JSON.stringify(plan)], env: w.env };
  const fenceAgent = sb.fenceAgent;
  assert.ok(fenceAgent);
  const wrapped = fenceAgent.call(sb, cmd, w.fence);
  const shown = { ...wrapped, fds: [...(wrapped.fds ?? [])] };
  let out = "";
  const p = spawnTree(wrapped, (c) => (out += c));
  return { p, wrapped: shown, output: () => out };
}

/** The probe's result line, or a failure naming everything it printed. */
export function resultOf(out: string): ProbeResult {
  const line = out.split("\n").find((l) => l.startsWith('{"writes"'));
  assert.ok(line, `the probe printed no result:\n${out}`);
  return JSON.parse(line) as ProbeResult;
}

export const read = (p: string): string | undefined => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : undefined);
export const failed = (b: ByBoth): boolean => b.node !== "ok" && b.shell.code !== 0;
