// delegate words the subagent's outcome for the model; the runtime behind `runSubagent` is covered
// end to end in test/integration/runtime/delegate.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RunSubagent, SubagentOutcome } from "../../../agent-server/runtime/capabilities";
import { delegateTool } from "../../../agent-server/tools/delegate";
import { OPEN_FENCE } from "../../../agent-server/tools/fence";
import type { CallPermit, TaskAccess, ToolCallPatch, ToolContext, ToolResult } from "../../../agent-server/tools/types";

const permit: CallPermit = { unconfined: false, writes: new Map(), fence: OPEN_FENCE };

/** Runs `delegate` against a scripted subagent that streams `chunks`, then ends with `outcome`. */
async function delegate(
  task: string,
  chunks: string[],
  outcome: SubagentOutcome,
): Promise<{ result: ToolResult; tasks: string[]; cards: ToolCallPatch[] }> {
  const tasks: string[] = [];
  const cards: ToolCallPatch[] = [];
  const runSubagent: RunSubagent = async (t, onText) => {
    tasks.push(t);
    let so = "";
    for (const c of chunks) onText((so += c));
    return outcome;
  };
  const ctx: ToolContext = {
    sessionId: "s",
    toolCallId: "c",
    signal: new AbortController().signal,
    sandbox: { sessionId: "s", mode: "workspace-write", approval: "on-request", root: "/w", tmpDir: "/t", network: false },
    tasks: {} as TaskAccess,
    requestPermission: async () => "reject",
    runSubagent,
    update: (patch) => cards.push(patch),
  };
  const bound = delegateTool.bind({ task });
  assert.ok(bound.ok, "the delegate arguments are valid");
  return { result: await bound.call.run(ctx, permit), tasks, cards };
}

describe("delegate tool", () => {
  it("hands the task over, streams the answer so far into its card, returns the final answer", async () => {
    const { result, tasks, cards } = await delegate("do it", ["an", "swer"], { kind: "ended", reason: "end_turn", text: "answer " });
    assert.deepEqual(tasks, ["do it"]);
    assert.deepEqual(
      cards.map((c) => c.content),
      [[{ type: "content", content: { type: "text", text: "an" } }], [{ type: "content", content: { type: "text", text: "answer" } }]],
    );
    assert.deepEqual(result, { output: "answer", isError: false });
  });

  it("an empty answer, a stopped subagent and a refusal each read clearly to the model", async () => {
    assert.deepEqual((await delegate("t", [], { kind: "ended", reason: "end_turn", text: "" })).result, {
      output: "(the subagent finished without a message)",
      isError: false,
    });
    assert.deepEqual((await delegate("t", [], { kind: "ended", reason: "error", error: "boom", text: "half" })).result, {
      output: "The subagent stopped (error: boom).\nPartial answer:\nhalf",
      isError: true,
    });
    assert.deepEqual((await delegate("t", [], { kind: "ended", reason: "aborted", text: "" })).result, {
      output: "The subagent stopped (aborted).",
      isError: true,
    });
    assert.deepEqual(
      (await delegate("t", [], { kind: "refused", why: "A subagent cannot delegate further; do the task yourself." })).result,
      {
        output: "A subagent cannot delegate further; do the task yourself.",
        isError: true,
      },
    );
  });
});
