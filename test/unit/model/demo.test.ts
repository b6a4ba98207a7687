// The demo model: offline, deterministic, real tool calls, a summary after tool results.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createModelClient, DEMO_MODEL_CONFIG } from "../../../agent-server/model/index";
import { chunkText, DEMO_INTRO, DEMO_PLAN, NO_ASK_TEXT } from "../../../agent-server/model/demo/script";
import { COMPACT_INSTRUCTION, initPrompt, summaryMessage } from "../../../agent-server/runtime/slashCommands";
import { buildMessages } from "../../../agent-server/runtime/history";
import type { LogEntry } from "../../../agent-server/session/events";
import { DECLINED_OUTPUT } from "../../../agent-server/tools/askUser";
import type { ChatMessage, ModelEvent, ToolSpec } from "../../../agent-server/model/types";
import { collect, userSays } from "../../support/modelClient";

const tool = (name: string): ToolSpec => ({ name, description: name, inputSchema: { type: "object" } });
const TOOLS = ["read_file", "write_file", "edit_file", "list_files", "grep", "bash"].map(tool);
const demo = createModelClient(DEMO_MODEL_CONFIG);

const text = (events: ModelEvent[]): string => events.map((e) => (e.type === "text-delta" ? e.text : "")).join("");
const toolCalls = (events: ModelEvent[]) => events.filter((e) => e.type === "tool-call");

