// A local ACP registry on 127.0.0.1 for the install tests: registry.json, binary archives built here
// from a tiny ACP agent script, and a minimal npm registry (one packument, one tarball) that npm is
// pointed at with npm_config_registry. Nothing leaves the machine.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

/** An ACP agent in plain Node: answers `initialize` (its argv as the title) and nothing else. */
export const AGENT_SCRIPT = `#!/usr/bin/env node
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf("\\n")) >= 0) {
    const line = buf.slice(0, nl);
    buf = buf.slice(nl + 1);
    if (!line.trim()) continue;
    const msg = JSON.parse(line);
    if (msg.method === "initialize" && msg.id !== undefined) {
      const result = { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: "fixture-agent", title: process.argv.slice(2).join(" "), version: "1.0.0" } };
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\\n");
    } else if (msg.id !== undefined) {
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "method not found" } }) + "\\n");
    }
  }
});
process.stdin.on("end", () => process.exit(0));
`;

export const NPM_PACKAGE = "@manifold-test/fixture-agent";

export interface Fixture {
  base: string;
  /** Requests seen, by path. */
  requests: string[];
  /** Replaces what a path answers (status, body) — or `hang` to never answer. */
  routes: Map<string, { body: Buffer | string; type?: string } | "hang">;
  /** Fires with the path of each request that is left hanging. */
  onHang: (cb: (path: string, closed: Promise<void>) => void) => void;
  close(): Promise<void>;
}

function sha(alg: string, b: Buffer, enc: "hex" | "base64"): string {
  return createHash(alg).update(b).digest(enc);
}

/** A `.tar.gz` holding `bin/fixture-agent` (mode 0644: the installer must make it executable). */
export function buildBinaryArchive(work: string): Buffer {
  const dir = join(work, "bin-src");
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "bin", "fixture-agent"), AGENT_SCRIPT);
  chmodSync(join(dir, "bin", "fixture-agent"), 0o644);
  const out = join(work, "fixture-agent.tar.gz");
  execFileSync("tar", ["-czf", out, "-C", dir, "bin"]);
  return readFileSync(out);
}

/** The same agent as a `.zip` (the system's `zip`), mode 0644 too. */
export function buildZipArchive(work: string): Buffer {
  buildBinaryArchive(work);
  const out = join(work, "fixture-agent.zip");
  execFileSync("zip", ["-q", "-r", out, "bin"], { cwd: join(work, "bin-src") });
  return readFileSync(out);
}

/** A stand-in for uv's `uvx` on PATH: the agent itself, so its title shows the command line uvx got. */
export function fakeUvx(work: string): string {
  const dir = join(work, "fake-uv");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "uvx"), AGENT_SCRIPT);
  chmodSync(join(dir, "uvx"), 0o755);
  return dir;
}

/** A `.tar.gz` whose one entry is `../escaped` (built with GNU tar's -P). */
export function buildEscapingArchive(work: string): Buffer {
  const dir = join(work, "evil-src");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "escaped"), "outside\n");
  const out = join(work, "evil.tar.gz");
  execFileSync("tar", ["-P", "--transform", "s,^,../,", "-czf", out, "-C", dir, "escaped"]);
  return readFileSync(out);
}

/** An npm package tarball (`package/…`) with the agent as its bin. */
export function buildNpmTarball(work: string): Buffer {
  const dir = join(work, "npm-src");
  mkdirSync(join(dir, "package"), { recursive: true });
  writeFileSync(
    join(dir, "package", "package.json"),
    JSON.stringify({ name: NPM_PACKAGE, version: "1.0.0", bin: { "fixture-agent": "agent.js" } }),
  );
  writeFileSync(join(dir, "package", "agent.js"), AGENT_SCRIPT);
  const out = join(work, "fixture-agent-1.0.0.tgz");
  execFileSync("tar", ["-czf", out, "-C", dir, "package"]);
  return readFileSync(out);
}

/**
 * An npm package tarball whose `preinstall` writes `marker` (I-117): what a registry entry whose
 * package is a URL made npm fetch and run on the host before any check.
 */
export function buildPreinstallTarball(work: string, marker: string): Buffer {
  const dir = join(work, "preinstall-src");
  mkdirSync(join(dir, "package"), { recursive: true });
  const script = `require("fs").writeFileSync(${JSON.stringify(marker)}, "preinstall ran")`;
  writeFileSync(
    join(dir, "package", "package.json"),
    JSON.stringify({ name: "evil-preinstall", version: "1.0.0", scripts: { preinstall: `node -e '${script}'` } }),
  );
  const out = join(work, "evil-preinstall-1.0.0.tgz");
  execFileSync("tar", ["-czf", out, "-C", dir, "package"]);
  return readFileSync(out);
}

/** A stand-in `npm` on PATH that appends its arguments to `record` (and fails): whether the installer started npm. */
export function recordingNpm(work: string, record: string): string {
  const dir = join(work, "recording-npm");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "npm"), `#!/bin/sh\necho "$*" >> ${JSON.stringify(record)}\nexit 1\n`);
  chmodSync(join(dir, "npm"), 0o755);
  return dir;
}

export async function startFixture(work: string, registry: (base: string, files: { binary: Buffer }) => unknown): Promise<Fixture> {
  const routes: Fixture["routes"] = new Map();
  const requests: string[] = [];
  const hangListeners: Array<(path: string, closed: Promise<void>) => void> = [];
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? "/").replace(/\?.*$/, "");
    requests.push(path);
    const route = routes.get(path);
    if (route === "hang") {
      const closed = new Promise<void>((r) => res.on("close", () => r()));
      for (const l of hangListeners) l(path, closed);
      return;
    }
    if (!route) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": route.type ?? "application/octet-stream" }).end(route.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const binary = buildBinaryArchive(work);
  const tarball = buildNpmTarball(work);
  routes.set("/fixture-agent.tar.gz", { body: binary });
  routes.set("/evil.tar.gz", { body: buildEscapingArchive(work) });
  routes.set("/fixture-agent.zip", { body: buildZipArchive(work) });
  routes.set("/tarballs/fixture-agent-1.0.0.tgz", { body: tarball });
  routes.set(`/${NPM_PACKAGE}`, {
    type: "application/json",
    body: JSON.stringify({
      name: NPM_PACKAGE,
      "dist-tags": { latest: "1.0.0" },
      versions: {
        "1.0.0": {
          name: NPM_PACKAGE,
          version: "1.0.0",
          bin: { "fixture-agent": "agent.js" },
          dist: {
            tarball: `${base}/tarballs/fixture-agent-1.0.0.tgz`,
            shasum: sha("sha1", tarball, "hex"),
            integrity: `sha512-${sha("sha512", tarball, "base64")}`,
          },
        },
      },
    }),
  });
  routes.set("/registry.json", { type: "application/json", body: JSON.stringify(registry(base, { binary })) });
  return {
    base,
    requests,
    routes,
    onHang: (cb) => void hangListeners.push(cb),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function sha256(b: Buffer): string {
  return sha("sha256", b, "hex");
}
