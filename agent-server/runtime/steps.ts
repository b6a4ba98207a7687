// The inside of a turn: model steps and tool calls, run until the model stops calling tools. The
// session-facing side (queue, turns, steers, cancel, dispose) is the Agent's (agent.ts); a step
// reaches it only through the `StepHost` the Agent hands over.
import { randomUUID } from "node:crypto";
import type { ChatMessage, FinishReason, ModelClient, ModelStreamRequest, Usage } from "../model/types";
import type { LogEntry, SessionEvent, TurnEndReason } from "../session/events";
import type { SessionLog } from "../session/log";
import type { ToolContext, ToolResult, ToolRunner } from "../tools/types";
import { delegateNote } from "../tools/delegate";
import type { DelegateTarget } from "./capabilities";
import { abortable, raceAbort } from "./abortable";
import type { AgentEvent, AgentServices } from "./agentTypes";
import type { DeltaCoalescer } from "./deltaCoalescer";
import { buildMessages, imagesAfter, unseenImagesNotice } from "./history";
import { projectInstructions } from "./instructions";
import { refusedToolOutput, toolAllowed } from "./profiles";
import { visionKnown } from "../model/visionProbe";
import { errorMessage } from "../../base/errors";

/** What the steps need of their agent. */
export interface StepHost {
  readonly sessionId: string;
  readonly root: string;
  readonly cwd: string;
  readonly session: SessionLog;
  readonly services: AgentServices;
  /** The model's text and thought deltas, merged (the Agent flushes them before anything else it records). */
  readonly deltas: DeltaCoalescer;
  /** The session's model now (its settings may change between steps). */
  modelId(): string;
  canAskUser(): boolean;
  /** The other agents this session may delegate to. */
  delegateAgents(): readonly DelegateTarget[];
  append(event: SessionEvent): LogEntry;
  publish(ev: AgentEvent): void;
  /** Steers waiting: taken in before a step's request. */
  hasSteers(): boolean;
  takeSteers(applied: boolean): void;
  /** `toolCallId` is announced and open until its result (the Agent owns that fact). */
  openCall(toolCallId: string): void;
  toolContext(toolCallId: string, signal: AbortSignal): ToolContext;
}

/** The part of an open turn a step reads and moves on. */
export interface StepTurn {
  readonly controller: AbortController;
  /** Set once the turn decided to end (or runs a command that takes no steers): the Agent refuses steers from then on. */
  closing: boolean;
  /** Images up to this seq were already noticed as unseen. */
  imagesNoticedSeq: number;
}

export interface StepOutcome {
  calls: Array<{ toolName: string; input: unknown }>;
  finish: FinishReason;
  text: string;
}

/** Model steps and their tool calls until the model stops calling tools, the turn is aborted or `maxSteps`. */
export async function runSteps(host: StepHost, turn: StepTurn): Promise<TurnEndReason> {
  const signal = turn.controller.signal;
  for (let step = 0; ; step++) {
    if (step >= host.services.maxSteps) return "max_turn_requests";
    if (signal.aborted) return "aborted";
    const { calls, finish } = await modelStep(host, turn, { withTools: true });
    if (signal.aborted) return "aborted";
    if (calls.length === 0) {
      // A steer accepted while this step ran gets one more step; deciding to end is synchronous with refusing later ones.
      if (host.hasSteers()) continue;
      turn.closing = true;
      if (finish === "length") return "max_tokens";
      if (finish === "content-filter") return "refusal";
      return "end_turn";
    }
    for (const call of calls) {
      if (signal.aborted) return "aborted";
      await runTool(host, call.toolName, call.input, signal);
    }
  }
}

/**
 * One model step: the model read once (I-54), the request built from the log with the steers taken
 * in just before, text and reasoning appended as they stream. `conversation` replaces the log's
 * (`/compact`'s summarisation request; no steer is taken in then).
 */
export async function modelStep(
  host: StepHost,
  turn: StepTurn,
  opts: { withTools: boolean; conversation?: (vision: boolean) => ChatMessage[] },
): Promise<StepOutcome> {
  const signal = turn.controller.signal;
  const model = await raceAbort(host.services.modelFor(host.modelId()), signal);
  const request = await buildRequest(host, turn, model, opts);
  // What happened so far is in the file before the request leaves (a crash mid-step loses nothing before it).
  host.session.flush();
  const outcome = await streamStep(host, model, request, signal);
  if (!signal.aborted && outcome.usage && (outcome.usage.inputTokens !== undefined || outcome.usage.totalTokens !== undefined)) {
    const { usage } = outcome;
    const used = usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
    host.append({ type: "usage", used, size: model.config.contextWindow ?? 0 });
  }
  return { calls: outcome.calls, finish: outcome.finish, text: outcome.text };
}

