// The panel: header, banners, plan, transcript (or an honest empty/loading state), composer.
import type { TranscriptState } from "../../common/transcript";
import { PAGE_ENTRIES } from "../../common/transcriptWindow";
import type { Announcement, PanelStore } from "../panelStore";
import { usePanelView } from "../usePanelView";
import { ChangesList, RestoreConfirm, RestoreDone } from "./Checkpoints";
import { TEST_IDS } from "../testIds";
import { Icon } from "../icons";
import { post } from "../vscodeApi";
import { Composer } from "./Composer";
import { Banners, Header, PlanView, UsageView } from "./Header";
import { AuthCard, AutoModeBanner, ProtectionLine } from "./AgentTrust";
import { McpServers } from "./McpServers";
import { QueueList } from "./QueueList";
import { Transcript } from "./Transcript";

/**
 * The polite status region: says a turn's end, an error or a request arriving, once each (keyed by
 * the announcement, so the same words said twice are read twice). Visually hidden.
 */
function StatusRegion({ a }: { a: Announcement | undefined }) {
  return (
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {a ? <span key={a.seq}>{a.text}</span> : null}
    </div>
  );
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
        Type <kbd>@</kbd> to add context (files, the selection, a symbol, problems, terminal output), <kbd>/</kbd> for the agent's commands,{" "}
        <kbd>Esc</kbd> to cancel a turn.
      </p>
    </div>
  );
}

export function App({ store }: { store: PanelStore }) {
  const view = usePanelView(store);
  const s = view.state;
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
      <StatusRegion a={view.announcement} />
      <Header s={s} />
      <ProtectionLine s={s} />
      <McpServers
        rows={s.mcpServers}
        agentName={s.agentName}
        toolTitles={s.entries.flatMap((e) => (e.kind === "tool" ? [e.title] : []))}
        turnEnded={!s.running && s.entries.some((e) => e.kind === "user")}
      />
      <Banners s={s} />
      <AutoModeBanner s={s} />
      <AuthCard s={s} />
      <PlanView s={s} />
      {s.entries.length === 0 ? (
        <Empty s={s} />
      ) : (
        <Transcript
          entries={s.entries}
          held={view.window}
          terminals={s.terminals}
          running={s.running}
          pendingPermissions={s.pendingPermissions}
          onLoadEarlier={(beforeId) => post({ type: "transcript/page", beforeId, count: PAGE_ENTRIES })}
        />
      )}
      <QueueList items={s.queue} running={s.running} canSteer={s.sessionFeatures.steer} />
      <RestoreConfirm plan={view.restorePlan} />
      <RestoreDone done={view.restoreDone} onClose={() => store.closeRestoreDone()} />
      <ChangesList changes={view.changes} running={s.running} />
      <UsageView s={s} />
      <Composer
        running={s.running}
        canSteer={s.sessionFeatures.steer}
        canImage={s.promptCapabilities.image}
        disabled={disabled}
        commands={s.commands}
        attachments={view.attachments}
        focusRequests={store.onDidRequestFocus}
        onDetach={(id) => {
          post({ type: "composer/detach", attachmentId: id });
          store.detach(id);
        }}
        onSent={() => store.sent()}
      />
    </div>
  );
}
