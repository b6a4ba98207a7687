// I-63: a session cwd is absolute, existing and a directory, and is used in canonical (realpath) form.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { canonicalCwd, CwdError } from "../../../agent-server/runtime/cwd";

describe("the session cwd rule", () => {
  let base: string;
  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-cwd-")));
    mkdirSync(join(base, "dir"));
    writeFileSync(join(base, "file"), "x");
    symlinkSync(join(base, "dir"), join(base, "dir-link"));
    symlinkSync(join(base, "file"), join(base, "file-link"));
    symlinkSync(join(base, "gone"), join(base, "dangling"));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it("I-63: a directory, however spelled, resolves to its canonical path", async () => {
    assert.equal(await canonicalCwd(join(base, "dir")), join(base, "dir"));
    assert.equal(await canonicalCwd(`${join(base, "dir")}/`), join(base, "dir"));
    assert.equal(await canonicalCwd(join(base, "dir-link")), join(base, "dir"));
    assert.equal(await canonicalCwd(`${base}/dir/../dir-link/`), join(base, "dir"));
    assert.equal(await canonicalCwd("/"), "/");
  });

  it("I-63: a file, a link to one, a missing path, a dangling link or a relative path is refused", async () => {
    const refused = async (cwd: unknown, why: RegExp) =>
      assert.rejects(canonicalCwd(cwd), (err: unknown) => err instanceof CwdError && why.test(err.message), String(cwd));
    await refused(join(base, "file"), /is not a directory/);
    await refused(join(base, "file-link"), /is not a directory/);
    await refused(join(base, "missing"), /does not exist/);
    await refused(join(base, "dangling"), /does not exist/);
    await refused(join(base, "file", "below"), /./);
    await refused("relative/dir", /absolute/);
    await refused("", /required/);
    await refused(42, /required/);
  });

  it("I-63: overlapping resolutions of one path share the answer, a later one sees the folder as it is then", async () => {
    const p = join(base, "later");
    mkdirSync(p);
    const [a, b] = await Promise.all([canonicalCwd(p), canonicalCwd(p)]);
    assert.deepEqual([a, b], [p, p]);
    rmSync(p, { recursive: true });
    await assert.rejects(canonicalCwd(p), CwdError);
  });
});
