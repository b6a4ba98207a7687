// What the big ACP adapters (claude-agent-acp, codex-acp) send beyond ACP v1, read from an update's
// `_meta` with a shape check: a subagent's calls name their parent (`_meta.claudeCode.parentToolUseId`),
// a compaction is a synthetic "Compact conversation" call (`_meta.contextCompaction`) or a
// `compaction_update`. Anything that does not match is an ordinary update. Pure: both sides import it
// (the webview's reducer too, hence zod's tree-shakable mini API: the bundle keeps only what it uses).
import * as z from "zod/mini";
import type { CompactionEntry, PermissionEntry } from "./transcriptModel";

const parentMeta = z.object({ claudeCode: z.object({ parentToolUseId: z.string().check(z.minLength(1), z.maxLength(200)) }) });
/** Manifold's own: a delegated child agent's update, nested under the delegate card (extension/delegation/childNesting.ts). */
export const DELEGATE_PARENT_META = "manifold.dev/parentToolCallId";
const delegateParent = z.object({ [DELEGATE_PARENT_META]: z.string().check(z.minLength(1), z.maxLength(600)) });

/** The tool call a subagent's update runs under, when its `_meta` names one. */
export function parentToolCallId(meta: unknown, self: string): string | undefined {
  const own = delegateParent.safeParse(meta);
  const parent = own.success ? own.data[DELEGATE_PARENT_META] : undefined;
  const r = parentMeta.safeParse(meta);
  const id = parent ?? (r.success ? r.data.claudeCode.parentToolUseId : undefined);
  return id === self ? undefined : id;
}

const count = z.catch(z.optional(z.int().check(z.nonnegative())), undefined);
/** Every field optional and tolerated when malformed: the entry shows what it can. */
const compactionMeta = z.object({
  contextCompaction: z.object({
    trigger: z.catch(z.optional(z.enum(["manual", "auto"])), undefined),
    preTokens: count,
    postTokens: count,
    durationMs: count,
    error: z.catch(z.optional(z.string().check(z.maxLength(2_000))), undefined),
  }),
});

export type CompactionFacts = Pick<CompactionEntry, "trigger" | "preTokens" | "postTokens" | "durationMs" | "error">;

/** The facts of `_meta.contextCompaction`, or undefined when the update carries none. */
export function compactionFacts(meta: unknown): CompactionFacts | undefined {
  const r = compactionMeta.safeParse(meta);
  if (!r.success) return undefined;
  const c = r.data.contextCompaction;
  return {
    ...(c.trigger ? { trigger: c.trigger } : {}),
    ...(c.preTokens !== undefined ? { preTokens: c.preTokens } : {}),
    ...(c.postTokens !== undefined ? { postTokens: c.postTokens } : {}),
    ...(c.durationMs !== undefined ? { durationMs: c.durationMs } : {}),
    ...(c.error ? { error: c.error } : {}),
  };
}

/** The title claude-agent-acp gives its synthetic compaction call. */
export const COMPACTION_TITLE = "Compact conversation";

/** Whether a new tool call is the synthetic compaction call: its marked `_meta`, or a `think` call with that title. */
export function isCompactionCall(u: { kind?: string | null; title?: string | null; _meta?: unknown }): boolean {
  return compactionFacts(u._meta) !== undefined || (u.kind === "think" && u.title === COMPACTION_TITLE);
}

/** The key a `compaction_update`'s entry is found by (apart from tool call ids). */
export function compactionKey(compactionId: string): string {
  return `compaction:${compactionId}`;
}

/** A status as the entry shows it: an unknown (future) status counts as still running. */
export function compactionStatus(status: string | null | undefined): CompactionEntry["status"] {
  switch (status) {
    case "completed":
    case "failed":
    case "cancelled":
      return status;
    default:
      return "in_progress";
  }
}

/** A `switch_mode` call's plan (`rawInput.plan`, markdown), capped like other agent text. */
export function switchModePlan(kind: string | null | undefined, rawInput: unknown): string | undefined {
  if (kind !== "switch_mode" || typeof rawInput !== "object" || rawInput === null) return undefined;
  const plan = (rawInput as Record<string, unknown>).plan;
  return typeof plan === "string" && plan.trim() !== "" ? plan.slice(0, 100_000) : undefined;
}

/** "12.3k" for a token count. */
export function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/** One line for a compaction: "Conversation compacted (auto): 150k → 12k tokens in 3.2 s". */
export function compactionText(e: CompactionEntry): string {
  const head =
    e.status === "in_progress"
      ? "Compacting the conversation…"
      : e.status === "failed"
        ? "Compaction failed"
        : e.status === "cancelled"
          ? "Compaction cancelled"
          : "Conversation compacted";
  const trigger = e.trigger ? ` (${e.trigger})` : "";
  const counts =
    e.preTokens !== undefined && e.postTokens !== undefined
      ? `${tokens(e.preTokens)} → ${tokens(e.postTokens)} tokens`
      : e.preTokens !== undefined
        ? `${tokens(e.preTokens)} tokens before`
        : "";
  const took = e.durationMs !== undefined ? `${counts ? " in " : "took "}${(e.durationMs / 1000).toFixed(1)} s` : "";
  const detail = counts || took ? `: ${counts}${took}` : "";
  return `${head}${trigger}${detail}${e.error ? ` — ${e.error}` : ""}`;
}

/**
 * A permission option as the card names it. For a plan (a `switch_mode` call's): allow_* approves it,
 * reject_* keeps planning; with several allow options (claude-agent-acp's "auto-accept edits" or not)
 * each keeps its name after "Approve". The answer is always the agent's own option id.
 */
export function planOptionLabel(e: Pick<PermissionEntry, "plan" | "options">, o: PermissionEntry["options"][number]): string {
  if (e.plan === undefined) return o.name;
  if (o.kind.startsWith("reject")) return "Keep planning";
  const allows = e.options.filter((x) => x.kind.startsWith("allow")).length;
  return allows > 1 ? `Approve: ${o.name}` : "Approve";
}
