// Agent tier: a window (test/support/exactWindow.ts, the real folder-session code) killed while it
// creates its folder's session, then started again, finds that one session (I-120).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeModelServer, type FakeModelServer } from "../support/fakeModelServer";
import { modelEnv, tempDir } from "../support/agentProcess";

const WINDOW = resolve(__dirname, "../support/exactWindow.ts");

interface WindowRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runWindow(env: Record<string, string>): Promise<WindowRun> {
  const child = spawn(process.execPath, ["--import", "tsx", WINDOW], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((res) =>
    child.once("close", (code, signal) => {
      // The window's agent-server ends at its stdin's end; one still running is ended by its id.
      const pid = /agent-pid (\d+)/.exec(stdout)?.[1];
      if (pid) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // already gone
        }
      }
      res({ code, signal, stdout, stderr });
    }),
  );
}

/** The session logs in `dataDir` whose header names `folder`, with their text. */
function logsOf(dataDir: string, folder: string): Array<{ id: string; text: string }> {
  return readdirSync(dataDir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => readFileSync(join(dataDir, n), "utf8"))
    .map((text) => ({ header: JSON.parse(text.slice(0, text.indexOf("\n"))) as { id: string; cwd: string }, text }))
    .filter((l) => l.header.cwd === folder)
    .map((l) => ({ id: l.header.id, text: l.text }));
}

describe("a window killed while creating its folder's session (spawned agent-server)", () => {
  let server: FakeModelServer;
  const cleanups: Array<() => void> = [];
  before(async () => {
    server = await startFakeModelServer();
  });
  after(async () => {
    for (const c of cleanups) c();
    await server.close();
  });

  for (const point of ["after-new", "after-binding"] as const) {
    it(`I-120: killed ${point === "after-new" ? "between session/new and the binding write" : "between the binding write and session/new"}, the folder has one session after restart, with the first turns`, async () => {
      const data = tempDir("manifold-window-data-");
      const ws = tempDir();
      const state = tempDir("manifold-window-state-");
      cleanups.push(data.cleanup, ws.cleanup, state.cleanup);
      const folder = realpathSync(ws.path);
      const bindings = join(state.path, "bindings.json");
      const env = {
        ...modelEnv(server.url),
        EXACT_WINDOW_DATA_DIR: data.path,
        EXACT_WINDOW_FOLDER: folder,
        EXACT_WINDOW_BINDINGS: bindings,
      };
      const killed = await runWindow({ ...env, EXACT_WINDOW_KILL_AT: point });
      assert.equal(killed.signal, "SIGKILL", killed.stderr);
      const readBound = (): string | undefined => {
        try {
          return (JSON.parse(readFileSync(bindings, "utf8")) as Record<string, string>)[folder];
        } catch {
          return undefined;
        }
      };
      const firstBound = readBound();
      server.route("[W1]", { text: "first reply" });
      const second = await runWindow({ ...env, EXACT_WINDOW_PROMPT: "[W1] first" });
      assert.equal(second.code, 0, second.stderr);
      server.route("[W2]", { text: "second reply" });
      const third = await runWindow({ ...env, EXACT_WINDOW_PROMPT: "[W2] second" });
      assert.equal(third.code, 0, third.stderr);
      const logs = logsOf(data.path, folder);
      assert.equal(logs.length, 1, `sessions for the folder: ${logs.map((l) => l.id).join(", ")}`);
      const bound = readBound();
      assert.equal(logs[0]!.id, bound);
      assert.equal(bound, firstBound, "the id bound before the kill is the folder's session");
      assert.match(second.stdout, new RegExp(`session ${bound}`));
      assert.match(third.stdout, new RegExp(`session ${bound}`));
      assert.match(logs[0]!.text, /\[W1\] first/);
      assert.match(logs[0]!.text, /\[W2\] second/);
    });
  }
});
