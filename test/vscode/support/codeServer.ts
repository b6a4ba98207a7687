// Starts and stops code-server (VS Code 1.139 in the browser) for the VS Code tier and `npm start`.
// Every instance has its own config, user data, extensions and XDG folders (nothing under $HOME), runs
// detached in its own process group and is stopped by group, so no process outlives it.
import { execFile, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cleanEnv } from "../../../scripts/lib/clean-env.mjs";
import { hostLogProblems } from "./hostLog";
import { processesInGroup, processesMentioning, signalGroup, stopGroup, waitUntilGone, type ProcInfo } from "./processes";
import type { E2eTools } from "./tools";

const execFileAsync = promisify(execFile);

/** User settings that keep the workbench quiet and deterministic (no welcome page, no AI side bar, no updates). */
export const QUIET_SETTINGS: Record<string, unknown> = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "security.workspace.trust.enabled": false,
  // The built-in git extension activates eagerly (`*`) and scans every folder: seconds on a busy 2-core box.
  "git.enabled": false,
  "git.autoRepositoryDetection": false,
  "github.gitAuthentication": false,
};

/** With `workspaceTrust`: trust is asked for, but silently (Restricted Mode until the test trusts). */
const TRUST_SETTINGS: Record<string, unknown> = {
  "security.workspace.trust.enabled": true,
  "security.workspace.trust.startupPrompt": "never",
  "security.workspace.trust.untrustedFiles": "open",
};

export interface CodeServerOptions {
  tools: E2eTools;
  /** Folder for this instance's config, data and XDG folders (created). */
  stateDir: string;
  /** Defaults: `<stateDir>/user-data`, `<stateDir>/extensions`. */
  userDataDir?: string;
  extensionsDir?: string;
  /** Installed with `--install-extension … --force` before the server starts. */
  vsix?: string;
  /** More .vsix files installed beside `vsix` (the panel benchmark's bare-webview floor). */
  extraVsix?: readonly string[];
  /** Needed for `payload` (extensionDevelopmentPath / extensionTestsPath) in the URL. */
  smokeTestDriver?: boolean;
  /** Added to the server's environment, which the extension host (and so the agent) inherits. */
  env?: Record<string, string | undefined>;
  /**
   * Workspace trust on (default off: `--disable-workspace-trust`): a workspace opens in Restricted Mode,
   * with no start-up prompt, until the test trusts it.
   */
  workspaceTrust?: boolean;
  /** Merged over QUIET_SETTINGS into `<user-data>/User/settings.json`. */
  settings?: Record<string, unknown>;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Receives code-server's own output lines (default: dropped). */
  onOutput?: (line: string) => void;
}

export interface CodeServer {
  /** e.g. http://127.0.0.1:34567 (no trailing slash). */
  readonly url: string;
  readonly pgid: number;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Resolves with code-server's exit code (or signal name) when its main process ends. */
  readonly exited: Promise<number | string>;
  /** Live processes of the server's group (server, file watcher, extension hosts, the agent…). */
  processes(): ReturnType<typeof processesInGroup>;
  /** The workbench's remote authority, for `vscode-remote://<authority>/abs/path` payload URIs. */
  remoteAuthority(): Promise<string>;
  /**
   * `[error]` lines the extension hosts logged so far (uncaught errors of any extension, ours included),
   * and Manifold's pending-migration reports (e.g. a read of `navigator`) at any level.
   */
  extensionHostErrors(): string[];
  /**
   * SIGTERM to the group, SIGKILL after a grace period; resolves when none of the group is alive. Processes
   * outside the group that still mention the state folder (e.g. an agent the extension spawned in its own
   * group) get 15 s to exit on their own (their extension host outlives the server by the 5 s reconnection
   * grace); those that do not are killed and returned as `leftovers`.
   */
  stop(): Promise<{ leftovers: ProcInfo[] }>;
}

/** Nothing of an enclosing npm, Node test runner or VS Code reaches the server or the extension host. */
function serverEnv(options: CodeServerOptions): NodeJS.ProcessEnv {
  return cleanEnv(process.env, {
    XDG_DATA_HOME: join(options.stateDir, "xdg-data"),
    XDG_CONFIG_HOME: join(options.stateDir, "xdg-config"),
    XDG_CACHE_HOME: join(options.stateDir, "xdg-cache"),
    ...options.env,
  });
}

function commonArgs(options: CodeServerOptions, userDataDir: string, extensionsDir: string): string[] {
  return [
    options.tools.codeServerEntry,
    "--config",
    join(options.stateDir, "config.yaml"),
    "--user-data-dir",
    userDataDir,
    "--extensions-dir",
    extensionsDir,
  ];
}

