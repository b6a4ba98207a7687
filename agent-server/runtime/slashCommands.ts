// Slash commands of the built-in agent (ACP `available_commands_update`). A prompt whose first text
// block starts with `/name` (a known name) runs the command; any other `/…` is plain text. Pure.
//
//   /compact  the model summarises the conversation; later requests carry the summary, not the turns
//   /clear    a new context in this session: later requests carry none of the earlier turns
//   /init     the model creates or refreshes AGENTS.md (read into the system prompt at every step)
import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";

export type CommandName = "compact" | "clear" | "init";

export interface ParsedCommand {
  name: CommandName;
  /** What followed the name, trimmed ("" when nothing). */
  args: string;
}

export const COMMANDS: readonly AvailableCommand[] = [
  { name: "compact", description: "Summarise the conversation so far; the model keeps the summary instead of the earlier turns." },
  { name: "clear", description: "Start a new context in this session: the model forgets the earlier turns (the transcript stays)." },
  {
    name: "init",
    description: "Ask the model to create or refresh AGENTS.md, the project instructions it reads at every step.",
    input: { hint: "what to focus on (optional)" },
  },
];

const NAMES: ReadonlySet<string> = new Set(COMMANDS.map((c) => c.name));

/** The command a prompt runs, if its first text block starts with `/<known name>`. */
export function parseCommand(content: readonly ContentBlock[]): ParsedCommand | null {
  const first = content.find((b) => b.type === "text");
  if (!first || first.type !== "text") return null;
  const m = /^\s*\/([a-z][a-z0-9_-]*)(?:\s+([\s\S]*))?$/.exec(first.text);
  if (!m || !NAMES.has(m[1]!)) return null;
  return { name: m[1] as CommandName, args: (m[2] ?? "").trim() };
}

/** Commands the agent runs itself (no tools); their prompt text is never sent to the model. */
export function isLocalCommand(cmd: ParsedCommand): cmd is ParsedCommand & { name: "compact" | "clear" } {
  return cmd.name === "compact" || cmd.name === "clear";
}

export const COMPACT_INSTRUCTION =
  "Summarise the conversation so far for yourself, so that you can continue the work from the summary alone: " +
  "the user's goals and constraints, decisions taken, files read or changed (paths), commands run and their outcome, " +
  "open questions and the next steps. Be concise and concrete; do not call tools.";

/** How the summary is put in front of the model in later requests. */
export function summaryMessage(summary: string): string {
  return `[Summary of the earlier conversation, written by you when the user ran /compact]\n${summary}`;
}

/** What the model reads in place of `/init …`. */
export function initPrompt(args: string): string {
  return [
    "Create or update the file AGENTS.md at the root of this project: instructions for coding agents working here.",
    "Read the project first (README, build and test configuration, layout). Keep what is still true in an existing AGENTS.md.",
    "Cover: what the project is, how to build, test and lint it (exact commands), the layout, code conventions, and anything an agent must not do.",
    "Keep it short (under 200 lines) and concrete. Write it with the file tools.",
    ...(args ? [`The user adds: ${args}`] : []),
  ].join("\n");
}
