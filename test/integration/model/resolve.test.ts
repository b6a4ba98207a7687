// The environment contract → models offered and the default.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { DEMO_MODEL_CONFIG, resolveModels } from "../../../agent-server/model/index";
import { ModelConfigError, type ModelConfig } from "../../../agent-server/model/types";
import { startFakeModelServer, type FakeModelServer } from "../../support/fakeModelServer";

const HERMETIC = { MANIFOLD_DETECT_LOCAL_MODELS: "0" };
const TIMING = { timeoutMs: 120_000, retryBaseMs: 1_000 };

describe("resolveModels", () => {
  let server: FakeModelServer;
  before(async () => {
    server = await startFakeModelServer();
  });
  after(() => server.close());

  it("nothing configured and detection off: the demo model only, and it is the default", async () => {
    const r = await resolveModels({ ...HERMETIC });
    assert.deepEqual(r, { models: [DEMO_MODEL_CONFIG], defaultId: "demo" });
    assert.equal(r.models[0]?.label, "Demo model (offline)");
  });

  it("openai-compatible configured: it is the default, the demo model is offered last", async () => {
    const r = await resolveModels({
      ...HERMETIC,
      MANIFOLD_MODEL_PROVIDER: "openai-compatible",
      MANIFOLD_MODEL_BASE_URL: "http://127.0.0.1:11434/v1/",
      MANIFOLD_MODEL: "llama3.1:8b, qwen2.5-coder:7b",
      OPENAI_API_KEY: "sk-test-SECRET123",
    });
    const expected: ModelConfig[] = [
      {
        id: "openai-compatible:llama3.1:8b",
        provider: "openai-compatible",
        model: "llama3.1:8b",
        baseUrl: "http://127.0.0.1:11434/v1",
        apiKey: "sk-test-SECRET123",
        label: "llama3.1:8b (OpenAI-compatible)",
        vision: false,
        contextWindow: 131_072,
        ...TIMING,
      },
      {
        id: "openai-compatible:qwen2.5-coder:7b",
        provider: "openai-compatible",
        model: "qwen2.5-coder:7b",
        baseUrl: "http://127.0.0.1:11434/v1",
        apiKey: "sk-test-SECRET123",
        label: "qwen2.5-coder:7b (OpenAI-compatible)",
        vision: false,
        contextWindow: 32_768,
        ...TIMING,
      },
      DEMO_MODEL_CONFIG,
    ];
    assert.deepEqual(r, { models: expected, defaultId: "openai-compatible:llama3.1:8b" });
  });

  it("only ANTHROPIC_API_KEY set: anthropic with its default model is the default, never the demo", async () => {
    const r = await resolveModels({
      ...HERMETIC,
      ANTHROPIC_API_KEY: "sk-ant-x",
      MANIFOLD_MODEL_TIMEOUT_MS: "5000",
      MANIFOLD_MODEL_RETRY_BASE_MS: "10",
    });
    assert.equal(r.defaultId, "anthropic:claude-sonnet-4-5");
    assert.deepEqual(r.models[0], {
      id: "anthropic:claude-sonnet-4-5",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      apiKey: "sk-ant-x",
      label: "claude-sonnet-4-5 (Anthropic)",
      vision: true,
      contextWindow: 200_000,
      timeoutMs: 5000,
      retryBaseMs: 10,
    });
    assert.deepEqual(
      r.models.map((m) => m.id),
      ["anthropic:claude-sonnet-4-5", "demo"],
    );
  });

  it("a base URL alone configures openai-compatible without a key", async () => {
    const r = await resolveModels({ ...HERMETIC, MANIFOLD_MODEL_BASE_URL: server.url, MANIFOLD_MODEL: "fake-model" });
    assert.deepEqual(
      r.models.map((m) => [m.id, m.baseUrl, m.apiKey]),
      [
        ["openai-compatible:fake-model", server.url, undefined],
        ["demo", undefined, undefined],
      ],
    );
  });

  it("the fake server's agentEnv() resolves to a real model pointing at it, demo last", async () => {
    const r = await resolveModels(server.agentEnv("anthropic", "claude-fake"));
    assert.deepEqual(
      r.models.map((m) => [m.id, m.provider, m.baseUrl, m.retryBaseMs]),
      [
        ["anthropic:claude-fake", "anthropic", server.url, 1],
        ["demo", "demo", undefined, undefined],
      ],
    );
    assert.equal(r.defaultId, "anthropic:claude-fake");
  });

  it("MANIFOLD_MODEL_PROVIDER=demo picks the demo model even with keys set", async () => {
    const r = await resolveModels({ ...HERMETIC, MANIFOLD_MODEL_PROVIDER: "demo", OPENAI_API_KEY: "sk-x" });
    assert.deepEqual(r, { models: [DEMO_MODEL_CONFIG], defaultId: "demo" });
  });

  it("an unknown provider is a ModelConfigError naming the valid ones", async () => {
    await assert.rejects(resolveModels({ ...HERMETIC, MANIFOLD_MODEL_PROVIDER: "gemini" }), (err: unknown) => {
      assert.ok(err instanceof ModelConfigError);
      assert.match(err.message, /Unknown model provider "gemini".*openai-compatible, anthropic, demo/);
      return true;
    });
  });

  for (const [url, pattern] of [
    ["not a url", /not a valid URL/],
    ["ftp://host/v1", /must be an http\(s\) URL/],
    ["http://user:sk-test-SECRET123@host/v1", /must not contain credentials/],
  ] as const) {
    it(`a bad base URL (${url.slice(0, 12)}…) is a ModelConfigError at resolve time`, async () => {
      await assert.rejects(
        resolveModels({ ...HERMETIC, MANIFOLD_MODEL_PROVIDER: "openai-compatible", MANIFOLD_MODEL_BASE_URL: url, MANIFOLD_MODEL: "m" }),
        (err: unknown) => {
          assert.ok(err instanceof ModelConfigError);
          assert.match(err.message, pattern);
          assert.ok(!err.message.includes("SECRET123"));
          return true;
        },
      );
    });
  }

  it("a custom base URL without MANIFOLD_MODEL is a ModelConfigError asking for the model name", async () => {
    await assert.rejects(resolveModels({ ...HERMETIC, MANIFOLD_MODEL_BASE_URL: "http://127.0.0.1:8000/v1" }), (err: unknown) => {
      assert.ok(err instanceof ModelConfigError);
      assert.match(err.message, /MANIFOLD_MODEL is not set.*http:\/\/127\.0\.0\.1:8000\/v1/);
      return true;
    });
  });

  it("only OPENAI_API_KEY set: OpenAI's endpoint with the default model", async () => {
    const r = await resolveModels({ ...HERMETIC, OPENAI_API_KEY: "sk-x" });
    assert.deepEqual(
      r.models.map((m) => [m.id, m.baseUrl]),
      [
        ["openai-compatible:gpt-4o-mini", "https://api.openai.com/v1"],
        ["demo", undefined],
      ],
    );
  });

  it("a bad MANIFOLD_MODEL_TIMEOUT_MS is a ModelConfigError", async () => {
    await assert.rejects(resolveModels({ ...HERMETIC, MANIFOLD_MODEL_TIMEOUT_MS: "soon" }), ModelConfigError);
  });

  it("nothing configured: a local server that answers is offered and is the default, demo last", async () => {
    server.models = ["llama3.2:3b", "qwen2.5-coder:1.5b"];
    const closed = await closedPort();
    const r = await resolveModels(
      {},
      {
        localServers: [
          { id: "ollama", name: "Ollama", baseUrl: server.url },
          { id: "lmstudio", name: "LM Studio", baseUrl: `http://127.0.0.1:${closed}/v1` },
        ],
        detectTimeoutMs: 5_000, // a loaded CI machine must not turn this into a flake
      },
    );
    assert.deepEqual(
      r.models.map((m) => [m.id, m.label, m.baseUrl]),
      [
        ["ollama:llama3.2:3b", "llama3.2:3b (Ollama)", server.url],
        ["ollama:qwen2.5-coder:1.5b", "qwen2.5-coder:1.5b (Ollama)", server.url],
        ["demo", "Demo model (offline)", undefined],
      ],
    );
    assert.equal(r.defaultId, "ollama:llama3.2:3b");
    const picked = await resolveModels(
      { MANIFOLD_MODEL: "qwen2.5-coder:1.5b" },
      { localServers: [{ id: "ollama", name: "Ollama", baseUrl: server.url }], detectTimeoutMs: 5_000 },
    );
    assert.deepEqual(
      picked.models.map((m) => m.id),
      ["ollama:qwen2.5-coder:1.5b", "ollama:llama3.2:3b", "demo"],
    );
    assert.equal(picked.defaultId, "ollama:qwen2.5-coder:1.5b");
  });

  it("MANIFOLD_DETECT_LOCAL_MODELS=0 skips probing even when a local server answers", async () => {
    const before = server.requests.length;
    const r = await resolveModels({ ...HERMETIC }, { localServers: [{ id: "ollama", name: "Ollama", baseUrl: server.url }] });
    assert.equal(r.defaultId, "demo");
    assert.equal(server.requests.length, before);
  });
  it("vision: known vision models by name, MANIFOLD_MODEL_VISION decides for every configured model, a bad value is refused", async () => {
    const env = { ...HERMETIC, MANIFOLD_MODEL_PROVIDER: "openai-compatible", MANIFOLD_MODEL: "gpt-4o-mini,llama3.1:8b,llava:13b,o3-mini" };
    const byName = await resolveModels(env);
    assert.deepEqual(
      byName.models.map((m) => [m.id, m.vision]),
      [
        ["openai-compatible:gpt-4o-mini", true],
        ["openai-compatible:llama3.1:8b", false],
        ["openai-compatible:llava:13b", true],
        ["openai-compatible:o3-mini", false],
        ["demo", false],
      ],
    );
    const forced = await resolveModels({ ...env, MANIFOLD_MODEL_VISION: "1" });
    assert.deepEqual(
      forced.models.map((m) => m.vision),
      [true, true, true, true, false],
    ); // the demo model never sees images
    const off = await resolveModels({ ...HERMETIC, ANTHROPIC_API_KEY: "sk-ant-x", MANIFOLD_MODEL_VISION: "0" });
    assert.equal(off.models[0]?.vision, false);
    await assert.rejects(
      resolveModels({ ...env, MANIFOLD_MODEL_VISION: "maybe" }),
      (e: unknown) => e instanceof ModelConfigError && /MANIFOLD_MODEL_VISION/.test(e.message),
    );
  });
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
