// Catch-and-hold of protected config (I-112) for what no bind blocks in advance: a command (or a
// background task) that creates `.vscode/settings.json` where no `.vscode` existed, a new
// `*.code-workspace`, a client-named `envFile`, or — where the backend has no binds (Landlock) —
// changes an existing one. The protected set is snapshotted before a confined command
// (sandbox/configSnapshot.ts) and compared after the foreground command ends, and for background
// tasks at their exit and before each later tool call of the session. What changed is held: moved
// out of the folder into a quarantine area no confined command or file tool can reach, the
// previous state put back from the snapshot, and the user asked (no "allow for this session").
// Allow puts it back exactly; reject or cancel leaves it out of the folder; under approval `never`
// it is discarded without asking. danger-full-access and approved unconfined commands are exempt.
// The window: between the write and the check the file exists in the folder.
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  diffSnapshots,
  subtree,
  takeSnapshot,
  type ConfigChange,
  type ConfigSnapshot,
  type EntryState,
} from "../../sandbox/configSnapshot";
import { canonicalize, isInside } from "../../sandbox/pathGuard";
import { writeFileAtomic, writeSymlinkAt } from "../../sandbox/safeWrite";
import { moveTree } from "../../sandbox/moveTree";
import type { SandboxContext } from "../../sandbox/types";
import { KeyedChain } from "../runtime/keyedChain";
import type { ToolContext } from "./types";

interface Held {
  rel: string;
  kind: ConfigChange["kind"];
  /** Where the new state waits (null for a removal: there is nothing to keep). */
  quarantined: string | null;
  /** What the card shows of the change. */
  summary: string;
  /** The previous state could not be put back whole (a file too big to record). */
  unrestored: string[];
}

interface Batch {
  root: string;
  /** The batch's quarantine directory. */
  dir: string;
  items: Held[];
}

interface Watch {
  sb: SandboxContext;
  baseline: ConfigSnapshot;
  tasks: Set<string>;
}

export interface ConfigHoldOptions {
  /** Where held changes wait: a directory no confined command sees (the data dir; default: beside the temp areas). */
  quarantineDir?: string;
}

const PREVIEW_CHARS = 400;

function preview(e: EntryState | undefined): string {
  if (!e) return "";
  if (e.type === "dir") return "a directory";
  if (e.type === "symlink") return `a symlink to ${JSON.stringify(e.link ?? "?")}`;
  if (e.type !== "file") return "a special file";
  if (!e.content) return `${e.size} bytes (too big to show)`;
  const text = e.content.toString("utf8");
  const cut = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  return `${e.size} bytes: ${JSON.stringify(cut)}`;
}

function summarize(c: ConfigChange, after: ConfigSnapshot): string {
  const inside = c.after?.type === "dir" ? subtree(after, c.rel).filter(([k]) => k !== c.rel) : [];
  const files = inside.length > 0 ? `; containing ${inside.map(([k, e]) => `${k} (${preview(e)})`).join(", ")}` : "";
  if (c.kind === "created") return `${c.rel}: created, ${preview(c.after)}${files}`;
  if (c.kind === "removed") return `${c.rel}: removed (was ${preview(c.before)})`;
  return `${c.rel}: changed from ${preview(c.before)} to ${preview(c.after)}${files}`;
}

/** A path inside the root whose parent has no symlink on the way (canonical spelling = lexical). */
function safeAt(root: string, abs: string): boolean {
  try {
    return isInside(abs, root) && abs !== root && canonicalize(path.dirname(abs)) === path.dirname(abs);
  } catch {
    return false;
  }
}

/** Put the recorded state of `rel` (and below) back; returns the paths that could not be. */
async function restore(snap: ConfigSnapshot, rel: string): Promise<string[]> {
  const missed: string[] = [];
  for (const [k, e] of subtree(snap, rel)) {
    const abs = path.join(snap.root, k);
    if (!safeAt(snap.root, abs)) {
      missed.push(k);
      continue;
    }
    try {
      if (e.type === "dir") fs.mkdirSync(abs, { mode: e.mode });
      else if (e.type === "symlink" && e.link !== undefined) await writeSymlinkAt(abs, e.link);
      else if (e.type === "file" && e.content) {
        await writeFileAtomic(abs, e.content);
        fs.chmodSync(abs, e.mode);
        fs.utimesSync(abs, new Date(), new Date(e.mtimeMs));
      } else missed.push(k);
    } catch {
      missed.push(k);
    }
  }
  return missed;
}

