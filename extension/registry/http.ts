// The registry's network access: HTTPS only (plain HTTP to this machine's loopback, for local
// fixtures), every redirect checked, a time limit and a size cap on everything read.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { errorMessage, ignoreError } from "../../base/errors";

export class DownloadError extends Error {
  override name = "DownloadError";
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);
const MAX_REDIRECTS = 5;

/** Throws unless `url` is https, or http to the loopback interface. */
export function checkDownloadUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new DownloadError(`not a URL: ${url}`);
  }
  if (u.protocol === "https:") return u;
  if (u.protocol === "http:" && LOOPBACK.has(u.hostname)) return u;
  throw new DownloadError(`refusing ${u.protocol}//${u.host}: only https URLs are allowed`);
}

export interface GetOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/** GET with each redirect hop checked; the body is left to the caller. */
async function get(url: string, opts: GetOptions, signal: AbortSignal): Promise<Response> {
  let current = checkDownloadUrl(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await fetch(current, { redirect: "manual", signal });
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      current = checkDownloadUrl(new URL(location, current).toString());
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new DownloadError(`${current.toString()} answered ${res.status} ${res.statusText}`);
    }
    const length = Number(res.headers.get("content-length") ?? "0");
    if (length > opts.maxBytes) {
      await res.body?.cancel();
      throw new DownloadError(`${current.toString()} is ${length} bytes, over the limit of ${opts.maxBytes}`);
    }
    return res;
  }
  throw new DownloadError(`${url}: too many redirects`);
}

function limits(opts: GetOptions): AbortSignal {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  return opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
}

/** Says what stopped a request: the caller's cancel, the time limit, or the network's own error. */
function explain(url: string, err: unknown, opts: GetOptions): Error {
  if (err instanceof DownloadError) return err;
  if (opts.signal?.aborted) return new DownloadError("cancelled");
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return new DownloadError(`${url}: no complete answer within ${Math.round(opts.timeoutMs / 1000)} s`);
  }
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return new DownloadError(`${url}: ${errorMessage(err)}${cause}`);
}

async function eachChunk(res: Response, url: string, opts: GetOptions, onChunk: (b: Uint8Array) => void | Promise<void>): Promise<number> {
  let total = 0;
  if (!res.body) return 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value: bytes } = await reader.read();
      if (done) return total;
      total += bytes.byteLength;
      if (total > opts.maxBytes) throw new DownloadError(`${url} is over the limit of ${opts.maxBytes} bytes`);
      await onChunk(bytes);
    }
  } catch (err) {
    await reader.cancel().catch(ignoreError("the download failed already: that failure is what the caller hears"));
    throw err;
  }
}

/** The body as text. */
export async function fetchText(url: string, opts: GetOptions): Promise<string> {
  const signal = limits(opts);
  try {
    const res = await get(url, opts, signal);
    const parts: Uint8Array[] = [];
    await eachChunk(res, url, opts, (b) => void parts.push(b));
    return Buffer.concat(parts).toString("utf8");
  } catch (err) {
    throw explain(url, err, opts);
  }
}

/** Streams the body into `file`; returns its SHA-256 (hex) and size. `onBytes` hears the running total. */
export async function downloadFile(
  url: string,
  file: string,
  opts: GetOptions & { onBytes?: (received: number, total: number | undefined) => void },
): Promise<{ sha256: string; bytes: number }> {
  const signal = limits(opts);
  const hash = createHash("sha256");
  const out = createWriteStream(file, { flags: "wx", mode: 0o600 });
  try {
    const res = await get(url, opts, signal);
    const total = Number(res.headers.get("content-length") ?? "") || undefined;
    let received = 0;
    const bytes = await eachChunk(res, url, opts, async (b) => {
      hash.update(b);
      received += b.byteLength;
      opts.onBytes?.(received, total);
      if (!out.write(b)) await once(out, "drain");
    });
    out.end();
    await once(out, "finish");
    return { sha256: hash.digest("hex"), bytes };
  } catch (err) {
    out.destroy();
    throw explain(url, err, opts);
  }
}
