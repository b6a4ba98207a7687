// The transcript: messages, thoughts, tool cards, permission and question cards, notices. Untrusted text is
// rendered either as plain text (JSX escapes it) or through renderMarkdown (inert HTML only).
import { memo } from "preact/compat";
import { useMemo } from "preact/hooks";
import { compactionText } from "../../common/adapterConventions";
import { nestedView } from "../../common/nestedTools";
import type { TerminalView, ToolEntry, TranscriptEntry } from "../../common/transcript";
import { entriesBefore, isPrompt, type TranscriptWindow } from "../../common/transcriptWindow";
import { TEST_IDS } from "../testIds";
import { GAP_PX } from "../transcriptLayout";
import { Icon } from "../icons";
import { QuestionCard } from "./QuestionCard";
import { UserMessage } from "./UserMessage";
import { Markdown } from "./Markdown";
import { PermissionCard } from "./PermissionCard";
import { ToolCard, useShownOnce } from "./ToolCard";
import { ENTRY_ATTR, useTranscriptScroll } from "../useTranscriptScroll";

/** A thought, collapsed: its markdown is rendered once the user opens it. */
function Thought({ text }: { text: string }) {
  const { shown, onToggle } = useShownOnce(false);
  return (
    <details class="msg thought" data-testid={TEST_IDS.thought} onToggle={onToggle}>
      <summary>
        <Icon name="lightbulb" /> Thinking
      </summary>
      {shown ? <Markdown text={text} /> : null}
    </details>
  );
}

const Entry = memo(function Entry({
  e,
  terminals,
  promptIndex,
  running,
  pending,
  childrenOf,
}: {
  e: TranscriptEntry;
  terminals: Record<string, TerminalView>;
  promptIndex: number;
  running: boolean;
  /** A permission card whose request the broker still holds. */
  pending: boolean;
  /** The calls nested under a tool card (only passed to cards that have some). */
  childrenOf?: (toolCallId: string) => ToolEntry[];
}) {
  switch (e.kind) {
    case "user":
      return <UserMessage e={e} promptIndex={promptIndex} running={running} />;
    case "agent":
      return (
        <div class="msg agent" data-testid={TEST_IDS.agentMessage}>
          <Markdown text={e.text} />
        </div>
      );
    case "thought":
      return <Thought text={e.text} />;
    case "tool":
      return <ToolCard e={e} terminals={terminals} {...(childrenOf ? { childrenOf } : {})} />;
    case "compaction":
      return (
        <div class={`notice compaction status-${e.status}`} data-testid={TEST_IDS.compaction} data-status={e.status} role="status">
          <Icon name="fold" /> {compactionText(e)}
        </div>
      );
    case "permission":
      return <PermissionCard e={e} pending={pending} />;
    case "question":
      return <QuestionCard e={e} />;
    case "notice":
      return (
        <div
          class={`notice ${e.severity}${e.divider ? " divider" : ""}`}
          data-testid={e.divider ? TEST_IDS.agentDivider : TEST_IDS.notice}
          data-severity={e.severity}
          role={e.severity === "error" ? "alert" : "status"}
        >
          <Icon name={e.severity === "error" ? "error" : e.severity === "warning" ? "warning" : "info"} /> {e.text}
        </div>
      );
    default:
      return null;
  }
});

const EMPTY: Record<string, TerminalView> = {};
function hasTerminal(e: ToolEntry): boolean {
  return e.content.some((c) => c.type === "terminal");
}

/**
 * The top of a transcript that holds only the latest entries: a button that loads earlier ones (keyboard
 * and screen readers), watched by an IntersectionObserver so that scrolling up loads them by itself.
 */
function EarlierEntries({
  held,
  onLoad,
  sentinel,
}: {
  held: TranscriptWindow;
  onLoad: () => void;
  sentinel: { current: HTMLDivElement | null };
}) {
  return (
    <div class="earlier" ref={sentinel}>
      {entriesBefore(held) > 0 ? (
        <button class="link" data-testid={TEST_IDS.loadEarlier} onClick={onLoad}>
          {held.older ? "Show earlier messages" : `Show earlier messages (${held.start} more entries)`}
        </button>
      ) : null}
    </div>
  );
}

export function Transcript({
  entries,
  held,
  terminals,
  running,
  pendingPermissions,
  onLoadEarlier,
}: {
  entries: TranscriptEntry[];
  /** Which of the session's entries these are: the latest, and earlier pages once asked for. */
  held: TranscriptWindow;
  terminals: Record<string, TerminalView>;
  running: boolean;
  pendingPermissions: string[];
  onLoadEarlier: (beforeId: string) => void;
}) {
  const view = useMemo(() => nestedView(entries), [entries]);
  const ids = useMemo(() => view.top.map((e) => e.id), [view]);
  const prompts = useMemo(() => {
    let n = held.promptsBefore;
    return view.top.map((e) => (isPrompt(e) ? n++ : -1));
  }, [view, held.promptsBefore]);
  const { ref, column, sentinel, onScroll, load, range, padding } = useTranscriptScroll(
    ids,
    entries[0]?.id,
    entriesBefore(held),
    onLoadEarlier,
  );
  return (
    <div
      class="transcript"
      ref={ref}
      data-testid={TEST_IDS.transcript}
      role="log"
      aria-label="Conversation"
      onScroll={(ev) => onScroll(ev.currentTarget as HTMLDivElement)}
    >
      <EarlierEntries held={held} onLoad={load} sentinel={sentinel} />
      <div
        class="entries"
        ref={column}
        style={{ gap: `${GAP_PX}px`, paddingTop: `${padding.top}px`, paddingBottom: `${padding.bottom}px` }}
      >
        {view.top.slice(range.lo, range.hi).map((e, k) => (
          <div class="entry" key={e.id} {...{ [ENTRY_ATTR]: e.id }}>
            <Entry
              e={e}
              terminals={e.kind === "tool" && (hasTerminal(e) || e.nested) ? terminals : EMPTY}
              promptIndex={prompts[range.lo + k] ?? -1}
              running={e.kind === "user" && running}
              pending={e.kind === "permission" && pendingPermissions.includes(e.requestId)}
              {...(e.kind === "tool" && e.nested ? { childrenOf: view.childrenOf } : {})}
            />
          </div>
        ))}
      </div>
    </div>
  );
}
