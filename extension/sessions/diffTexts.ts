// The texts of the agent's edits in one folder's transcript. The transcript (and so the webview)
// holds a summary of each diff; the texts stay here until "Open diff" asks for them by the tool
// call's id and the content's index (the same pair the summary sits at). A long session makes
// hundreds of edits of whole files: the latest few stay plain, older ones are deflated off
// the event loop and inflated when asked for.
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { DiffSummary, ToolContentView, TranscriptUpdate } from "../common/transcript";
import { Packer, unpack } from "./packed";
import { switchModePlan } from "../common/adapterConventions";

export interface DiffText {
  path: string;
  /** Null or undefined: the edit created the file. */
  oldText: string | null | undefined;
  newText: string;
}

/** Diffs kept plain (the ones "Open diff" is most likely asked for: the latest turns'). */
export const PLAIN_DIFFS = 32;

export class DiffTexts {
  readonly #texts = new Map<string, DiffText | Buffer>();
  /** The keys of the texts kept plain, oldest first (the next to set aside is found at once, not by a scan). */
  readonly #plain = new Set<string>();
  readonly #packer = new Packer();

  constructor(private readonly plainLimit = PLAIN_DIFFS) {}

  /**
   * The transcript's form of an agent update: diffs summarised (their texts kept here), raw tool input
   * and output dropped but for a `switch_mode` call's plan.
   */
  view(update: SessionUpdate): TranscriptUpdate {
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") return update;
    const { rawInput, rawOutput: _out, content, ...withPlan } = update;
    const plan = switchModePlan(update.kind, rawInput);
    const rest = plan !== undefined ? { ...withPlan, plan } : withPlan;
    if (!content) return content === null ? { ...rest, content: null } : rest;
    return { ...rest, content: content.map((c, i) => this.#summarise(update.toolCallId, i, c)) };
  }

  async get(toolCallId: string, index: number): Promise<DiffText | undefined> {
    const t = this.#texts.get(key(toolCallId, index));
    // Our own serialisation of a DiffText, never outside data.
    return Buffer.isBuffer(t) ? unpack<DiffText>(t) : t;
  }

  /** Resolves when the texts set aside so far are compressed. */
  compressed(): Promise<void> {
    return this.#packer.settled();
  }

  /** Bytes held compressed (for the tests). */
  get compressedBytes(): number {
    let n = 0;
    for (const t of this.#texts.values()) if (Buffer.isBuffer(t)) n += t.length;
    return n;
  }

  /** The transcript was cleared: no summary refers to these texts any more. */
  clear(): void {
    this.#texts.clear();
    this.#plain.clear();
  }

  #summarise(toolCallId: string, index: number, c: ToolCallContent): ToolContentView {
    if (c.type !== "diff") return c;
    const k = key(toolCallId, index);
    // A newer text for the same pair replaces the older one and becomes the newest.
    this.#plain.delete(k);
    this.#texts.set(k, { path: c.path, oldText: c.oldText, newText: c.newText });
    this.#plain.add(k);
    if (this.#plain.size > this.plainLimit) this.#setAsideOldest();
    return summary(c);
  }

  /** Deflates the oldest plain text; it stays readable as it is until the compressed form is ready. */
  #setAsideOldest(): void {
    const k = this.#plain.values().next().value;
    if (k === undefined) return;
    this.#plain.delete(k);
    const t = this.#texts.get(k);
    if (t === undefined || Buffer.isBuffer(t)) return;
    this.#packer.pack(t, (buf) => {
      // Replaced or cleared meanwhile: leave the newer entry alone.
      if (this.#texts.get(k) === t) this.#texts.set(k, buf);
    });
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
