// Entry: stdout carries ACP only (console → stderr first), serve ACP on stdio through the front
// (acp/front.ts answers `initialize`), compose the server (server.ts, imported only after that
// answer has left: the cold start pays for the SDK and this file alone), exit when the connection
// closes; SIGTERM/SIGINT share the one memoized teardown (I-80).
import "./stdoutGuard";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { batchedOutput } from "./acp/batchedOutput";
import { guardedStream } from "./acp/frameGuard";
import { HIDE_DIRS_ENV, parseHideDirs, resolveHideDirs } from "../sandbox/hideDirs";
import { AgentConfigError, loadAgentConfig } from "./configFile";
import { createFront } from "./acp/front";
import type { Server } from "./server";
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
const options = {
  env: process.env,
  profiles: config.agentProfiles,
  dataDir: dataDirOf(process.argv.slice(2), process.env),
  hide: hideDirsOf(process.env),
};
let server: Promise<Server> | undefined;
// The core is a second file (esbuild.mjs). `require`, not `import()`: Node's ESM loader would first
// scan the whole CommonJS file for its export names (cjs-module-lexer, tens of ms). The server starts
// resolving models and probing the sandbox as soon as it exists.
const loadServer = (): Promise<Server> =>
  (server ??= Promise.resolve().then(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second file, loaded late on purpose (above)
    const { createServer } = require("./server") as typeof import("./server");
    const s = createServer(options);
    s.start();
    return s;
  }));
const front = createFront({ routes: () => loadServer().then((s) => s.routes), mcp: true });

// Every stdin line is judged (depth, size, encoding) before the SDK parses it (I-108). Lines out
// are batched per turn of the event loop; whatever is pending still leaves on exit.
const output = batchedOutput(process.stdout);
process.on("exit", () => output.flush());
// The first line out is the `initialize` answer; the server is imported after it (cold start).
output.afterNextWrite(() => {
  front.load().catch((err: unknown) => console.error(`[agent-server] could not load the server: ${errorMessage(err)}`));
});
const stream = guardedStream(output, process.stdin);
const connection = front.app.connect(stream);

const exits = new Set<string>();
async function shutdown(why: string): Promise<void> {
  // The first cause exits; a later one (a signal during teardown) only joins the memoized teardown.
  const first = exits.size === 0;
  exits.add(why);
  if (first) console.error(`[agent-server] shutting down (${why})`);
  let code = 0;
  try {
    if (server) await (await server).teardown();
  } catch (err) {
    if (first) console.error(`[agent-server] ${errorMessage(err)}`);
    code = 1;
  }
  if (first) process.exit(code);
}

void connection.closed.then(() => shutdown("connection closed"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

// The core (dist/agent-server-core.js) uses these of this file's SDK instead of bundling its own
// (esbuild.mjs names the same ones; the build fails when the core imports another).
export { RequestError, methods } from "@agentclientprotocol/sdk";
