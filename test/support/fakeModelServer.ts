// A scripted fake model server for tests: real `node:http` on 127.0.0.1, real SSE, no network.
//
//   const server = await startFakeModelServer();
//   server.url                    // "http://127.0.0.1:PORT/v1" — use as MANIFOLD_MODEL_BASE_URL
//   server.enqueue({ text: ["Hel", "lo"] }, { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] });
//   server.script((req) => ({ text: `echo:${req.lastUserText}` }));   // fallback for everything else
//   server.route("[A]", { text: "for session A" });                    // only for requests whose last user text has "[A]"
//   await server.waitForRequests(2); server.requests[1].body;          // every request is recorded
//   server.reset();                                                    // between tests sharing one server
//   spawn(node, ["dist/agent-server.js"], { env: { ...process.env, ...server.agentEnv() } });
//   await server.close();
//
// Endpoints: `POST …/chat/completions` (OpenAI Chat Completions, stream) and `POST …/messages`
// (Anthropic Messages, stream); `GET …/models` lists `server.models`. Any path prefix is accepted.
//
// Which turn answers a request, first match wins:
//   1. the queue of a `route(marker, …)` whose marker occurs in `req.lastUserText` (FIFO);
//   2. the global `enqueue(…)` queue (FIFO);
//   3. the `script(handler)` handler;
//   4. otherwise a 400 "nothing scripted" error (so a missing script fails loudly).
// `lastUserText` is the text of the last *user-typed* message: tool results are skipped, so a route
// keeps matching across the tool-call steps of the same turn (concurrent sessions stay separate).
//
// Turns (`FakeTurn`):
//   { text?, reasoning?, toolCalls?: [{ name, args, id? }], usage?: { input, output }, finishReason? }
//       text/reasoning: a string is one chunk, an array is several. Tool-call arguments are sent as
//       JSON split in 5-code-point fragments (mid-token, non-ASCII safe). Usage defaults to an estimate.
//   { httpError: { status, body?, headers? } }   e.g. { httpError: { status: 429, headers: { "retry-after": "0" } } }
//   { hang: true, then? }             200 + SSE headers, then nothing until `release()` (continues with `then`,
//                                      default an empty finished reply) or the client aborts (`req.aborted`).
//   { hang: "before-headers", then? } nothing at all (not even headers) until `release()`.
//   { truncate: true }                one text chunk, then the connection is destroyed mid-body.
//   { malformed: true }               a non-JSON data frame, then the stream ends without a finish.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicFrames, errorBody, frameToText, openAiFrames, type Protocol, type SseFrame } from "./fakeModelSse";

export interface FakeToolCall {
  name: string;
  args: unknown;
  id?: string;
}

export interface FakeReply {
  text?: string | string[];
  reasoning?: string | string[];
  toolCalls?: FakeToolCall[];
  usage?: { input: number; output: number };
  /** OpenAI spelling: "stop" | "tool_calls" | "length" (mapped for Anthropic). Default from content. */
  finishReason?: string;
}

export type FakeTurn =
  | FakeReply
  | { httpError: { status: number; body?: unknown; headers?: Record<string, string> } }
  | { hang: true | "before-headers"; then?: FakeReply }
  | { truncate: true }
  | { malformed: true };

export interface FakeRequest {
  protocol: Protocol;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (`unknown` fields: assert with deepEqual). */
  body: Record<string, unknown>;
  model: string;
  messages: unknown[];
  /** Text of the last user-typed message (tool results skipped). "" when none. */
  lastUserText: string;
  /** True when the last message carries tool results (the step after a tool call). */
  afterToolResult: boolean;
  /** Names of the tools offered in this request. */
  toolNames: string[];
  /** Set when the client closed the connection before the response ended. */
  aborted: boolean;
}

export type FakeHandler = (req: FakeRequest) => FakeTurn | Promise<FakeTurn>;

