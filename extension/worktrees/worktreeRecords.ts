// A window's worktree sessions, kept in a Memento (VS Code's workspaceState, typed structurally).
// Read back through zod: an entry that does not parse is dropped, never thrown. Writes are chained,
// so concurrent adds and updates do not lose each other.
import { z } from "zod";
import type { WorktreeRecord } from "./worktreeGit";

export interface MementoLike {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** A worktree session as the window keeps it. */
export interface StoredWorktree extends WorktreeRecord {
  /** The agent session started in it. */
  readonly sessionId?: string;
  /** Epoch milliseconds of the last Apply to folder / Merge branch. */
  readonly appliedAt?: number;
  readonly mergedAt?: number;
}

export type WorktreePatch = Partial<Pick<StoredWorktree, "sessionId" | "appliedAt" | "mergedAt">>;

export const STATE_KEY = "manifold.worktreeSessions";

const stored = z.object({
  id: z.uuid(),
  folder: z.string().min(1),
  path: z.string().min(1),
  branch: z.string().min(1),
  base: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/),
  createdAt: z.number(),
  sessionId: z.string().min(1).optional(),
  appliedAt: z.number().optional(),
  mergedAt: z.number().optional(),
}) satisfies z.ZodType<StoredWorktree>;

export class WorktreeRecords {
  #chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly memento: MementoLike) {}

  /** The valid entries (of `folder` when given), oldest first. */
  list(folder?: string): StoredWorktree[] {
    const raw = this.memento.get(STATE_KEY);
    if (!Array.isArray(raw)) return [];
    const out: StoredWorktree[] = [];
    const seen = new Set<string>();
    for (const entry of raw) {
      const parsed = stored.safeParse(entry);
      if (!parsed.success || seen.has(parsed.data.id)) continue;
      seen.add(parsed.data.id);
      if (folder === undefined || parsed.data.folder === folder) out.push(parsed.data);
    }
    return out;
  }

  get(id: string): StoredWorktree | undefined {
    return this.list().find((r) => r.id === id);
  }

  /** Adds (or replaces) an entry; rejects one that does not parse. */
  async add(rec: StoredWorktree): Promise<void> {
    const checked = stored.parse(rec);
    await this.#write((all) => [...all.filter((r) => r.id !== checked.id), checked]);
  }

  /** Changes an entry's session id or times; resolves to the entry after, undefined when there is none. */
  async update(id: string, patch: WorktreePatch): Promise<StoredWorktree | undefined> {
    let after: StoredWorktree | undefined;
    await this.#write((all) =>
      all.map((r) => {
        if (r.id !== id) return r;
        after = stored.parse({ ...r, ...patch });
        return after;
      }),
    );
    return after;
  }

  remove(id: string): Promise<void> {
    return this.#write((all) => all.filter((r) => r.id !== id));
  }

  #write(change: (all: StoredWorktree[]) => StoredWorktree[]): Promise<void> {
    const next = this.#chain.then(() => this.memento.update(STATE_KEY, change(this.list())));
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
