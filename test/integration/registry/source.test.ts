// The registry list's cache (extension/registry/source.ts): a cached list answers at once, a stale
// one is refreshed in the background for the next time, a cache of another URL is not used, and an
// answer that is not a registry never replaces a good cache.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fetchText } from "../../../extension/registry/http";
import { RegistrySource } from "../../../extension/registry/source";

let body = "";
let server: http.Server;
let url = "";
let work = "";

const registry = (version: string) =>
  JSON.stringify({
    version: "1.0.0",
    agents: [{ id: "a", name: "A", version, description: "", distribution: { npx: { package: `a@${version}` } } }],
  });

before(async () => {
  work = mkdtempSync(join(tmpdir(), "manifold-registry-source-"));
  server = http.createServer((req, res) => {
    if (req.url === "/moved") return void res.writeHead(302, { location: "/registry.json" }).end();
    if (req.url === "/downgrade") return void res.writeHead(302, { location: "http://example.com/registry.json" }).end();
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/registry.json`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(work, { recursive: true, force: true });
});

test("stale-while-revalidate: the cached list answers, the background refresh serves the next load; garbage never replaces it", async () => {
  const cacheFile = join(work, "cache.json");
  body = registry("1.0.0");
  assert.equal((await new RegistrySource({ url, cacheFile }).load()).origin, "network");

  body = registry("2.0.0");
  const fresh = new RegistrySource({ url, cacheFile, maxAgeMs: 3600_000 });
  const cached = await fresh.load();
  assert.deepEqual([cached.origin, cached.registry.agents[0]?.version], ["cache", "1.0.0"]);

  const stale = new RegistrySource({ url, cacheFile, maxAgeMs: 0 });
  const first = await stale.load();
  assert.deepEqual([first.origin, first.registry.agents[0]?.version], ["cache", "1.0.0"]);
  await stale.refresh();
  assert.equal((await new RegistrySource({ url, cacheFile }).load()).registry.agents[0]?.version, "2.0.0");

  body = "<html>maintenance</html>";
  await assert.rejects(stale.refresh(), /not JSON/);
  assert.equal((await new RegistrySource({ url, cacheFile }).load()).registry.agents[0]?.version, "2.0.0");

  // Another URL's cache is not this registry: with the network down, the bundled snapshot answers.
  const other = await new RegistrySource({ url: "http://127.0.0.1:1/registry.json", cacheFile }).load();
  assert.equal(other.origin, "snapshot");
});

test("a registry over the size cap is refused", async () => {
  body = registry("1.0.0");
  await assert.rejects(
    new RegistrySource({ url, cacheFile: join(work, "small.json"), maxBytes: 10 }).refresh(),
    /over the limit of 10 bytes/,
  );
});

test("a redirect is followed only to a URL the registry may be read from (https, or http to loopback)", async () => {
  body = registry("1.0.0");
  const base = url.replace("/registry.json", "");
  assert.equal(await fetchText(`${base}/moved`, { timeoutMs: 10_000, maxBytes: 1e6 }), body);
  await assert.rejects(
    fetchText(`${base}/downgrade`, { timeoutMs: 10_000, maxBytes: 1e6 }),
    /refusing http:\/\/example\.com: only https URLs are allowed/,
  );
});
