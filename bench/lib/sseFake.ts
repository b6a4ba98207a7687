// A minimal, fast OpenAI-compatible model server for the streaming benchmarks. It exists so that the
// bridge, not the fake, is what gets measured: frames are written in batches with back-pressure.
// Each text chunk is `t=<hrtime ns> ` (CLOCK_MONOTONIC, shared by every process on this machine), so
// the client can compute model-chunk → client latency. The chunk count comes from the last user
// message: `chunks=<n>`; without it the reply is a short "ok". `rate=<n>` paces the stream at n chunks/s
// (one chunk per tick) instead of full speed.
// Run as a child process (bench/lib/sseFakeMain.ts) so it does not share an event loop with the client.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const BATCH = 64;

function lastUserText(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown };
    if (m?.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      return m.content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("");
    }
  }
  return "";
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

async function stream(res: ServerResponse, model: string, chunks: number, rate: number, stats: { chunks: number }): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const head = `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":{"content":"`;
  const tail = `"},"finish_reason":null}]}\n\n`;
  res.write(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n`,
  );
  let sent = 0;
  const t0 = Date.now();
  while (sent < chunks && !res.destroyed) {
    if (rate > 0) {
      const due = t0 + (sent * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise<void>((r) => setTimeout(r, wait));
    }
    let out = "";
    const n = rate > 0 ? 1 : Math.min(BATCH, chunks - sent);
    const ts = process.hrtime.bigint();
    for (let i = 0; i < n; i++) out += `${head}t=${ts} ${tail}`;
    sent += n;
    stats.chunks += n;
    if (!res.write(out)) await new Promise<void>((r) => res.once("drain", r));
    else await new Promise<void>((r) => setImmediate(r));
  }
  res.write(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`,
  );
  res.write(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,"model":${JSON.stringify(model)},"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":${chunks},"total_tokens":${chunks + 10}}}\n\n`,
  );
  res.end("data: [DONE]\n\n");
}

export interface SseFake {
  port: number;
  stats: { requests: number; chunks: number };
  close(): Promise<void>;
}

export async function startSseFake(port = 0): Promise<SseFake> {
  const stats = { requests: 0, chunks: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = req.method === "POST" ? await readBody(req) : "";
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: [{ id: "bench", object: "model" }] }));
        return;
      }
      stats.requests++;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const model = typeof (body as { model?: unknown })?.model === "string" ? (body as { model: string }).model : "bench";
      const m = /chunks=(\d+)/.exec(lastUserText(body));
      const chunks = m ? Math.min(Number(m[1]), 1_000_000) : 0;
      const rate = Number(/rate=(\d+)/.exec(lastUserText(body))?.[1] ?? 0);
      if (chunks === 0) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}\n\n`,
        );
        res.write(
          `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n`,
        );
        res.end("data: [DONE]\n\n");
        return;
      }
      await stream(res, model, chunks, rate, stats);
    })().catch((e: unknown) => {
      console.error("[sse-fake]", e);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
