// I-112: existing protected config inside the folder — `.vscode/settings.json`,
// `.devcontainer/devcontainer.json`, a `*.code-workspace`, a client-named env file — cannot be
// written, renamed or replaced (mv / rm -rf + recreate) by a confined command. The proof is the
// host: after the attack, the files read on the host still hold what the user put there.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type { CommandSandbox } from "../../../sandbox/types";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";

let fx: Fixture;
let sb: CommandSandbox;

before(async () => {
  fx = makeFixture("mf-esc-cfg-");
  sb = await detect();
});
after(() => fx.cleanup());

const ORIGINAL: Record<string, string> = {
  ".vscode/settings.json": '{"editor.tabSize": 2}\n',
  ".devcontainer/devcontainer.json": '{"image": "node:20"}\n',
  "x.code-workspace": '{"folders": [{"path": "."}]}\n',
  ".Claude/settings.json": '{"permissions": {}}\n',
  "srv/.env": "A=1\n",
};
const EVIL = '{"manifold.defaultMode":"full-access","chat.tools.autoApprove":true}';

function project(name: string): string {
  const root = fx.dir(name);
  for (const [rel, text] of Object.entries(ORIGINAL)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** The host reads every protected file as the user left it (and nothing was added beside them). */
function unchanged(root: string, out: string): void {
  for (const [rel, text] of Object.entries(ORIGINAL)) {
    const p = path.join(root, rel);
    assert.equal(fs.lstatSync(p).isFile(), true, `${rel} is no longer a file; sandbox output:\n${out}`);
    assert.equal(fs.readFileSync(p, "utf8"), text, `${rel} changed; sandbox output:\n${out}`);
  }
  assert.deepEqual(fs.readdirSync(path.join(root, ".vscode")), ["settings.json"], out);
}

describe(`bubblewrap: existing protected config stays as the user left it (${asWho})`, { skip: !linux && "Linux only" }, () => {
  const ctx = (id: string, root: string) => fx.ctxFor(id, root, { protectedPaths: [path.join(root, "srv", ".env")] });

  it("I-112: writing, appending, truncating and adding a file are refused", async (t) => {
    if (sb.backend !== "bubblewrap") return t.skip(`backend is ${sb.backend}`);
    const root = project("write");
    const cmds = Object.keys(ORIGINAL).map((rel) => `echo '${EVIL}' > ${rel}; echo '${EVIL}' >> ${rel}; truncate -s0 ${rel}`);
    const r = await runIn(sb, ctx("c", root), [...cmds, `echo '${EVIL}' > .vscode/mcp.json; echo ok`].join("; "));
    unchanged(root, r.out);
  });

  it("I-112: renaming them or their folders away is refused (mv, rename of the parent of an env file)", async (t) => {
    if (sb.backend !== "bubblewrap") return t.skip(`backend is ${sb.backend}`);
    const root = project("rename");
    const r = await runIn(
      sb,
      ctx("c", root),
      [
        "mv .vscode vs-old && mkdir .vscode && echo '" + EVIL + "' > .vscode/settings.json",
        "mv .vscode/settings.json .vscode/s.bak",
        "mv .devcontainer dc-old && mkdir .devcontainer && echo '{}' > .devcontainer/devcontainer.json",
        "mv x.code-workspace y && echo '{}' > x.code-workspace",
        "mv .Claude c-old && mkdir .claude",
        "mv srv srv-old && mkdir srv && echo 'NODE_OPTIONS=--require=./hook.cjs' > srv/.env",
        "mv srv/.env srv/env.bak",
        "true",
      ].join("; "),
    );
    unchanged(root, r.out);
    assert.equal(fs.existsSync(path.join(root, "vs-old")), false, r.out);
    assert.equal(fs.existsSync(path.join(root, "srv-old")), false, r.out);
  });

  it("I-112: rm -rf and recreate within one command, also through a symlink swap, plants nothing", async (t) => {
    if (sb.backend !== "bubblewrap") return t.skip(`backend is ${sb.backend}`);
    const root = project("replace");
    const r = await runIn(
      sb,
      ctx("c", root),
      [
        `rm -rf .vscode .devcontainer x.code-workspace .Claude srv/.env`,
        `mkdir -p .vscode .devcontainer; echo '${EVIL}' > .vscode/settings.json; echo '{}' > .devcontainer/devcontainer.json; echo '{}' > x.code-workspace`,
        `ln -sfn /tmp .vscode; ln -sf evil.json x.code-workspace; echo X=1 > srv/.env`,
        `cp -a .vscode v2 && echo '${EVIL}' > v2/settings.json && mv -f v2 .vscode; mv -T v2 .vscode`,
        "true",
      ].join("; "),
    );
    unchanged(root, r.out);
  });
});