export class ConfigHold {
  private readonly watches = new Map<string, Watch>();
  /** Held at a background task's exit, asked about at the session's next tool call. */
  private readonly pending = new Map<string, Batch[]>();
  /** Per-session chain: exit checks, pre-call checks and asks run one at a time. */
  private readonly chains = new KeyedChain();

  constructor(private readonly opts: ConfigHoldOptions = {}) {}

  /** The snapshot a confined command is compared against, or null when it is exempt. */
  snapshot(sb: SandboxContext, unconfined: boolean): ConfigSnapshot | null {
    if (unconfined || sb.mode === "danger-full-access") return null;
    return takeSnapshot(sb.root, sb.protectedPaths ?? []);
  }

  /** After a foreground command: hold what changed since `before`, ask, and say what happened (or null). */
  async afterCommand(before: ConfigSnapshot | null, ctx: ToolContext): Promise<string | null> {
    if (!before) return null;
    return this.chains.run(ctx.sessionId, async () => {
      const batch = await this.hold(ctx.sessionId, before, ctx.sandbox);
      const w = this.watches.get(ctx.sessionId);
      if (w) w.baseline = takeSnapshot(w.sb.root, w.sb.protectedPaths ?? []);
      return batch ? this.decide(batch, ctx, "This command") : null;
    });
  }

  /** A background task started from `before` (taken before it was launched): watch until it exits. */
  watchTask(sb: SandboxContext, taskId: string, before: ConfigSnapshot | null, running: boolean): void {
    if (!before) return;
    const w = this.watches.get(sb.sessionId) ?? { sb, baseline: before, tasks: new Set<string>() };
    w.tasks.add(taskId);
    this.watches.set(sb.sessionId, w);
    if (!running) this.taskExited(sb.sessionId, taskId);
  }

  /** A background task ended: hold what changed now, ask at the session's next tool call. */
  taskExited(owner: string, taskId: string): void {
    const w = this.watches.get(owner);
    if (!w?.tasks.has(taskId)) return;
    void this.chains.run(owner, async () => {
      await this.holdWatched(owner, w);
      w.tasks.delete(taskId);
      if (w.tasks.size === 0 && this.watches.get(owner) === w) this.watches.delete(owner);
    });
  }

  /** Before any tool call of the session: catch what a running task changed, and ask about what is held. */
  async beforeCall(ctx: ToolContext): Promise<string | null> {
    if (!this.watches.has(ctx.sessionId) && !this.pending.has(ctx.sessionId) && !this.chains.has(ctx.sessionId)) return null;
    return this.chains.run(ctx.sessionId, async () => {
      const w = this.watches.get(ctx.sessionId);
      if (w) await this.holdWatched(ctx.sessionId, w);
      const batches = this.pending.get(ctx.sessionId) ?? [];
      this.pending.delete(ctx.sessionId);
      const notes: string[] = [];
      for (const b of batches) notes.push(await this.decide(b, ctx, "A background task"));
      return notes.length > 0 ? notes.join("\n") : null;
    });
  }

  /** A write the user approved (a file tool): it is the new baseline of a running watch. */
  refresh(sessionId: string): void {
    const w = this.watches.get(sessionId);
    if (w) w.baseline = takeSnapshot(w.sb.root, w.sb.protectedPaths ?? []);
  }

  /** Drop the session's watches; what is held stays out of the folder. */
  forget(sessionId: string): void {
    this.watches.delete(sessionId);
    for (const b of this.pending.get(sessionId) ?? []) this.discard(b);
    this.pending.delete(sessionId);
  }

