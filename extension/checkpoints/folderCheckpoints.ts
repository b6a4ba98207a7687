// The checkpoints of one workspace folder, for every session bound to it: taken before each prompt
// (and before each restore), the changes since one of them, keep/undo per file, restore with a plan
// shown first. Stored in the folder's shadow repository (shadowRepo.ts) and per-session records.
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { oneLine, quotePrompt } from "../common/text";
import { RecordFile, sessionKey, type CheckpointRecord, type SessionCheckpoints } from "./records";
import { applyRestore, planRestore, type RestoreItem, type RestoreResult } from "./restore";
import { ShadowRepo, type Snapshot } from "./shadowRepo";

/** Records kept per session; older ones are dropped (and their objects pruned when unreferenced). */
export const MAX_CHECKPOINTS_PER_SESSION = 200;

export interface FileChange {
  path: string;
  status: "A" | "D" | "M";
  added: number | null;
  removed: number | null;
  /** Set when the user changed it by hand since the baseline (or it is unsaved in the editor): why. */
  userEdit?: string;
}

export interface RestorePlan {
  sessionId: string;
  checkpoint: CheckpointRecord;
  /** The folder's tree when the plan was made; the restore refuses if it moved since. */
  current: string;
  items: RestoreItem[];
}

export interface RestoreOutcome {
  /** The checkpoint taken just before (restore to it = undo). */
  undo: CheckpointRecord;
  results: RestoreResult[];
  /** Files the user changed by hand that an "Undo all" left as they are, with why. */
  kept: { path: string; reason: string }[];
}

export interface FolderCheckpointsOptions {
  sizeCap?: number;
  maxPerSession?: number;
  /** Absolute paths of files with unsaved changes in the editor (a restore would overwrite them). */
  dirtyFiles?: () => readonly string[];
  /** Called after the records changed (a checkpoint, a turn's end, keep, undo, restore, fork). */
  onChanged?: (folder: string) => void;
  /** The host environment git runs are scrubbed from (process.env when absent). */
  env?: NodeJS.ProcessEnv;
}

export class FolderChangedError extends Error {
  constructor() {
    super("The folder changed after the restore was shown; nothing was restored. Look at the list again and confirm.");
    this.name = "FolderChangedError";
  }
}

export class FolderCheckpoints {
  readonly repo: ShadowRepo;
  readonly #records: RecordFile;

  constructor(
    storageRoot: string,
    folder: string,
    private readonly opts: FolderCheckpointsOptions = {},
  ) {
    this.repo = ShadowRepo.forFolder(storageRoot, folder, opts.sizeCap, opts.env);
    this.#records = new RecordFile(path.join(storageRoot, "records", path.basename(this.repo.repo.gitDir, ".git")));
  }

  get folder(): string {
    return this.repo.folder;
  }

  /** Indexes the folder ahead of the first prompt (the first snapshot of a big folder hashes every file). */
  async warm(): Promise<void> {
    await this.repo.snapshot();
  }

  async list(sessionId: string): Promise<CheckpointRecord[]> {
    return (await this.#read(sessionId)).checkpoints;
  }

  #read(sessionId: string): Promise<SessionCheckpoints> {
    return this.#records.read(sessionId, this.folder);
  }

