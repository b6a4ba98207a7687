// Failure handling over real HTTP: each failure becomes the right ModelError kind with a message
// fit for the user, retries are bounded and counted, aborts stay AbortErrors, keys never leak.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { ModelError, type ModelErrorKind } from "../../../agent-server/model/types";
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from "../../support/fakeModelServer";
import { clientFor, collect, failure, ManualTimers, SECRET_KEY, userSays } from "../../support/modelClient";

function assertModelError(err: unknown, kind: ModelErrorKind, status?: number): ModelError {
  assert.ok(err instanceof ModelError, `expected a ModelError, got ${String(err)}`);
  assert.equal(err.kind, kind, err.message);
  assert.equal(err.status, status);
  return err;
}

async function unusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe("model errors", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  for (const provider of ["openai-compatible", "anthropic"] as const) {
    it(`${provider}: 401 is an auth error that points to Set API Key and leaves the key out (I-98)`, async () => {
      server.enqueue({ httpError: { status: 401, body: { error: { message: `Incorrect API key provided: ${SECRET_KEY}` } } } });
      const err = assertModelError(await failure(clientFor(server, provider)), "auth", 401);
      assert.match(err.message, /rejected the API key/);
      assert.match(err.message, /Manifold: Set API Key/);
      assert.ok(!err.message.includes("SECRET123"), err.message);
      assert.equal(server.requests.length, 1);
    });
  }

  it("403 is an auth error too, not retried", async () => {
    server.enqueue({ httpError: { status: 403 } });
    assertModelError(await failure(clientFor(server, "openai-compatible")), "auth", 403);
    assert.equal(server.requests.length, 1);
  });

  it("429 then success: retried transparently, two requests", async () => {
    server.enqueue({ httpError: { status: 429, headers: { "retry-after": "0" } } }, { text: "after the wait" });
    const events = await collect(clientFor(server, "openai-compatible"));
    assert.deepEqual(events[0], { type: "text-delta", text: "after the wait" });
    assert.equal(server.requests.length, 2);
  });

  it("429 forever: a rate-limit error after 3 attempts", async () => {
    server.script(() => ({ httpError: { status: 429, headers: { "retry-after-ms": "1" } } }));
    const err = assertModelError(await failure(clientFor(server, "anthropic")), "rate-limit", 429);
    assert.match(err.message, /rate limiting/);
    assert.match(err.message, /3 attempts/);
    assert.equal(server.requests.length, 3);
  });

  it("429 asking for a wait beyond the cap: fails at once instead of waiting", async () => {
    server.script(() => ({ httpError: { status: 429, headers: { "retry-after": "3600" } } }));
    assertModelError(await failure(clientFor(server, "openai-compatible")), "rate-limit", 429);
    assert.equal(server.requests.length, 1);
  });

  it("500 then success: retried", async () => {
    server.enqueue({ httpError: { status: 500 } }, { text: "recovered" });
    const events = await collect(clientFor(server, "openai-compatible"));
    assert.deepEqual(events[0], { type: "text-delta", text: "recovered" });
    assert.equal(server.requests.length, 2);
  });

  it("500 forever: a server error after the attempts, with the endpoint's own message", async () => {
    server.script(() => ({ httpError: { status: 503, body: { error: { message: "overloaded, try later" } } } }));
    const err = assertModelError(await failure(clientFor(server, "openai-compatible"), {}), "server", 503);
    assert.match(err.message, /overloaded, try later/);
    assert.equal(server.requests.length, 3);
  });

  it("400 is a bad-request error, not retried", async () => {
    server.enqueue({ httpError: { status: 400, body: { error: { message: "model not found: fake-model" } } } });
    const err = assertModelError(await failure(clientFor(server, "openai-compatible")), "bad-request", 400);
    assert.match(err.message, /model not found/);
    assert.equal(server.requests.length, 1);
  });

  for (const provider of ["openai-compatible", "anthropic"] as const) {
    it(`${provider}: a truncated stream is a protocol error, not retried`, async () => {
      server.enqueue({ truncate: true });
      assertModelError(await failure(clientFor(server, provider)), "protocol");
      assert.equal(server.requests.length, 1);
    });

    it(`${provider}: a malformed stream is a protocol error`, async () => {
      server.enqueue({ malformed: true });
      assertModelError(await failure(clientFor(server, provider)), "protocol");
    });
  }

  it("text already streamed, then the stream breaks: the error comes after the text and nothing is retried", async () => {
    server.enqueue({ truncate: true });
    const seen: string[] = [];
    const client = clientFor(server, "openai-compatible");
    const stream = client.stream({ system: "", messages: [userSays("hi")], tools: [], signal: new AbortController().signal });
    await assert.rejects(async () => {
      for await (const e of stream) if (e.type === "text-delta") seen.push(e.text);
    }, ModelError);
    assert.deepEqual(seen, ["partial answer that never ends"]);
    assert.equal(server.requests.length, 1);
  });

  for (const provider of ["openai-compatible", "anthropic"] as const) {
    it(`${provider}: abort while the stream hangs rejects with AbortError, never a ModelError`, async () => {
      server.enqueue({ hang: true });
      const controller = new AbortController();
      const pending = failure(clientFor(server, provider), { signal: controller.signal });
      await server.waitForHang();
      controller.abort();
      const err = await pending;
      assert.ok(!(err instanceof ModelError));
      assert.equal((err as Error).name, "AbortError");
      await server.waitForAborts(1);
      assert.equal(server.requests.length, 1);
    });
  }

  it("abort while waiting for response headers also rejects with AbortError", async () => {
    server.enqueue({ hang: "before-headers" });
    const controller = new AbortController();
    const pending = failure(clientFor(server, "anthropic"), { signal: controller.signal });
    await server.waitForHang();
    controller.abort();
    assert.equal(((await pending) as Error).name, "AbortError");
  });

  it("abort during the retry backoff rejects with AbortError and makes no further request", async () => {
    server.script(() => ({ httpError: { status: 429, headers: { "retry-after": "5" } } }));
    const controller = new AbortController();
    const timers = new ManualTimers();
    const pending = failure(clientFor(server, "openai-compatible", {}, { timers }), { signal: controller.signal });
    // The client is in its backoff (the server's 5 s) when we abort: an event, not a guess.
    await timers.waitFor((t) => t.phase === "backoff" && t.ms === 5000, "the retry backoff");
    controller.abort();
    assert.equal(((await pending) as Error).name, "AbortError");
    assert.equal(server.requests.length, 1);
  });

  it("an already aborted signal rejects with AbortError without a request", async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await failure(clientFor(server, "openai-compatible"), { signal: controller.signal });
    assert.equal((err as Error).name, "AbortError");
    assert.equal(server.requests.length, 0);
  });

  it("no answer within MANIFOLD_MODEL_TIMEOUT_MS is a timeout error", async () => {
    server.enqueue({ hang: "before-headers" });
    const err = assertModelError(await failure(clientFor(server, "openai-compatible", { timeoutMs: 50 })), "timeout");
    assert.match(err.message, /did not answer within 50 ms/);
    assert.match(err.message, /MANIFOLD_MODEL_TIMEOUT_MS/);
  });

  it("a stream that stalls after the headers is a timeout error too", async () => {
    server.enqueue({ hang: true });
    // The inactivity timer is fired once the client has the headers (manual clock), so a slow
    // machine cannot turn this into "did not answer".
    const timers = new ManualTimers();
    const pending = failure(clientFor(server, "anthropic", { timeoutMs: 50 }, { timers }));
    await server.waitForHang();
    timers.fire(await timers.waitFor((t) => t.phase === "streaming", "the inactivity timeout after the headers"));
    const err = assertModelError(await pending, "timeout");
    assert.match(err.message, /stopped sending data within 50 ms/);
  });

  it("connection refused is a network error naming the URL", async () => {
    const port = await unusedPort();
    const client = clientFor(server, "openai-compatible", { baseUrl: `http://127.0.0.1:${port}/v1` });
    const err = assertModelError(await failure(client), "network");
    assert.match(err.message, new RegExp(`http://127\\.0\\.0\\.1:${port}/v1`));
  });

  it("I-98: the API key never appears in any ModelError message", async () => {
    const echoes: FakeTurn[] = [
      { httpError: { status: 401, body: { error: { message: `bad key ${SECRET_KEY}` } } } },
      { httpError: { status: 400, body: { error: { message: `Authorization: Bearer ${SECRET_KEY} rejected` } } } },
      { httpError: { status: 429, headers: { "retry-after": "3600" }, body: `x-api-key=${SECRET_KEY}` } },
      { httpError: { status: 500, body: { error: `api_key: "${SECRET_KEY}"` } } },
      { truncate: true },
      { malformed: true },
    ];
    const messages: string[] = [];
    for (const provider of ["openai-compatible", "anthropic"] as const) {
      for (const turn of echoes) {
        server.script(() => turn);
        const err = assertModelError(await failure(clientFor(server, provider)), (await kindOf(turn)) ?? "protocol", statusOf(turn));
        messages.push(err.message, String(err.stack));
      }
    }
    const port = await unusedPort();
    const refused = await failure(clientFor(server, "anthropic", { baseUrl: `http://127.0.0.1:${port}/v1?key=${SECRET_KEY}` }));
    messages.push((refused as Error).message);
    for (const m of messages) assert.ok(!m.includes("SECRET123"), `key leaked in: ${m}`);
  });
});

async function kindOf(turn: FakeTurn): Promise<ModelErrorKind | undefined> {
  if (!("httpError" in turn)) return undefined;
  const s = turn.httpError.status;
  return s === 401 ? "auth" : s === 429 ? "rate-limit" : s >= 500 ? "server" : "bad-request";
}

function statusOf(turn: FakeTurn): number | undefined {
  return "httpError" in turn ? turn.httpError.status : undefined;
}