describe("demo model", () => {
  it("is labelled and flagged as the demo", () => {
    assert.equal(demo.isDemo, true);
    assert.equal(demo.config.label, "Demo model (offline)");
  });

  it("greets, says it is a demo and how to configure a real model, streamed in several chunks", async () => {
    const events = await collect(demo, [userSays("hello")], { tools: TOOLS });
    assert.equal(text(events), DEMO_INTRO);
    assert.ok(events.filter((e) => e.type === "text-delta").length > 5);
    assert.match(DEMO_INTRO, /demo model \(offline\)/);
    assert.match(DEMO_INTRO, /Manifold: Set API Key/);
    assert.deepEqual(events.at(-1)?.type, "finish");
    assert.equal(toolCalls(events).length, 0);
  });

  it("'list files' → a list_files tool call, finish reason tool-calls", async () => {
    const events = await collect(demo, [userSays("please list files")], { tools: TOOLS });
    assert.deepEqual(toolCalls(events), [{ type: "tool-call", toolCallId: "demo-call-1", toolName: "list_files", input: { path: "." } }]);
    const finish = events.at(-1);
    assert.equal(finish?.type === "finish" && finish.reason, "tool-calls");
  });

  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["read src/index.ts", "read_file", { path: "src/index.ts" }],
    ["read the readme", "read_file", { path: "README.md" }],
    ["run git status", "bash", { command: "git status" }],
    ["run a command", "bash", { command: "ls -la" }],
    [
      "write outside the workspace",
      "write_file",
      { path: "../manifold-demo-outside.txt", content: "Written by the Manifold demo model.\n" },
    ],
  ];
  for (const [prompt, toolName, input] of cases) {
    it(`'${prompt}' → ${toolName} ${JSON.stringify(input)}`, async () => {
      const events = await collect(demo, [userSays(prompt)], { tools: TOOLS });
      assert.deepEqual(toolCalls(events), [{ type: "tool-call", toolCallId: "demo-call-1", toolName, input }]);
    });
  }

  it("'write a note' → write_file of a note inside the workspace", async () => {
    const [call] = toolCalls(await collect(demo, [userSays("write a note")], { tools: TOOLS }));
    assert.equal(call?.type === "tool-call" && call.toolName, "write_file");
    const input = call?.type === "tool-call" ? (call.input as { path: string; content: string }) : undefined;
    assert.equal(input?.path, "manifold-demo-note.md");
    assert.match(input?.content ?? "", /You asked: write a note/);
  });

  it("after a tool result it summarises the output and stops", async () => {
    const history: ChatMessage[] = [
      userSays("list files"),
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "demo-call-1", toolName: "list_files", input: { path: "." } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "demo-call-1", toolName: "list_files", output: "a.txt\nsrc/", isError: false }],
      },
    ];
    const events = await collect(demo, history, { tools: TOOLS });
    assert.equal(toolCalls(events).length, 0);
    assert.match(text(events), /`list_files` returned 2 lines:\n\n```\na\.txt\nsrc\/\n```/);
    const finish = events.at(-1);
    assert.equal(finish?.type === "finish" && finish.reason, "stop");
    assert.ok(finish?.type === "finish" && (finish.usage?.totalTokens ?? 0) > 0);
  });

  it("after a failed tool call it says so", async () => {
    const history: ChatMessage[] = [
      userSays("write outside"),
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "x", toolName: "write_file", output: "Permission denied by the user.", isError: true },
        ],
      },
    ];
    assert.match(text(await collect(demo, history, { tools: TOOLS })), /`write_file` failed:[\s\S]*Permission denied/);
  });

  it("without the tools offered it only talks", async () => {
    const events = await collect(demo, [userSays("list files")], { tools: [] });
    assert.equal(toolCalls(events).length, 0);
    assert.equal(text(events), DEMO_INTRO);
  });

  const ASK_TOOLS = [...TOOLS, tool("ask_user")];
  const QUESTION = { question: "Which file should we look at first?", choices: ["README.md", "package.json", "Neither, surprise me"] };
  for (const prompt of [
    "ask me a question",
    "Ask me something!",
    "ASK ME",
    "can you ask me which files to list?",
    "please ask me about the README.md",
  ]) {
    it(`'${prompt}' → ask_user with a question and choices`, async () => {
      const events = await collect(demo, [userSays(prompt)], { tools: ASK_TOOLS });
      assert.deepEqual(toolCalls(events), [{ type: "tool-call", toolCallId: "demo-call-1", toolName: "ask_user", input: QUESTION }]);
      const finish = events.at(-1);
      assert.equal(finish?.type === "finish" && finish.reason, "tool-calls");
    });
  }

  const others: Array<[string, string]> = [
    ["list files", "list_files"],
    ["read README.md", "read_file"],
    ["write a note", "write_file"],
    ["run ls -la", "bash"],
    ["write outside the workspace", "write_file"],
    ["run echo ask me", "bash"],
    ["write a note but ask me first", "write_file"],
  ];
  for (const [prompt, toolName] of others) {
    it(`with ask_user offered, '${prompt}' still → ${toolName}`, async () => {
      const calls = toolCalls(await collect(demo, [userSays(prompt)], { tools: ASK_TOOLS }));
      assert.deepEqual(
        calls.map((c) => c.type === "tool-call" && c.toolName),
        [toolName],
      );
    });
  }

  const afterAsk = (output: string, isError = false): ChatMessage[] => [
    userSays("ask me a question"),
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "demo-call-1", toolName: "ask_user", input: QUESTION }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "demo-call-1", toolName: "ask_user", output, isError }] },
  ];

  it("after ask_user is answered it says what the user answered and stops", async () => {
    const events = await collect(demo, afterAsk("README.md"), { tools: ASK_TOOLS });
    assert.equal(toolCalls(events).length, 0);
    assert.equal(
      text(events),
      "You answered:\n\n> README.md\n\nA real model would now carry on with your answer. Say *read README.md* and I will open it. (Demo model, offline.)",
    );
    const finish = events.at(-1);
    assert.equal(finish?.type === "finish" && finish.reason, "stop");
  });

  it("after ask_user is answered in free text it quotes the answer", async () => {
    const events = await collect(demo, afterAsk("the tests\nthen the docs"), { tools: ASK_TOOLS });
    assert.equal(
      text(events),
      "You answered:\n\n> the tests\n> then the docs\n\nA real model would now carry on with your answer. (Demo model, offline.)",
    );
  });

  it("after ask_user is declined it says plainly the user declined", async () => {
    const events = await collect(demo, afterAsk(DECLINED_OUTPUT), { tools: ASK_TOOLS });
    assert.equal(toolCalls(events).length, 0);
    assert.match(text(events), /^You declined to answer/);
    assert.doesNotMatch(text(events), /You answered/);
  });

  it("after ask_user fails (unavailable or cancelled) it says it could not ask", async () => {
    const events = await collect(demo, afterAsk("The call was cancelled.", true), { tools: ASK_TOOLS });
    assert.match(text(events), /^I could not ask you: The call was cancelled\./);
    assert.doesNotMatch(text(events), /You answered/);
  });

  it("without ask_user offered, 'ask me a question' explains the client cannot show questions", async () => {
    const events = await collect(demo, [userSays("ask me a question")], { tools: TOOLS });
    assert.equal(toolCalls(events).length, 0);
    assert.equal(text(events), NO_ASK_TEXT);
    assert.match(NO_ASK_TEXT, /cannot show questions/);
  });

  it("the greeting offers 'ask me a question'", () => {
    assert.match(DEMO_INTRO, /- \*ask me a question\* \(shows a question with choices\)\n/);
  });

  it("is deterministic", async () => {
    const a = await collect(demo, [userSays("run echo hi")], { tools: TOOLS });
    const b = await collect(demo, [userSays("run echo hi")], { tools: TOOLS });
    assert.deepEqual(a, b);
  });

  it("an aborted signal rejects with AbortError", async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(collect(demo, [userSays("hi")], { signal: controller.signal }), { name: "AbortError" });
  });

  it("chunkText keeps every character", () => {
    const s = "  Hello there,\n\nthis is  a `demo`. ";
    assert.equal(chunkText(s).join(""), s);
  });

  it("'make a plan' → update_plan with a checklist; after it, a short note and stop", async () => {
    const events = await collect(demo, [userSays("make a plan")], { tools: [...TOOLS, tool("update_plan")] });
    assert.deepEqual(toolCalls(events), [
      { type: "tool-call", toolCallId: "demo-call-1", toolName: "update_plan", input: { plan: DEMO_PLAN.map((s) => ({ ...s })) } },
    ]);
    const after = await collect(
      demo,
      [
        userSays("make a plan"),
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "c", toolName: "update_plan", input: {} }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c", toolName: "update_plan", output: "Plan updated.", isError: false }],
        },
      ],
      { tools: TOOLS },
    );
    assert.match(text(after), /plan checklist/);
  });

  it("answers the runtime's own /compact and /init requests: a summary of what was asked, a starter AGENTS.md", async () => {
    const compact = await collect(
      demo,
      [userSays("list files"), { role: "assistant", content: [{ type: "text", text: "ok" }] }, userSays(COMPACT_INSTRUCTION)],
      { tools: [] },
    );
    assert.equal(text(compact), "Summary (demo model, offline): you sent 1 message so far:\n- list files");
    // After a /compact the summary opens the user message; the demo reads past it (the summary mentions "plan").
    const afterCompact: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: summaryMessage("- make a plan") },
        { type: "text", text: initPrompt("") },
      ],
    };
    for (const messages of [[userSays(initPrompt(""))], [afterCompact]]) {
      const init = await collect(demo, messages, { tools: [...TOOLS, tool("update_plan")] });
      assert.deepEqual(
        toolCalls(init).map((c) => (c.type === "tool-call" ? [c.toolName, (c.input as { path: string }).path] : [])),
        [["write_file", "AGENTS.md"]],
      );
    }
  });

  it("a placeholder for an image it cannot see: it says so and names the image", async () => {
    const entries = [
      { type: "turn/start", turnId: "t", messageId: "m", source: "user", seq: 1, at: "x" },
      {
        type: "user/message",
        messageId: "m",
        content: [
          { type: "text", text: "what is this" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
        seq: 2,
        at: "x",
      },
    ] as LogEntry[];
    const events = await collect(demo, buildMessages(entries, { vision: false }), { tools: TOOLS });
    assert.equal(
      text(events),
      "I cannot see images (I am the offline demo model), but you attached one: image/png, 1 KiB. A vision model would describe it.",
    );
  });
});
