// I-116: the hide list is checked once at start-up (sandbox/hideDirs.ts), the file-tool fence honours
// it around a session's own folder, and the extension's terminals for third-party agents hide
// Manifold's storage like the built-in agent's commands. Works as root and as uid 65534.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createFence } from "../../../agent-server/tools/fence";
import { manifoldStorageDirs } from "../../../extension/agent/storageDirs";
import { PathConfinement } from "../../../extension/client/folderConfinement";
import { TerminalService } from "../../../extension/client/terminals";
import { outermost, parseHideDirs, resolveHideDirs } from "../../../sandbox/hideDirs";
import type { CommandSandbox } from "../../../sandbox/types";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";

let fx: Fixture;
before(() => {
  fx = makeFixture("mf-hide-");
});
after(() => fx.cleanup());

function collect(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}

describe("I-116: the hide list is checked at start-up", () => {
  it("I-116: relative, NUL, `/`, a file, the home directory and its ancestors are skipped and logged; the rest is created and real", () => {
    const home = fx.dir("start/home");
    const missing = path.join(fx.base, "start", "storage", "new");
    const target = fx.dir("start/real-logs");
    const link = path.join(fx.base, "start", "logs-link");
    fs.symlinkSync(target, link);
    const file = path.join(fx.base, "start", "file");
    fs.writeFileSync(file, "x");
    const { lines, log } = collect();
    const got = resolveHideDirs(["relative/dir", "/a\0b", "/", file, home, path.dirname(home), missing, link], { home, log });
    assert.deepEqual(got, [missing, target]);
    assert.equal(fs.statSync(missing).mode & 0o777, 0o700);
    assert.equal(lines.length, 6, lines.join("\n"));
    assert.ok(lines.every((l) => l.startsWith("[sandbox] not hiding ")));
  });

  it("I-116: nested dirs collapse to the outermost; the env list splits on the path delimiter", () => {
    assert.deepEqual(outermost(["/u/User/globalStorage/x", "/u", "/logs", "/u/logs/w1"]), ["/u", "/logs"]);
    assert.deepEqual(parseHideDirs(["/a", " ", "/b "].join(path.delimiter)), ["/a", "/b"]);
    assert.deepEqual(parseHideDirs(undefined), []);
  });
});

describe("I-116: the file-tool fence and a session folder inside a hidden dir", () => {
  it("I-116: a hidden dir holding the session's folder refuses everything around it, never the folder itself", () => {
    const storage = fx.dir("fence/storage");
    const root = fx.dir("fence/storage/opened-folder");
    const inner = fx.dir("fence/storage/opened-folder/sessions");
    const fence = createFence([storage, inner], { root, tmpDir: path.join(fx.base, ".tmp", "f") });
    assert.equal(fence.refuses(path.join(storage, "checkpoints", "x.git", "HEAD")), true);
    assert.equal(fence.refuses(path.join(root, "src", "a.ts")), false);
    assert.equal(fence.refuses(path.join(inner, "other.jsonl")), true, "a hidden dir inside the folder stays refused");
    const outside = createFence([storage], { root: fx.dir("fence/elsewhere"), tmpDir: path.join(fx.base, ".tmp", "g") });
    assert.equal(outside.refuses(path.join(root, "src", "a.ts")), true);
  });
});

describe(`I-116: the extension's terminals hide Manifold's storage (${asWho})`, { skip: !linux && "Linux only" }, () => {
  const SECRET = "TERMINAL-SEES-CHECKPOINT-3391";

  function storage(): { where: Parameters<typeof manifoldStorageDirs>[0]; file: string } {
    const userData = fx.dir("term/user-data");
    const globalStorage = fx.dir("term/user-data/User/globalStorage/manifold.manifold");
    const file = path.join(globalStorage, "checkpoints", "b.git", "HEAD");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${SECRET}\n`);
    return {
      where: {
        globalStorageUri: { fsPath: globalStorage },
        storageUri: { fsPath: path.join(userData, "User", "workspaceStorage", "h", "manifold.manifold") },
        logUri: { fsPath: fx.dir("term/user-data/logs/1/window1/exthost/manifold.manifold") },
      },
      file,
    };
  }

  async function catFrom(sandbox: CommandSandbox, file: string): Promise<string> {
    const ws = fx.dir(`term/ws-${Math.random().toString(36).slice(2)}`);
    const terms = new TerminalService(new PathConfinement(ws), {
      sessionId: "s",
      sandbox: () => Promise.resolve(sandbox),
      tmpDir: path.join(fx.base, ".tmp", path.basename(ws)),
      killGraceMs: 200,
    });
    try {
      const { terminalId } = await terms.create({ sessionId: "s", command: "bash", args: ["-c", `cat '${file}'; echo RAN`] });
      await terms.waitForExit(terminalId);
      return terms.output(terminalId).output;
    } finally {
      await terms.shutdown();
    }
  }

  it("I-116: a served command cannot read another folder's checkpoint under global storage", async (t) => {
    const { where, file } = storage();
    const { log } = collect();
    const sandbox = await detect({ hide: resolveHideDirs(manifoldStorageDirs(where), { home: process.env.HOME, log }) });
    if (sandbox.backend !== "bubblewrap") return t.skip(`${sandbox.backend}: Landlock cannot mask reads; without a backend nothing runs`);
    const out = await catFrom(sandbox, file);
    assert.match(out, /RAN/);
    assert.equal(out.includes(SECRET), false, out);
  });

  it("I-116: without the hide list the same command reads it (the test above can fail)", async (t) => {
    const { file } = storage();
    const sandbox = await detect({});
    if (sandbox.backend !== "bubblewrap") return t.skip(sandbox.backend);
    assert.match(await catFrom(sandbox, file), new RegExp(SECRET));
  });
});
