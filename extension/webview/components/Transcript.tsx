// The transcript: messages, thoughts, tool cards, permission and question cards, notices. Untrusted text is
// rendered either as plain text (JSX escapes it) or through renderMarkdown (inert HTML only).
import { memo } from "preact/compat";
import { useEffect, useMemo, useRef } from "preact/hooks";
import {
  blockText,
  permissionState,
  type PermissionEntry,
  type TerminalView,
  type ToolContentView,
  type ToolEntry,
  type TranscriptEntry,
} from "../../common/transcript";
import { TEST_IDS } from "../testIds";
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

export function Transcript({
  entries,
  terminals,
  running,
  pendingPermissions,
}: {
  entries: TranscriptEntry[];
  terminals: Record<string, TerminalView>;
  running: boolean;
  pendingPermissions: string[];
}) {
  let users = 0;
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  });
  return (
    <div
      class="transcript"
      ref={ref}
      data-testid={TEST_IDS.transcript}
      role="log"
      aria-label="Conversation"
      onScroll={(ev) => {
        const el = ev.currentTarget as HTMLDivElement;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {entries.map((e) => (
        <Entry
          key={e.id}
          e={e}
          terminals={e.kind === "tool" && hasTerminal(e) ? terminals : EMPTY}
          promptIndex={e.kind === "user" && !e.steered ? users++ : -1}
          running={e.kind === "user" && running}
          pending={e.kind === "permission" && pendingPermissions.includes(e.requestId)}
        />
      ))}
    </div>
  );
}
