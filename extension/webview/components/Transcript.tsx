// The transcript: messages, thoughts, tool cards, permission and question cards, notices. Untrusted text is
// rendered either as plain text (JSX escapes it) or through renderMarkdown (inert HTML only).
import { memo } from "preact/compat";
import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import {
  blockText,
  permissionState,
  type PermissionEntry,
  type TerminalView,
  type ToolContentView,
  type ToolEntry,
  type TranscriptEntry,
} from "../../common/transcript";
import { isPrompt, type TranscriptWindow } from "../../common/transcriptWindow";
import { TEST_IDS } from "../testIds";
import { earlierRequest, entriesPutAbove, followsLatest } from "../transcriptScroll";
import { userIsTyping } from "../focus";
import { Icon, kindIcon, statusIcon } from "../icons";
import { renderMarkdown } from "../markdown";
import { post } from "../vscodeApi";
import { QuestionCard } from "./QuestionCard";
import { UserMessage } from "./UserMessage";

const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="md" dangerouslySetInnerHTML={{ __html: html }} />;
});

function basename(p: string): string {
  return p.split(/[\\/]/).pop() || p;
}

function ToolContent({
  c,
  index,
  toolCallId,
  terminals,
}: {
  c: ToolContentView;
  index: number;
  toolCallId: string;
  terminals: Record<string, TerminalView>;
}) {
  switch (c.type) {
    case "content":
      return <pre class="tool-output">{blockText(c.content)}</pre>;
    case "diff":
      return (
        <div class="tool-diff">
          <button
            class="link"
            data-testid={TEST_IDS.toolDiff}
            title={`Open the diff of ${c.path} in the diff editor`}
            onClick={() => post({ type: "diff/open", toolCallId, contentIndex: index })}
          >
            <Icon name="diff" /> {basename(c.path)}
          </button>
          <span class="muted">{c.newFile ? `new file, ${c.linesAfter} lines` : `${c.linesBefore} → ${c.linesAfter} lines`}</span>
        </div>
      );
    case "terminal": {
      const t = terminals[c.terminalId];
      return (
        <div class="tool-terminal" data-testid={TEST_IDS.toolTerminal}>
          <pre class="tool-output">{t ? (t.truncated ? "…" : "") + t.output : ""}</pre>
          {t && t.exitCode !== undefined ? <div class="muted">exit {t.exitCode ?? t.signal}</div> : null}
        </div>
      );
    }
    default:
      return null;
  }
}

const ToolCard = memo(function ToolCard({ e, terminals }: { e: ToolEntry; terminals: Record<string, TerminalView> }) {
  const open = e.status === "in_progress" || e.status === "pending" || e.status === "failed";
  return (
    <details
      class={`card tool status-${e.status}`}
      data-testid={TEST_IDS.toolCard}
      data-status={e.status}
      data-tool-call-id={e.toolCallId}
      open={open}
    >
      <summary>
        <Icon name={kindIcon(e.toolKind)} />
        <span class="tool-title">{e.title}</span>
        <span class="tool-status" title={e.status}>
          <Icon name={statusIcon(e.status)} /> {e.status.replace("_", " ")}
        </span>
      </summary>
      {e.locations.length > 0 ? (
        <div class="tool-locations">
          {e.locations.map((l, i) => (
            <button
              key={i}
              class="link"
              data-testid={TEST_IDS.toolLocation}
              title={l.path}
              onClick={() => post({ type: "location/open", path: l.path, ...(l.line ? { line: l.line } : {}) })}
            >
              <Icon name="go-to-file" /> {basename(l.path)}
              {l.line ? `:${l.line}` : ""}
            </button>
          ))}
        </div>
      ) : null}
      {e.content.map((c, i) => (
        <ToolContent key={i} c={c} index={i} toolCallId={e.toolCallId} terminals={terminals} />
      ))}
    </details>
  );
});

