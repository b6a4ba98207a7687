// What the demo model says and does: a pure function from the conversation to one scripted step.
// It exercises real tool calls (list, read, write inside and outside the workspace, bash) so a
// newcomer sees tool cards, permission prompts, questions (ask_user) and the sandbox work, with no network.
import type { ChatMessage, ToolResultPart } from "../types";

export type DemoStep = { text: string; toolCall?: { toolName: string; input: Record<string, unknown> } };

export const DEMO_INTRO =
  "Hi! I am the **demo model (offline)**: a scripted stand-in, not a real AI. " +
  "I can show you how Manifold works with real tools. Try:\n\n" +
  "- *list files*\n- *read README.md*\n- *write a note*\n- *run ls -la*\n- *write outside the workspace* (shows a permission prompt)\n" +
  "- *ask me a question* (shows a question with choices)\n- *make a plan* (shows a plan checklist)\n" +
  "- the commands */compact*, */clear* and */init*\n\n" +
  "To use a real model, run **Manifold: Set API Key…**, or start Ollama or LM Studio locally, " +
  "or set `MANIFOLD_MODEL_PROVIDER`, `MANIFOLD_MODEL_BASE_URL` and `MANIFOLD_MODEL`.";

const NOTE_PATH = "manifold-demo-note.md";
const OUTSIDE_PATH = "../manifold-demo-outside.txt";
const SUMMARY_LINES = 12;

const ASK_TOOL = "ask_user";
/** "ask me", "Ask me a question", "can you ask me something?" — but not "… ask me first/before …". */
const ASK_ME = /\bask\s+me\b(?!\s+(?:first|before)\b)/;
export const DEMO_QUESTION = {
  question: "Which file should we look at first?",
  choices: ["README.md", "package.json", "Neither, surprise me"],
};
export const NO_ASK_TEXT =
  "I would ask you a question with the `ask_user` tool, but this client cannot show questions " +
  "(it did not advertise form elicitation), so that tool is not offered here. Try *list files* instead. (Demo model, offline.)";

export const NO_MCP_TEXT =
  "This session has no MCP tools: the client passed no MCP servers (or they failed to start). Add one in your client's MCP settings and open a new session. (Demo model, offline.)";

const PLAN_TOOL = "update_plan";
export const DEMO_PLAN = [
  { step: "Look at the project layout", status: "completed" },
  { step: "Read the README", status: "in_progress" },
  { step: "Suggest a first change", status: "pending" },
] as const;

/**
 * What the agent sends for `/compact` and `/init` (runtime/commands.ts). The demo reads them as text,
 * like any model; test/unit/model/demo.test.ts feeds it the runtime's own texts, so they cannot drift apart unnoticed.
 */
const COMPACT_REQUEST = /^summarise the conversation so far/i;
const INIT_REQUEST = /^create or update the file agents\.md/i;
/** The placeholder a model that cannot see images gets (runtime/history.ts). */
const UNSEEN_IMAGE = /\[image[^\]]*?: ([^,\]]+, [^\]]+?) — not shown: this model cannot see images\]/g;

const DEMO_AGENTS_MD =
  "# AGENTS.md\n\nInstructions for coding agents in this project (written by the Manifold demo model: edit it).\n\n" +
  "- Build: `npm run build`\n- Test: `npm test`\n- Keep changes small and explain them.\n";

function userTexts(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) =>
    m.role === "user"
      ? [
          m.content
            .map((p) => (p.type === "text" ? p.text : ""))
            .join(" ")
            .trim(),
        ]
      : [],
  );
}

/** The summary `/compact` left opens the next user message (runtime/commands.ts): not something the user typed. */
const SUMMARY_PART = /^\[Summary of the earlier conversation/;

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    return m.content
      .map((p) => (p.type === "text" && !SUMMARY_PART.test(p.text) ? p.text : ""))
      .join(" ")
      .trim();
  }
  return "";
}

