// A fake Gemini API for gemini-cli: real `node:http` on 127.0.0.1, no network. gemini-cli reaches it
// through `GOOGLE_GEMINI_BASE_URL`. `…:streamGenerateContent?alt=sse` answers with the reply the
// script returns for the request (SSE frames of `GenerateContentResponse`); `…:generateContent` (its
// side calls: next-speaker and loop checks) answers a short JSON "no"; `…:countTokens` a count.
// The script may answer "hang": headers, then nothing until gemini-cli aborts the request (a cancel).
// Every request is recorded; anything else is a 404 that names itself, so a new call shows up.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiRequest {
  path: string;
  body: unknown;
  /** The role/part kinds of the last content: "user:text", "user:functionResponse", … */
  lastPartKind: string;
  /** The text of the last user content that has text (the prompt, across tool steps). */
  lastUserText: string;
}

export type GeminiReply = GeminiPart[] | "hang";

export interface FakeGemini {
  /** e.g. `http://127.0.0.1:PORT` (gemini-cli appends `/v1beta/models/…`). */
  readonly url: string;
  readonly requests: GeminiRequest[];
  /** Resolves once a "hang" reply has started (the agent is waiting on the model). */
  nextHang(): Promise<void>;
  close(): Promise<void>;
}

function lastPartKind(body: unknown): string {
  const contents = (body as { contents?: { role?: string; parts?: Record<string, unknown>[] }[] } | null)?.contents ?? [];
  const last = contents.at(-1);
  const part = last?.parts?.at(-1) ?? {};
  return `${last?.role ?? "?"}:${Object.keys(part).find((k) => k !== "thoughtSignature") ?? "?"}`;
}

function lastUserText(body: unknown): string {
  const contents = (body as { contents?: { role?: string; parts?: { text?: unknown }[] }[] } | null)?.contents ?? [];
  for (const c of [...contents].reverse()) {
    if (c.role !== "user") continue;
    const text = (c.parts ?? []).flatMap((p) => (typeof p.text === "string" ? [p.text] : [])).join("");
    if (text) return text;
  }
  return "";
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

function frame(parts: GeminiPart[], finish: boolean): string {
  const candidate = { content: { role: "model", parts }, index: 0, ...(finish ? { finishReason: "STOP" } : {}) };
  return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata: usage, modelVersion: "gemini-2.5-flash" })}\r\n\r\n`;
}

/** `script` returns the parts of the reply: text parts stream one frame each, the last frame finishes. */
export async function startFakeGemini(script: (req: GeminiRequest) => GeminiReply): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
  const hangWaiters: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const path = req.url ?? "";
      const recorded: GeminiRequest = { path, body, lastPartKind: lastPartKind(body), lastUserText: lastUserText(body) };
      requests.push(recorded);
      if (path.includes(":streamGenerateContent")) {
        const parts = script(recorded);
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (parts === "hang") {
          res.flushHeaders();
          hangWaiters.splice(0).forEach((w) => w());
          return;
        }
        parts.forEach((p, i) => res.write(frame([p], i === parts.length - 1)));
        if (parts.length === 0) res.write(frame([{ text: "" }], true));
        res.end();
      } else if (path.includes(":generateContent")) {
        res.writeHead(200, { "content-type": "application/json" });
        const text = JSON.stringify({ reasoning: "the model answered", next_speaker: "user" });
        res.end(
          JSON.stringify({
            candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
            usageMetadata: usage,
          }),
        );
      } else if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 10 }));
      } else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `fake Gemini: nothing at ${req.method} ${path}`, status: "NOT_FOUND" } }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    nextHang: () => new Promise<void>((resolve) => hangWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