async function buildRequest(
  host: StepHost,
  turn: StepTurn,
  model: ModelClient,
  opts: { withTools: boolean; conversation?: (vision: boolean) => ChatMessage[] },
): Promise<ModelStreamRequest> {
  const signal = turn.controller.signal;
  const tools = host.services.tools;
  // This session's own tools (its MCP servers) are known before the request is built (bounded).
  if (opts.withTools && tools.sessionReady) await raceAbort(tools.sessionReady(host.sessionId, signal), signal);
  const instructions = await raceAbort(projectInstructions(host.root), signal);
  const profile = host.session.header.profile; // its tool allow-list and instructions
  const delegates = opts.withTools ? delegateNote(host.delegateAgents()) : undefined;
  const notes = opts.withTools ? [...(tools.sessionNotes?.(host.sessionId) ?? []), ...(delegates ? [delegates] : [])] : [];
  if (!opts.conversation) host.takeSteers(true);
  await raceAbort(visionKnown(model.config), signal); // its endpoint's answer, if still on its way (bounded)
  const vision = model.config.vision === true;
  if (!vision) {
    // Said once per image, in the transcript; the model gets a placeholder (history.ts).
    const unseen = imagesAfter(host.session.entries, turn.imagesNoticedSeq);
    turn.imagesNoticedSeq = host.session.entries[host.session.entries.length - 1]?.seq ?? 0;
    if (unseen > 0) host.append({ type: "notice", text: unseenImagesNotice(unseen, model.config.visionSource ?? "name list") });
  }
  return {
    system: [
      host.services.systemPrompt(host.cwd),
      ...(instructions ? [instructions] : []),
      ...(profile?.instructions ? [profile.instructions] : []),
      ...notes,
    ].join("\n"),
    messages: opts.conversation ? opts.conversation(vision) : buildMessages(host.session.entries, { vision }),
    tools: opts.withTools
      ? tools.specs({ askUser: host.canAskUser(), sessionId: host.sessionId }).filter((t) => toolAllowed(profile, t.name))
      : [],
    signal,
  };
}

/** Reads the model's stream once: deltas merged into the log as they come, tool calls collected. */
async function streamStep(
  host: StepHost,
  model: ModelClient,
  request: ModelStreamRequest,
  signal: AbortSignal,
): Promise<StepOutcome & { usage?: Usage }> {
  const stepMessageId = randomUUID();
  const out: StepOutcome & { usage?: Usage } = { calls: [], finish: "stop", text: "" };
  try {
    for await (const ev of abortable(model.stream(request), signal)) {
      if (signal.aborted) break;
      switch (ev.type) {
        case "text-delta":
          out.text += ev.text;
          host.deltas.add("assistant/text", stepMessageId, ev.text);
          break;
        case "reasoning-delta":
          host.deltas.add("assistant/thought", stepMessageId, ev.text);
          break;
        case "tool-call":
          out.calls.push({ toolName: ev.toolName, input: ev.input });
          break;
        case "finish":
          out.finish = ev.reason;
          out.usage = ev.usage;
          break;
      }
    }
  } finally {
    host.deltas.flush(); // a step's deltas never outlive it, whatever ended it
  }
  return out;
}

/** One tool call: announced (`tool/call`, on disk before it runs), run through the runner, answered (`tool/result`). */
async function runTool(host: StepHost, name: string, input: unknown, signal: AbortSignal): Promise<void> {
  const toolCallId = `call_${randomUUID().replace(/-/g, "")}`;
  const tools = host.services.tools;
  let described: ReturnType<ToolRunner["describe"]>;
  try {
    described = tools.describe(name, input, host.cwd, host.sessionId);
  } catch {
    described = { title: name, kind: "other", locations: [] };
  }
  const call: SessionEvent = { type: "tool/call", toolCallId, name, input, title: described.title, kind: described.kind };
  if (described.locations.length > 0)
    call.locations = described.locations.map((l) => (typeof l.line === "number" ? { path: l.path, line: l.line } : { path: l.path }));
  host.openCall(toolCallId);
  host.append(call);
  host.session.flush();
  host.publish({ kind: "tool-progress", toolCallId, status: "in_progress" });
  let result: ToolResult;
  const profile = host.session.header.profile;
  try {
    // A tool the profile does not allow is refused even if the model names it (it was never offered).
    // The context inside the try: making the session's temp area on first use can fail like the tool.
    result =
      profile && !toolAllowed(profile, name)
        ? { output: refusedToolOutput(profile, name), isError: true }
        : await raceAbort(tools.run(name, input, host.toolContext(toolCallId, signal)), signal);
  } catch (err) {
    if (signal.aborted) return; // closed as cancelled by the turn
    result = { output: `The tool failed: ${errorMessage(err)}`, isError: true };
  }
  if (result.plan) host.append({ type: "plan", entries: result.plan });
  const ev: SessionEvent = {
    type: "tool/result",
    toolCallId,
    status: result.isError ? "failed" : "completed",
    output: result.output,
    isError: result.isError,
  };
  if (result.content) ev.content = result.content;
  host.append(ev);
}
