// Where the registry comes from: the network (the configured URL), a cache of its last good answer
// in global storage, or the snapshot bundled with the extension. Stale-while-revalidate: a cached
// list answers at once and a stale one is refreshed in the background for next time; with no cache
// the network is asked, and when it fails the snapshot answers.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { z } from "zod";
import { fetchText } from "./http";
import { parseRegistry, parseRegistryText, type ParsedRegistry } from "./schema";
import snapshot from "./snapshot.json";
import { errorMessage, ignoreError } from "../../base/errors";

/** The published registry (docs/rfds/acp-agent-registry.mdx). */
export const DEFAULT_REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json";

/**
 * What `snapshot.json` is: the agents of the registry repository (agentclientprotocol/registry) at
 * this commit, aggregated the way its build script does (icons as their published URLs). Versions
 * are those of that day: the snapshot only serves when the registry cannot be reached.
 */
export const SNAPSHOT_SOURCE = {
  repository: "agentclientprotocol/registry",
  commit: "3de1678346d1b37b6c3f07de503043ebcbb9cbdb",
  date: "2026-02-07",
} as const;

export type RegistryOrigin = "network" | "cache" | "snapshot";

export interface LoadedRegistry extends ParsedRegistry {
  origin: RegistryOrigin;
  /** When the network answered this list (absent for the snapshot). */
  fetchedAt?: string;
  /** Why the network was not used, when it was asked and failed. */
  networkError?: string;
}

const cacheSchema = z.object({ url: z.string(), fetchedAt: z.string(), text: z.string() });

export interface RegistrySourceOptions {
  url: string;
  /** The cache file (in global storage). */
  cacheFile: string;
  /** After this, a cached list is refreshed in the background. */
  maxAgeMs?: number;
  timeoutMs?: number;
  maxBytes?: number;
  now?: () => number;
}

export class RegistrySource {
  #revalidating: Promise<LoadedRegistry> | undefined;

  constructor(private readonly opts: RegistrySourceOptions) {}

  get url(): string {
    return this.opts.url;
  }

  /** The registry as best known now; never throws. */
  async load(): Promise<LoadedRegistry> {
    const cached = await this.#readCache();
    if (cached) {
      const age = (this.opts.now ?? Date.now)() - Date.parse(cached.fetchedAt ?? "");
      if (!(age < (this.opts.maxAgeMs ?? 3600_000)))
        void this.refresh().catch(ignoreError("the cached list is served meanwhile; the next load asks the network again"));
      return cached;
    }
    try {
      return await this.refresh();
    } catch (err) {
      return { ...parseRegistry(snapshot), origin: "snapshot", networkError: errorMessage(err) };
    }
  }

  /** Asks the network now (one request at a time) and caches a usable answer. */
  refresh(): Promise<LoadedRegistry> {
    this.#revalidating ??= this.#fetch().finally(() => (this.#revalidating = undefined));
    return this.#revalidating;
  }

  async #fetch(): Promise<LoadedRegistry> {
    const text = await fetchText(this.opts.url, {
      timeoutMs: this.opts.timeoutMs ?? 15_000,
      maxBytes: this.opts.maxBytes ?? 8 * 1024 * 1024,
    });
    const parsed = parseRegistryText(text);
    const fetchedAt = new Date((this.opts.now ?? Date.now)()).toISOString();
    await this.#writeCache(JSON.stringify({ url: this.opts.url, fetchedAt, text }));
    return { ...parsed, origin: "network", fetchedAt };
  }

  async #readCache(): Promise<LoadedRegistry | undefined> {
    try {
      const c = cacheSchema.safeParse(JSON.parse(await readFile(this.opts.cacheFile, "utf8")));
      // A cache of another URL (the setting changed) is not this registry.
      if (!c.success || c.data.url !== this.opts.url) return undefined;
      return { ...parseRegistryText(c.data.text), origin: "cache", fetchedAt: c.data.fetchedAt };
    } catch {
      return undefined;
    }
  }

  async #writeCache(body: string): Promise<void> {
    await mkdir(path.dirname(this.opts.cacheFile), { recursive: true });
    const tmp = `${this.opts.cacheFile}.${process.pid}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, this.opts.cacheFile);
  }
}
