// Whether a model sees images, asked of its endpoint (fake fetch: no sockets), with
// the setting first, the name list as the fallback, and a 400 naming images remembered as text-only.
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { textOnlyOnRefusal } from "../../../agent-server/model/index";
import { ModelError, type ChatMessage, type ModelClient, type ModelConfig, type ModelEvent } from "../../../agent-server/model/types";
import {
  clearVisionCache,
  decideVision,
  endpointKinds,
  isImageRefusal,
  visionSummary,
  withoutImages,
} from "../../../agent-server/model/visionProbe";
import { unseenImagesNotice } from "../../../agent-server/runtime/history";

interface Call {
  url: string;
  method: string;
  body?: string;
  headers: Record<string, string>;
}

/** A fetch answering by URL: a JSON value (200), a status number, "hang" (until aborted) or "throw". */
function fakeFetch(routes: Record<string, unknown>, calls: Call[] = []): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({
      url,
      method: init.method ?? "GET",
      headers: (init.headers ?? {}) as Record<string, string>,
      ...(typeof init.body === "string" ? { body: init.body } : {}),
    });
    const route = routes[url];
    if (route === undefined) return new Response("{}", { status: 404 });
    if (route === "throw") throw new TypeError("fetch failed");
    if (route === "hang")
      return new Promise<Response>((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    if (typeof route === "number") return new Response("", { status: route });
    return new Response(typeof route === "string" ? route : JSON.stringify(route), { status: 200 });
  }) as typeof fetch;
}

const OLLAMA = "http://127.0.0.1:11434/v1";
const LMSTUDIO = "http://127.0.0.1:1234/v1";
const OPENROUTER = "https://openrouter.ai/api/v1";

