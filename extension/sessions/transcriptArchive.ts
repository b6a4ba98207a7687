// The older part of a long transcript, kept compressed. A panel shows the latest entries and
// pages older ones in as the user scrolls up, so the host has no reason to keep thousands of entries as
// live objects: HostTranscript (hostTranscript.ts) moves its oldest entries here a page at a time. Each
// page is deflated (packed.ts: a small one on the loop, a large one in zlib's thread pool) and inflated
// again only when a panel asks for it, or when an event must change an entry inside it (rare: see HostTranscript).
import type { TranscriptEntry } from "../common/transcript";
import { isPrompt } from "../common/transcriptWindow";
import { Packer, unpack, unpackSync } from "./packed";

interface Page {
  /** The entries' ids, in order (to find where a panel's first entry is). */
  ids: string[];
  /** Positions of user prompts (steers not counted) in the page. */
  prompts: number[];
  /** The live entries until their compressed form is ready, then that. */
  data: TranscriptEntry[] | Buffer;
}

/** What a page holds that an event can refer to (so the event can tell whether it needs the archive). */
export interface ArchivedRefs {
  toolCallIds: Set<string>;
  requestIds: Set<string>;
  questionIds: Set<string>;
  /** Tool cards still pending or in progress (a cancel marks them). */
  unfinishedTools: number;
}

function emptyRefs(): ArchivedRefs {
  return { toolCallIds: new Set(), requestIds: new Set(), questionIds: new Set(), unfinishedTools: 0 };
}

export class TranscriptArchive {
  #pages: Page[] = [];
  #count = 0;
  #prompts = 0;
  #refs = emptyRefs();
  #compressedBytes = 0;
  readonly #packer = new Packer();

  /** Entries held (they precede the live ones). */
  get count(): number {
    return this.#count;
  }
  /** User prompts (steers not counted) among them. */
  get prompts(): number {
    return this.#prompts;
  }
  get refs(): Readonly<ArchivedRefs> {
    return this.#refs;
  }
  /** Bytes of the pages compressed so far (for the benchmark and the tests). */
  get compressedBytes(): number {
    return this.#compressedBytes;
  }

  /** Appends `entries` (the oldest live ones) as one page and compresses it in the background. */
  freeze(entries: TranscriptEntry[]): void {
    this.#add(entries, "end");
  }

  /** Puts `entries` (older than every entry held: the agent's older turns) in front, as one page. */
  prepend(entries: TranscriptEntry[]): void {
    this.#add(entries, "front");
  }

  #add(entries: TranscriptEntry[], at: "front" | "end"): void {
    if (entries.length === 0) return;
    const prompts: number[] = [];
    entries.forEach((e, i) => {
      if (isPrompt(e)) prompts.push(i);
    });
    const page: Page = { ids: entries.map((e) => e.id), prompts, data: entries };
    if (at === "end") this.#pages.push(page);
    else this.#pages.unshift(page);
    this.#count += entries.length;
    this.#prompts += prompts.length;
    for (const e of entries) this.#note(e);
    this.#packer.pack(entries, (buf) => {
      // Thawed or cleared meanwhile: the page is gone and its entries live again.
      if (page.data !== entries || !this.#pages.includes(page)) return;
      page.data = buf;
      this.#compressedBytes += buf.length;
    });
  }

  /** Resolves when every page frozen so far is compressed (or left as it was). */
  compressed(): Promise<void> {
    return this.#packer.settled();
  }

  /** Absolute index of the archived entry `id`, or -1. */
  indexOf(id: string): number {
    let base = 0;
    for (const p of this.#pages) {
      const i = p.ids.indexOf(id);
      if (i >= 0) return base + i;
      base += p.ids.length;
    }
    return -1;
  }

  /** User prompts before the absolute index `abs` (≤ count). */
  promptsBefore(abs: number): number {
    let n = 0;
    let base = 0;
    for (const p of this.#pages) {
      if (abs >= base + p.ids.length) n += p.prompts.length;
      else return n + p.prompts.filter((i) => base + i < abs).length;
      base += p.ids.length;
    }
    return n;
  }

  /** Archived entries [from, to) (absolute indexes, clamped to the archive). */
  async slice(from: number, to: number): Promise<TranscriptEntry[]> {
    const out: TranscriptEntry[] = [];
    let base = 0;
    for (const p of [...this.#pages]) {
      const end = base + p.ids.length;
      if (end > from && base < to) {
        const entries = Array.isArray(p.data) ? p.data : await unpack<TranscriptEntry[]>(p.data);
        out.push(...entries.slice(Math.max(0, from - base), Math.min(p.ids.length, to - base)));
      }
      base = end;
    }
    return out;
  }

  /** Every archived entry, live again; the archive is empty afterwards. Synchronous: an event is waiting on it. */
  thaw(): TranscriptEntry[] {
    const all = this.#pages.flatMap((p) => (Array.isArray(p.data) ? p.data : unpackSync<TranscriptEntry[]>(p.data)));
    this.clear();
    return all;
  }

  clear(): void {
    this.#pages = [];
    this.#count = 0;
    this.#prompts = 0;
    this.#refs = emptyRefs();
    this.#compressedBytes = 0;
  }

  #note(e: TranscriptEntry): void {
    if (e.kind === "tool") {
      this.#refs.toolCallIds.add(e.toolCallId);
      if (e.status === "pending" || e.status === "in_progress") this.#refs.unfinishedTools++;
    } else if (e.kind === "permission") this.#refs.requestIds.add(e.requestId);
    else if (e.kind === "question") this.#refs.questionIds.add(e.questionId);
  }
}
