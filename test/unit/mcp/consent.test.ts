// I-115: a folder MCP server's consent shows everything it grants (command, args, cwd, env names
// and values as written, headers, the envFile path and a hash of its content, the folder files it
// runs, what it can reach) and covers it: a change to any of it asks again. Also what the consent
// sends (I-114: the sandbox mark, network as chosen) and the paths the session protects (I-112).
import type { McpServer } from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeGrant, grantKey, sha256, type Consent, type ConsentQuestion } from "../../../extension/mcp/consent";
import { parseMcpJson } from "../../../extension/mcp/mcpJson";
import { collectSessionServers, type McpSources } from "../../../extension/mcp/sessionServers";

const FOLDER = "/w/a";
const HOST_KEY = "sk-host-secret-value";

function mcpJson(over: { env?: Record<string, string>; args?: string[]; headers?: Record<string, string> } = {}): string {
  return JSON.stringify({
    inputs: [{ type: "promptString", id: "token", description: "API token", password: true }],
    servers: {
      local: {
        command: "node",
        args: over.args ?? ["srv.js", "--config=${workspaceFolder}/conf.js", "--verbose"],
        env: over.env ?? { NODE_OPTIONS: "--require=./hook.cjs", TOKEN: "${input:token}" },
        envFile: "${workspaceFolder}/.env",
      },
      remote: { type: "http", url: "https://example.test/mcp", headers: over.headers ?? { Authorization: "Bearer ${env:OPENAI_API_KEY}" } },
    },
  });
}

interface World {
  files: Map<string, string>;
  config: string;
  user?: unknown;
  answers: Consent[];
}

function sources(w: World): McpSources & { asked: ConsentQuestion[]; reads: string[] } {
  const store = new Map<string, Consent>();
  const asked: ConsentQuestion[] = [];
  const reads: string[] = [];
  return {
    folder: FOLDER,
    folderName: "a",
    trusted: () => true,
    folderConfig: () => Promise.resolve(w.config),
    userConfig: () => w.user,
    consent: {
      get: (k) => store.get(k),
      set: (k, v) => void store.set(k, v),
      ask: (q) => (asked.push(q), Promise.resolve(w.answers.shift() ?? "deny")),
    },
    input: (_scope, def) => Promise.resolve(def.id === "token" ? "s3cret-input" : undefined),
    readEnvFile: (_scope, path) => {
      reads.push(path);
      const text = w.files.get(path);
      return text === undefined ? Promise.reject(new Error(`${path}: not found`)) : Promise.resolve(text);
    },
    fileDigest: (path) => {
      const text = path.startsWith(FOLDER + "/") ? w.files.get(path) : undefined;
      return Promise.resolve(text === undefined ? undefined : sha256(text));
    },
    env: { OPENAI_API_KEY: HOST_KEY, HOME: "/home/u" },
    userHome: "/home/u",
    asked,
    reads,
  };
}

function world(): World {
  return {
    files: new Map([
      [`${FOLDER}/.env`, "API_KEY=from-env-file\nDEBUG=1\n"],
      [`${FOLDER}/srv.js`, "console.log('server')"],
      [`${FOLDER}/conf.js`, "module.exports = {}"],
    ]),
    config: mcpJson(),
    answers: [],
  };
}

const caps = { http: true, sse: false, confine: true };
const stdioOf = (servers: McpServer[]) => servers.find((s) => s.name === "local") as McpServer & { _meta?: Record<string, unknown> };

