// In-process fakes for race tests: a scripted ModelClient (gates, hangs, failures) and a fake
// ToolRunner whose tools are plain functions.
import type { ToolKind } from "@agentclientprotocol/sdk";
import { ModelError, type ModelClient, type ModelConfig, type ModelEvent, type ModelStreamRequest } from "../../agent-server/model/types";
import type { ToolContext, ToolResult, ToolRunner } from "../../agent-server/tools/types";

/** A promise you open from outside. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
  opened: boolean;
}

export function gate(): Gate {
  let open!: () => void;
  const g: Gate = {
    promise: new Promise<void>((r) => {
      open = r;
    }),
    open: () => {
      g.opened = true;
      open();
    },
    opened: false,
  };
  return g;
}

export type ScriptStep =
  | ModelEvent
  | { type: "wait"; gate: Gate }
  /** Blocks until the request's signal aborts, then throws an AbortError (like a real client). */
  | { type: "hang" }
  | { type: "fail"; error: Error };

export type Script = ScriptStep[] | ((req: ModelStreamRequest, call: number) => ScriptStep[]);

export interface ScriptedModel extends ModelClient {
  /** Every request, in order (with the model id that served it). */
  readonly requests: Array<ModelStreamRequest & { modelId: string }>;
  enqueue(...scripts: Script[]): void;
  fallback: Script | null;
  /** Resolves when at least n requests have started. */
  waitForRequests(n: number): Promise<void>;
}

export function text(t: string): ModelEvent {
  return { type: "text-delta", text: t };
}
export function finish(reason: "stop" | "tool-calls" | "length" = "stop"): ModelEvent {
  return { type: "finish", reason, usage: { inputTokens: 10, outputTokens: 5 } };
}
export function toolCall(toolName: string, input: unknown, toolCallId = `m-${Math.random().toString(36).slice(2)}`): ModelEvent {
  return { type: "tool-call", toolCallId, toolName, input };
}

function abortError(): Error {
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

/** One scripted model shared by several model ids (each id is a config; requests record which served). */
export function createScriptedModels(ids: string[] = ["test:one"]): {
  configs: ModelConfig[];
  model: ScriptedModel;
  clientFor: (c: ModelConfig) => ModelClient;
} {
  const requests: Array<ModelStreamRequest & { modelId: string }> = [];
  const queue: Script[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const configs: ModelConfig[] = ids.map((id) => ({
    id,
    provider: "openai-compatible",
    model: id,
    label: id,
    vision: true,
    contextWindow: 1000,
  }));
  const model: ScriptedModel = {
    config: configs[0]!,
    isDemo: false,
    requests,
    fallback: [text("ok"), finish()],
    enqueue: (...s) => queue.push(...s),
    waitForRequests(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    stream: () => {
      throw new Error("use clientFor");
    },
  };
  const streamFor = (modelId: string) =>
    async function* (req: ModelStreamRequest): AsyncIterable<ModelEvent> {
      requests.push({ ...req, messages: structuredClone(req.messages), modelId });
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.n) w.resolve();
        else waiters.push(w);
      }
      const script = queue.shift() ?? model.fallback;
      if (!script) throw new ModelError("bad-request", "nothing scripted");
      const steps = typeof script === "function" ? script(req, requests.length) : script;
      for (const step of steps) {
        if (req.signal.aborted) throw abortError();
        if (step.type === "wait") {
          await step.gate.promise;
          continue;
        }
        if (step.type === "hang") {
          await new Promise<void>((resolve) => {
            if (req.signal.aborted) resolve();
            req.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          throw abortError();
        }
        if (step.type === "fail") throw step.error;
        yield step;
        await Promise.resolve();
      }
    };
  const clientFor = (c: ModelConfig): ModelClient => ({ config: c, isDemo: false, stream: streamFor(c.id) });
  return { configs, model, clientFor };
}

export type FakeTool = (input: unknown, ctx: ToolContext) => Promise<ToolResult> | ToolResult;

export function createFakeTools(tools: Record<string, FakeTool>): ToolRunner & { forgotten: string[] } {
  const forgotten: string[] = [];
  return {
    forgotten,
    specs: () => Object.keys(tools).map((name) => ({ name, description: name, inputSchema: { type: "object" } })),
    describe: (name) => ({ title: `run ${name}`, kind: "other" as ToolKind, locations: [] }),
    async run(name, input, ctx) {
      const t = tools[name];
      if (!t) return { output: `unknown tool ${name}`, isError: true };
      return t(input, ctx);
    },
    forgetSession: (id) => {
      forgotten.push(id);
    },
  };
}
