// Entry: stdout carries ACP only (console → stderr first), compose the server, serve ACP on stdio,
// exit when the connection closes; SIGTERM/SIGINT share the one memoized teardown (I-80).
import "./stdoutGuard";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Readable } from "node:stream";
import { batchedOutput } from "./acp/batchedOutput";
import { guardedNdJsonStream } from "./acp/frameGuard";
import { HIDE_DIRS_ENV, parseHideDirs, resolveHideDirs } from "../sandbox/hideDirs";
import { AgentConfigError, loadAgentConfig } from "./configFile";
import { createServer } from "./server";
import { resolveDataDir } from "./session/fileName";
import { errorMessage } from "../base/errors";

function fail(message: string): never {
  console.error(`[agent-server] ${message}`);
  process.exit(2);
}

/** Absolute and real: the command sandbox masks the data dir by path, and a relative or symlinked path would mask nothing. */
function dataDirOf(argv: string[], env: NodeJS.ProcessEnv): string {
  try {
    const given = path.resolve(resolveDataDir(argv, env));
    fs.mkdirSync(given, { recursive: true, mode: 0o700 });
    return fs.realpathSync(given);
  } catch (err) {
    fail(errorMessage(err));
  }
}

/**
 * MANIFOLD_HIDE_DIRS: the client's storage (the extension's checkpoints, logs, VS Code state), hidden
 * like the data dir (I-116). Checked once here: absolute, created, real; a bad entry is logged and skipped.
 */
function hideDirsOf(env: NodeJS.ProcessEnv): string[] {
  const dirs = resolveHideDirs(parseHideDirs(env[HIDE_DIRS_ENV]), { home: env.HOME || os.homedir(), log: (line) => console.error(line) });
  if (dirs.length > 0) console.error(`[agent-server] hidden from sessions: ${dirs.join(", ")}`);
  return dirs;
}

/** The profiles of `--config` / MANIFOLD_CONFIG; a bad file exits 2 before `initialize` is read (I-10). */
function configOf(argv: string[], env: NodeJS.ProcessEnv): ReturnType<typeof loadAgentConfig> {
  try {
    return loadAgentConfig(argv, env);
  } catch (err) {
    if (err instanceof AgentConfigError) fail(err.message);
    throw err;
  }
}

const config = configOf(process.argv.slice(2), process.env);
const server = createServer({
  env: process.env,
  profiles: config.agentProfiles,
  dataDir: dataDirOf(process.argv.slice(2), process.env),
  hide: hideDirsOf(process.env),
});
// Every stdin line is judged (depth, size, encoding) before the SDK parses it (I-108). Lines out
// are batched per turn of the event loop; whatever is pending still leaves on exit.
const output = batchedOutput(process.stdout);
process.on("exit", () => output.flush());
// The first line out is the `initialize` answer: models and the sandbox probe start after it (cold start).
output.afterNextWrite(() => server.start());
const stream = guardedNdJsonStream(output, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
const connection = server.app.connect(stream);

const exits = new Set<string>();
async function shutdown(why: string): Promise<void> {
  // The first cause exits; a later one (a signal during teardown) only joins the memoized teardown.
  const first = exits.size === 0;
  exits.add(why);
  if (first) console.error(`[agent-server] shutting down (${why})`);
  let code = 0;
  try {
    await server.teardown();
  } catch (err) {
    if (first) console.error(`[agent-server] ${errorMessage(err)}`);
    code = 1;
  }
  if (first) process.exit(code);
}

void connection.closed.then(() => shutdown("connection closed"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