function shortcutFor(kind: string, i: number): string {
  return String(i + 1) + (kind === "allow_once" ? " / a" : kind === "reject_once" ? " / r" : "");
}

/** `pending` is the broker's word (the transcript's `pendingPermissions`); `e.outcome` is how it was settled. */
const PermissionCard = memo(function PermissionCard({ e, pending }: { e: PermissionEntry; pending: boolean }) {
  const dismissButton = useRef<HTMLButtonElement>(null);
  const state = permissionState({ pendingPermissions: pending ? [e.requestId] : [] }, e);
  useEffect(() => {
    // A request arriving takes focus, unless the user is typing a message. Focus lands on Dismiss, so a
    // stray Enter rejects; the card's keys (1…n, a, r, Esc) work from there.
    if (pending && !userIsTyping()) dismissButton.current?.focus();
  }, [pending]);
  const onKey = (ev: KeyboardEvent) => {
    if (!pending) return;
    if (ev.key === "Escape") {
      ev.preventDefault();
      ev.stopPropagation();
      post({ type: "permission/dismiss", requestId: e.requestId });
      return;
    }
    const n = Number(ev.key);
    let opt = Number.isInteger(n) && n >= 1 ? e.options[n - 1] : undefined;
    if (ev.key === "a") opt = e.options.find((o) => o.kind === "allow_once");
    if (ev.key === "r") opt = e.options.find((o) => o.kind === "reject_once");
    if (opt) {
      ev.preventDefault();
      post({ type: "permission/answer", requestId: e.requestId, optionId: opt.optionId });
    }
  };
  return (
    <div
      class={`card permission ${pending ? "pending" : "settled"}`}
      data-testid={TEST_IDS.permissionCard}
      data-request-id={e.requestId}
      data-state={state.state}
      role="group"
      aria-label={`Approval needed: ${e.title}`}
      onKeyDown={onKey}
    >
      <div class="permission-title">
        <Icon name="shield" /> <span>{e.title}</span>
        {pending ? (
          <button
            ref={dismissButton}
            class="icon"
            data-testid={TEST_IDS.permissionDismiss}
            title="Dismiss (Esc) — rejects"
            aria-label="Dismiss (rejects)"
            onClick={() => post({ type: "permission/dismiss", requestId: e.requestId })}
          >
            <Icon name="close" />
          </button>
        ) : null}
      </div>
      {pending ? (
        <div class="permission-options">
          {e.options.map((o, i) => (
            <button
              key={o.optionId}
              class={o.kind.startsWith("allow") ? "primary" : "secondary"}
              data-testid={TEST_IDS.permissionOption}
              data-option-id={o.optionId}
              data-kind={o.kind}
              title={`Shortcut: ${shortcutFor(o.kind, i)}`}
              onClick={() => post({ type: "permission/answer", requestId: e.requestId, optionId: o.optionId })}
            >
              {o.name} <kbd>{i + 1}</kbd>
            </button>
          ))}
        </div>
      ) : (
        <div class="muted">{state.state === "selected" ? `Answered: ${state.optionName}` : "Cancelled"}</div>
      )}
    </div>
  );
});

