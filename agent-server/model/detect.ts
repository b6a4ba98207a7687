// Finds local OpenAI-compatible model servers (Ollama, LM Studio) by asking `GET {baseUrl}/models`
// with a short timeout. Used only when no model is configured.
import * as z from "zod/v4";

export interface LocalServer {
  /** Id prefix for its models, e.g. "ollama". */
  id: string;
  /** Shown in labels, e.g. "Ollama". */
  name: string;
  baseUrl: string;
}

export const DEFAULT_LOCAL_SERVERS: readonly LocalServer[] = [
  { id: "ollama", name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1" },
  { id: "lmstudio", name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1" },
];

export const DETECT_TIMEOUT_MS = 300;
const MAX_BODY = 1_000_000;

const modelsResponse = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

export interface DetectedServer {
  server: LocalServer;
  models: string[];
}

/** GET a small JSON document with node:http (cheaper than fetch/undici; loaded on the first probe, not at start-up). */
async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const { get: httpGet } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { timeout: timeoutMs, headers: { accept: "application/json" } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`HTTP ${res.statusCode}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY) req.destroy(new Error("too large"));
        else chunks.push(c);
      });
      res.on("end", () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch (err) {
          reject(err);
        }
      });
      res.on("error", reject);
    });
    const timer = setTimeout(() => req.destroy(new Error("timeout")), timeoutMs);
    req.on("close", () => clearTimeout(timer));
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
  });
}

async function probe(server: LocalServer, timeoutMs: number): Promise<DetectedServer | undefined> {
  try {
    const parsed = modelsResponse.safeParse(await getJson(`${server.baseUrl.replace(/\/+$/, "")}/models`, timeoutMs));
    if (!parsed.success || parsed.data.data.length === 0) return undefined;
    return { server, models: parsed.data.data.map((m) => m.id) };
  } catch {
    return undefined; // not running, not answering in time, or not a model server
  }
}

/** Probes every server in parallel; returns those that answered with at least one model, in order. */
export async function detectLocalServers(servers: readonly LocalServer[], timeoutMs = DETECT_TIMEOUT_MS): Promise<DetectedServer[]> {
  const found = await Promise.all(servers.map((s) => probe(s, timeoutMs)));
  return found.filter((d): d is DetectedServer => d !== undefined);
}