describe("vision probe", () => {
  beforeEach(() => clearVisionCache());

  it("which endpoint is asked: default ports, openrouter.ai, any other loopback server both local kinds, a detection hint; nothing for Anthropic or other hosts", () => {
    assert.deepEqual(endpointKinds("openai-compatible", OLLAMA), ["ollama"]);
    assert.deepEqual(endpointKinds("openai-compatible", LMSTUDIO), ["lmstudio"]);
    assert.deepEqual(endpointKinds("openai-compatible", OPENROUTER), ["openrouter"]);
    assert.deepEqual(endpointKinds("openai-compatible", "http://localhost:9999/v1"), ["ollama", "lmstudio"]);
    assert.deepEqual(endpointKinds("openai-compatible", "http://127.0.0.1:9999/v1", "lmstudio"), ["lmstudio"]);
    assert.deepEqual(endpointKinds("openai-compatible", "https://api.openai.com/v1"), []);
    assert.deepEqual(endpointKinds("anthropic", "http://127.0.0.1:11434/v1"), []);
    assert.deepEqual(endpointKinds("openai-compatible", undefined), []);
  });

  it("Ollama: POST {origin}/api/show with the model; capabilities including vision decide, whatever the name says", async () => {
    const calls: Call[] = [];
    const fetch = fakeFetch({ "http://127.0.0.1:11434/api/show": { capabilities: ["completion", "vision"] } }, calls);
    assert.deepEqual(await decideVision({ provider: "openai-compatible", baseUrl: OLLAMA, model: "my-custom:7b", fetch }), {
      vision: true,
      source: "endpoint:ollama",
    });
    assert.equal(calls[0]?.method, "POST");
    assert.deepEqual(JSON.parse(calls[0]?.body ?? "null"), { model: "my-custom:7b" });
    const blind = fakeFetch({ "http://127.0.0.1:11434/api/show": { capabilities: ["completion", "tools"] } });
    assert.deepEqual(await decideVision({ provider: "openai-compatible", baseUrl: OLLAMA, model: "llava:13b", fetch: blind }), {
      vision: false,
      source: "endpoint:ollama",
    });
  });

  it("LM Studio: GET {origin}/api/v0/models/{name}; type vlm sees images, llm does not", async () => {
    const fetch = fakeFetch({
      "http://127.0.0.1:1234/api/v0/models/qwen2-vl-7b": { id: "qwen2-vl-7b", type: "vlm" },
      "http://127.0.0.1:1234/api/v0/models/org/coder-7b": { id: "org/coder-7b", type: "llm" },
    });
    assert.deepEqual(await decideVision({ provider: "openai-compatible", baseUrl: LMSTUDIO, model: "qwen2-vl-7b", fetch }), {
      vision: true,
      source: "endpoint:lmstudio",
    });
    assert.deepEqual(await decideVision({ provider: "openai-compatible", baseUrl: LMSTUDIO, model: "org/coder-7b", fetch }), {
      vision: false,
      source: "endpoint:lmstudio",
    });
  });

  it("OpenRouter: GET {base}/models; the model's input_modalities decide; other entries may be malformed; the key goes along", async () => {
    const calls: Call[] = [];
    const fetch = fakeFetch(
      {
        [`${OPENROUTER}/models`]: {
          data: [
            { id: "broken" },
            { id: "acme/seer", architecture: { input_modalities: ["text", "image"] } },
            { id: "acme/reader", architecture: { input_modalities: ["text"] } },
          ],
        },
      },
      calls,
    );
    const base = { provider: "openai-compatible" as const, baseUrl: OPENROUTER, apiKey: "sk-or-x", fetch };
    assert.deepEqual(await decideVision({ ...base, model: "acme/seer" }), { vision: true, source: "endpoint:openrouter" });
    assert.deepEqual(await decideVision({ ...base, model: "acme/reader" }), { vision: false, source: "endpoint:openrouter" });
    // gpt-4o by name, but not in the list: the name list decides.
    assert.deepEqual(await decideVision({ ...base, model: "openai/gpt-4o" }), { vision: true, source: "name list" });
    assert.equal(calls[0]?.headers.authorization, "Bearer sk-or-x");
  });

  it("a malformed answer, an error status, a refused connection: the name list", async () => {
    const cases: unknown[] = [{ capabilities: "vision" }, { nothing: true }, "not json", 500, "throw"];
    for (const answer of cases) {
      clearVisionCache();
      const fetch = fakeFetch({ "http://127.0.0.1:11434/api/show": answer });
      assert.deepEqual(
        await decideVision({ provider: "openai-compatible", baseUrl: OLLAMA, model: "llava:7b", fetch }),
        { vision: true, source: "name list" },
        `answer ${JSON.stringify(answer)}`,
      );
    }
  });

  it("an unknown loopback server: Ollama's route first, then LM Studio's; neither answering is the name list", async () => {
    const calls: Call[] = [];
    const fetch = fakeFetch({ "http://127.0.0.1:9999/api/v0/models/m": { type: "vlm" } }, calls);
    assert.deepEqual(await decideVision({ provider: "openai-compatible", baseUrl: "http://127.0.0.1:9999/v1", model: "m", fetch }), {
      vision: true,
      source: "endpoint:lmstudio",
    });
    assert.deepEqual(
      calls.map((c) => c.url),
      ["http://127.0.0.1:9999/api/show", "http://127.0.0.1:9999/api/v0/models/m"],
    );
  });

  it("a server that does not answer in time: the name list after the deadline, not later", async () => {
    const fetch = fakeFetch({ "http://127.0.0.1:11434/api/show": "hang" });
    const t0 = Date.now();
    const d = await decideVision({ provider: "openai-compatible", baseUrl: OLLAMA, model: "qwen2.5-coder", fetch, timeoutMs: 50 });
    assert.deepEqual(d, { vision: false, source: "name list" });
    assert.ok(Date.now() - t0 < 1_000, `took ${Date.now() - t0} ms`);
  });

  it("MANIFOLD_MODEL_VISION overrides without asking; a decision is cached per model per process", async () => {
    const calls: Call[] = [];
    const fetch = fakeFetch({ "http://127.0.0.1:11434/api/show": { capabilities: ["vision"] } }, calls);
    const input = { provider: "openai-compatible" as const, baseUrl: OLLAMA, model: "m", fetch };
    assert.deepEqual(await decideVision({ ...input, override: false }), { vision: false, source: "setting" });
    assert.equal(calls.length, 0);
    await decideVision(input);
    await decideVision(input);
    assert.equal(calls.length, 1);
  });

  it("a 400 naming images is a refusal; other 400s and image-size complaints are not", () => {
    const err = (status: number, said: string): ModelError =>
      new ModelError("bad-request", `The model endpoint refused the request (HTTP ${status}) at x. The endpoint said: "${said}".`, status);
    assert.ok(isImageRefusal(err(400, "image input is not supported")));
    assert.ok(isImageRefusal(err(400, "this model does not support images")));
    assert.ok(isImageRefusal(err(400, "Model is not a vision model")));
    assert.ok(isImageRefusal(err(404, "No endpoints found that support image input")));
    assert.ok(!isImageRefusal(err(400, "image exceeds 5 MB maximum")));
    assert.ok(!isImageRefusal(err(400, "max_tokens is too large")));
    assert.ok(!isImageRefusal(err(500, "image input is not supported")));
    assert.ok(!isImageRefusal(new Error("does not support images")));
  });

  it("after a refusal the same request goes again without images, the model is text-only from then on, and says why", async () => {
    const config: ModelConfig = { id: "x:m", provider: "openai-compatible", model: "m", baseUrl: OLLAMA, label: "m (x)", vision: true };
    const seen: ChatMessage[][] = [];
    const inner: ModelClient = {
      config,
      isDemo: false,
      async *stream(req): AsyncGenerator<ModelEvent> {
        seen.push(req.messages);
        if (seen.length === 1) throw new ModelError("bad-request", 'HTTP 400. The endpoint said: "image input is not supported".', 400);
        yield { type: "text-delta", text: "ok" };
      },
    };
    const client = textOnlyOnRefusal(inner, config);
    const messages: ChatMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
      },
    ];
    const events: ModelEvent[] = [];
    for await (const ev of client.stream({ system: "", messages, tools: [], signal: new AbortController().signal })) events.push(ev);
    assert.deepEqual(events, [{ type: "text-delta", text: "ok" }]);
    assert.deepEqual(
      seen[1]?.[0]?.content,
      withoutImages(messages, "the model's endpoint refused images, so this model is treated as text-only")[0]?.content,
    );
    assert.match(JSON.stringify(seen[1]), /not shown: the model's endpoint refused images/);
    assert.equal(config.vision, false);
    assert.equal(config.visionSource, "learned (400)");
    assert.deepEqual(await decideVision({ ...config, override: true }), { vision: false, source: "learned (400)" });
    assert.equal(visionSummary(config), "cannot see images (its endpoint refused an image)");
    // A refusal of a request without images goes to the caller unchanged (nothing to drop).
    const refusing: ModelClient = {
      config,
      isDemo: false,
      // eslint-disable-next-line require-yield
      async *stream(): AsyncGenerator<ModelEvent> {
        throw new ModelError("bad-request", 'HTTP 400. The endpoint said: "image input is not supported".', 400);
      },
    };
    const text: ChatMessage[] = [{ role: "user", content: [{ type: "text", text: "hi" }] }];
    await assert.rejects(async () => {
      for await (const ev of textOnlyOnRefusal(refusing, config).stream({
        system: "",
        messages: text,
        tools: [],
        signal: new AbortController().signal,
      }))
        void ev;
    }, /image input is not supported/);
  });

  it("the client's words for each source", () => {
    assert.equal(visionSummary({ vision: true, visionSource: "endpoint:ollama" }), "sees images (Ollama's /api/show says so)");
    assert.equal(visionSummary({ vision: false }), "cannot see images (going by its name)");
    assert.match(
      unseenImagesNotice(1, "endpoint:lmstudio"),
      /^The selected model cannot see images \(LM Studio's model type says so\), so it was told an image/,
    );
    assert.match(unseenImagesNotice(2), /^The selected model cannot see images, so it was told 2 images were/);
  });
});
