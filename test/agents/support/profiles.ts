// How each pinned real agent is started against a local fake of its model API (the measured settings
// of ../shared/reference/agents-and-mcp.md), and how the fake model asks it for a write or a shell
// command: the fake reads the tool list of the request and calls the agent's own tool by its schema.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeRequest, FakeToolCall } from "../../support/fakeModelServer";

/** Which fake model API an agent needs. */
export type ModelApi = "gemini" | "openai-chat" | "anthropic" | "openai-responses";

export interface AgentProfile {
  id: string;
  api: ModelApi;
  /** Why the write steps do not apply to this agent, if they do not. */
  noWrites?: string;
  args: string[];
  /** The agent's environment: `modelUrl` is the fake's origin, `home` a fresh temp folder. */
  env(modelUrl: string, home: string): NodeJS.ProcessEnv;
}

const base = (home: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local/share"),
  XDG_CACHE_HOME: join(home, ".cache"),
});

export const PROFILES: AgentProfile[] = [
  {
    id: "gemini",
    api: "gemini",
    args: ["--acp"],
    env: (url, home) => ({
      ...base(home),
      GEMINI_API_KEY: "fake-key-for-a-local-fake",
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_CLI_NO_RELAUNCH: "true",
    }),
  },
  {
    id: "opencode",
    api: "openai-chat",
    args: ["acp"],
    env: (url, home) => ({
      ...base(home),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        provider: {
          fake: {
            npm: "@ai-sdk/openai-compatible",
            name: "Fake",
            options: { baseURL: `${url}/v1`, apiKey: "sk-fake" },
            models: { "fake-model": { name: "Fake model" } },
          },
        },
        model: "fake/fake-model",
        permission: { edit: "ask", bash: "ask" },
        autoupdate: false,
        share: "disabled",
      }),
    }),
  },
  {
    id: "codex",
    api: "openai-responses",
    noWrites: "codex offers no file-write tool for a model it does not know (it writes with shell commands in its own sandbox)",
    args: [
      "-c",
      'model_providers.fake.name="fake"',
      "-c",
      `model_providers.fake.base_url="${"$URL"}/v1"`,
      "-c",
      'model_providers.fake.env_key="FAKE_MODEL_KEY"',
      "-c",
      'model_providers.fake.wire_api="responses"',
      "-c",
      "model_providers.fake.requires_openai_auth=false",
      "-c",
      'model_provider="fake"',
      "-c",
      'model="fake-model"',
    ],
    env: (_url, home) => {
      mkdirSync(join(home, ".codex"), { recursive: true });
      return { ...base(home), CODEX_HOME: join(home, ".codex"), FAKE_MODEL_KEY: "sk-fake" };
    },
  },
  {
    id: "claude",
    api: "anthropic",
    args: [],
    env: (url, home) => {
      // Its default mode decides permissions itself; "default" restores the prompts.
      const dir = join(home, ".claude");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "settings.json"), JSON.stringify({ permissions: { defaultMode: "default" } }));
      return { ...base(home), ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "sk-ant-fake", CLAUDE_CONFIG_DIR: dir };
    },
  },
];

/** The args with the fake's URL in place of `$URL` (codex takes its endpoint as a `-c` override). */
export function argsFor(profile: AgentProfile, modelUrl: string): string[] {
  return profile.args.map((a) => a.replace("$URL", modelUrl));
}

type Schema = { properties?: Record<string, unknown> };

function toolSchemas(req: Pick<FakeRequest, "body">): { name: string; schema: Schema }[] {
  const tools = Array.isArray(req.body.tools) ? (req.body.tools as Record<string, unknown>[]) : [];
  return tools.map((t) => {
    const fn = t.function as { name?: string; parameters?: Schema } | undefined;
    return fn
      ? { name: String(fn.name), schema: fn.parameters ?? {} }
      : { name: String(t.name), schema: ((t.input_schema ?? t.parameters) as Schema | undefined) ?? {} };
  });
}

/** A tool's name and JSON schema, as any of the fakes' APIs lists it. */
export type ToolSchema = { name: string; schema: Schema & { required?: string[] } };

/** The tools of a Chat Completions, Anthropic or Responses request. */
export function toolsOf(req: { body: unknown }): ToolSchema[] {
  return toolSchemas({ body: (req.body ?? {}) as Record<string, unknown> });
}

/** The tools of a Gemini request (`tools[].functionDeclarations`). */
export function geminiToolsOf(body: unknown): ToolSchema[] {
  type Decl = { name?: string; parametersJsonSchema?: ToolSchema["schema"]; parameters?: ToolSchema["schema"] };
  const tools = (body as { tools?: { functionDeclarations?: Decl[] }[] } | null)?.tools ?? [];
  return tools
    .flatMap((t) => t.functionDeclarations ?? [])
    .map((d) => ({ name: String(d.name), schema: d.parametersJsonSchema ?? d.parameters ?? {} }));
}

/**
 * A call of the agent's own shell tool (bash, Bash, run_shell_command, shell, exec_command: a
 * command string field `command` or `cmd`), or undefined when it offers none. A required
 * `description` gets one: the agents show it as the card's title.
 */
export function shellCallFor(tools: ToolSchema[], command: string): FakeToolCall | undefined {
  for (const t of tools.filter((x) => /^(bash|shell|run_shell_command|exec_command|exec)$/i.test(x.name))) {
    const props = Object.keys(t.schema.properties ?? {});
    const key = ["command", "cmd"].find((k) => props.includes(k));
    if (!key) continue;
    const described = props.includes("description") ? { description: "run a command" } : {};
    return { name: t.name, args: { [key]: command, ...described } };
  }
  return undefined;
}

/** A call of the request's own file-write tool (named write…, with a path and a content field). */
export function writeCallFor(req: FakeRequest, file: string, content: string): FakeToolCall | undefined {
  const tools = toolSchemas(req).filter((t) => /(^|_)write$/i.test(t.name) || /^write(_file)?$/i.test(t.name));
  for (const t of tools) {
    const props = Object.keys(t.schema.properties ?? {});
    const pathKey = ["file_path", "filePath", "path", "absolute_path"].find((k) => props.includes(k));
    const contentKey = ["content", "contents", "text"].find((k) => props.includes(k));
    if (pathKey && contentKey) return { name: t.name, args: { [pathKey]: file, [contentKey]: content } };
  }
  return undefined;
}
