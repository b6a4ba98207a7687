// The data dir (every session's log) stays hidden from commands even when a
// session's root contains it: the realistic case is the default data dir under
// ~/.local/share/… and a session whose folder is the home directory. Also the temp areas' parent.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";

let fx: Fixture;
let home: string;
let data: string;

before(() => {
  fx = makeFixture("mf-esc-data-");
  home = fx.dir("home");
  data = path.join(home, ".local", "share", "manifold", "sessions");
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(data, "other.jsonl"), "LOG-OF-ANOTHER-SESSION\n");
  fs.writeFileSync(path.join(home, "notes.txt"), "mine\n");
});
after(() => fx.cleanup());

describe(`bubblewrap: the data dir stays hidden when a session root contains it (${asWho})`, { skip: !linux && "Linux only" }, () => {
  for (const mode of ["workspace-write", "read-only"] as const) {
    it(`${mode}: a session whose folder is the home directory cannot read or append to another session's log`, async () => {
      const sb = await detect({ hide: [data] });
      const r = await runIn(
        sb,
        fx.ctxFor(`h-${mode}`, home, { mode }),
        `cat ${data}/other.jsonl 2>/dev/null || echo HIDDEN; cat .local/share/manifold/sessions/other.jsonl 2>/dev/null || echo HIDDEN-REL; { echo APPENDED >> ${data}/other.jsonl; } 2>/dev/null; cat notes.txt`,
      );
      assert.equal(r.out, "HIDDEN\nHIDDEN-REL\nmine\n");
      assert.equal(fs.readFileSync(path.join(data, "other.jsonl"), "utf8"), "LOG-OF-ANOTHER-SESSION\n");
    });
  }

  it("another session's temp area stays hidden when the root contains the temp areas' parent", async () => {
    const sb = await detect({ hide: [data] });
    const areas = path.join(home, "tmp-areas");
    const other = path.join(areas, "other");
    fs.mkdirSync(other, { recursive: true });
    fs.writeFileSync(path.join(other, "secret"), "TEMP-OF-ANOTHER-SESSION\n");
    const r = await runIn(
      sb,
      fx.ctxFor("t", home, { tmpDir: path.join(areas, "mine") }),
      `cat ${other}/secret 2>/dev/null || echo HIDDEN; echo own > /tmp/own && cat /tmp/own`,
    );
    assert.equal(r.out, "HIDDEN\nown\n");
  });

  it("a session root inside a hidden dir stays usable (the mask goes under the root there)", async () => {
    const sb = await detect({ hide: [data] });
    const inner = path.join(data, "weird-root");
    fs.mkdirSync(inner, { recursive: true });
    const r = await runIn(sb, fx.ctxFor("in", inner), `echo x > f && cat f; cat ${data}/other.jsonl 2>/dev/null || echo HIDDEN`);
    assert.equal(r.out, "x\nHIDDEN\n");
  });

  it("a hide dir given through a symlink is still masked when the root contains its real path", async () => {
    const link = path.join(fx.base, "data-link");
    fs.symlinkSync(data, link);
    const sb = await detect({ hide: [link] });
    const r = await runIn(
      sb,
      fx.ctxFor("sym", home),
      `cat ${data}/other.jsonl 2>/dev/null || echo HIDDEN; cat ${link}/other.jsonl 2>/dev/null || echo HIDDEN-LINK`,
    );
    assert.equal(r.out, "HIDDEN\nHIDDEN-LINK\n");
  });
});
