// A tool call's card: its kind, title and status, the locations it touched (each opens the file), and its
// content: text output, diffs (each opens VS Code's diff editor) and terminals (their live output).
// Open while the call runs or when it failed; its content is built once it has been open (useShownOnce).
import { memo } from "preact/compat";
import { useRef, useState } from "preact/hooks";
import { nestedLabel } from "../../common/nestedTools";
import { blockText, type TerminalView, type ToolContentView, type ToolEntry } from "../../common/transcript";
import { TEST_IDS } from "../testIds";
import { Icon, kindIcon, statusIcon } from "../icons";
import { post } from "../vscodeApi";

/**
 * A <details> whose body is built only once it has been open: a long history's collapsed tool cards
 * (their output) and thoughts keep no DOM and no rendered markdown for it until the user opens one, or
 * it was open (while its call ran). Once built, the body stays, so closing a card loses nothing.
 */
export function useShownOnce(open: boolean): { shown: boolean; onToggle: (ev: Event) => void } {
  const wasOpen = useRef(open);
  if (open) wasOpen.current = true;
  const [opened, setOpened] = useState(false);
  const onToggle = (ev: Event): void => {
    if ((ev.currentTarget as HTMLDetailsElement).open) setOpened(true);
  };
  return { shown: wasOpen.current || opened, onToggle };
}

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

/** The calls under a card, collapsed as their count; their cards are built only once it is opened. */
function NestedCalls({
  e,
  childrenOf,
  terminals,
}: {
  e: ToolEntry;
  childrenOf: (toolCallId: string) => ToolEntry[];
  terminals: Record<string, TerminalView>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      class="tool-nested"
      data-testid={TEST_IDS.toolNested}
      data-count={e.nested}
      open={open}
      onToggle={(ev) => setOpen((ev.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{nestedLabel(e.nested ?? 0)}</summary>
      {open ? childrenOf(e.toolCallId).map((c) => <ToolCard key={c.id} e={c} terminals={terminals} childrenOf={childrenOf} />) : null}
    </details>
  );
}

export const ToolCard = memo(function ToolCard({
  e,
  terminals,
  childrenOf,
}: {
  e: ToolEntry;
  terminals: Record<string, TerminalView>;
  childrenOf?: (toolCallId: string) => ToolEntry[];
}) {
  const open = e.status === "in_progress" || e.status === "pending" || e.status === "failed";
  const { shown, onToggle } = useShownOnce(open);
  return (
    <details
      class={`card tool status-${e.status}`}
      data-testid={TEST_IDS.toolCard}
      data-status={e.status}
      data-tool-call-id={e.toolCallId}
      open={open}
      onToggle={onToggle}
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
      {shown ? e.content.map((c, i) => <ToolContent key={i} c={c} index={i} toolCallId={e.toolCallId} terminals={terminals} />) : null}
      {e.nested && childrenOf ? <NestedCalls e={e} childrenOf={childrenOf} terminals={terminals} /> : null}
    </details>
  );
});
