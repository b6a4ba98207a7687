// One scripted model for the common real-agent scenario, whatever API the agent speaks. The prompt's
// marker picks the reply, on every step of its turn (side requests such as title generation get a
// short text):
//   [hello]  streams "Hel" + "lo there"
//   [write:NAME]  calls the agent's own write tool on `<folder>/NAME` with `contentFor(NAME)`; after
//                 the tool result, says "ok"
//   [hang]   starts the response and sends nothing more, until the agent aborts it (a cancel)
import { join } from "node:path";
import { startFakeModelServer, type FakeRequest, type FakeTurn } from "../../support/fakeModelServer";
import { startFakeResponses } from "./fakeResponses";
import { startFakeGemini, type GeminiReply, type GeminiRequest } from "./fakeGemini";
import { writeCallFor, type ModelApi } from "./profiles";

export interface ScenarioModel {
  readonly origin: string;
  /** Resolves when the next [hang] response has started. Call before sending the prompt. */
  nextHang(): Promise<void>;
  close(): Promise<void>;
}

/** What the model writes into a file it is asked to write. */
export function contentFor(name: string): string {
  return `written by the agent into ${name}\n`;
}

function writeTarget(text: string, folder: string): { file: string; content: string } | undefined {
  const name = /\[write:([\w.-]+)\]/.exec(text)?.[1];
  return name === undefined ? undefined : { file: join(folder, name), content: contentFor(name) };
}

function openAiOrAnthropic(req: FakeRequest, folder: string): FakeTurn {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return { hang: true };
  if (text.includes("[hello]")) return { text: ["Hel", "lo there"] };
  const write = writeTarget(text, folder);
  if (write && !req.afterToolResult) {
    const call = writeCallFor(req, write.file, write.content);
    return call ? { toolCalls: [call] } : { text: `no write tool among: ${req.toolNames.join(", ")}` };
  }
  return { text: "ok" };
}

function gemini(req: GeminiRequest, folder: string): GeminiReply {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return "hang";
  if (text.includes("[hello]")) return [{ text: "Hel" }, { text: "lo there" }];
  const write = writeTarget(text, folder);
  if (write && req.lastPartKind !== "user:functionResponse") {
    return [{ functionCall: { name: "write_file", args: { file_path: write.file, content: write.content } } }];
  }
  return [{ text: "ok" }];
}

/** `folder` is the session folder the written files go to. */
export async function startScenarioModel(api: ModelApi, folder: string): Promise<ScenarioModel> {
  if (api === "gemini") {
    const g = await startFakeGemini((req) => gemini(req, folder));
    return { origin: g.url, nextHang: () => g.nextHang(), close: () => g.close() };
  }
  if (api === "openai-responses") {
    // Text and hangs only: codex has no file-write tool for an unknown model (it writes with shell
    // commands under its own sandbox), so the write steps do not apply to it.
    const r = await startFakeResponses((req) =>
      req.lastUserText.includes("[hang]") ? "hang" : { text: req.lastUserText.includes("[hello]") ? ["Hel", "lo there"] : ["ok"] },
    );
    return { origin: r.origin, nextHang: () => r.nextHang(), close: () => r.close() };
  }
  const server = await startFakeModelServer();
  server.script((req) => openAiOrAnthropic(req, folder));
  let hangs = 0;
  return {
    origin: server.origin,
    nextHang: () => server.waitForHang(++hangs),
    close: () => server.close(),
  };
}