export interface FakeModelServer {
  readonly url: string;
  readonly origin: string;
  readonly requests: FakeRequest[];
  /** Model ids `GET …/models` returns. */
  models: string[];
  /** Ollama's `POST /api/show` answers `{capabilities}` for the models named here (others: 404, as before). */
  capabilities: Record<string, string[]>;
  script(handler: FakeHandler | undefined): void;
  enqueue(...turns: FakeTurn[]): void;
  route(marker: string, ...turns: FakeTurn[]): void;
  /** Lets every hanging response go on (with its `then`). */
  release(): void;
  /** Resolves once at least `count` requests arrived (all recorded requests). Every `waitFor…` rejects after 30 s instead of hanging. */
  waitForRequests(count: number): Promise<FakeRequest[]>;
  /** Resolves once at least `count` responses have started hanging (counted since start or `reset()`). */
  waitForHang(count?: number): Promise<void>;
  /** Resolves once at least `count` of `requests` were aborted by the client. */
  waitForAborts(count?: number): Promise<void>;
  /** Between tests: releases hangs, forgets requests, queues, routes and the script. */
  reset(): void;
  /** Environment for a spawned agent-server that talks to this server (hermetic, fast retries). */
  agentEnv(provider?: "openai-compatible" | "anthropic", model?: string): Record<string, string>;
  close(): Promise<void>;
}

type Hung = { resume: () => void };

/** Upper bound of any `waitFor…` (a safety net against hanging runs, far above any real wait). */
const WAIT_SAFETY_MS = 30_000;

function textOf(content: unknown): { text: string; hasToolResult: boolean } {
  if (typeof content === "string") return { text: content, hasToolResult: false };
  if (!Array.isArray(content)) return { text: "", hasToolResult: false };
  let text = "";
  let hasToolResult = false;
  for (const part of content as Array<Record<string, unknown>>) {
    if (part?.type === "text" && typeof part.text === "string") text += part.text;
    if (part?.type === "tool_result") hasToolResult = true;
  }
  return { text, hasToolResult };
}