  async #commit(
    sessionId: string,
    snap: Snapshot,
    rec: Omit<CheckpointRecord, "before" | "skipped" | "id" | "at">,
  ): Promise<CheckpointRecord> {
    const id = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const before = await this.repo.commit(snap.tree, `${rec.kind}: ${rec.label}`.slice(0, 200), this.#ref(sessionId, id, "before"));
    return { ...rec, id, at: new Date().toISOString(), before, skipped: snap.skipped.slice(0, 1000) };
  }

  #ref(sessionId: string, id: string, side: "before" | "after"): string {
    return `refs/manifold/${sessionKey(sessionId)}/${id}-${side}`;
  }

  /** The checkpoint before a prompt; the changes list starts again from it. */
  beforePrompt(sessionId: string, promptIndex: number, label: string): Promise<CheckpointRecord> {
    return this.#baselineCheckpoint(sessionId, { kind: "prompt", promptIndex, label: label.slice(0, 500) });
  }

  async #baselineCheckpoint(
    sessionId: string,
    what: Omit<CheckpointRecord, "before" | "skipped" | "id" | "at">,
  ): Promise<CheckpointRecord> {
    const snap = await this.repo.snapshot();
    const rec = await this.#commit(sessionId, snap, what);
    const data = await this.#read(sessionId);
    data.checkpoints.push(rec);
    data.baseline = { checkpointId: rec.id, tree: snap.tree };
    await this.#trim(data);
    await this.#records.write(data);
    this.#changed();
    return rec;
  }

  /**
   * The checkpoint before something the user confirmed writes into the folder (a worktree's Apply):
   * the changes list starts again from it and shows what came in; `afterTurn` marks its end.
   */
  beforeApply(sessionId: string, label: string): Promise<CheckpointRecord> {
    return this.#baselineCheckpoint(sessionId, { kind: "restore", label: label.slice(0, 500) });
  }

  /** Marks where the agent's turn ended: what changes after this and before the next checkpoint is the user's. */
  async afterTurn(sessionId: string): Promise<void> {
    const data = await this.#read(sessionId);
    const last = data.checkpoints[data.checkpoints.length - 1];
    if (!last || last.after) return;
    const snap = await this.repo.snapshot();
    last.after = await this.repo.commit(snap.tree, `after: ${last.label}`.slice(0, 200), this.#ref(sessionId, last.id, "after"));
    await this.#records.write(data);
    this.#changed();
  }

  #changed(): void {
    this.opts.onChanged?.(this.folder);
  }

  async #trim(data: SessionCheckpoints): Promise<void> {
    const max = this.opts.maxPerSession ?? MAX_CHECKPOINTS_PER_SESSION;
    while (data.checkpoints.length > max) {
      const old = data.checkpoints.shift() as CheckpointRecord;
      await this.repo.deleteRefs(`refs/manifold/${sessionKey(data.sessionId)}/${old.id}-`);
    }
  }

  /**
   * Files changed since the session's review baseline (the last prompt's checkpoint unless another was
   * chosen), the ones the user changed by hand marked (the same decision a restore and "Undo all" use).
   */
  async changes(sessionId: string): Promise<{ baseline?: CheckpointRecord; files: FileChange[] }> {
    const data = await this.#read(sessionId);
    const base = data.baseline;
    if (!base) return { files: [] };
    const now = await this.repo.snapshot();
    const baseline = data.checkpoints.find((c) => c.id === base.checkpointId);
    const edits = baseline ? await this.#userEdits(data, baseline, now.tree) : new Map<string, string>();
    const files = (await this.repo.diff(base.tree, now.tree)).map(({ path: p, status, added, removed }) => {
      const userEdit = edits.get(p);
      return { path: p, status, added, removed, ...(userEdit ? { userEdit } : {}) };
    });
    return { ...(baseline ? { baseline } : {}), files };
  }

  /** Reviews changes since another checkpoint of this session. */
  async setBaseline(sessionId: string, checkpointId: string): Promise<void> {
    const data = await this.#read(sessionId);
    const c = this.#find(data, checkpointId);
    data.baseline = { checkpointId: c.id, tree: await this.repo.treeOf(c.before) };
    await this.#records.write(data);
    this.#changed();
  }

  /** The baseline's bytes of a file (the left side of its diff), or undefined when it did not exist. */
  async baselineContent(sessionId: string, rel: string): Promise<Buffer | undefined> {
    const base = (await this.#read(sessionId)).baseline;
    return base ? this.repo.fileAt(base.tree, rel) : undefined;
  }

  /** The baseline's tree (it names one fixed content of every file: a diff's left side never goes stale). */
  async baselineTree(sessionId: string): Promise<string | undefined> {
    return (await this.#read(sessionId)).baseline?.tree;
  }

  /** Keep: the file's current state becomes the baseline (it leaves the changes list). */
  async keep(sessionId: string, paths: readonly string[] | "all"): Promise<void> {
    const data = await this.#read(sessionId);
    if (!data.baseline) return;
    const now = await this.repo.snapshot();
    data.baseline.tree = paths === "all" ? now.tree : await this.repo.overlay(data.baseline.tree, now.tree, paths);
    await this.#records.write(data);
    this.#changed();
  }

  /**
   * Undo: the files go back to the baseline (a checkpoint is taken first, so this is undoable too).
   * "all" leaves the files the user changed by hand as they are and names them in `kept`; a file
   * named on its own is undone whoever changed it.
   */
  async undoFiles(sessionId: string, paths: readonly string[] | "all"): Promise<RestoreOutcome | undefined> {
    const data = await this.#read(sessionId);
    if (!data.baseline) return undefined;
    const baseline = this.#find(data, data.baseline.checkpointId);
    const now = await this.repo.snapshot();
    let items = await planRestore(this.repo, now.tree, data.baseline.tree, await this.#userEdits(data, baseline, now.tree));
    const kept: RestoreOutcome["kept"] = [];
    if (paths === "all") {
      for (const i of items) if (i.userEdit) kept.push({ path: i.path, reason: i.userEdit });
      items = items.filter((i) => !i.userEdit);
    } else items = items.filter((i) => paths.includes(i.path));
    const what = paths === "all" ? "all changes" : oneLine(paths.join(", "), 120);
    const out = await this.#apply(sessionId, now, items, `undo ${what} since ${quotePrompt(baseline.label)}`);
    return { ...out, kept };
  }

  /**
   * What restoring `checkpointId` would change, with the files the user changed by hand since then
   * marked; `only` limits it to those files (undoing one restore or undo brings back what it changed).
   */
  async planRestore(sessionId: string, checkpointId: string, only?: readonly string[]): Promise<RestorePlan> {
    const data = await this.#read(sessionId);
    const checkpoint = this.#find(data, checkpointId);
    const now = await this.repo.snapshot();
    const target = await this.repo.treeOf(checkpoint.before);
    let items = await planRestore(this.repo, now.tree, target, await this.#userEdits(data, checkpoint, now.tree));
    if (only) items = items.filter((i) => only.includes(i.path));
    return { sessionId, checkpoint, current: now.tree, items };
  }

  /**
   * Applies a plan. `skip` names files to leave alone (by default the user's own edits). Refuses when
   * the folder moved since the plan was shown.
   */
  async restore(plan: RestorePlan, skip: ReadonlySet<string>): Promise<RestoreOutcome> {
    const now = await this.repo.snapshot();
    if (now.tree !== plan.current) throw new FolderChangedError();
    const items = plan.items.filter((i) => !skip.has(i.path));
    return this.#apply(plan.sessionId, now, items, `restore to ${quotePrompt(plan.checkpoint.label)}`);
  }

  async #apply(sessionId: string, now: Snapshot, items: RestoreItem[], text: string): Promise<RestoreOutcome> {
    const label = text.slice(0, 500);
    const undo = await this.#commit(sessionId, now, { kind: "restore", label });
    const results = await applyRestore(this.repo, items);
    const after = await this.repo.snapshot();
    undo.after = await this.repo.commit(after.tree, `after: ${label}`.slice(0, 200), this.#ref(sessionId, undo.id, "after"));
    const data = await this.#read(sessionId);
    data.checkpoints.push(undo);
    await this.#trim(data);
    await this.#records.write(data);
    this.#changed();
    return { undo, results, kept: [] };
  }

  /** Paths changed outside the agent's turns since `from`: between a turn's end and the next checkpoint, and since the last. */
  async #userEdits(data: SessionCheckpoints, from: CheckpointRecord, nowTree: string): Promise<Map<string, string>> {
    const edits = new Map<string, string>();
    const list = data.checkpoints;
    const start = list.indexOf(from);
    for (let i = start; i < list.length; i++) {
      const after = list[i]!.after;
      if (!after) continue;
      const next = list[i + 1];
      const end = next ? await this.repo.treeOf(next.before) : nowTree;
      for (const c of await this.repo.diff(await this.repo.treeOf(after), end)) edits.set(c.path, "changed by hand since this checkpoint");
    }
    for (const abs of this.opts.dirtyFiles?.() ?? []) {
      const rel = path.relative(this.folder, abs);
      if (!rel.startsWith("..") && !path.isAbsolute(rel)) edits.set(rel.split(path.sep).join("/"), "has unsaved changes in the editor");
    }
    return edits;
  }

  #find(data: SessionCheckpoints, id: string): CheckpointRecord {
    const c = data.checkpoints.find((x) => x.id === id);
    if (!c) throw new Error(`No checkpoint ${id} in this session.`);
    return c;
  }

  /** A fork of the conversation at prompt `keepPrompts` keeps the checkpoints taken before it. */
  async fork(fromSession: string, toSession: string, keepPrompts: number): Promise<void> {
    const from = await this.#read(fromSession);
    const cut = from.checkpoints.findIndex((c) => c.kind === "prompt" && (c.promptIndex ?? 0) >= keepPrompts);
    const kept = cut < 0 ? from.checkpoints : from.checkpoints.slice(0, cut);
    const data: SessionCheckpoints = { sessionId: toSession, folder: this.folder, checkpoints: [] };
    for (const c of kept) {
      await this.repo.pin(this.#ref(toSession, c.id, "before"), c.before);
      if (c.after) await this.repo.pin(this.#ref(toSession, c.id, "after"), c.after);
      data.checkpoints.push({ ...c });
    }
    await this.#records.write(data);
    this.#changed();
  }

  /** Deleting a session deletes its checkpoints; objects no other session keeps are pruned. */
  async deleteSession(sessionId: string): Promise<void> {
    await this.repo.deleteRefs(`refs/manifold/${sessionKey(sessionId)}/`);
    await this.#records.remove(sessionId);
    this.#changed();
    await this.repo.prune();
  }
}
