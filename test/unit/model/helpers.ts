// Shared helpers for the model tests: build a client against the fake server and collect a step.
import { createModelClient, type RetryOptions } from "../../../agent-server/model/index";
import type { ChatMessage, ModelClient, ModelConfig, ModelEvent, ProviderId, ToolSpec } from "../../../agent-server/model/types";
import type { FakeModelServer } from "../../support/fakeModelServer";

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
    { id: `${provider}:fake-model`, provider, model: "fake-model", baseUrl: server.url, apiKey: SECRET_KEY, label: "fake", retryBaseMs: 1, timeoutMs: 10_000, ...extra },
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
  const stream = client.stream({ system: "You are a test.", messages, tools: opts.tools ?? [READ_FILE_TOOL], signal: opts.signal ?? new AbortController().signal });
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