/** A word that looks like a file path: has a dot or slash, not a sentence end. */
function pathIn(text: string): string | undefined {
  const words = text.split(/\s+/).map((w) => w.replace(/^[`'"(]+|[`'"),.;:!?]+$/g, ""));
  return words.find((w, i) => i > 0 && /[./\\]/.test(w) && /[A-Za-z0-9]/.test(w));
}

/**
 * What `ask_user` answers on a decline. The demo reads tool output as text, like any model, so it
 * states the text itself (a model layer does not import tools); test/unit/model/demo.test.ts feeds
 * it the tool's own constant, so the two cannot drift apart unnoticed.
 */
const DECLINED_TEXT = "The user declined to answer.";

/** What the user answered to the demo's question, declined, or why it could not be asked. */
function summariseAnswer(r: ToolResultPart): string {
  if (r.isError)
    return `I could not ask you: ${r.output}\n\nA real model would carry on without the answer or ask in its reply. (Demo model, offline.)`;
  if (r.output === DECLINED_TEXT) {
    return "You declined to answer, and that is fine: a real model would carry on without the answer or ask in its reply instead. (Demo model, offline.)";
  }
  const quoted = r.output
    .split("\n")
    .map((l) => `> ${l}`)
    .join("\n");
  const file = DEMO_QUESTION.choices.slice(0, 2).includes(r.output) ? ` Say *read ${r.output}* and I will open it.` : "";
  return `You answered:\n\n${quoted}\n\nA real model would now carry on with your answer.${file} (Demo model, offline.)`;
}

function summarise(results: readonly ToolResultPart[]): string {
  const [only] = results;
  if (results.length === 1 && only?.toolName === ASK_TOOL) return summariseAnswer(only);
  if (results.length === 1 && only?.toolName === PLAN_TOOL && !only.isError) {
    return "That is the plan checklist. A real model updates it with `update_plan` as steps are done. (Demo model, offline.)";
  }
  const parts = results.map((r) => {
    const lines = r.output.split("\n");
    const shown = lines.slice(0, SUMMARY_LINES).join("\n");
    const more = lines.length > SUMMARY_LINES ? `\n… (${lines.length - SUMMARY_LINES} more lines)` : "";
    const head = r.isError
      ? `\`${r.toolName}\` failed:`
      : `\`${r.toolName}\` returned ${lines.length} line${lines.length === 1 ? "" : "s"}:`;
    return `${head}\n\n\`\`\`\n${shown}${more}\n\`\`\``;
  });
  const tail = results.some((r) => r.isError)
    ? "That did not work, and the error above is what a real model would read and react to."
    : "That is a real tool result from your workspace. A real model would now reason about it.";
  return `${parts.join("\n\n")}\n\n${tail} (Demo model, offline.)`;
}

export function demoStep(messages: readonly ChatMessage[], toolNames: ReadonlySet<string>): DemoStep {
  const last = messages[messages.length - 1];
  if (last?.role === "tool") return { text: summarise(last.content) };

  const raw = lastUserText(messages);
  const text = raw.toLowerCase();
  const can = (name: string): boolean => toolNames.has(name);

  if (COMPACT_REQUEST.test(raw)) {
    const asked = userTexts(messages).slice(0, -1);
    const list = asked.map((t) => `- ${t.split("\n")[0]!.slice(0, 80)}`).join("\n");
    return { text: `Summary (demo model, offline): you sent ${asked.length} message${asked.length === 1 ? "" : "s"} so far:\n${list}` };
  }
  if (INIT_REQUEST.test(raw) && can("write_file")) {
    return {
      text: "Writing a starter `AGENTS.md`; I will read it at every step from now on.",
      toolCall: { toolName: "write_file", input: { path: "AGENTS.md", content: DEMO_AGENTS_MD } },
    };
  }
  const unseen = [...raw.matchAll(UNSEEN_IMAGE)].map((m) => m[1]!);
  if (unseen.length > 0) {
    return {
      text: `I cannot see images (I am the offline demo model), but you attached ${unseen.length === 1 ? "one" : unseen.length}: ${unseen.join("; ")}. A vision model would describe ${unseen.length === 1 ? "it" : "them"}.`,
    };
  }

  const run = /^\s*(?:please\s+)?run\s+(.+)$/is.exec(raw);
  if (!run && /\bplan\b/.test(text) && can(PLAN_TOOL)) {
    return {
      text: "Here is a plan; it shows as a checklist and I would keep it current as I work.",
      toolCall: { toolName: PLAN_TOOL, input: { plan: DEMO_PLAN.map((s) => ({ ...s })) } },
    };
  }
  if (!run && ASK_ME.test(text)) {
    if (!can(ASK_TOOL)) return { text: NO_ASK_TEXT };
    return {
      text: "Let me ask you something. Pick an answer in the question card.",
      toolCall: { toolName: ASK_TOOL, input: { ...DEMO_QUESTION, choices: [...DEMO_QUESTION.choices] } },
    };
  }
  if (!run && /\bmcp\b/.test(text)) {
    // The session's own MCP tools (named mcp__<server>__<tool>); called with no arguments.
    const mcp = [...toolNames].find((n) => n.startsWith("mcp__"));
    if (!mcp) return { text: NO_MCP_TEXT };
    return {
      text: `Calling the MCP tool \`${mcp}\`. MCP calls run outside the sandbox, so you are asked first.`,
      toolCall: { toolName: mcp, input: {} },
    };
  }
  if (/\boutside\b/.test(text) && can("write_file")) {
    return {
      text: "Let me try writing a file **outside** your workspace. The sandbox should stop me and ask you first.",
      toolCall: { toolName: "write_file", input: { path: OUTSIDE_PATH, content: "Written by the Manifold demo model.\n" } },
    };
  }
  if (run?.[1] && can("bash")) {
    const typed = run[1].trim().replace(/^`+|`+$/g, "");
    const command = /^(?:a|an|some|the|my)\s|^(?:command|something|it)$/i.test(typed) ? "ls -la" : typed;
    return { text: `Running \`${command}\` in the sandbox.`, toolCall: { toolName: "bash", input: { command } } };
  }
  if (/\b(command|terminal|shell|bash)\b/.test(text) && can("bash")) {
    return { text: "Running `ls -la` in the sandbox.", toolCall: { toolName: "bash", input: { command: "ls -la" } } };
  }
  if (/\b(list|ls|files)\b/.test(text) && can("list_files")) {
    return { text: "Listing the files in your workspace.", toolCall: { toolName: "list_files", input: { path: "." } } };
  }
  if (/\b(read|open|show|cat)\b/.test(text) && can("read_file")) {
    const path = pathIn(raw) ?? "README.md";
    return { text: `Reading \`${path}\`.`, toolCall: { toolName: "read_file", input: { path } } };
  }
  if (/\b(write|note|create|save)\b/.test(text) && can("write_file")) {
    const content = `# Demo note\n\nWritten by the Manifold demo model.\n\nYou asked: ${raw}\n`;
    return {
      text: `Writing a note to \`${NOTE_PATH}\` in your workspace.`,
      toolCall: { toolName: "write_file", input: { path: NOTE_PATH, content } },
    };
  }
  return { text: DEMO_INTRO };
}

/** Splits text into small chunks (a few words each) the way a streaming model sends it. */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const tokens = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk) chunks.push(tokens.slice(i, i + wordsPerChunk).join(""));
  return chunks;
}
