// Project instructions: `AGENTS.md` at the session's root (the convention Codex, Claude Code's
// AGENTS.md support and Zed share), read into the system prompt at every model step so an edit
// (or `/init`) applies from the next step. Read only when it is a regular file inside the root
// (no symlink out, no FIFO that would block, I-111), and capped.
import { constants } from "node:fs";
import { open, realpath, type FileHandle } from "node:fs/promises";
import { join, sep } from "node:path";
import { ignoreError } from "../../base/errors";

export const INSTRUCTIONS_FILE = "AGENTS.md";
export const MAX_INSTRUCTIONS_BYTES = 64 * 1024;

/** The system-prompt section for the root's AGENTS.md, or null when there is none to read. */
export async function projectInstructions(root: string): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(join(root, INSTRUCTIONS_FILE));
  } catch {
    return null;
  }
  if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  let fh;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is then refused as not a regular file.
    fh = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    return await readCapped(fh);
  } catch {
    return null; // unreadable now (EIO, EISDIR…): the step goes on without it
  } finally {
    await fh.close().catch(ignoreError("a read-only handle: closing it cannot lose anything"));
  }
}

async function readCapped(fh: FileHandle): Promise<string | null> {
  const st = await fh.stat();
  if (!st.isFile()) return null;
  const buf = Buffer.alloc(Math.min(st.size, MAX_INSTRUCTIONS_BYTES));
  const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
  const text = buf.subarray(0, bytesRead).toString("utf8");
  const cut =
    st.size > MAX_INSTRUCTIONS_BYTES ? `\n[AGENTS.md is longer than ${MAX_INSTRUCTIONS_BYTES} bytes; the rest is not shown.]` : "";
  return `Project instructions from ${INSTRUCTIONS_FILE} (follow them):\n<agents_md>\n${text}${cut}\n</agents_md>`;
}
