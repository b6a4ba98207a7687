// I-106: commands the extension serves to any agent through `terminal/*` run confined like the
// built-in agent's bash: no host secrets in their environment, no network, `.git/hooks` and
// `.git/config` read-only, and kill/release/dispose end the whole tree (a setsid'd grandchild too).
// No VS Code needed: TerminalService is vscode-free.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import { RequestError } from "@agentclientprotocol/sdk";
import { TerminalService, terminalShellCommand } from "../../../extension/client/terminals";
import { detectSandbox, type CommandSandbox } from "../../../sandbox";
import { createNoSandbox } from "../../../sandbox/none";
import { pidsMatching, pollUntil } from "../tools/procs";

const linux = process.platform === "linux";
const TOKEN = "ghp_manifoldI106TokenValue0123456789";
const AWS = "manifoldI106AwsSecretValue/abcdefghij";

function workspace(): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-term-")));
  const ws = join(base, "ws");
  mkdirSync(ws);
  execFileSync("git", ["init", "-q", ws]);
  return ws;
}

let detected: Promise<CommandSandbox> | undefined;
/** The extension's way: one detection, from an extension environment that holds host secrets. */
function sandbox(): Promise<CommandSandbox> {
  return (detected ??= detectSandbox({ ...process.env, GITHUB_TOKEN: TOKEN, AWS_SECRET_ACCESS_KEY: AWS }, { log: () => undefined }));
}

async function service(ws: string, tmpDir?: string): Promise<TerminalService> {
  return new TerminalService(new PathConfinement(ws), { sessionId: "s", sandbox, killGraceMs: 200, ...(tmpDir ? { tmpDir } : {}) });
}

async function run(terms: TerminalService, script: string): Promise<string> {
  const { terminalId } = await terms.create({ sessionId: "s", command: "bash", args: ["-c", script] });
  await terms.waitForExit(terminalId);
  return terms.output(terminalId).output;
}

