// Builds the process-wide AgentServices: model clients cached per model id (created lazily, so the
// AI SDK stays off the start-up path), tools and background tasks from the tools layer.
import type { ModelClient, ModelConfig } from "../model/types";
import type { SandboxContext } from "../../sandbox/types";
import type { TaskAccess, ToolRunner } from "../tools/types";
import type { AgentServices } from "./agent";

export interface ServicesInput {
  models: readonly ModelConfig[];
  defaultModelId: string;
  createModelClient(config: ModelConfig): ModelClient;
  tools: ToolRunner;
  tasksFor(sessionId: string, sandboxOf: () => SandboxContext): TaskAccess;
  maxSteps?: number;
}

export const DEFAULT_MAX_STEPS = 50;

export function systemPrompt(cwd: string): string {
  return [
    "You are Manifold, a coding agent working in the user's project.",
    `The project folder (your working directory) is ${cwd}. Relative paths resolve against it.`,
    "Use the tools to read, search, edit files and run commands. Keep answers short and concrete.",
  ].join("\n");
}

export function createAgentServices(input: ServicesInput): AgentServices {
  const clients = new Map<string, ModelClient>();
  return {
    defaultModelId: input.defaultModelId,
    maxSteps: input.maxSteps ?? DEFAULT_MAX_STEPS,
    tools: input.tools,
    tasksFor: input.tasksFor,
    systemPrompt,
    async modelFor(modelId) {
      let client = clients.get(modelId);
      if (!client) {
        const config = input.models.find((m) => m.id === modelId);
        if (!config) throw new Error(`model ${JSON.stringify(modelId)} is not configured`);
        client = input.createModelClient(config);
        clients.set(modelId, client);
      }
      return client;
    },
  };
}
