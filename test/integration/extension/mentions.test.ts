// `@` mentions at the extension level: each `@` mention kind, resolved through the session's own
// confinement and the prompt builder, reaches the (in-process fake) agent as the right ACP block; a
// file, symbol, problem or terminal run outside the session's folder is refused or left out (I-94).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import { buildPrompt, attachmentLabel, type ResolvedAttachment } from "../../../extension/chat/promptBuilder";
import {
  confinedFile,
  confinedProblems,
  confinedSelection,
  confinedSymbol,
  confinedTerminal,
  type Mention,
} from "../../../extension/chat/mentions";
import { TerminalLog } from "../../../extension/common/terminalLog";
import { FolderSession } from "../../../extension/sessions/folderSession";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";
import { createFakeAgent } from "./fakeAgent";

const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

interface Harness {
  session: FolderSession;
  alpha: string;
  outside: string;
  /** Sends `atts` as the session's panel does; resolves with the blocks the agent received. */
  send(text: string, atts: ResolvedAttachment[]): Promise<ContentBlock[]>;
}

async function setup(embeddedContext: boolean): Promise<Harness> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-mentions-")));
  const alpha = join(base, "alpha");
  const outside = join(base, "alpha-evil"); // a sibling whose name extends the folder's (I-67)
  mkdirSync(join(alpha, "src"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(alpha, "src", "greet.ts"), "// greeting\nexport function greet(name: string): string {\n  return `hi ${name}`;\n}\n");
  writeFileSync(join(outside, "secret.ts"), "export const secret = 'do not send';\n");
  symlinkSync(join(outside, "secret.ts"), join(alpha, "src", "link.ts"));
  const fake = createFakeAgent({ promptCapabilities: { embeddedContext } });
  const received: ContentBlock[][] = [];
  fake.onPrompt = ({ params }) => {
    received.push(params.prompt);
    return Promise.resolve("end_turn");
  };
  const client = new AcpClient(fake.app);
  await client.initialize();
  const binds = new Map<string, string>();
  const session = new FolderSession(alpha, "alpha", {
    bindings: { get: (f) => binds.get(f), set: (f, id) => void (id ? binds.set(f, id) : binds.delete(f)) },
    editor: noEditor,
    terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
  });
  made.push(session);
  await session.attach(client, { restart: false });
  assert.equal(session.state.promptCapabilities.embeddedContext, embeddedContext);
  return {
    session,
    alpha,
    outside,
    async send(text, atts) {
      const blocks = buildPrompt(text, atts, session.state.promptCapabilities);
      await session.prompt(blocks, { text, attachments: atts.map(attachmentLabel) });
      const last = received.at(-1);
      assert.ok(last, "the agent received the prompt");
      return last;
    },
  };
}

function ok<T>(m: Mention<T>): T {
  assert.ok(m.ok, m.ok ? "" : m.reason);
  return m.attachment;
}

const readText = async (p: string) => readFileSync(p, "utf8");
const confineOf = (h: Harness) => (p: string) => h.session.confinement.confine(p);

function runsOf(cwd: string, command: string, output: string) {
  const log = new TerminalLog();
  const r = log.start(command, cwd);
  log.append(r, output);
  log.end(r, 0);
  return log.runs();
}