describe("I-106: terminal/* commands get the built-in agent's confinement", { skip: !linux && "bubblewrap is Linux-only" }, () => {
  it("I-106: a served command cannot read GITHUB_TOKEN/AWS_SECRET_ACCESS_KEY, reach a loopback port, or write .git/hooks or .git/config", async () => {
    const ws = workspace();
    const configBefore = readFileSync(join(ws, ".git", "config"), "utf8");
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.end("hello\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    const terms = await service(ws);
    try {
      const out = await run(
        terms,
        [
          "env",
          `cat /proc/${process.pid}/environ`,
          `cat /proc/${process.ppid}/environ`,
          `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo NET-REACHED)`,
          "echo 'echo pwned' > .git/hooks/pre-commit",
          "echo '[core] fsmonitor = x' >> .git/config",
          "echo ran-to-end",
        ].join("; "),
      );
      assert.match(out, /ran-to-end/);
      assert.ok(!out.includes(TOKEN), "GITHUB_TOKEN reached the command");
      assert.ok(!out.includes(AWS), "AWS_SECRET_ACCESS_KEY reached the command");
      assert.ok(!out.includes("NET-REACHED") && connections === 0, "the command reached a loopback listener");
      assert.equal(existsSync(join(ws, ".git", "hooks", "pre-commit")), false, "the command wrote .git/hooks");
      assert.equal(readFileSync(join(ws, ".git", "config"), "utf8"), configBefore, "the command wrote .git/config");
      // It is confined, not broken: the folder itself is writable.
      await run(terms, "echo ok > inside.txt");
      assert.equal(readFileSync(join(ws, "inside.txt"), "utf8"), "ok\n");
    } finally {
      await terms.shutdown();
      server.close();
    }
  });

  for (const how of ["kill", "release", "dispose"] as const) {
    it(`I-106: terminal ${how} ends the whole tree, a setsid'd grandchild included`, async () => {
      const ws = workspace();
      const terms = await service(ws);
      const marker = `mf-term-${how}-${process.pid}-${Date.now()}`;
      const { terminalId } = await terms.create({
        sessionId: "s",
        command: "bash",
        args: ["-c", `setsid bash -c 'exec -a ${marker} sleep 300' >/dev/null 2>&1 & bash -c 'exec -a ${marker} sleep 300' & wait`],
      });
      // The sleeps exec asynchronously: the process table has no event.
      await pollUntil(() => pidsMatching(marker).length >= 2, "both marker processes");
      if (how === "kill") await terms.kill(terminalId);
      else if (how === "release") await terms.release(terminalId);
      else await terms.shutdown();
      assert.deepEqual(pidsMatching(marker), [], `a process of the tree outlived ${how}`);
      await terms.shutdown();
    });
  }
});

describe("terminal/* confinement details", () => {
  it(
    "I-106: variables the agent passes reach the command, secret-looking names never do",
    { skip: !linux && "bubblewrap is Linux-only" },
    async () => {
      const ws = workspace();
      const terms = await service(ws);
      const { terminalId } = await terms.create({
        sessionId: "s",
        command: "bash",
        args: ["-c", 'echo "foo=$FOO gh=${GH_TOKEN:-none} key=${MY_API_KEY:-none}"'],
        env: [
          { name: "FOO", value: "it's a value" },
          { name: "GH_TOKEN", value: "agent-token" },
          { name: "MY_API_KEY", value: "agent-key" },
          { name: "BAD NAME; touch pwned", value: "x" },
        ],
      });
      await terms.waitForExit(terminalId);
      assert.equal(terms.output(terminalId).output, "foo=it's a value gh=none key=none\n");
      assert.equal(existsSync(join(ws, "pwned")), false);
      await terms.shutdown();
    },
  );

  it("I-106: commands get the session's own /tmp, which dispose removes", { skip: !linux && "bubblewrap is Linux-only" }, async () => {
    const ws = workspace();
    const tmpDir = join(realpathSync(mkdtempSync(join(tmpdir(), "manifold-term-tmp-"))), "session");
    const terms = await service(ws, tmpDir);
    const { terminalId } = await terms.create({ sessionId: "s", command: "bash", args: ["-c", "echo kept > /tmp/note && echo $TMPDIR"] });
    await terms.waitForExit(terminalId);
    assert.equal(terms.output(terminalId).output, "/tmp\n");
    assert.equal(readFileSync(join(tmpDir, "note"), "utf8"), "kept\n");
    await terms.shutdown();
    assert.equal(existsSync(tmpDir), false, "the temp area outlived the session");
    await assert.rejects(terms.create({ sessionId: "s", command: "true" }), RequestError);
  });

  it("I-106: with no sandbox backend terminal/create fails closed and runs nothing", async () => {
    const ws = workspace();
    const terms = new TerminalService(new PathConfinement(ws), {
      sessionId: "s",
      sandbox: async () => createNoSandbox(process.env, "test"),
    });
    await assert.rejects(
      terms.create({ sessionId: "s", command: "touch", args: [join(ws, "ran")] }),
      (err: unknown) => err instanceof RequestError && /sandbox/i.test(err.message),
    );
    assert.equal(existsSync(join(ws, "ran")), false);
    await terms.shutdown();
  });

  it("terminalShellCommand quotes argv word by word and keeps a whole shell line as sent", () => {
    assert.equal(terminalShellCommand({ command: "echo", args: ["a b", "it's", "$(x)"] }), "'echo' 'a b' 'it'\\''s' '$(x)'");
    assert.equal(terminalShellCommand({ command: "npm test -- --watch" }), "npm test -- --watch");
    assert.equal(
      terminalShellCommand({
        command: "ls",
        env: [
          { name: "A", value: "x'y" },
          { name: "AWS_SECRET_ACCESS_KEY", value: "s" },
        ],
      }),
      "export A='x'\\''y'; 'ls'",
    );
  });
});
