// A stand-in extension window: the real FolderSession/SessionOpener (the parts without vscode)
// against the built agent-server, with the folder binding kept in a JSON file on disk. It attaches
// the folder, optionally sends one prompt, prints `session <id>` and exits. `EXACT_WINDOW_KILL_AT`
// makes it SIGKILL itself at one point of a session's creation (I-120):
//   after-binding  the binding was written, `session/new` not yet sent
//   after-new      `session/new` was answered, nothing after it done (no binding write that follows it)
// Environment: EXACT_WINDOW_DATA_DIR, EXACT_WINDOW_FOLDER, EXACT_WINDOW_BINDINGS, EXACT_WINDOW_PROMPT,
// and the agent's model variables (passed on to it).
import * as acp from "@agentclientprotocol/sdk";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { AcpClient } from "../../extension/agent/acpClient";
import { noEditor } from "../../extension/client/fileService";
import { FolderSession } from "../../extension/sessions/folderSession";
import { createNoSandbox } from "../../sandbox/none";
import { AGENT_BUNDLE } from "./agentProcess";

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

const dataDir = need("EXACT_WINDOW_DATA_DIR");
const folder = need("EXACT_WINDOW_FOLDER");
const bindingsFile = need("EXACT_WINDOW_BINDINGS");
const killAt = process.env.EXACT_WINDOW_KILL_AT ?? "";
const promptText = process.env.EXACT_WINDOW_PROMPT ?? "";

function die(point: string): void {
  if (killAt === point) process.kill(process.pid, "SIGKILL");
}

function fileBindings() {
  const read = (): Record<string, string> =>
    existsSync(bindingsFile) ? (JSON.parse(readFileSync(bindingsFile, "utf8")) as Record<string, string>) : {};
  return {
    get: (f: string) => read()[f],
    set: (f: string, id: string | undefined) => {
      const all = read();
      if (id === undefined) delete all[f];
      else all[f] = id;
      writeFileSync(bindingsFile, JSON.stringify(all));
      die("after-binding");
    },
  };
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, [AGENT_BUNDLE, "--data-dir", dataDir], { stdio: ["pipe", "pipe", "inherit"], env: process.env });
  process.stdout.write(`agent-pid ${child.pid}\n`);
  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  const client = new AcpClient(stream);
  await client.initialize();
  const newSession = client.newSession.bind(client);
  client.newSession = async (...args: Parameters<AcpClient["newSession"]>) => {
    const res = await newSession(...args);
    die("after-new");
    return res;
  };
  const session = new FolderSession(folder, "folder", {
    bindings: fileBindings(),
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this window"),
  });
  await session.attach(client, { restart: false });
  if (promptText) await session.prompt([{ type: "text", text: promptText }], { text: promptText, attachments: [] });
  process.stdout.write(`session ${session.sessionId ?? ""}\n`);
  await session.shutdown();
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
}

main().catch((err: unknown) => {
  process.stderr.write(`window failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
