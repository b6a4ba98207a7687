// Panel header: session title, agent status, config pickers, session buttons; and the banners
// (demo model, agent restarting / failed, Restricted Mode).
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { isDemoModel, type TranscriptState } from "../../common/transcript";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { PROFILE_CONFIG_ID, RESERVED_PROFILE_ID } from "../../../base/profileIds";
import { post } from "../vscodeApi";

function ConfigPicker({ o }: { o: SessionConfigOption }) {
  if (o.type === "boolean") {
    return (
      <label class="picker" data-testid={TEST_IDS.configPicker} data-config-id={o.id} title={o.description ?? o.name}>
        <input
          type="checkbox"
          checked={o.currentValue}
          onChange={(ev) => post({ type: "config/set", configId: o.id, value: (ev.currentTarget as HTMLInputElement).checked })}
        />
        {o.name}
      </label>
    );
  }
  if (o.type !== "select") return null;
  const groups = o.options.some((x) => "group" in x);
  return (
    <label class="picker" title={o.description ?? o.name}>
      <span class="picker-name">{o.name}</span>
      <select
        data-testid={TEST_IDS.configPicker}
        data-config-id={o.id}
        value={o.currentValue}
        onChange={(ev) => post({ type: "config/set", configId: o.id, value: (ev.currentTarget as HTMLSelectElement).value })}
      >
        {groups
          ? o.options.map((g) =>
              "group" in g ? (
                <optgroup key={g.group} label={g.name}>
                  {g.options.map((v) => (
                    <option key={v.value} value={v.value} title={v.description ?? undefined}>
                      {v.name}
                    </option>
                  ))}
                </optgroup>
              ) : null,
            )
          : o.options.map((v) =>
              "value" in v ? (
                <option key={v.value} value={v.value} title={v.description ?? undefined}>
                  {v.name}
                </option>
              ) : null,
            )}
      </select>
    </label>
  );
}

