// The pinned real agents with their WHOLE process inside Manifold's agent fence (I-118): the fence
// `fenceFor` computes from the agent's profile (scripts/agents/profiles.json) and its own environment,
// wrapped by the sandbox `detectSandbox` picks (bubblewrap here) and started with Manifold's client
// code (test/agents/support/harness.ts) against a local fake of its model API. The fake model makes
// each agent use its OWN tools, its shell (bash, Bash, run_shell_command, exec_command) and its write
// tool, so what is proven is the fence, not Manifold's fs/* service. Beside the folder (a git repo with
// a `.vscode`) lie a home with a secret in `~/.ssh` and an `outside/` dir no write may reach. Every
// "cannot" step has a control that passes through the same path (a write inside the folder, a read of
// a home file that is not secret), so a shell that does not run at all fails instead of passing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fenceFor } from "../../extension/agent/agentProfiles";
import { detectSandbox } from "../../sandbox/detect";
import type { AgentFence, CommandSandbox } from "../../sandbox/types";
import { startRealAgent, type RealAgent } from "../agents/support/harness";
import { installedAgent } from "../agents/support/installed";
import { argsFor, PROFILES, type AgentProfile } from "../agents/support/profiles";
import { contentFor, startScenarioModel, type ScenarioModel } from "../agents/support/scenarioModel";

const SECRET = `manifold-secret-${process.pid}-${Date.now().toString(36)}`;
const NOTE = `manifold-readable-note-${process.pid}`;
const READ_ONLY = /Read-only file system|EROFS/;
// One agent step at most; a hung agent fails its test instead of the whole file.
const step = { timeout: 60_000 };

/** gemini-cli sends its shell's output to the model only: its tool call update has no content. */
const SHELL_OUTPUT_TO_CLIENT: Record<string, boolean> = { gemini: false };

/**
 * Who refuses the agent's write tool on a path outside the folder: Manifold's fs/* service (the agent
 * asked the client), the agent itself (its own workspace check) or the fence (EROFS).
 */
const WRITE_OUTSIDE_REFUSED_BY: Record<string, "manifold" | "agent" | "fence"> = { opencode: "manifold", gemini: "agent", claude: "fence" };

/**
 * gemini-cli answers `session/load` of a previous process's session with "No previous sessions
 * found for this project." unconfined too (measured with the same fake): its restart is proven by
 * the chat file run 1 left in its state dir and a new session that answers.
 */
const LOADS_IN_NEW_PROCESS: Record<string, boolean> = { gemini: false };

function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Every regular file below `dir` (symlinks not followed). */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/** A file's bytes, or none when the running agent removed it meanwhile (opencode's lock heartbeats come and go). */
function bytesOf(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
    throw err;
  }
}

/** What the agent said about the fence, for the report: which paths it wanted and could not write. */
function fenceComplaints(text: string): string[] {
  return [...new Set(text.split("\n").filter((l) => /EROFS|EACCES|Read-only file system|Permission denied/.test(l)))].slice(0, 20);
}