test("each mention kind reaches the agent as the right ACP block (embedded context)", async () => {
  const h = await setup(true);
  const confine = confineOf(h);
  const greet = join(h.alpha, "src", "greet.ts");
  const file = ok(await confinedFile(confine, greet, readText));
  const selection = ok(await confinedSelection(confine, { path: greet, startLine: 3, endLine: 3, text: "  return `hi ${name}`;" }));
  const symbol = ok(
    await confinedSymbol(confine, { name: "greet", symbolKind: "function", path: greet, startLine: 2, endLine: 4 }, async (p) =>
      readFileSync(p, "utf8").split("\n").slice(1, 4).join("\n"),
    ),
  );
  const problems = await confinedProblems(confine, h.alpha, [
    { path: greet, line: 3, column: 10, severity: "error", message: "Cannot find name 'nam'.", source: "ts", code: "2304" },
    { path: join(h.outside, "secret.ts"), line: 1, column: 1, severity: "error", message: "an outside problem" },
  ]);
  const log = new TerminalLog();
  const inside = log.start("npm test", h.alpha);
  log.append(inside, "\u001b[31m1 failing\u001b[0m\r\n");
  log.end(inside, 1);
  const elsewhere = log.start("cat secret", h.outside);
  log.append(elsewhere, "outside output\n");
  log.end(elsewhere, 0);
  const terminal = ok(await confinedTerminal(confine, "bash", log.runs()));

  const blocks = await h.send("explain", [file, selection, symbol, problems, terminal]);
  const uri = pathToFileURL(greet).href;
  assert.deepEqual(blocks[0], { type: "text", text: "explain" });
  assert.deepEqual(blocks[1], { type: "resource", resource: { uri, text: readFileSync(greet, "utf8"), mimeType: "text/plain" } });
  assert.deepEqual(blocks[2], {
    type: "resource",
    resource: { uri: `${uri}#L3-L3`, text: "  return `hi ${name}`;", mimeType: "text/plain" },
  });
  assert.deepEqual(blocks[3], {
    type: "resource",
    resource: {
      uri: `${uri}#L2-L4`,
      mimeType: "text/plain",
      text: "export function greet(name: string): string {\n  return `hi ${name}`;\n}",
    },
  });
  assert.deepEqual(blocks[4], {
    type: "resource",
    resource: {
      uri: "manifold://problems/alpha",
      mimeType: "text/plain",
      text: "Problems in alpha (1 error):\nsrc/greet.ts:3:10: error: Cannot find name 'nam'. [ts 2304]",
    },
  });
  assert.deepEqual(blocks[5], {
    type: "resource",
    resource: {
      uri: "manifold://terminal/bash",
      mimeType: "text/plain",
      text: 'Recent output of terminal "bash":\n\n$ npm test\n1 failing\n[exit code 1]',
    },
  });
  assert.equal(blocks.length, 6);
  assert.doesNotMatch(JSON.stringify(blocks), /outside|do not send|alpha-evil/);
  // The transcript's user message lists the chips by label.
  const user = h.session.state.entries.find((e) => e.kind === "user");
  assert.deepEqual(user && "attachments" in user ? user.attachments : undefined, [
    "greet.ts",
    "greet.ts:3-3",
    "greet (greet.ts:2)",
    "Problems (1)",
    "Terminal: bash",
  ]);
});

test("without embedded context: a symbol is a link naming it, problems and terminal output are quoted", async () => {
  const h = await setup(false);
  const confine = confineOf(h);
  const greet = join(h.alpha, "src", "greet.ts");
  const symbol = ok(
    await confinedSymbol(confine, { name: "greet", symbolKind: "function", path: greet, startLine: 2, endLine: 4 }, readText),
  );
  const problems = await confinedProblems(confine, h.alpha, [{ path: greet, line: 3, column: 10, severity: "warning", message: "unused" }]);
  const terminal = ok(await confinedTerminal(confine, "zsh", runsOf(join(h.alpha, "src"), "ls", "greet.ts\n")));
  const blocks = await h.send("why", [symbol, problems, terminal]);
  assert.deepEqual(blocks, [
    { type: "text", text: `why\n\n${problems.text}\n\n${terminal.kind === "terminal" ? terminal.text : ""}` },
    { type: "resource_link", uri: pathToFileURL(greet).href, name: "greet.ts", description: "function greet, lines 2-4" },
  ]);
  assert.match(blocks[0]?.type === "text" ? blocks[0].text : "", /greet\.ts:3:10: warning: unused[\s\S]*\$ ls\ngreet\.ts/);
});

test("I-94: a file, selection or symbol outside the folder, or through a symlink leading out, is refused", async () => {
  const h = await setup(true);
  const confine = confineOf(h);
  const secret = join(h.outside, "secret.ts");
  const link = join(h.alpha, "src", "link.ts");
  let reads = 0;
  const counting = async (p: string) => {
    reads++;
    return readText(p);
  };
  for (const m of [
    await confinedFile(confine, secret, counting),
    await confinedFile(confine, link, counting),
    await confinedFile(confine, join(h.alpha, "..", "alpha-evil", "secret.ts"), counting),
    await confinedSelection(confine, { path: secret, startLine: 1, endLine: 1, text: "x" }),
    await confinedSymbol(confine, { name: "secret", symbolKind: "constant", path: link, startLine: 1, endLine: 1 }, counting),
  ]) {
    assert.equal(m.ok, false, JSON.stringify(m));
    if (!m.ok) assert.match(m.reason, /outside the session folder/);
  }
  assert.equal(reads, 0, "nothing outside was read");
  // Problems of outside files are left out, and not counted.
  const problems = await confinedProblems(confine, h.alpha, [
    { path: link, line: 1, column: 1, severity: "error", message: "via the link" },
  ]);
  assert.equal(problems.count, 0);
  assert.doesNotMatch(problems.text, /via the link/);
  // A terminal that ran nothing in the folder (or whose cwd is unknown) offers nothing, and says why.
  const elsewhere = await confinedTerminal(confine, "bash", runsOf(h.outside, "cat secret.ts", "do not send"));
  assert.deepEqual(elsewhere, { ok: false, reason: 'terminal "bash" ran nothing in this folder' });
  const log = new TerminalLog();
  log.start("echo", undefined);
  assert.equal((await confinedTerminal(confine, "bash", log.runs())).ok, false);
  const none = await confinedTerminal(confine, "bash", []);
  assert.ok(!none.ok && /no output captured/.test(none.reason));
});
