// The adapters' conventions folded into the transcript: a subagent's calls counted on their parent's
// card (also when the parent comes later), built only when the card is opened, folded without a scan;
// a compaction (synthetic call or `compaction_update`) as one marked entry; a switch_mode call's plan
// carried onto its permission card.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  emptyTranscript,
  reduceTranscript,
  type CompactionEntry,
  type PermissionEntry,
  type ToolEntry,
  type TranscriptEvent,
  type TranscriptState,
} from "../../../extension/common/transcript";
import { nestedView, nestedLabel } from "../../../extension/common/nestedTools";
import { compactionText } from "../../../extension/common/adapterConventions";

function fold(events: TranscriptEvent[], s: TranscriptState = emptyTranscript("alpha", "agent")): TranscriptState {
  return events.reduce(reduceTranscript, s);
}
const sub = (parent: string) => ({ claudeCode: { toolName: "Read", parentToolUseId: parent } });
const call = (toolCallId: string, meta?: unknown): TranscriptEvent => ({
  type: "acp",
  update: { sessionUpdate: "tool_call", toolCallId, title: `call ${toolCallId}`, kind: "read", status: "completed", _meta: meta as never },
});
const tools = (s: TranscriptState) => s.entries.filter((e): e is ToolEntry => e.kind === "tool");

test("a subagent's calls are counted on their Task card and shown only under it", () => {
  const s = fold([
    { type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "task", title: "Task", kind: "think", status: "in_progress" } },
    call("c1", sub("task")),
    call("c2", sub("task")),
    { type: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed", _meta: sub("task") as never } },
    call("top"),
  ]);
  const task = tools(s).find((t) => t.toolCallId === "task");
  assert.equal(task?.nested, 2, "an update of a nested call does not count it twice");
  assert.equal(tools(s).find((t) => t.toolCallId === "c1")?.status, "failed");
  const view = nestedView(s.entries);
  assert.deepEqual(
    view.top.map((e) => (e.kind === "tool" ? e.toolCallId : e.kind)),
    ["task", "top"],
  );
  assert.deepEqual(
    view.childrenOf("task").map((e) => e.toolCallId),
    ["c1", "c2"],
  );
  assert.equal(nestedLabel(12), "12 tool calls");
  assert.equal(nestedLabel(1), "1 tool call");
});

test("calls that arrive before their parent are kept and attached when it arrives", () => {
  const early = fold([call("c1", sub("task")), call("c2", sub("task"))]);
  // Until the parent is seen they show at the top level.
  assert.equal(nestedView(early.entries).top.length, 2);
  const s = fold([{ type: "acp", update: { sessionUpdate: "tool_call", toolCallId: "task", title: "Task", kind: "think" } }], early);
  assert.equal(tools(s).find((t) => t.toolCallId === "task")?.nested, 2);
  assert.deepEqual(s.nestedWaiting, {});
  const view = nestedView(s.entries);
  assert.deepEqual(
    view.top.map((e) => (e.kind === "tool" ? e.toolCallId : e.kind)),
    ["task"],
  );
  assert.equal(view.childrenOf("task").length, 2);
});

/** Counts the elements array scans visit while `run` runs (copies by slice/concat are not scans). */
function scanned(run: () => void): number {
  const proto = Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const names = ["find", "findIndex", "findLast", "findLastIndex", "filter", "map", "forEach", "some", "every", "reduce"];
  const saved = names.map((n) => proto[n]);
  let visits = 0;
  names.forEach((n, i) => {
    const orig = saved[i] as (...a: unknown[]) => unknown;
    proto[n] = function (this: unknown[], ...a: unknown[]) {
      if (this.length > 20) visits += this.length;
      return orig.apply(this, a);
    };
  });
  try {
    run();
  } finally {
    names.forEach((n, i) => (proto[n] = saved[i] as (...a: unknown[]) => unknown));
  }
  return visits;
}

