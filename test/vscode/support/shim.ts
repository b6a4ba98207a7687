// The body of test/vscode/vscode-shim.mjs: VS Code's test command line → code-server + Chromium.
// runTests passes `--extensionTestsPath=… --extensionDevelopmentPath=… --user-data-dir=… --extensions-dir=…`,
// its `launchArgs` (the first positional is the folder or .code-workspace to open) and Electron flags,
// which are ignored here. Its `extensionTestsEnv` arrives as this process's environment, which becomes
// code-server's and so the extension host's.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchBrowser, openWorkbench } from "./browser";
import { startCodeServer, type CodeServer } from "./codeServer";
import { ensureTools } from "./tools";

interface ShimArgs {
  extensionTestsPath?: string;
  extensionDevelopmentPaths: string[];
  userDataDir?: string;
  extensionsDir?: string;
  open?: string;
}

/** Flags of the VS Code CLI that take a separate value (`--flag value`), so it is not taken for the folder. */
const VALUE_FLAGS = new Set([
  "--extensionTestsPath",
  "--extensionDevelopmentPath",
  "--user-data-dir",
  "--extensions-dir",
  "--locale",
  "--log",
]);

export function parseShimArgs(argv: string[]): ShimArgs {
  const out: ShimArgs = { extensionDevelopmentPaths: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    let flag = arg;
    let value: string | undefined;
    const eq = arg.indexOf("=");
    if (arg.startsWith("--") && eq > 0) {
      flag = arg.slice(0, eq);
      value = arg.slice(eq + 1);
    } else if (VALUE_FLAGS.has(arg)) {
      value = argv[++i];
    }
    if (!arg.startsWith("-")) {
      out.open ??= arg;
      continue;
    }
    if (value === undefined) continue;
    if (flag === "--extensionTestsPath") out.extensionTestsPath = value;
    else if (flag === "--extensionDevelopmentPath") out.extensionDevelopmentPaths.push(value);
    else if (flag === "--user-data-dir") out.userDataDir = value;
    else if (flag === "--extensions-dir") out.extensionsDir = value;
  }
  return out;
}

/** Printed by test/vscode/suite/index.ts when mocha starts. */
export const SUITE_START_MARKER = "manifold-extension-tests: mocha starting";

/** Workbench log lines that are noise on an offline machine (gallery, telemetry, update checks). */
const NOISE = /open-vsx\.org|ENOTFOUND|ERR_FAILED|net::ERR_|marketplace|Failed to load resource|\[Extension Host\] (?:Debugger|Starting)/;

export async function runShim(argv: string[]): Promise<number> {
  const args = parseShimArgs(argv);
  if (!args.extensionTestsPath || args.extensionDevelopmentPaths.length === 0) {
    console.error("vscode-shim: need --extensionTestsPath and --extensionDevelopmentPath (it runs extension tests only)");
    return 2;
  }
  const timeoutMs = Number(process.env.MANIFOLD_SHIM_TIMEOUT_MS ?? 300_000);
  const tools = ensureTools();
  const stateDir = mkdtempSync(join(tmpdir(), "manifold-shim-"));
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const cleanup = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    const stopped = await server?.stop();
    for (const p of stopped?.leftovers ?? []) console.error(`vscode-shim: process outlived code-server (killed): ${p.pid} ${p.command}`);
    if (process.env.MANIFOLD_SHIM_KEEP === "1") {
      if (server) cpSync(join(server.userDataDir, "logs"), join(stateDir, "logs"), { recursive: true });
      console.error(`vscode-shim: kept ${stateDir} (with the server's logs)`);
    } else rmSync(stateDir, { recursive: true, force: true });
  };
  const onSignal = (): void => {
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    server = await startCodeServer({
      tools,
      stateDir,
      smokeTestDriver: true,
      ...(args.userDataDir ? { userDataDir: args.userDataDir } : {}),
      ...(args.extensionsDir ? { extensionsDir: args.extensionsDir } : {}),
    });
    const authority = await server.remoteAuthority();
    const remote = (path: string): string => `vscode-remote://${authority}${path}`;
    browser = await launchBrowser(tools.chromium);
    let settle: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (settle = resolve));
    // Workbench start-up chatter is held back until the suite prints its marker (all of it with
    // MANIFOLD_SHIM_VERBOSE=1); from then on every line (mocha's report, extension errors) is printed.
    const verbose = process.env.MANIFOLD_SHIM_VERBOSE === "1";
    let started = false;
    const startup: string[] = [];
    const payload: Array<[string, string]> = [
      ...args.extensionDevelopmentPaths.map((p): [string, string] => ["extensionDevelopmentPath", remote(p)]),
      ["extensionTestsPath", remote(args.extensionTestsPath)],
    ];
    await openWorkbench(browser, server.url, {
      ...(args.open ? { open: args.open } : {}),
      payload,
      onLog: (_level, text) => {
        if (NOISE.test(text)) return;
        if (started || verbose) process.stdout.write(text + "\n");
        else if (text.includes(SUITE_START_MARKER)) started = true;
        else startup.push(text);
      },
      onExit: (code) => settle(code),
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        console.error(`vscode-shim: no result after ${timeoutMs} ms (is --vscode-option enable-smoke-test-driver honoured?)`);
        resolve(1);
      }, timeoutMs);
    });
    const code = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    // The suite never started: the workbench's start-up log is the only clue.
    if (!started && !verbose) process.stdout.write(startup.join("\n") + "\n");
    return code;
  } catch (error) {
    console.error("vscode-shim:", error);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await cleanup();
  }
}
