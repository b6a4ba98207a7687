// Entry point of the sandbox layer. STUB: replaced by the sandbox work.
import type { CommandSandbox } from "./types";

export type { CommandSandbox, SandboxContext } from "./types";

/** Probes the platform once at start-up and returns the backend to use (logged to stderr). */
export async function detectSandbox(_env: NodeJS.ProcessEnv = process.env): Promise<CommandSandbox> {
  throw new Error("detectSandbox: not implemented yet");
}
