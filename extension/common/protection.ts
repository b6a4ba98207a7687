// Which protection applies to a folder's session, said in the panel: the built-in agent
// sandboxes its own tools and commands; a third-party agent runs inside the window's fence
// (extension/agent/confinement.ts, I-118), or as the user when the user chose that for it (I-119).
// And whether the agent's current mode asks nothing before acting (claude-agent-acp's "auto",
// "bypassPermissions", …): that must be visible too.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";

/** How the window's third-party agent process runs, as the host set it up. */
export interface AgentConfinement {
  kind: "confined" | "runs-as-you";
  /** The panel's line, complete ("Confined by Manifold: writes only in A, B; …"). */
  text: string;
  /** The fence's backend (`bubblewrap`, `landlock`, `sandbox-exec`). */
  backend?: string;
  /** The folders the fence lets it write (absolute). */
  folders?: string[];
}

export interface Protection {
  kind: "sandboxed" | "unconfined" | "read-only" | "runs-as-you" | "confined";
  /** One line for the panel. */
  text: string;
  /** The built-in agent's command sandbox backend, as it reports it (`bwrap`, `landlock`, `none`, …). */
  backend?: string;
}

function selectValue(options: readonly SessionConfigOption[], id: string): SessionConfigOption | undefined {
  return options.find((o) => o.id === id && o.type === "select");
}

/**
 * The backend the built-in agent names in its `sandbox` option's description
 * (agent-server/acp/config.ts `sandboxDescription`); undefined until it has detected one.
 */
export function reportedBackend(options: readonly SessionConfigOption[]): string | undefined {
  const d = selectValue(options, "sandbox")?.description ?? "";
  if (/No sandbox backend works/i.test(d)) return "none";
  return /Commands run under ([\w-]+)/.exec(d)?.[1];
}

export function protectionOf(s: {
  builtin?: boolean;
  folderName: string;
  configOptions: readonly SessionConfigOption[];
  confinement?: AgentConfinement;
}): Protection | undefined {
  if (s.builtin === undefined) return undefined;
  if (!s.builtin) {
    if (s.confinement)
      return { kind: s.confinement.kind, text: s.confinement.text, ...(s.confinement.backend ? { backend: s.confinement.backend } : {}) };
    return {
      kind: "runs-as-you",
      text: `Runs as you: only its fs/* and terminal/* requests through Manifold are confined to ${s.folderName}; it may run commands and write files itself.`,
    };
  }
  const backend = reportedBackend(s.configOptions);
  const via = backend === undefined ? "" : backend === "none" ? " (no sandbox backend: every command asks first)" : ` (${backend})`;
  const sandbox = selectValue(s.configOptions, "sandbox");
  const value = sandbox && "currentValue" in sandbox ? String(sandbox.currentValue) : "workspace-write";
  const b = backend !== undefined ? { backend } : {};
  if (value === "danger-full-access")
    return { kind: "unconfined", text: "Full access: the agent's writes and commands are not confined.", ...b };
  if (value === "read-only") return { kind: "read-only", text: `Sandboxed, read-only: no writes${via}.`, ...b };
  return { kind: "sandboxed", text: `Sandboxed: writes confined to ${s.folderName}${via}.`, ...b };
}

/** Mode ids or names that act without asking (claude-agent-acp's auto, bypass, acceptEdits, dontAsk; gemini's yolo). */
const ASKS_NOTHING = /auto|bypass|accept.?edits|dont.?ask|yolo|full.?access/i;

/**
 * The agent's current mode when it is one that approves by itself: from the legacy modes, or a
 * `mode` config option (category `mode`). Undefined when the mode asks (or there is none).
 */
export function autoApprovingMode(s: { modes?: SessionModeState; configOptions: readonly SessionConfigOption[] }): string | undefined {
  const opt = s.configOptions.find((o) => o.type === "select" && (o.category === "mode" || o.id === "mode"));
  if (opt && opt.type === "select") {
    const flat = opt.options.flatMap((o) => ("group" in o ? o.options : [o]));
    const cur = flat.find((o) => o.value === opt.currentValue);
    const label = cur?.name ?? String(opt.currentValue);
    return ASKS_NOTHING.test(String(opt.currentValue)) || ASKS_NOTHING.test(label) ? label : undefined;
  }
  const m = s.modes;
  if (!m) return undefined;
  const cur = m.availableModes.find((x) => x.id === m.currentModeId);
  const label = cur?.name ?? m.currentModeId;
  return ASKS_NOTHING.test(m.currentModeId) || ASKS_NOTHING.test(label) ? label : undefined;
}
