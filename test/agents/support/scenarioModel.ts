// One scripted model for the common real-agent scenario, whatever API the agent speaks. The prompt's
// marker picks the reply, on every step of its turn (side requests such as title generation get a
// short text):
//   [hello]  streams "Hel" + "lo there"
//   [write:NAME]  calls the agent's own write tool on `<folder>/NAME` with `contentFor(NAME)`; after
//                 the tool result, says "ok"
//   [write-abs:PATH]  the same on the absolute PATH (anywhere, e.g. outside every folder)
//   [shell:COMMAND]  calls the agent's own shell tool (bash, run_shell_command, exec_command…, found
//                 by its schema) with COMMAND (up to the prompt's last "]"); after the result, "ok"
//   [hang]   starts the response and sends nothing more, until the agent aborts it (a cancel)
import { basename, join } from "node:path";
import { startFakeModelServer, type FakeRequest, type FakeTurn } from "../../support/fakeModelServer";
import { startFakeResponses } from "./fakeResponses";
import { startFakeGemini, type GeminiReply, type GeminiRequest } from "./fakeGemini";
import { geminiToolsOf, shellCallFor, toolsOf, writeCallFor, type ModelApi } from "./profiles";

export interface ScenarioModel {
  readonly origin: string;
  /** Resolves when the next [hang] response has started. Call before sending the prompt. */
  nextHang(): Promise<void>;
  /** The request bodies the model received (from the `since`-th on), as JSON text: what the agent showed the model. */
  seen(since?: number): string;
  /** How many requests the model received so far. */
  requestCount(): number;
  close(): Promise<void>;
}

/** What the model writes into a file it is asked to write. */
export function contentFor(name: string): string {
  return `written by the agent into ${name}\n`;
}

function writeTarget(text: string, folder: string): { file: string; content: string } | undefined {
  const name = /\[write:([\w.-]+)\]/.exec(text)?.[1];
  if (name !== undefined) return { file: join(folder, name), content: contentFor(name) };
  const abs = /\[write-abs:(\/[^\]]+)\]/.exec(text)?.[1];
  return abs === undefined ? undefined : { file: abs, content: contentFor(basename(abs)) };
}

function shellCommand(text: string): string | undefined {
  return /\[shell:(.*)\]/s.exec(text)?.[1];
}

function openAiOrAnthropic(req: FakeRequest, folder: string): FakeTurn {
  const text = req.lastUserText;
  if (text.includes("[hang]")) return { hang: true };
  if (text.includes("[hello]")) return { text: ["Hel", "lo there"] };
  const command = shellCommand(text);
  if (command !== undefined && !req.afterToolResult) {
    const call = shellCallFor(toolsOf(req), command);
    return call ? { toolCalls: [call] } : { text: `no shell tool among: ${req.toolNames.join(", ")}` };
  }
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
  const command = shellCommand(text);
  if (command !== undefined && req.lastPartKind !== "user:functionResponse") {
    const call = shellCallFor(geminiToolsOf(req.body), command);
    return [call ? { functionCall: { name: call.name, args: call.args as Record<string, unknown> } } : { text: "no shell tool" }];
  }
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
    return {
      origin: g.url,
      nextHang: () => g.nextHang(),
      seen: (since = 0) => JSON.stringify(g.requests.slice(since).map((r) => r.body)),
      requestCount: () => g.requests.length,
      close: () => g.close(),
    };
  }
  if (api === "openai-responses") {
    // Text, shell calls and hangs: codex has no file-write tool for an unknown model (it writes with
    // shell commands under its own sandbox), so the write steps do not apply to it.
    const r = await startFakeResponses((req) => {
      if (req.lastUserText.includes("[hang]")) return "hang";
      const command = shellCommand(req.lastUserText);
      if (command !== undefined && !req.afterToolResult) {
        const call = shellCallFor(toolsOf(req), command);
        return call ? { toolCall: { name: call.name, args: call.args as Record<string, unknown> } } : { text: ["no shell tool"] };
      }
      return { text: req.lastUserText.includes("[hello]") ? ["Hel", "lo there"] : ["ok"] };
    });
    return {
      origin: r.origin,
      nextHang: () => r.nextHang(),
      seen: (since = 0) => JSON.stringify(r.requests.slice(since).map((q) => q.body)),
      requestCount: () => r.requests.length,
      close: () => r.close(),
    };
  }
  const server = await startFakeModelServer();
  server.script((req) => openAiOrAnthropic(req, folder));
  let hangs = 0;
  return {
    origin: server.origin,
    nextHang: () => server.waitForHang(++hangs),
    seen: (since = 0) => JSON.stringify(server.requests.slice(since).map((q) => q.body)),
    requestCount: () => server.requests.length,
    close: () => server.close(),
  };
}
