// Third-party ACP agents installed by bench/peers/install.sh, as spawn specs. Each runs offline with
// a private HOME and dummy keys; nothing they try on the network can succeed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentHandle, AgentSpec } from "../lib/agent";
import { baseEnv } from "../lib/agents";
import { peersDir } from "../lib/paths";

export interface PeerSpec {
  spec: AgentSpec | null;
  version: string;
  /** Why it cannot run here, when spec is null. */
  missing?: string;
  /** Run after `initialize`, before any session (e.g. choose the env-var auth method). */
  afterInit?: (h: AgentHandle) => Promise<unknown>;
}

function pkgVersion(pkg: string): string | null {
  const file = join(peersDir, "node_modules", pkg, "package.json");
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, "utf8")) as { version?: string }).version ?? "?";
}

function node(): string {
  return process.env.MANIFOLD_BENCH_PEER_NODE ?? process.execPath;
}

function gemini(): PeerSpec {
  const version = pkgVersion("@google/gemini-cli");
  if (!version) return { spec: null, version: "", missing: "not installed (run bench/peers/install.sh)" };
  const env = baseEnv({ GEMINI_API_KEY: "bench-dummy-key", GEMINI_CLI_NO_RELAUNCH: "true", NO_BROWSER: "true" });
  // Select API-key auth up front so session/new does not stop at an auth prompt.
  const settingsDir = join(env.HOME as string, ".gemini");
  mkdirSync(settingsDir, { recursive: true });
  writeFileSync(
    join(settingsDir, "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    }),
  );
  return {
    version,
    spec: {
      name: `gemini-cli ${version} --acp`,
      command: node(),
      args: [join(peersDir, "node_modules/@google/gemini-cli/bundle/gemini.js"), "--acp"],
      env,
    },
  };
}

function codex(): PeerSpec {
  const version = pkgVersion("@zed-industries/codex-acp");
  const bin = join(peersDir, "node_modules/@zed-industries/codex-acp-linux-x64/bin/codex-acp");
  if (!version || !existsSync(bin)) return { spec: null, version: version ?? "", missing: "not installed (run bench/peers/install.sh)" };
  const env = baseEnv({ OPENAI_API_KEY: "bench-dummy-key" });
  const codexHome = join(env.HOME as string, ".codex");
  mkdirSync(codexHome, { recursive: true });
  env.CODEX_HOME = codexHome;
  // The native binary directly: the npm launcher (bin/codex-acp.js) would add a ~40 MB node parent.
  return {
    version,
    spec: { name: `codex-acp ${version} (native)`, command: bin, args: [], env },
    // It advertises env-var auth methods and answers session/new "Authentication required" until one is chosen.
    afterInit: (h) => h.request("authenticate", { methodId: "openai-api-key" }),
  };
}

function claude(): PeerSpec {
  const version = pkgVersion("@zed-industries/claude-agent-acp");
  if (!version) return { spec: null, version: "", missing: "not installed (run bench/peers/install.sh)" };
  const env = baseEnv({ ANTHROPIC_API_KEY: "bench-dummy-key", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1" });
  return {
    version,
    spec: {
      name: `claude-agent-acp ${version}`,
      command: node(),
      args: [join(peersDir, "node_modules/@zed-industries/claude-agent-acp/dist/index.js")],
      env,
    },
  };
}

export function peerSpecs(): PeerSpec[] {
  return [gemini(), codex(), claude()];
}