function ModePicker({ s }: { s: TranscriptState }) {
  const modes = s.modes;
  // Legacy modes are the picker unless a config option already carries the mode (ACP: options supersede modes).
  if (!modes || s.configOptions.some((o) => o.category === "mode" || o.id === "mode")) return null;
  return (
    <label class="picker">
      <span class="picker-name">Mode</span>
      <select
        data-testid={TEST_IDS.configPicker}
        data-config-id="mode"
        value={modes.currentModeId}
        onChange={(ev) => post({ type: "mode/set", modeId: (ev.currentTarget as HTMLSelectElement).value })}
      >
        {modes.availableModes.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The agent profile the session runs (the built-in agent's `profile` option), shown by name next to
 * the agent; not a picker: a session keeps its profile (New Session… picks one).
 */
function profileOf(options: readonly SessionConfigOption[]): { id: string; name: string } | undefined {
  const o = options.find((x) => x.id === PROFILE_CONFIG_ID && x.type === "select");
  if (!o || o.type !== "select" || o.currentValue === RESERVED_PROFILE_ID) return undefined;
  const v = o.options.flatMap((x) => ("group" in x ? x.options : [x])).find((x) => x.value === o.currentValue);
  return { id: o.currentValue, name: v?.name ?? o.currentValue };
}

const STATUS_LABEL: Record<TranscriptState["agentStatus"], string> = {
  untrusted: "Restricted Mode",
  idle: "not started",
  starting: "starting…",
  ready: "ready",
  restarting: "restarting…",
  error: "error",
  stopped: "stopped",
};

export function Header({ s }: { s: TranscriptState }) {
  const profile = profileOf(s.configOptions);
  const pickers = s.configOptions.filter((o) => o.id !== PROFILE_CONFIG_ID);
  return (
    <header class="header" data-testid={TEST_IDS.header}>
      <div class="header-row">
        <span class="title" data-testid={TEST_IDS.title} title={s.sessionId ?? ""}>
          {s.title ?? (s.sessionId ? "New session" : "No session")}
        </span>
        <span class="muted">
          {s.folderName}
          {s.agentName ? ` · ${s.agentName}` : ""}
        </span>
        {profile ? (
          <span class="muted" data-testid={TEST_IDS.profile} data-profile={profile.id} title={`Agent profile ${profile.id}`}>
            {profile.name}
          </span>
        ) : null}
        <span class={`status status-${s.agentStatus}`} data-testid={TEST_IDS.status} data-status={s.agentStatus}>
          {s.running ? "working…" : STATUS_LABEL[s.agentStatus]}
        </span>
        <span class="spacer" />
        <button
          class="icon"
          data-testid={TEST_IDS.newSession}
          title="New session"
          aria-label="New session"
          onClick={() => post({ type: "session/action", action: "new" })}
        >
          <Icon name="add" />
        </button>
        {s.sessionFeatures.list ? (
          <button
            class="icon"
            data-testid={TEST_IDS.switchSession}
            title="Switch session"
            aria-label="Switch session"
            onClick={() => post({ type: "session/action", action: "switch" })}
          >
            <Icon name="history" />
          </button>
        ) : null}
      </div>
      {pickers.length > 0 || s.modes ? (
        <div class="header-row pickers">
          {pickers.map((o) => (
            <ConfigPicker key={o.id} o={o} />
          ))}
          <ModePicker s={s} />
        </div>
      ) : null}
    </header>
  );
}

export function Banners({ s }: { s: TranscriptState }) {
  const out = [];
  if (isDemoModel(s)) {
    out.push(
      <div key="demo" class="banner demo" data-testid={TEST_IDS.demoBanner} role="status">
        <Icon name="beaker" /> <b>Demo model</b>: answers are scripted and offline, for trying Manifold out.{" "}
        <button class="link" onClick={() => post({ type: "session/action", action: "setApiKey" })}>
          Set an API key
        </button>
      </div>,
    );
  }
  const st = s.agentStatus;
  if (st === "restarting" || st === "error" || st === "untrusted" || st === "stopped") {
    const text =
      st === "untrusted"
        ? "This workspace is in Restricted Mode: no agent starts until you trust it."
        : st === "restarting"
          ? "The agent stopped unexpectedly and is being restarted."
          : st === "stopped"
            ? "The agent is not running."
            : "The agent could not be started.";
    out.push(
      <div key="agent" class={`banner agent ${st}`} data-testid={TEST_IDS.restartedBanner} data-status={st} role="alert">
        <Icon name={st === "untrusted" ? "shield" : st === "restarting" ? "sync" : "error"} /> {text}
        {s.statusMessage && st !== "untrusted" ? <div class="muted">{s.statusMessage}</div> : null}
        {st !== "untrusted" ? (
          <span class="banner-actions">
            <button class="link" onClick={() => post({ type: "session/action", action: "restartAgent" })}>
              Restart agent
            </button>
            <button class="link" onClick={() => post({ type: "session/action", action: "showLog" })}>
              Show log
            </button>
          </span>
        ) : null}
      </div>,
    );
  }
  return <>{out}</>;
}

export function PlanView({ s }: { s: TranscriptState }) {
  if (s.plan.length === 0) return null;
  const done = s.plan.filter((p) => p.status === "completed").length;
  return (
    <details class="plan" data-testid={TEST_IDS.plan} open>
      <summary>
        <Icon name="checklist" /> Plan ({done}/{s.plan.length})
      </summary>
      <ol>
        {s.plan.map((p, i) => (
          <li key={i} class={`plan-${p.status} prio-${p.priority}`} data-testid={TEST_IDS.planItem} data-status={p.status}>
            <Icon name={p.status === "completed" ? "pass-filled" : p.status === "in_progress" ? "circle-filled" : "circle-outline"} />{" "}
            {p.content}
            {/* The icon alone says the step's state only to sighted users. */}
            <span class="visually-hidden"> ({p.status.replace("_", " ")})</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

export function UsageView({ s }: { s: TranscriptState }) {
  const u = s.usage;
  if (!u) return null;
  const pct = u.size > 0 ? Math.round((u.used / u.size) * 100) : 0;
  return (
    <div class="usage muted" data-testid={TEST_IDS.usage} title="Context window use">
      {u.used.toLocaleString()} / {u.size.toLocaleString()} tokens ({pct}%)
      {u.cost ? ` · ${u.cost.amount.toFixed(4)} ${u.cost.currency}` : ""}
    </div>
  );
}
