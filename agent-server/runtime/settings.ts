// Per-session settings folded from that session's own events only (I-48). Pure.
import {
  APPROVAL_POLICIES,
  DEFAULT_MODE,
  MODE_PRESETS,
  SANDBOX_MODES,
  type ApprovalPolicy,
  type ModePreset,
  type SandboxMode,
} from "../policy/types";
import type { SessionEvent } from "../session/events";

export const CONFIG_IDS = ["mode", "sandbox", "approval", "model"] as const;
export type ConfigId = (typeof CONFIG_IDS)[number];

export interface SessionSettings {
  sandbox: SandboxMode;
  approval: ApprovalPolicy;
  model: string;
}

export function defaultSettings(modelId: string): SessionSettings {
  const preset = MODE_PRESETS[DEFAULT_MODE];
  return { sandbox: preset.sandbox, approval: preset.approval, model: modelId };
}

export function isConfigId(id: string): id is ConfigId {
  return (CONFIG_IDS as readonly string[]).includes(id);
}

export function isModePreset(v: string): v is ModePreset {
  return Object.prototype.hasOwnProperty.call(MODE_PRESETS, v);
}

/** The mode preset the pair matches, or "custom" when it matches none. */
export function modeOf(s: Pick<SessionSettings, "sandbox" | "approval">): ModePreset | "custom" {
  for (const [id, p] of Object.entries(MODE_PRESETS)) {
    if (p.sandbox === s.sandbox && p.approval === s.approval) return id as ModePreset;
  }
  return "custom";
}

/** Applies one `config/set`. Unknown ids or values are ignored (they never reach the log: see validateConfigValue). */
export function applyConfig(s: SessionSettings, configId: string, value: string): SessionSettings {
  switch (configId) {
    case "mode":
      if (!isModePreset(value)) return s;
      return { ...s, sandbox: MODE_PRESETS[value].sandbox, approval: MODE_PRESETS[value].approval };
    case "sandbox":
      return (SANDBOX_MODES as readonly string[]).includes(value) ? { ...s, sandbox: value as SandboxMode } : s;
    case "approval":
      return (APPROVAL_POLICIES as readonly string[]).includes(value) ? { ...s, approval: value as ApprovalPolicy } : s;
    case "model":
      return { ...s, model: value };
    default:
      return s;
  }
}

export function foldSettings(initial: SessionSettings, events: Iterable<SessionEvent>): SessionSettings {
  let s = initial;
  for (const e of events) if (e.type === "config/set") s = applyConfig(s, e.configId, e.value);
  return s;
}

/** Null when acceptable, else a message for the client (I-53). */
export function validateConfigValue(configId: string, value: unknown, modelIds: readonly string[]): string | null {
  if (!isConfigId(configId)) return `unknown config option ${JSON.stringify(configId)} (expected one of ${CONFIG_IDS.join(", ")})`;
  if (typeof value !== "string") return `config option ${configId} takes a string value`;
  const allowed: readonly string[] =
    configId === "mode"
      ? Object.keys(MODE_PRESETS)
      : configId === "sandbox"
        ? SANDBOX_MODES
        : configId === "approval"
          ? APPROVAL_POLICIES
          : modelIds;
  if (!allowed.includes(value)) return `${JSON.stringify(value)} is not a value of ${configId} (expected one of ${allowed.join(", ")})`;
  return null;
}