test("a subagent of 200 calls folds without scanning the transcript, and its collapsed card builds none of them", () => {
  const parent: TranscriptEvent = {
    type: "acp",
    update: { sessionUpdate: "tool_call", toolCallId: "task", title: "Task", kind: "think", status: "in_progress" },
  };
  const events: TranscriptEvent[] = [parent];
  for (let i = 0; i < 200; i++) {
    events.push(call(`c${i}`, sub("task")));
    events.push({ type: "acp", update: { sessionUpdate: "tool_call_update", toolCallId: `c${i}`, status: "completed" } });
  }
  let s = emptyTranscript("alpha", "agent");
  const visits = scanned(() => {
    for (const ev of events) s = reduceTranscript(s, ev);
  });
  assert.equal(visits, 0, "no update scans the entries");
  assert.equal(tools(s).find((t) => t.toolCallId === "task")?.nested, 200);
  // The collapsed render: one top-level card, the nested ones gathered only when asked for.
  const sets = Map.prototype.set;
  let gathered = 0;
  Map.prototype.set = function (this: Map<unknown, unknown>, k: unknown, v: unknown) {
    gathered++;
    return sets.call(this, k, v);
  };
  try {
    const view = nestedView(s.entries);
    assert.equal(view.top.length, 1);
    assert.equal(gathered, 0, "nothing gathered for a collapsed card");
    assert.equal(view.childrenOf("task").length, 200);
    assert.ok(gathered > 0);
  } finally {
    Map.prototype.set = sets;
  }
});

test("the synthetic compaction call is one compaction entry with trigger, tokens and duration", () => {
  const s = fold([
    {
      type: "acp",
      update: { sessionUpdate: "tool_call", toolCallId: "cmp", title: "Compact conversation", kind: "think", status: "in_progress" },
    },
    {
      type: "acp",
      update: {
        sessionUpdate: "tool_call_update",
        toolCallId: "cmp",
        status: "completed",
        _meta: { contextCompaction: { trigger: "auto", preTokens: 152_000, postTokens: 12_400, durationMs: 3200 } },
      },
    },
  ]);
  assert.equal(tools(s).length, 0, "no tool card");
  const c = s.entries.filter((e): e is CompactionEntry => e.kind === "compaction");
  assert.equal(c.length, 1);
  assert.deepEqual(
    { ...c[0], id: "" },
    {
      kind: "compaction",
      id: "",
      toolCallId: "cmp",
      trigger: "auto",
      preTokens: 152_000,
      postTokens: 12_400,
      durationMs: 3200,
      status: "completed",
    },
  );
  assert.equal(compactionText(c[0] as CompactionEntry), "Conversation compacted (auto): 152k → 12k tokens in 3.2 s");
});

test("malformed compaction fields are dropped, not fatal; an error marks it failed", () => {
  const s = fold([
    {
      type: "acp",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "cmp",
        title: "Compact",
        kind: "think",
        _meta: { contextCompaction: { trigger: 7, preTokens: "lots", error: "model refused" } },
      },
    },
  ]);
  const c = s.entries[0] as CompactionEntry;
  assert.equal(c.kind, "compaction");
  assert.equal(c.trigger, undefined);
  assert.equal(c.preTokens, undefined);
  assert.equal(c.status, "failed");
  assert.equal(compactionText(c), "Compaction failed — model refused");
});

test("compaction_update makes and updates one entry per compactionId", () => {
  const s = fold([
    { type: "acp", update: { sessionUpdate: "compaction_update", compactionId: "k1", status: "in_progress" } },
    {
      type: "acp",
      update: {
        sessionUpdate: "compaction_update",
        compactionId: "k1",
        status: "completed",
        _meta: { contextCompaction: { trigger: "manual", preTokens: 900, postTokens: 120 } },
      },
    },
  ]);
  const c = s.entries.filter((e): e is CompactionEntry => e.kind === "compaction");
  assert.equal(c.length, 1);
  assert.equal(c[0]?.status, "completed");
  assert.equal(compactionText(c[0] as CompactionEntry), "Conversation compacted (manual): 900 → 120 tokens");
});

test("a switch_mode call's plan goes onto the permission card for that call", () => {
  const s = fold([
    {
      type: "acp",
      update: { sessionUpdate: "tool_call", toolCallId: "exit", title: "Ready to code?", kind: "switch_mode", plan: "# Plan\n1. do it" },
    },
    {
      type: "permission/requested",
      requestId: "r1",
      toolCallId: "exit",
      title: "Ready to code?",
      options: [
        { optionId: "default", name: "Yes", kind: "allow_once" },
        { optionId: "plan", name: "No, keep planning", kind: "reject_once" },
      ],
    },
    { type: "permission/requested", requestId: "r2", toolCallId: "other", title: "run", options: [] },
  ]);
  const cards = s.entries.filter((e): e is PermissionEntry => e.kind === "permission");
  assert.equal(cards[0]?.plan, "# Plan\n1. do it");
  assert.equal(cards[1]?.plan, undefined);
});
