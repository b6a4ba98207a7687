// What the panel says about the agent serving the folder: which protection applies, a mode
// that acts without asking, and the agent's sign-in card when it answered `auth_required`.
import type { AuthMethodView } from "../../common/auth";
import { autoApprovingMode, protectionOf } from "../../common/protection";
import type { TranscriptState } from "../../common/transcript";
import { Icon } from "../icons";
import { TEST_IDS } from "../testIds";
import { post } from "../vscodeApi";

/** One line under the header: sandboxed (the built-in agent), confined by Manifold's fence or "runs as you" (a third-party agent). */
export function ProtectionLine({ s }: { s: TranscriptState }) {
  const p = protectionOf(s);
  if (!p) return null;
  return (
    <div class={`protection ${p.kind}`} data-testid={TEST_IDS.protection} data-kind={p.kind} data-backend={p.backend ?? ""}>
      <Icon name={p.kind === "sandboxed" || p.kind === "read-only" || p.kind === "confined" ? "shield" : "warning"} /> {p.text}
    </div>
  );
}

/** Shown while the agent's current mode approves by itself (claude-agent-acp's default "auto", …). */
export function AutoModeBanner({ s }: { s: TranscriptState }) {
  const mode = autoApprovingMode(s);
  if (!mode) return null;
  return (
    <div class="banner agent" data-testid={TEST_IDS.autoMode} role="status">
      <Icon name="warning" /> <b>Mode: {mode}</b> — {s.agentName || "the agent"} decides by itself what to run and write; it may not ask
      before acting. Pick another mode above to be asked.
    </div>
  );
}

const HOW: Record<AuthMethodView["kind"], string> = {
  agent: "the agent signs in",
  env_var: "asks for a value, kept in VS Code's secret storage",
  terminal: "runs the agent's sign-in in a terminal",
};

/** The agent asked to sign in before it serves a session: its methods, one button each. */
export function AuthCard({ s }: { s: TranscriptState }) {
  const a = s.auth;
  if (!a) return null;
  return (
    <div class="card auth-card" data-testid={TEST_IDS.authCard} role="region" aria-label={`Sign in to ${s.agentName}`}>
      <div>
        <Icon name="account" /> <b>{s.agentName || "The agent"} asks you to sign in</b> before it starts a session for {s.folderName}.
      </div>
      <div class="muted">{a.message}</div>
      {a.methods.length === 0 ? <div>It offers no sign-in method Manifold can run; see its documentation.</div> : null}
      <div class="auth-methods">
        {a.methods.map((m) => (
          <button
            key={m.id}
            data-testid={TEST_IDS.authMethod}
            data-method-id={m.id}
            data-kind={m.kind}
            disabled={a.busy !== undefined}
            title={m.description ?? HOW[m.kind]}
            onClick={() => post({ type: "auth/signIn", methodId: m.id })}
          >
            {m.name}
          </button>
        ))}
      </div>
      {a.busy ? (
        <div class="muted" role="status">
          <Icon name="loading codicon-modifier-spin" /> {a.busy}
        </div>
      ) : null}
    </div>
  );
}
