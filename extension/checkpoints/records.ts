// A session's checkpoint records, persisted as one JSON file per session next to the shadow
// repositories (so they outlive reloads, agent crashes and restarts), validated when read back.
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../../sandbox/safeWrite";

const sha = z.string().regex(/^[0-9a-f]{40,64}$/);

export const CheckpointRecord = z.object({
  id: z.string().min(1).max(100),
  /** prompt: taken before a prompt; restore: taken before a restore (undoing it goes back here). */
  kind: z.enum(["prompt", "restore"]),
  /** For prompts: how many user messages the transcript held before this one (its position). */
  promptIndex: z.number().int().min(0).optional(),
  label: z.string().max(500),
  at: z.string(),
  /** The folder's state when the checkpoint was taken. */
  before: sha,
  /** The folder's state when the turn (or the restore) ended; the gap to the next `before` is the user's. */
  after: sha.optional(),
  /** Files changed then but not recorded, with why. */
  skipped: z
    .array(z.object({ path: z.string(), reason: z.string() }))
    .max(1000)
    .default([]),
});
export type CheckpointRecord = z.infer<typeof CheckpointRecord>;

export const SessionCheckpoints = z.object({
  sessionId: z.string().min(1),
  folder: z.string().min(1),
  checkpoints: z.array(CheckpointRecord),
  /** The review baseline of "Changes": a checkpoint's tree with kept files layered on. */
  baseline: z.object({ checkpointId: z.string(), tree: sha }).optional(),
});
export type SessionCheckpoints = z.infer<typeof SessionCheckpoints>;

/** Injective, filesystem-safe key of a session id. */
export function sessionKey(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex").slice(0, 32);
}

export class RecordFile {
  constructor(readonly dir: string) {}

  #file(sessionId: string): string {
    return path.join(this.dir, `${sessionKey(sessionId)}.json`);
  }

  async read(sessionId: string, folder: string): Promise<SessionCheckpoints> {
    let raw: string;
    try {
      raw = await fs.readFile(this.#file(sessionId), "utf8");
    } catch {
      return { sessionId, folder, checkpoints: [] };
    }
    const parsed = SessionCheckpoints.safeParse(JSON.parse(raw) as unknown);
    // A record of another folder (or session) is never used: its trees are not this folder's (I-105).
    if (!parsed.success || parsed.data.sessionId !== sessionId || parsed.data.folder !== folder)
      return { sessionId, folder, checkpoints: [] };
    return parsed.data;
  }

  async write(data: SessionCheckpoints): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(path.join(await fs.realpath(this.dir), `${sessionKey(data.sessionId)}.json`), JSON.stringify(data));
  }

  async remove(sessionId: string): Promise<void> {
    await fs.rm(this.#file(sessionId), { force: true });
  }
}