function describe(protocol: Protocol, body: Record<string, unknown>): Pick<FakeRequest, "lastUserText" | "afterToolResult" | "toolNames"> {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
  let lastUserText = "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    const { text, hasToolResult } = textOf(m.content);
    if (!hasToolResult || text) {
      lastUserText = text;
      break;
    }
  }
  const last = messages[messages.length - 1];
  const afterToolResult = last?.role === "tool" || (last?.role === "user" && textOf(last.content).hasToolResult);
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  const toolNames = tools.map((t) => {
    const fn = t.function as Record<string, unknown> | undefined;
    return String(protocol === "openai" ? fn?.name : t.name);
  });
  return { lastUserText, afterToolResult, toolNames };
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: FakeRequest[] = [];
  const queue: FakeTurn[] = [];
  const routes = new Map<string, FakeTurn[]>();
  let handler: FakeHandler | undefined;
  const hung = new Set<Hung>();
  let hangCount = 0;
  const selfDestroyed = new WeakSet<ServerResponse>();
  const waiters = new Set<() => void>();
  const notify = (): void => waiters.forEach((w) => w());
  // Waits are events (every state change calls `notify`). The deadline is only a safety net so a
  // broken test fails with a message instead of hanging the whole run; it is never a timing assertion.
  const until = (done: () => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (done()) return resolve();
      const check = (): void => {
        if (done()) {
          waiters.delete(check);
          clearTimeout(safety);
          resolve();
        }
      };
      const safety = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `fake model server: still waiting for ${what} after ${WAIT_SAFETY_MS} ms (${requests.length} requests, ${hangCount} hangs)`,
          ),
        );
      }, WAIT_SAFETY_MS);
      waiters.add(check);
    });

  async function pick(req: FakeRequest): Promise<FakeTurn> {
    for (const [marker, turns] of routes) {
      if (turns.length > 0 && req.lastUserText.includes(marker)) return turns.shift() as FakeTurn;
    }
    if (queue.length > 0) return queue.shift() as FakeTurn;
    if (handler) return handler(req);
    return { httpError: { status: 400, body: errorBody(req.protocol, 400, "fake model server: nothing scripted for this request") } };
  }

  function sendFrames(res: ServerResponse, frames: SseFrame[]): void {
    for (const f of frames) res.write(frameToText(f));
    res.end();
  }

  function startSse(res: ServerResponse): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
  }

  async function answer(rec: FakeRequest, res: ServerResponse, seq: number): Promise<void> {
    const turn = await pick(rec);
    const frames = (reply: FakeReply): SseFrame[] =>
      (rec.protocol === "openai" ? openAiFrames : anthropicFrames)(reply, rec.model, seq, rec.body);
    if ("httpError" in turn) {
      const { status, body, headers } = turn.httpError;
      const payload = body ?? errorBody(rec.protocol, status, `fake error ${status}`);
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
      return;
    }
    if ("hang" in turn) {
      if (turn.hang === true) startSse(res);
      await new Promise<void>((resolve) => {
        const entry: Hung = { resume: () => (hung.delete(entry), notify(), resolve()) };
        hung.add(entry);
        res.on("close", entry.resume);
        hangCount++;
        notify();
      });
      if (res.destroyed || res.writableEnded) return;
      if (turn.hang !== true) startSse(res);
      sendFrames(res, frames(turn.then ?? {}));
      return;
    }
    if ("truncate" in turn) {
      startSse(res);
      const [first] = frames({ text: "partial answer that never ends" });
      const second = frames({ text: "partial answer that never ends" })[1];
      selfDestroyed.add(res);
      res.write(frameToText(first as SseFrame) + (second ? frameToText(second) : ""), () => res.destroy());
      return;
    }
    if ("malformed" in turn) {
      startSse(res);
      res.write(frameToText({ event: rec.protocol === "anthropic" ? "message_start" : undefined, data: "{not json" }));
      res.end();
      return;
    }
    startSse(res);
    sendFrames(res, frames(turn));
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? "";
    if (req.method === "GET" && path.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: server.models.map((id) => ({ id, object: "model", owned_by: "fake" })) }));
      return;
    }
    if (req.method === "POST" && path === "/api/show") {
      const model = (JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { model?: unknown }).model;
      const caps = typeof model === "string" ? server.capabilities[model] : undefined;
      res.writeHead(caps ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(caps ? { capabilities: caps } : { error: `model "${String(model)}" not found` }));
      return;
    }
    const protocol: Protocol | undefined = path.endsWith("/chat/completions")
      ? "openai"
      : path.endsWith("/messages")
        ? "anthropic"
        : undefined;
    if (req.method !== "POST" || !protocol) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake model server: no route for ${req.method} ${path}` } }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify(errorBody(protocol, 400, "fake model server: body is not JSON")));
      return;
    }
    const rec: FakeRequest = {
      protocol,
      method: req.method,
      url,
      headers: req.headers,
      body,
      model: typeof body.model === "string" ? body.model : "",
      messages: Array.isArray(body.messages) ? body.messages : [],
      ...describe(protocol, body),
      aborted: false,
    };
    requests.push(rec);
    res.on("close", () => {
      if (!res.writableFinished && !selfDestroyed.has(res)) {
        rec.aborted = true;
        notify();
      }
    });
    notify();
    await answer(rec, res, requests.length);
  }

  const http = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake model server failed: ${String(err)}` } }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const server: FakeModelServer = {
    url: `${origin}/v1`,
    origin,
    requests,
    models: ["fake-model"],
    capabilities: {},
    script: (h) => void (handler = h),
    enqueue: (...turns) => void queue.push(...turns),
    route: (marker, ...turns) => void routes.set(marker, [...(routes.get(marker) ?? []), ...turns]),
    release: () => [...hung].forEach((h) => h.resume()),
    waitForRequests: async (count) => (await until(() => requests.length >= count, `${count} requests`), requests.slice()),
    waitForHang: (count = 1) => until(() => hangCount >= count, `${count} hanging responses`),
    waitForAborts: (count = 1) => until(() => requests.filter((r) => r.aborted).length >= count, `${count} aborted requests`),
    agentEnv: (provider = "openai-compatible", model = "fake-model") => ({
      MANIFOLD_MODEL_PROVIDER: provider,
      MANIFOLD_MODEL_BASE_URL: `${origin}/v1`,
      MANIFOLD_MODEL: model,
      [provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY"]: "sk-test-fake-key",
      MANIFOLD_DETECT_LOCAL_MODELS: "0",
      MANIFOLD_MODEL_RETRY_BASE_MS: "1",
    }),
    reset: () => {
      [...hung].forEach((h) => h.resume());
      requests.length = 0;
      hangCount = 0;
      queue.length = 0;
      routes.clear();
      handler = undefined;
    },
    close: async () => {
      [...hung].forEach((h) => h.resume());
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return server;
}
