// The panel: header, banners, plan, transcript (or an honest empty/loading state), composer.
import { useState } from "preact/hooks";
import type { TranscriptState } from "../../common/transcript";
import type { Attachment, ChangesView, RestoreDoneView, RestorePlanView } from "../../common/webviewProtocol";
import { ChangesList, RestoreConfirm, RestoreDone } from "./Checkpoints";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";
import { Composer } from "./Composer";
import { Banners, Header, PlanView, UsageView } from "./Header";
import { McpServers } from "./McpServers";
import { Transcript } from "./Transcript";

export interface AppProps {
  state: TranscriptState | undefined;
  attachments: Attachment[];
  focusSignal: number;
  onDetach(id: string): void;
  onSent(): void;
  changes?: ChangesView;
  restorePlan?: RestorePlanView;
  restoreDone?: RestoreDoneView;
  onCloseDone(): void;
}

function Empty({ s }: { s: TranscriptState }) {
  if (s.loading) {
    return (
      <div class="empty" data-testid={TEST_IDS.loading}>
        <Icon name="loading codicon-modifier-spin" /> Loading the session's history…
      </div>
    );
  }
  const starting = s.agentStatus === "starting" || s.agentStatus === "restarting";
  return (
    <div class="empty" data-testid={TEST_IDS.emptyState}>
      <h2>{s.folderName}</h2>
      <p>{starting ? "Starting the agent…" : `Ask about ${s.folderName}, or ask for a change. The agent works inside this folder.`}</p>
      <p class="muted">
        Type <kbd>@</kbd> to attach files, <kbd>/</kbd> for the agent's commands, <kbd>Esc</kbd> to cancel a turn.
      </p>
    </div>
  );
}

export function App(p: AppProps) {
  const s = p.state;
  const [, force] = useState(0);
  if (!s) {
    return (
      <div class="app" data-testid={TEST_IDS.app}>
        <div class="empty" data-testid={TEST_IDS.loading}>
          <Icon name="loading codicon-modifier-spin" /> Connecting…
        </div>
      </div>
    );
  }
  const disabled = s.agentStatus === "untrusted" || s.agentStatus === "error";
  return (
    <div class="app" data-testid={TEST_IDS.app} data-session-id={s.sessionId ?? ""} data-running={String(s.running)}>
      <Header s={s} />
      <McpServers rows={s.mcpServers} />
      <Banners s={s} />
      <PlanView s={s} />
      {s.entries.length === 0 ? <Empty s={s} /> : <Transcript entries={s.entries} terminals={s.terminals} running={s.running} pendingPermissions={s.pendingPermissions} />}
      <RestoreConfirm plan={p.restorePlan} />
      <RestoreDone done={p.restoreDone} onClose={p.onCloseDone} />
      <ChangesList changes={p.changes} running={s.running} />
      <UsageView s={s} />
      <Composer
        running={s.running}
        disabled={disabled}
        commands={s.commands}
        attachments={p.attachments}
        focusSignal={p.focusSignal}
        onDetach={(id) => {
          post({ type: "composer/detach", attachmentId: id });
          p.onDetach(id);
          force((n) => n + 1);
        }}
        onSent={p.onSent}
      />
    </div>
  );
}
