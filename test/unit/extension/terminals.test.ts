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
import { after, before, describe, it } from "node:test";
import { PathConfinement } from "../../../extension/client/pathGuard";
import { bubblewrapAvailable, TerminalService } from "../../../extension/client/terminals";
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

async function service(ws: string): Promise<TerminalService> {
  return new TerminalService(new PathConfinement(ws), { sandbox: bubblewrapAvailable() });
}

async function run(terms: TerminalService, script: string): Promise<string> {
  const { terminalId } = await terms.create({ sessionId: "s", command: "bash", args: ["-c", script] });
  await terms.waitForExit(terminalId);
  return terms.output(terminalId).output;
}

describe("I-106: terminal/* commands get the built-in agent's confinement", { skip: !linux && "bubblewrap is Linux-only" }, () => {
  const saved = { GITHUB_TOKEN: process.env.GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY };
  before(() => {
    process.env.GITHUB_TOKEN = TOKEN;
    process.env.AWS_SECRET_ACCESS_KEY = AWS;
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

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
      await terms.dispose();
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
      else await terms.dispose();
      assert.deepEqual(pidsMatching(marker), [], `a process of the tree outlived ${how}`);
      await terms.dispose();
    });
  }
});