  private async holdWatched(owner: string, w: Watch): Promise<void> {
    const batch = await this.hold(owner, w.baseline, w.sb);
    if (batch) this.pending.set(owner, [...(this.pending.get(owner) ?? []), batch]);
    w.baseline = takeSnapshot(w.sb.root, w.sb.protectedPaths ?? []);
  }

  /** Move what changed since `before` out of the folder and put the previous state back. */
  private async hold(sessionId: string, before: ConfigSnapshot, sb: SandboxContext): Promise<Batch | null> {
    const after = takeSnapshot(sb.root, sb.protectedPaths ?? []);
    const changes = diffSnapshots(before, after);
    if (changes.length === 0) return null;
    const dir = path.join(
      this.opts.quarantineDir ?? path.dirname(sb.tmpDir),
      ".held",
      createHash("sha256").update(sessionId).digest("hex").slice(0, 16),
      randomBytes(6).toString("hex"),
    );
    const items: Held[] = [];
    for (const [i, c] of changes.entries()) {
      const abs = path.join(sb.root, c.rel);
      const item: Held = { rel: c.rel, kind: c.kind, quarantined: null, summary: summarize(c, after), unrestored: [] };
      if (c.after && safeAt(sb.root, abs)) {
        const q = path.join(dir, String(i));
        try {
          moveTree(abs, q);
          item.quarantined = q;
        } catch {
          item.unrestored.push(`${c.rel} (could not be moved out)`);
        }
      }
      if (c.before) item.unrestored.push(...(await restore(before, c.rel)));
      items.push(item);
    }
    return { root: sb.root, dir, items };
  }

  /** Ask (or, under `never`, discard) and return what the model is told. */
  private async decide(batch: Batch, ctx: ToolContext, who: string): Promise<string> {
    const names = batch.items.map((i) => i.rel).join(", ");
    const lost = batch.items.flatMap((i) => i.unrestored);
    const lostNote = lost.length > 0 ? ` The previous state of ${lost.join(", ")} was too big to record or could not be put back.` : "";
    if (ctx.sandbox.approval === "never" && ctx.sandbox.mode !== "danger-full-access") {
      this.discard(batch);
      return `${who} changed protected configuration (${names}); it was discarded because the approval policy is \`never\`.${lostNote} Editor and agent configuration (.vscode, *.code-workspace, .devcontainer, agent config folders, MCP env files) may not be changed by commands.`;
    }
    const answer = await ctx.requestPermission({
      title: `Keep changes to protected configuration: ${names}`,
      reason:
        `${who} changed editor/agent configuration that the editor and Manifold honour outside the sandbox. ` +
        `It is held out of the folder until you decide.${lostNote}\n` +
        batch.items.map((i) => `- ${i.summary}`).join("\n"),
      grantKey: `config-hold:${names}`,
      allowSession: false,
    });
    if (answer === "allow_once" || answer === "allow_session") {
      const failed = this.putBack(batch);
      return failed.length > 0
        ? `The user allowed the change to ${names}, but ${failed.join(", ")} could not be put back.`
        : `The user allowed the change to protected configuration (${names}); it is in place.`;
    }
    this.discard(batch);
    const note = typeof answer === "object" ? ` The user's note: ${answer.note}` : "";
    return `${who} changed protected configuration (${names}); the user ${answer === "cancelled" ? "did not answer" : "declined"}, so the change was removed from the folder.${lostNote}${note} Do not retry it; ask the user to make such changes themselves.`;
  }

  /** Allow: the held state goes back exactly where it was (what was restored in its place is removed). */
  private putBack(batch: Batch): string[] {
    const failed: string[] = [];
    for (const i of batch.items) {
      const abs = path.join(batch.root, i.rel);
      if (!safeAt(batch.root, abs)) {
        failed.push(i.rel);
        continue;
      }
      try {
        fs.rmSync(abs, { recursive: true, force: true });
        if (i.quarantined) moveTree(i.quarantined, abs);
      } catch {
        failed.push(i.rel);
      }
    }
    if (failed.length === 0) fs.rmSync(batch.dir, { recursive: true, force: true });
    return failed;
  }

  private discard(batch: Batch): void {
    fs.rmSync(batch.dir, { recursive: true, force: true });
  }
}