const Entry = memo(function Entry({
  e,
  terminals,
  promptIndex,
  running,
  pending,
}: {
  e: TranscriptEntry;
  terminals: Record<string, TerminalView>;
  promptIndex: number;
  running: boolean;
  /** A permission card whose request the broker still holds. */
  pending: boolean;
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
      return (
        <details class="msg thought" data-testid={TEST_IDS.thought}>
          <summary>
            <Icon name="lightbulb" /> Thinking
          </summary>
          <Markdown text={e.text} />
        </details>
      );
    case "tool":
      return <ToolCard e={e} terminals={terminals} />;
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

/** How far above the viewport older entries start loading, so scrolling up rarely reaches the top. */
const LOAD_MARGIN_PX = 1500;

/**
 * The top of a transcript that holds only the latest entries: a button that loads earlier ones (keyboard
 * and screen readers), watched by an IntersectionObserver so that scrolling up loads them by itself.
 */
function EarlierEntries({ more, onLoad, sentinel }: { more: number; onLoad: () => void; sentinel: { current: HTMLDivElement | null } }) {
  return (
    <div class="earlier" ref={sentinel}>
      {more > 0 ? (
        <button class="link" data-testid={TEST_IDS.loadEarlier} onClick={onLoad}>
          Show earlier messages ({more} more entries)
        </button>
      ) : null}
    </div>
  );
}

/**
 * Keeps the transcript where the user reads: stuck to the bottom while new entries arrive unless they
 * scrolled up, and on the same entry when older ones are put above it.
 */
function useScrollAnchor(ref: { current: HTMLDivElement | null }, entries: TranscriptEntry[]) {
  const stick = useRef(true);
  const first = useRef<string | undefined>(undefined);
  // Before paint, so the panel opens on its latest message.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const was = first.current;
    first.current = entries[0]?.id;
    if (stick.current) {
      el.scrollTop = el.scrollHeight;
      return;
    }
    // Entries were put above: move down by their height (children: the top block, then one element per entry).
    const k = entriesPutAbove(was, entries);
    const oldFirst = el.children[k + 1] as HTMLElement | undefined;
    const newFirst = el.children[1] as HTMLElement | undefined;
    if (k > 0 && oldFirst && newFirst) el.scrollTop += oldFirst.offsetTop - newFirst.offsetTop;
  });
  return (el: HTMLDivElement) => {
    stick.current = followsLatest(el);
  };
}

/** Asks for earlier entries when the top block comes near the viewport, once per first entry. */
function useLoadEarlier(
  ref: { current: HTMLDivElement | null },
  sentinel: { current: HTMLDivElement | null },
  firstId: string | undefined,
  more: number,
  onLoadEarlier: (beforeId: string) => void,
) {
  const asked = useRef<string | undefined>(undefined);
  const near = useRef(false);
  const load = () => {
    const beforeId = earlierRequest(firstId, more, asked.current);
    if (beforeId === undefined) return;
    asked.current = beforeId;
    onLoadEarlier(beforeId);
  };
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const root = ref.current;
    const target = sentinel.current;
    if (!root || !target || typeof IntersectionObserver !== "function") return;
    const io = new IntersectionObserver(
      (records) => {
        near.current = records.some((r) => r.isIntersecting);
        if (near.current) latest.current();
      },
      { root, rootMargin: `${LOAD_MARGIN_PX}px 0px 0px 0px` },
    );
    io.observe(target);
    return () => io.disconnect();
  }, [ref, sentinel]);
  // A page too short to push the top block out of reach: the observer will not fire again, so ask here.
  useEffect(() => {
    if (near.current) latest.current();
  }, [firstId]);
  return load;
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
  let prompts = held.promptsBefore;
  const ref = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const onScroll = useScrollAnchor(ref, entries);
  const load = useLoadEarlier(ref, sentinel, entries[0]?.id, held.start, onLoadEarlier);
  return (
    <div
      class="transcript"
      ref={ref}
      data-testid={TEST_IDS.transcript}
      role="log"
      aria-label="Conversation"
      onScroll={(ev) => onScroll(ev.currentTarget as HTMLDivElement)}
    >
      <EarlierEntries more={held.start} onLoad={load} sentinel={sentinel} />
      {entries.map((e) => (
        <Entry
          key={e.id}
          e={e}
          terminals={e.kind === "tool" && hasTerminal(e) ? terminals : EMPTY}
          promptIndex={isPrompt(e) ? prompts++ : -1}
          running={e.kind === "user" && running}
          pending={e.kind === "permission" && pendingPermissions.includes(e.requestId)}
        />
      ))}
    </div>
  );
}