/**
 * If this process ends without stop() (a crash, an uncaught error, Ctrl+C in a test run), the detached
 * group would live on: kill it on the way out. A signal is re-raised after the kill unless someone else
 * (e.g. `npm start`'s graceful stop) handles it. Returns the function that removes the guard.
 */
function guardGroup(pgid: number): () => void {
  const killNow = (): void => {
    signalGroup(pgid, "SIGKILL");
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (process.listenerCount(signal) > 0) return; // someone else stops things gracefully
    killNow();
    process.kill(process.pid, signal);
  };
  const onInt = (): void => {
    process.off("SIGINT", onInt);
    onSignal("SIGINT");
  };
  const onTerm = (): void => {
    process.off("SIGTERM", onTerm);
    onSignal("SIGTERM");
  };
  process.on("exit", killNow);
  process.prependListener("SIGINT", onInt);
  process.prependListener("SIGTERM", onTerm);
  return () => {
    process.off("exit", killNow);
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  };
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const userDataDir = options.userDataDir ?? join(options.stateDir, "user-data");
  const extensionsDir = options.extensionsDir ?? join(options.stateDir, "extensions");
  for (const dir of [options.stateDir, join(userDataDir, "User"), extensionsDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(options.stateDir, "config.yaml"), "");
  const settings = { ...QUIET_SETTINGS, ...(options.workspaceTrust ? TRUST_SETTINGS : {}), ...options.settings };
  writeFileSync(join(userDataDir, "User/settings.json"), JSON.stringify(settings, null, 2));
  const env = serverEnv(options);
  const base = commonArgs(options, userDataDir, extensionsDir);

  const vsixes = [...(options.vsix ? [options.vsix] : []), ...(options.extraVsix ?? [])];
  if (vsixes.length > 0) {
    const installs = vsixes.flatMap((v) => ["--install-extension", v]);
    await execFileAsync(options.tools.node, [...base, ...installs, "--force"], { env, timeout: 120_000 });
  }

  const args = [
    ...base,
    "--bind-addr",
    `${options.host ?? "127.0.0.1"}:${options.port ?? 0}`,
    "--auth",
    "none",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    "--reconnection-grace-time",
    "5",
  ];
  if (!options.workspaceTrust) args.push("--disable-workspace-trust");
  if (options.smokeTestDriver) args.push("--vscode-option", "enable-smoke-test-driver");

  const child = spawn(options.tools.node, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error("code-server did not start");
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const unguard = guardGroup(pgid);
  void exited.then(unguard);

  const url = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        options.onOutput?.(line);
        const m = /HTTP server listening on (http:\/\/[^\s/]+)/.exec(line);
        if (m?.[1]) resolve(m[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`code-server exited before listening (code ${code}, signal ${signal})`)));
    child.once("error", reject);
  }).catch(async (error: unknown) => {
    await stopGroup(pgid).catch(() => undefined);
    throw error;
  });
  const healthz = await fetch(`${url}/healthz`);
  if (!healthz.ok) {
    await stopGroup(pgid);
    throw new Error(`code-server /healthz answered ${healthz.status}`);
  }

  const stopAll = async (): Promise<{ leftovers: ProcInfo[] }> => {
    await stopGroup(pgid);
    const leftovers = await waitUntilGone(() => processesMentioning(options.stateDir), 15_000);
    for (const p of leftovers) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return { leftovers };
  };
  let stopping: Promise<{ leftovers: ProcInfo[] }> | undefined;
  return {
    url,
    pgid,
    exited,
    userDataDir,
    extensionsDir,
    processes: () => processesInGroup(pgid),
    async remoteAuthority() {
      const html = await (await fetch(`${url}/`)).text();
      const meta = /id="vscode-workbench-web-configuration"\s+data-settings="([^"]*)"/.exec(html);
      if (!meta?.[1]) throw new Error("workbench page has no web configuration");
      const decoded = meta[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&");
      const settings: unknown = JSON.parse(decoded);
      const authority = (settings as { remoteAuthority?: unknown }).remoteAuthority;
      if (typeof authority !== "string") throw new Error("web configuration has no remoteAuthority");
      return authority;
    },
    extensionHostErrors: () => extensionHostErrors(userDataDir),
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

/**
 * The problems (hostLog.ts) of every extension-host log under `<user-data>/logs/<session>/exthost*`
 * (code-server writes `remoteexthost.log` there): an error Manifold throws at activation or later, even
 * one nobody sees in the UI, ends up here; so does a pending migration VS Code reports as a warning.
 */
export function extensionHostErrors(userDataDir: string): string[] {
  const errors: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^(remote)?exthost\.log$/.test(e.name)) {
        errors.push(...hostLogProblems(readFileSync(p, "utf8")));
      }
    }
  };
  walk(join(userDataDir, "logs"));
  return errors;
}