for (const profile of PROFILES) {
  const found = installedAgent(profile.id);
  const skip = "skip" in found ? found.skip : false;
  const writes = { ...step, skip: profile.noWrites ?? false };
  const shellToClient = SHELL_OUTPUT_TO_CLIENT[profile.id] ?? true;

  describe(`${profile.id} (real, pinned) confined in the agent fence`, { skip }, () => {
    let base = "";
    let folder = "";
    let home = "";
    let outside = "";
    let model: ScenarioModel;
    let sandbox: CommandSandbox;
    let fence: AgentFence;
    let agent: RealAgent;
    let sessionId = "";
    const stderrs: string[] = [];

    const start = async (p: AgentProfile, exe: string): Promise<RealAgent> => {
      const env = cleanEnv(p.env(model.origin, home));
      const given = argsFor(p, model.origin);
      const resolved = fenceFor({
        who: { command: exe, args: given },
        env,
        home,
        folders: [folder],
        tmpDir: join(base, "agent-tmp", p.id),
        storage: [join(base, "storage")],
      });
      assert.equal(resolved.profile.id, p.id, "the agent got its own profile, not the default one");
      fence = resolved.fence;
      // What the extension adds for it inside the fence (scripts/agents/profiles.json `fencedArgs`: codex's
      // own command sandbox cannot nest in ours, so the fence is its sandbox and it still asks).
      const args = [...given, ...resolved.profile.fencedArgs];
      return startRealAgent(sandbox.fenceAgent!({ command: exe, args, env }, fence));
    };

    const prompt = (text: string) => agent.client.prompt(sessionId, [{ type: "text", text }]);
    // What the session saw from a point on (its updates, the binding's events: notices, cards), and
    // what the agent sent its model (its tools' results).
    const mark = () => ({ updates: agent.updates.length, events: agent.events.length, requests: model.requestCount() });
    const sessionSince = (m: ReturnType<typeof mark>) => JSON.stringify([agent.updates.slice(m.updates), agent.events.slice(m.events)]);
    const shellOutputSince = (m: ReturnType<typeof mark>) => (shellToClient ? sessionSince(m) : model.seen(m.requests));

    before(async () => {
      if ("skip" in found) throw new Error(found.skip);
      base = realpathSync(mkdtempSync(join(tmpdir(), `manifold-confined-${profile.id}-`)));
      folder = join(base, "ws");
      home = join(base, "home");
      outside = join(base, "outside");
      for (const d of [folder, join(home, ".ssh"), outside, join(base, "storage")]) mkdirSync(d, { recursive: true });
      writeFileSync(join(home, ".ssh", "id_test"), `${SECRET}\n`, { mode: 0o600 });
      writeFileSync(join(home, "notes.txt"), `${NOTE}\n`);
      execFileSync("git", ["init", "-q", folder]);
      mkdirSync(join(folder, ".vscode"));
      writeFileSync(join(folder, ".vscode", "settings.json"), "{}\n");
      model = await startScenarioModel(profile.api, folder);
      sandbox = await detectSandbox(process.env, { log: () => {} });
      assert.ok(sandbox.fenceAgent, `the ${sandbox.backend} sandbox cannot fence an agent`);
      agent = await start(profile, found.exe);
      sessionId = (await agent.newSession(folder)).sessionId;
      agent.answerPermissions("allow");
    });

    after(async () => {
      if (agent) stderrs.push(agent.stderr());
      await agent?.close();
      await model?.close();
      // For the report: what the agent logged about the fence (its stderr, its own log files).
      const logs = fence ? fence.stateDirs.flatMap(filesBelow).filter((f) => /\.log$|\/logs?\//.test(f)) : [];
      const text = [...stderrs, ...logs.map((f) => bytesOf(f).toString("utf8"))].join("\n");
      console.log(`${profile.id} fence complaints: ${JSON.stringify(fenceComplaints(text))}`);
      if (base) rmSync(base, { recursive: true, force: true });
    });

    it(`I-118: ${profile.id} confined: a reply streams`, step, async () => {
      const stop = await prompt("[hello] say hello");
      assert.deepEqual({ stop, text: agent.text().includes("Hello there") }, { stop: "end_turn", text: true }, agent.transcript());
    });

    it(`I-118: ${profile.id} confined: a granted write of its write tool inside the folder lands`, writes, async () => {
      const stop = await prompt("[write:granted.txt] write it");
      assert.equal(stop, "end_turn");
      assert.equal(readFileSync(join(folder, "granted.txt"), "utf8"), contentFor("granted.txt"), agent.transcript());
    });

    it(`I-118: ${profile.id} confined: its own shell writes inside the folder`, step, async () => {
      const asked = agent.permissions.length;
      await prompt(`[shell:echo by-shell > ${folder}/by-shell.txt]`);
      const written = existsSync(join(folder, "by-shell.txt")) && readFileSync(join(folder, "by-shell.txt"), "utf8");
      assert.equal(written, "by-shell\n", `${agent.transcript()}\n${agent.stderr().slice(-3000)}`);
      assert.ok(agent.permissions.length > asked, "the agent ran its shell without asking");
    });

    it(
      `I-118: ${profile.id} confined: its shell's write outside every folder fails and its own error reaches the session`,
      step,
      async () => {
        const m = mark();
        await prompt(`[shell:echo x > ${outside}/by-shell.txt]`);
        assert.equal(existsSync(join(outside, "by-shell.txt")), false, "the write landed outside the folder");
        // In the tool call's own updates (its card), where the agent shows its shell's output.
        const calls = agent.updates
          .slice(m.updates)
          .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
        assert.match(shellToClient ? JSON.stringify(calls) : model.seen(m.requests), READ_ONLY, agent.transcript());
        const status = calls.flatMap((u) => (u.status ? [u.status] : [])).at(-1);
        console.log(
          `${profile.id} shell write outside: card ${status}, the error shown to ${shellToClient ? "the session" : "the model only"}`,
        );
      },
    );

    it(`I-118: ${profile.id} confined: its write tool's write outside every folder is refused and does not land`, writes, async () => {
      const target = join(outside, "by-tool.txt");
      const m = mark();
      await prompt(`[write-abs:${target}] write it`);
      assert.equal(existsSync(target), false, "the write landed outside the folder");
      const updates = agent.updates.slice(m.updates);
      const refusedBy = agent.events
        .slice(m.events)
        .some((e) => e.type === "notice" && e.text.startsWith(`Manifold refused the agent's write of ${target}`))
        ? "manifold"
        : READ_ONLY.test(sessionSince(m))
          ? "fence"
          : updates.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed")
            ? "agent"
            : "nobody";
      assert.equal(refusedBy, WRITE_OUTSIDE_REFUSED_BY[profile.id], agent.transcript());
    });

    it(`I-118: ${profile.id} confined: its shell reads the home folder but not ~/.ssh`, step, async () => {
      const m = mark();
      await prompt(`[shell:cat ${home}/notes.txt ${home}/.ssh/id_test; ls -a ${home}/.ssh]`);
      const output = shellOutputSince(m);
      // The control: the command ran and its output came back.
      assert.ok(output.includes(NOTE), `the shell's output did not come back: ${agent.transcript()}`);
      assert.equal(output.includes(SECRET), false, "the secret was read");
    });

    it(`I-118: ${profile.id} confined: its shell cannot write .git hooks or config, nor .vscode`, step, async () => {
      const config = readFileSync(join(folder, ".git", "config"), "utf8");
      const m = mark();
      await prompt(
        `[shell:echo evil > ${folder}/.git/hooks/pre-commit; echo evil >> ${folder}/.git/config; echo evil > ${folder}/.vscode/settings.json]`,
      );
      assert.deepEqual(
        {
          hook: existsSync(join(folder, ".git", "hooks", "pre-commit")),
          config: readFileSync(join(folder, ".git", "config"), "utf8") === config,
          settings: readFileSync(join(folder, ".vscode", "settings.json"), "utf8"),
          error: READ_ONLY.test(shellOutputSince(m)),
        },
        { hook: false, config: true, settings: "{}\n", error: true },
        agent.transcript(),
      );
    });

    it(`I-118: ${profile.id} confined: its shell has no capability and no unix socket`, step, async () => {
      const m = mark();
      // perl, not python: it is in /usr/bin on every image here. "unix-open" (printed in two parts, so
      // the command's own text never matches) would be a socket.
      const unix = `perl -e 'use Socket; socket(S, AF_UNIX, SOCK_STREAM, 0) or die "unix-refused: $!\\n"; print "unix", "-open\\n"'`;
      await prompt(`[shell:grep CapEff /proc/self/status; ${unix}]`);
      const output = shellOutputSince(m);
      // The control: the status line came back (JSON text: its tab is "\\t"; gemini-cli's terminal makes it spaces).
      const capEff = /CapEff:(?:\\t| )+([0-9a-f]{16})/.exec(output)?.[1];
      assert.deepEqual(
        { capEff, refused: output.includes("unix-refused: Permission denied"), socket: output.includes("unix-open") },
        { capEff: "0".repeat(16), refused: true, socket: false },
        agent.transcript(),
      );
    });

    it(`I-118: ${profile.id} confined: the secret is nowhere the session, the model or a writable file saw`, step, () => {
      assert.equal(agent.seen().includes(SECRET), false, "the session saw the secret");
      assert.equal(model.seen().includes(SECRET), false, "the model was sent the secret");
      const writable = [folder, outside, join(base, "agent-tmp"), ...fence.stateDirs, ...(fence.stateFiles ?? [])];
      const leaks = writable.flatMap(filesBelow).filter((f) => bytesOf(f).includes(SECRET));
      assert.deepEqual(leaks, []);
    });

    it(`I-118: ${profile.id} confined: its state survives a restart in the same fence`, step, async () => {
      if ("skip" in found) return;
      stderrs.push(agent.stderr());
      await agent.close();
      // What run 1 left in its state dirs, on the host (the fence bound them writable).
      const state = fence.stateDirs.flatMap(filesBelow);
      const history = state.filter((f) => bytesOf(f).includes("Hello there"));
      console.log(`${profile.id} restart: ${state.length} state files after run 1, run 1's reply in ${JSON.stringify(history)}`);
      assert.ok(state.length > 0, `run 1 wrote nothing into ${fence.stateDirs.join(", ")}`);
      agent = await start(profile, found.exe);
      if (LOADS_IN_NEW_PROCESS[profile.id] ?? true) {
        assert.equal(agent.init.agentCapabilities?.loadSession, true);
        await agent.loadSession(folder, sessionId);
        // The replay of run 1's history, read back by the new process from its state dir.
        assert.ok(agent.text().includes("Hello there"), `session/load did not replay run 1: ${agent.transcript()}`);
        return;
      }
      assert.notDeepEqual(history, [], "run 1's history is not in its state dir");
      sessionId = (await agent.newSession(folder)).sessionId;
      assert.equal(await prompt("[hello] again"), "end_turn");
      assert.ok(agent.text().includes("Hello there"), agent.transcript());
    });
  });
}
