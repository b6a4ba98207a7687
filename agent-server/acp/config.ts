// ACP config options (and legacy modes) for one session: mode, sandbox, approval, model. Pure.
// A mode is a preset of sandbox and approval (`MODE_PRESETS`); any other pair shows as `custom`.
import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import type { ModelConfig } from "../model/types";
import { visionSummary } from "../model/visionProbe";
import { MODE_PRESETS } from "../policy/types";
import { applyConfig, modeOf, type SessionSettings } from "../runtime/settings";

const MODE_NAMES: Record<string, { name: string; description: string }> = {
  "read-only": { name: "Read-only", description: "Reads anywhere, writes nothing; asks before anything the sandbox would block." },
  agent: { name: "Agent", description: "Writes inside the workspace; asks before anything the sandbox would block." },
  "full-access": { name: "Full access", description: "No sandbox and no questions. Use with care." },
};

/** Durable settings with the record's pending idle switches applied on top. */
export function effectiveSettings(durable: SessionSettings, pending: ReadonlyMap<string, string>): SessionSettings {
  let s = durable;
  for (const [id, v] of pending) s = applyConfig(s, id, v);
  return s;
}

/** What the sandbox option tells the user about enforcement: the backend in use (issue: reported to the client). */
export function sandboxDescription(backend: string | undefined): string | null {
  if (backend === undefined) return null;
  if (backend === "none")
    return "No sandbox backend works on this machine: every command asks first (and is refused under approval `never`). File tools are still confined by the path guard.";
  return `Commands run under ${backend}; file tools are confined by the path guard.`;
}

export function configOptions(s: SessionSettings, models: readonly ModelConfig[], sandboxBackend?: string): SessionConfigOption[] {
  const mode = modeOf(s);
  const modeOptions = Object.keys(MODE_PRESETS).map((id) => ({
    value: id,
    name: MODE_NAMES[id]?.name ?? id,
    description: MODE_NAMES[id]?.description ?? null,
  }));
  if (mode === "custom") modeOptions.push({ value: "custom", name: "Custom", description: "Sandbox and approval set separately." });
  return [
    { id: "mode", name: "Mode", category: "mode", type: "select", currentValue: mode, options: modeOptions },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: s.model,
      // Whether each model sees images, and who said so (its endpoint, the setting, its name).
      options: models.map((m) => ({ value: m.id, name: m.label, description: visionSummary(m) })),
    },
    {
      id: "sandbox",
      name: "Sandbox",
      description: sandboxDescription(sandboxBackend),
      category: "_manifold_sandbox",
      type: "select",
      currentValue: s.sandbox,
      options: [
        { value: "read-only", name: "Read-only" },
        { value: "workspace-write", name: "Workspace write" },
        { value: "danger-full-access", name: "Full access (no sandbox)" },
      ],
    },
    {
      id: "approval",
      name: "Approval",
      category: "_manifold_approval",
      type: "select",
      currentValue: s.approval,
      options: [
        { value: "untrusted", name: "Ask for writes and commands" },
        { value: "on-request", name: "Ask when the sandbox would block" },
        { value: "never", name: "Never ask" },
      ],
    },
  ];
}

export function modeState(s: SessionSettings): SessionModeState {
  const mode = modeOf(s);
  const availableModes = Object.keys(MODE_PRESETS).map((id) => ({
    id,
    name: MODE_NAMES[id]?.name ?? id,
    description: MODE_NAMES[id]?.description ?? null,
  }));
  if (mode === "custom") availableModes.push({ id: "custom", name: "Custom", description: "Sandbox and approval set separately." });
  return { currentModeId: mode, availableModes };
}
