// ask_user: asks the user a question in the owning session's panel (ACP form elicitation).
// Offered only to sessions whose client advertised `elicitation.form`. A cancelled turn is not an
// answer: the AbortError from `ctx.askUser` propagates and the runner reports the call cancelled (I-46).
import * as z from "zod/v4";
import { defineTool } from "./types";

const parameters = z.object({
  question: z.string().min(1).describe("The question, in plain words. Ask one thing at a time."),
  choices: z.array(z.string().min(1)).min(2).max(20).optional().describe("Optional list of answers the user picks from."),
});

export type AskUserArgs = z.infer<typeof parameters>;

export const DECLINED_OUTPUT = "The user declined to answer.";
export const UNAVAILABLE_OUTPUT =
  "Asking the user is not available in this session. Continue without the answer or explain what you need in your reply.";

const TITLE_MAX = 80;

export const askUserTool = defineTool<AskUserArgs>({
  name: "ask_user",
  description:
    "Ask the user a question and wait for the answer. Use it only when you cannot proceed without a decision or fact that only the user has. Never ask for passwords, tokens or other secrets.",
  parameters,
  kind: "other",
  title: (args) => `Ask: ${args.question.length > TITLE_MAX ? `${args.question.slice(0, TITLE_MAX - 1)}…` : args.question}`,
  access: () => ({ kind: "none" }),
  available: (caps) => caps.askUser,
  async run(args, ctx) {
    if (!ctx.askUser) return { output: UNAVAILABLE_OUTPUT, isError: true };
    const reply = await ctx.askUser(args.choices ? { question: args.question, choices: args.choices } : { question: args.question });
    switch (reply.outcome) {
      case "answered":
        return { output: reply.answer.length > 0 ? reply.answer : "(The user gave an empty answer.)", isError: false };
      case "declined":
        return { output: DECLINED_OUTPUT, isError: false };
      default:
        return { output: UNAVAILABLE_OUTPUT, isError: true };
    }
  },
});
