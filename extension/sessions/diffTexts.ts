// The texts of the agent's edits in one folder's transcript. The transcript (and so the webview)
// holds a summary of each diff; the texts stay here until "Open diff" asks for them by the tool
// call's id and the content's index (the same pair the summary sits at).
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { DiffSummary, ToolContentView, TranscriptUpdate } from "../common/transcript";

export interface DiffText {
  path: string;
  /** Null or undefined: the edit created the file. */
  oldText: string | null | undefined;
  newText: string;
}

export class DiffTexts {
  readonly #texts = new Map<string, DiffText>();

  /** The transcript's form of an agent update: diffs summarised (their texts kept here), raw tool input and output dropped. */
  view(update: SessionUpdate): TranscriptUpdate {
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") return update;
    const { rawInput: _in, rawOutput: _out, content, ...rest } = update;
    if (!content) return content === null ? { ...rest, content: null } : rest;
    return { ...rest, content: content.map((c, i) => this.#summarise(update.toolCallId, i, c)) };
  }

  get(toolCallId: string, index: number): DiffText | undefined {
    return this.#texts.get(key(toolCallId, index));
  }

  /** The transcript was cleared: no summary refers to these texts any more. */
  clear(): void {
    this.#texts.clear();
  }

  #summarise(toolCallId: string, index: number, c: ToolCallContent): ToolContentView {
    if (c.type !== "diff") return c;
    this.#texts.set(key(toolCallId, index), { path: c.path, oldText: c.oldText, newText: c.newText });
    return summary(c);
  }
}

function key(toolCallId: string, index: number): string {
  return `${index}:${toolCallId}`;
}

export function summary(c: Extract<ToolCallContent, { type: "diff" }>): DiffSummary {
  const newFile = c.oldText === null || c.oldText === undefined;
  return {
    type: "diff",
    path: c.path,
    newFile,
    linesBefore: c.oldText ? c.oldText.split("\n").length : 0,
    linesAfter: c.newText.split("\n").length,
  };
}
