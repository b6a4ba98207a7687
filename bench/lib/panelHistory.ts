// Session logs for the panel benchmark: what a long real session looks like to the chat panel —
// thoughts, a read with a long output, an edit with a diff, markdown answers with code — in the
// log format of agent-server/session/events.ts, every event checked by its schema. The session's
// title names it in Switch Session…; its first and very last messages carry markers the benchmark
// watches for in the webview's DOM (history arriving, latest message painted).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LOG_FORMAT_VERSION, SessionEvent, SessionHeader, type LogEntry } from "../../agent-server/session/events";
import { sessionLogPath } from "./store";

/** Alphanumeric only, so markdown cannot split or style it. */
export function lastMessageMarker(tag: string): string {
  return `PBLAST${tag}END`;
}

export function firstMessageMarker(tag: string): string {
  return `PBFIRST${tag}END`;
}

export function historyTitle(tag: string): string {
  return `panelbench ${tag}`;
}

const OUTPUT_LINE = "  const value = compute(input, options); // returns the parsed record or undefined\n";
const LONG_OUTPUT = Array.from({ length: 60 }, (_, i) => `${String(i + 1).padStart(4)}${OUTPUT_LINE}`).join("");
const OLD_TEXT = Array.from({ length: 30 }, (_, i) => `export function step${i}(x: number): number {\n  return x + ${i};\n}\n`).join("");
const NEW_TEXT = OLD_TEXT.replace(/return x \+ (\d+);/g, "return x * $1 + 1;");
const ANSWER = [
  "The function reads the file, **splits** it into lines and returns them. Here is the fixed version:",
  "",
  "```ts",
  "export function lines(text: string): string[] {",
  "  return text.split(/\\r?\\n/).filter((l) => l.length > 0);",
  "}",
  "```",
  "",
  "- it keeps empty lines out",
  "- it accepts `\\r\\n` endings",
].join("\n");

/** One turn's events, 12 of them. */
function turnEvents(turn: number, last: string | undefined, first: string | undefined): SessionEvent[] {
  const turnId = `turn-${turn}`;
  const user = `u-${turn}`;
  const agent = `a-${turn}`;
  const read = `read-${turn}`;
  const edit = `edit-${turn}`;
  const path = `src/module${turn % 50}.ts`;
  return [
    { type: "turn/start", turnId, messageId: user, source: "user" },
    {
      type: "user/message",
      messageId: user,
      content: [
        { type: "text", text: `Question ${turn}: why does step ${turn % 30} return the wrong value? Fix it.${first ? ` ${first}` : ""}` },
      ],
    },
    {
      type: "assistant/thought",
      messageId: agent,
      text: `I should read ${path} first, then look at how step ${turn % 30} combines its input. `.repeat(4),
    },
    { type: "tool/call", toolCallId: read, name: "read_file", input: { path }, title: `Read ${path}`, kind: "read", locations: [{ path }] },
    {
      type: "tool/result",
      toolCallId: read,
      status: "completed",
      output: LONG_OUTPUT,
      isError: false,
      content: [{ type: "content", content: { type: "text", text: LONG_OUTPUT } }],
    },
    { type: "assistant/text", messageId: agent, text: `Reading ${path} shows the problem. ` },
    {
      type: "tool/call",
      toolCallId: edit,
      name: "edit_file",
      input: { path, old: "x +", new: "x *" },
      title: `Edit ${path}`,
      kind: "edit",
      locations: [{ path }],
    },
    {
      type: "tool/result",
      toolCallId: edit,
      status: "completed",
      output: "edited",
      isError: false,
      content: [{ type: "diff", path, oldText: OLD_TEXT, newText: NEW_TEXT }],
    },
    { type: "assistant/text", messageId: agent, text: ANSWER },
    { type: "assistant/text", messageId: agent, text: `\n\nTurn ${turn} is done.${last ? ` ${last}` : ""}` },
    { type: "usage", used: 1000 + turn, size: 200_000 },
    { type: "turn/end", turnId, reason: "end_turn" },
  ];
}

/** A header and `events` events (at least 13): whole turns, the title first, padded with titles. */
export function panelHistoryLines(id: string, cwd: string, events: number, tag: string): string[] {
  const header: SessionHeader = SessionHeader.parse({
    type: "header",
    version: LOG_FORMAT_VERSION,
    id,
    cwd,
    createdAt: new Date(0).toISOString(),
  });
  const at = new Date(0).toISOString();
  const lines = [JSON.stringify(header)];
  let seq = 0;
  const push = (e: SessionEvent): void => {
    const entry: LogEntry = { ...SessionEvent.parse(e), seq: ++seq, at };
    lines.push(JSON.stringify(entry));
  };
  push({ type: "session/title", title: historyTitle(tag) });
  const turns = Math.max(1, Math.floor((events - 1) / 12));
  // Titles (no turn around them) pad the count before the turns, so the marker stays last.
  while (seq < events - 1 - turns * 12) push({ type: "session/title", title: historyTitle(tag) });
  for (let t = 1; t <= turns; t++)
    for (const e of turnEvents(t, t === turns ? lastMessageMarker(tag) : undefined, t === 1 ? firstMessageMarker(tag) : undefined)) push(e);
  return lines;
}

/** Writes the log where the agent-server's store looks for session `id` in `dataDir`. */
export function writePanelHistory(dataDir: string, id: string, cwd: string, events: number, tag: string): void {
  const file = sessionLogPath(dataDir, id);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, panelHistoryLines(id, cwd, events, tag).join("\n") + "\n");
}
