// `fs/read_text_file` and `fs/write_text_file` for one session, confined to its folder (I-94).
// The editor side (unsaved buffers, undoable WorkspaceEdit) comes in as `EditorFiles`.
import { lstat, readFile } from "node:fs/promises";
import { RequestError } from "@agentclientprotocol/sdk";
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest } from "@agentclientprotocol/sdk";
import type { PathConfinement } from "./folderConfinement";

export interface EditorFiles {
  /** The text of an open document (with unsaved changes), or undefined if it is not open. */
  openDocumentText(realPath: string): string | undefined;
  /** Writes through the editor (undoable); creates the file (and parent folders) if missing. */
  write(realPath: string, content: string): Promise<void>;
}

/** Slices `text` to `limit` lines starting at 1-based `line`. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join("\n");
}

export class SessionFileService {
  constructor(
    private readonly confinement: PathConfinement,
    private readonly editor: EditorFiles,
  ) {}

  async readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const r = await this.confinement.confine(params.path);
    if (!r.ok) throw RequestError.invalidParams({ path: params.path }, r.reason);
    let text = this.editor.openDocumentText(r.path);
    if (text === undefined) {
      try {
        text = await readFile(r.path, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") throw RequestError.resourceNotFound(params.path);
        throw RequestError.internalError(undefined, `cannot read ${params.path}: ${(err as Error).message}`);
      }
    }
    return { content: sliceLines(text, params.line, params.limit) };
  }

  async writeTextFile(params: WriteTextFileRequest): Promise<void> {
    const r = await this.confinement.confine(params.path);
    if (!r.ok) throw RequestError.invalidParams({ path: params.path }, r.reason);
    try {
      const st = await lstat(r.path);
      if (st.isDirectory()) throw RequestError.invalidParams({ path: params.path }, `${params.path} is a directory`);
      // A hard link inside the folder may alias a file outside it: refuse to write through it.
      if (st.nlink > 1) throw RequestError.invalidParams({ path: params.path }, `${params.path} has several hard links; refusing to write through it`);
    } catch (err) {
      if (err instanceof RequestError) throw err;
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw RequestError.internalError(undefined, (err as Error).message);
    }
    await this.editor.write(r.path, params.content);
  }
}
