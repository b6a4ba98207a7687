// AGENTS.md into the system prompt: only a regular file inside the session's root, capped; a symlink
// out of the root, a FIFO (which would block a read, I-111) or a directory gives nothing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { MAX_INSTRUCTIONS_BYTES, projectInstructions } from "../../../agent-server/runtime/instructions";

describe("projectInstructions (AGENTS.md)", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "mf-agents-md-")));
  after(() => rmSync(base, { recursive: true, force: true }));
  const root = (name: string): string => {
    const p = join(base, name);
    mkdirSync(p);
    return p;
  };

  it("reads a regular file at the root, capped with a note; none gives null", async () => {
    const r = root("plain");
    assert.equal(await projectInstructions(r), null);
    writeFileSync(join(r, "AGENTS.md"), "use tabs\n");
    assert.equal(await projectInstructions(r), "Project instructions from AGENTS.md (follow them):\n<agents_md>\nuse tabs\n\n</agents_md>");
    writeFileSync(join(r, "AGENTS.md"), "y".repeat(MAX_INSTRUCTIONS_BYTES + 10));
    const capped = (await projectInstructions(r)) ?? "";
    assert.ok(
      capped.includes(
        `${"y".repeat(MAX_INSTRUCTIONS_BYTES)}\n[AGENTS.md is longer than ${MAX_INSTRUCTIONS_BYTES} bytes; the rest is not shown.]`,
      ),
    );
    assert.ok(!capped.includes("y".repeat(MAX_INSTRUCTIONS_BYTES + 1)));
  });

  it("a symlink out of the root, a FIFO and a directory give null (and the FIFO does not block)", async () => {
    const outside = join(base, "secret.txt");
    writeFileSync(outside, "SECRET");
    const linked = root("linked");
    symlinkSync(outside, join(linked, "AGENTS.md"));
    assert.equal(await projectInstructions(linked), null);
    const fifo = root("fifo");
    execFileSync("mkfifo", [join(fifo, "AGENTS.md")]);
    assert.equal(await projectInstructions(fifo), null);
    const dir = root("dir");
    mkdirSync(join(dir, "AGENTS.md"));
    assert.equal(await projectInstructions(dir), null);
  });
});