describe("MCP consent shows and covers everything it grants (I-115)", () => {
  it("I-115: the question shows command, args, cwd and sandbox, every env name and value, every header, the envFile and its hash, the files it runs", async () => {
    const w = world();
    w.answers = ["allow", "allow"];
    const src = sources(w);
    await collectSessionServers(src, caps);
    const [local, remote] = src.asked;
    const text = local!.detail.join("\n");
    assert.match(text, /^Command: node$/m);
    assert.match(text, /^Arguments: "srv.js" "--config=\$\{workspaceFolder\}\/conf.js" "--verbose"$/m);
    assert.match(text, /Runs in: \/w\/a, inside the session's sandbox/);
    assert.match(text, /NODE_OPTIONS="--require=.\/hook.cjs"/);
    assert.match(text, /TOKEN="\$\{input:token\}"/, "a secret shows as its reference");
    assert.match(
      text,
      new RegExp(
        `Env file: \\$\\{workspaceFolder\\}/.env → /w/a/.env \\(sha256 ${sha256(w.files.get(`${FOLDER}/.env`)!).slice(0, 16)}; sets API_KEY, DEBUG\\)`,
      ),
    );
    assert.match(text, new RegExp(`srv.js \\(sha256 ${sha256("console.log('server')").slice(0, 16)}\\)`));
    assert.match(text, /conf.js \(sha256 /);
    assert.ok(local!.offerOffline, "a stdio server may be allowed without network");
    const remoteText = remote!.detail.join("\n");
    assert.match(remoteText, /Connects to: http https:\/\/example.test\/mcp/);
    assert.match(remoteText, /Authorization: Bearer \$\{env:OPENAI_API_KEY\}/);
    assert.equal(remote!.offerOffline, false);
    for (const q of src.asked) {
      const all = q.detail.join("\n");
      for (const secret of ["s3cret-input", HOST_KEY, "from-env-file"]) assert.ok(!all.includes(secret), `the question shows ${secret}`);
    }
  });

  it("I-115: a change to the env, a header, the envFile's content or a folder file the command runs asks again; nothing changed asks nothing", async () => {
    const w = world();
    w.answers = ["allow", "allow"];
    const src = sources(w);
    await collectSessionServers(src, caps);
    assert.equal(src.asked.length, 2);
    const askedAfter = async (change: () => void): Promise<string[]> => {
      change();
      const before = src.asked.length;
      w.answers = ["allow", "allow"];
      await collectSessionServers(src, caps);
      return src.asked.slice(before).map((q) => q.name);
    };
    assert.deepEqual(await askedAfter(() => undefined), []);
    assert.deepEqual(
      await askedAfter(() => (w.config = mcpJson({ env: { NODE_OPTIONS: "--require=./other.cjs", TOKEN: "${input:token}" } }))),
      ["local"],
    );
    assert.deepEqual(
      await askedAfter(
        () =>
          (w.config = mcpJson({
            env: { NODE_OPTIONS: "--require=./other.cjs", TOKEN: "${input:token}" },
            headers: { Authorization: "Bearer ${input:token}" },
          })),
      ),
      ["remote"],
    );
    assert.deepEqual(
      await askedAfter(() => w.files.set(`${FOLDER}/.env`, "API_KEY=from-env-file\nNODE_OPTIONS=--require=/w/a/hook.cjs\n")),
      ["local"],
    );
    assert.deepEqual(await askedAfter(() => w.files.set(`${FOLDER}/srv.js`, "require('child_process').exec('curl evil')")), ["local"]);
    assert.deepEqual(await askedAfter(() => w.files.set(`${FOLDER}/conf.js`, "module.exports = { evil: true }")), ["local"]);
    assert.deepEqual(await askedAfter(() => undefined), []);
  });

  it("I-114/I-115: the folder's stdio server is sent sandboxed, with network only when allowed so; the choice is remembered", async () => {
    const w = world();
    w.answers = ["allow-offline", "deny"];
    const src = sources(w);
    const first = await collectSessionServers(src, caps);
    assert.deepEqual(stdioOf(first.servers)._meta, { "manifold.dev/confine": { sandbox: true, network: false } });
    assert.equal(first.rows.find((r) => r.name === "remote")?.state, "declined");
    const again = await collectSessionServers(src, caps);
    assert.equal(src.asked.length, 2, "the answers were remembered");
    assert.deepEqual(stdioOf(again.servers)._meta, { "manifold.dev/confine": { sandbox: true, network: false } });

    const w2 = world();
    w2.answers = ["allow", "allow"];
    const withNet = await collectSessionServers(sources(w2), caps);
    assert.deepEqual(stdioOf(withNet.servers)._meta, { "manifold.dev/confine": { sandbox: true, network: true } });
    assert.equal(
      (withNet.servers.find((s) => s.name === "remote") as { _meta?: unknown })._meta,
      undefined,
      "an HTTP server runs nothing locally: no sandbox mark",
    );
  });

  it("I-115: the envFile is read once: what starts is what the consent hashed, even if it changes meanwhile", async () => {
    const w = world();
    w.answers = ["allow", "deny"];
    const src = sources(w);
    const read = src.readEnvFile;
    let n = 0;
    src.readEnvFile = (scope, path) => (n++ === 0 ? read(scope, path) : Promise.resolve("NODE_OPTIONS=--require=/w/a/hook.cjs\n"));
    const got = await collectSessionServers(src, caps);
    assert.equal(n, 1);
    const env = (stdioOf(got.servers) as { env: Array<{ name: string; value: string }> }).env;
    assert.ok(!env.some((e) => e.value.includes("/w/a/hook.cjs")), JSON.stringify(env));
    assert.ok(env.some((e) => e.name === "API_KEY"));
  });

  it("I-115: an envFile path that needs an input cannot be hashed before asking: the server is invalid, nothing is asked", async () => {
    const w = world();
    w.config = JSON.stringify({
      inputs: [{ type: "promptString", id: "where" }],
      servers: { local: { command: "node", args: [], envFile: "${input:where}/.env" } },
    });
    const src = sources(w);
    const got = await collectSessionServers(src, caps);
    assert.deepEqual(src.asked, []);
    assert.equal(got.rows.find((r) => r.name === "local")?.state, "invalid");
  });

  it("I-112/I-114: envFiles and the folder files configured servers run are sent as the session's protected paths", async () => {
    const w = world();
    w.files.set("/home/u/user.env", "X=1\n");
    w.files.set(`${FOLDER}/tools/user-srv.js`, "x");
    w.user = {
      servers: { mine: { command: "node", args: ["${workspaceFolder}/tools/user-srv.js", "relative.js"], envFile: "/home/u/user.env" } },
    };
    w.answers = ["allow", "allow"];
    const got = await collectSessionServers(sources(w), caps);
    assert.deepEqual(got.protectedPaths.sort(), [
      "/home/u/user.env",
      `${FOLDER}/.env`,
      `${FOLDER}/conf.js`,
      `${FOLDER}/srv.js`,
      `${FOLDER}/tools/user-srv.js`,
    ]);
  });

  it("I-115: the key and the description are pure functions of the definition and what was read", () => {
    const def = parseMcpJson(mcpJson(), "x").servers[0]!;
    const facts = {
      envFile: { path: "/w/a/.env", sha256: "ab".repeat(32), names: ["A"] },
      runs: [{ path: "/w/a/srv.js", sha256: "cd".repeat(32) }],
    };
    assert.equal(grantKey(FOLDER, def, facts), grantKey(FOLDER, def, { ...facts, runs: [...facts.runs] }));
    assert.notEqual(grantKey(FOLDER, def, facts), grantKey("/w/b", def, facts), "another folder's consent is not this one's");
    assert.notEqual(
      grantKey(FOLDER, def, facts),
      grantKey(FOLDER, def, { ...facts, envFile: { ...facts.envFile, sha256: "ef".repeat(32) } }),
    );
    assert.deepEqual(describeGrant(FOLDER, def, facts), describeGrant(FOLDER, def, facts));
  });
});
