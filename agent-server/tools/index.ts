// Entry points of the tools layer.
import type { CommandSandbox } from "../../sandbox/types";
import { askUserTool } from "./askUser";
import { bashKillTool } from "./bashKill";
import { bashOutputTool } from "./bashOutput";
import { createBashTool } from "./bash";
import { ConfigHold } from "./configHold";
import { editFileTool } from "./editFile";
import { grepTool } from "./grep";
import { listFilesTool } from "./listFiles";
import { readFileTool } from "./readFile";
import { updatePlanTool } from "./updatePlan";
import { createRunner } from "./runner";
import type { SessionToolSource, Tool, ToolRunner } from "./types";
import { writeFileTool } from "./writeFile";

export type { ToolRunner, Tool } from "./types";
export { createTaskTable, type TaskTable } from "./tasks/taskTable";
export { delegateTool } from "./delegate";

export interface ToolRunnerDeps {
  sandbox: CommandSandbox;
  /** Extra tools (e.g. `delegate`, owned by the runtime), appended after the built-ins. */
  extraTools?: readonly Tool[];
  /** Directories refused to every file tool in every mode: the server's data dir (every session's log). */
  hidden?: readonly string[];
  /** Tools of one session only (its MCP servers'). */
  sessionTools?: SessionToolSource;
}

export function builtinTools(sandbox: CommandSandbox, hold?: ConfigHold): Tool[] {
  const list: Tool[] = [
    readFileTool,
    writeFileTool,
    editFileTool,
    listFilesTool,
    grepTool,
    createBashTool(sandbox, hold),
    bashOutputTool,
    bashKillTool,
    updatePlanTool,
    askUserTool, // offered only when the client supports form elicitation
  ];
  return list;
}

/** Validation, policy, permission, execution and output truncation for every built-in tool. */
export function createToolRunner(deps: ToolRunnerDeps): ToolRunner {
  // Held config waits in the data dir, which every confined command has hidden (I-112).
  const hold = new ConfigHold(deps.hidden?.[0] !== undefined ? { quarantineDir: deps.hidden[0] } : {});
  return createRunner({
    sandbox: deps.sandbox,
    tools: [...builtinTools(deps.sandbox, hold), ...(deps.extraTools ?? [])],
    hidden: deps.hidden,
    hold,
    ...(deps.sessionTools ? { sessionTools: deps.sessionTools } : {}),
  });
}
