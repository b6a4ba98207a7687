// Shared helpers for the model tests: build a client against the fake server and collect a step.
import { createModelClient, type RetryOptions } from "../../agent-server/model/index";
import type { ModelTimers, TimerPhase } from "../../agent-server/model/providers/aiSdkClient";
import type { ChatMessage, ModelClient, ModelConfig, ModelEvent, ProviderId, ToolSpec } from "../../agent-server/model/types";
import type { FakeModelServer } from "./fakeModelServer";

export const SECRET_KEY = "sk-test-SECRET123";

export const READ_FILE_TOOL: ToolSpec = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

export function clientFor(
  server: FakeModelServer,
  provider: Exclude<ProviderId, "demo">,
  extra: Partial<ModelConfig> = {},
  retry?: RetryOptions,
): ModelClient {
  return createModelClient(
    {
      id: `${provider}:fake-model`,
      provider,
      model: "fake-model",
      baseUrl: server.url,
      apiKey: SECRET_KEY,
      label: "fake",
      retryBaseMs: 1,
      timeoutMs: 10_000,
      ...extra,
    },
    retry,
  );
}

export const userSays = (text: string): ChatMessage => ({ role: "user", content: [{ type: "text", text }] });

export async function collect(
  client: ModelClient,
  messages: ChatMessage[] = [userSays("hello")],
  opts: { tools?: ToolSpec[]; signal?: AbortSignal } = {},
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  const stream = client.stream({
    system: "You are a test.",
    messages,
    tools: opts.tools ?? [READ_FILE_TOOL],
    signal: opts.signal ?? new AbortController().signal,
  });
  for await (const e of stream) events.push(e);
  return events;
}

/** Runs a step expected to fail and returns what it threw. */
export async function failure(client: ModelClient, opts: { signal?: AbortSignal } = {}): Promise<unknown> {
  try {
    await collect(client, undefined, opts);
  } catch (err) {
    return err;
  }
  throw new Error("expected the model step to fail");
}

/** A manual clock for the client's waits: a test fires a timeout or a backoff by an event, never by time. */
export class ManualTimers implements ModelTimers {
  private readonly timers = new Map<number, { fn: () => void; ms: number; phase: TimerPhase }>();
  private readonly waiters = new Set<() => void>();
  private seq = 0;
  /** How many timers were ever set. */
  get created(): number {
    return this.seq;
  }
  set(fn: () => void, ms: number, phase: TimerPhase): number {
    const id = ++this.seq;
    this.timers.set(id, { fn, ms, phase });
    this.waiters.forEach((w) => w());
    return id;
  }
  clear(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Resolves with the id of a pending timer that matches (safety net: rejects after 20 s). */
  waitFor(match: (t: { ms: number; phase: TimerPhase }) => boolean, what: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        for (const [id, t] of this.timers) {
          if (match(t)) {
            this.waiters.delete(check);
            clearTimeout(safety);
            resolve(id);
            return true;
          }
        }
        return false;
      };
      const safety = setTimeout(() => (this.waiters.delete(check), reject(new Error(`no pending timer: ${what}`))), 20_000);
      if (!check()) this.waiters.add(check);
    });
  }
  fire(id: number): void {
    const t = this.timers.get(id);
    if (!t) throw new Error(`timer ${id} is not pending`);
    this.timers.delete(id);
    t.fn();
  }
}
