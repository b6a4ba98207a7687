// `fs/read_text_file` and `fs/write_text_file` for one session, confined to its folder (I-94).
// The editor side (documents with unsaved changes: their text, undoable edits) comes in as
// `EditorFiles`; everything else goes to the disk through the shared race-free primitives of sandbox/.
// A missing file in the folder reads as empty text, as in Zed; a write replaces the file atomically,
// with no existence check before it to race. A request refused because its path leaves the folder is
// also said in the folder's panel: an agent may swallow the error and write the file itself.
import { RequestError } from "@agentclientprotocol/sdk";
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest } from "@agentclientprotocol/sdk";
import { FileTooLargeError, NotRegularFileError, readRegular } from "../../sandbox/fileRead";
import { hasOtherHardLinks } from "../../sandbox/pathGuard";
import { PathChangedError, writeFileAtomic } from "../../sandbox/safeWrite";
import type { PathConfinement } from "./folderConfinement";

export interface EditorFiles {
  /** The text of a document with unsaved changes, or undefined when the disk has the file's text. */
  openDocumentText(realPath: string): string | undefined;
  /**
   * Replaces the whole text of the document with unsaved changes the editor holds for `realPath`
   * with one undoable edit and saves it. Resolves false, changing nothing, when there is no such
   * document: the caller then writes the disk.
   */
  writeOpenDocument(realPath: string, content: string): Promise<boolean>;
}

/** An editor with no documents: reads and writes all go to the disk (plain Node, the agent harness). */
export const noEditor: EditorFiles = {
  openDocumentText: () => undefined,
  writeOpenDocument: async () => false,
};

/** Largest file served whole; a bigger one is refused rather than loaded into the extension host. */
export const MAX_SERVED_BYTES = 10 * 1024 * 1024;

/** Slices `text` to `limit` lines starting at 1-based `line`. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split("\n");
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join("\n");
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * What a missing file inside the folder reads as: empty text, as Zed answers (it opens a missing
 * project file as a new, empty buffer). Agents built against Zed rely on it: gemini-cli reads a
 * target before writing it and can recognise no error answer as "does not exist" (its ACP layer
 * receives the JSON-RPC error as a plain object and only knows Node's ENOENT), so any error here
 * made it refuse to create files. `_meta` still says the file does not exist, for agents that care.
 */
export function missingFileAnswer(): ReadTextFileResponse {
  return { content: "", _meta: { "manifold/exists": false } };
}

/** Told of every request refused because its path leaves the folder (the panel says so: I-94). */
export type RefusedListener = (access: "read" | "write", path: string, reason: string) => void;

export class SessionFileService {
  constructor(
    private readonly confinement: PathConfinement,
    private readonly editor: EditorFiles,
    private readonly onRefused: RefusedListener = () => undefined,
  ) {}

  async readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const real = await this.#confine("read", params.path);
    let text = this.editor.openDocumentText(real);
    if (text === undefined) {
      try {
        text = (await readRegular(real, MAX_SERVED_BYTES, { refuseLarger: true })).bytes.toString("utf8");
      } catch (err) {
        if (errno(err) === "ENOENT") return missingFileAnswer();
        if (err instanceof NotRegularFileError || err instanceof FileTooLargeError)
          throw RequestError.invalidParams({ path: params.path }, err.message);
        throw RequestError.internalError(undefined, `cannot read ${params.path}: ${(err as Error).message}`);
      }
    }
    return { content: sliceLines(text, params.line, params.limit) };
  }

  /**
   * A document with unsaved changes is edited in the editor (undoable there); any other file is
   * replaced on disk atomically through verified directory fds, creating missing folders. Nothing
   * checks existence first and acts on the answer later, so a file another writer creates or changes
   * meanwhile (opencode writes the file itself right after asking) never makes the write fail or vanish.
   */
  async writeTextFile(params: WriteTextFileRequest): Promise<void> {
    const real = await this.#confine("write", params.path);
    // A hard link inside the folder may alias a file outside it: refuse to write through it.
    if (hasOtherHardLinks(real))
      throw RequestError.invalidParams({ path: params.path }, `${params.path} has several hard links; refusing to write through it`);
    try {
      if (await this.editor.writeOpenDocument(real, params.content)) return;
      await writeFileAtomic(real, params.content, { mkdirs: true });
    } catch (err) {
      if (err instanceof RequestError) throw err;
      if (err instanceof NotRegularFileError || err instanceof PathChangedError)
        throw RequestError.invalidParams({ path: params.path }, err.message);
      throw RequestError.internalError(undefined, `cannot write ${params.path}: ${(err as Error).message}`);
    }
  }

  async #confine(access: "read" | "write", path: string): Promise<string> {
    const r = await this.confinement.confine(path, access);
    if (!r.ok) {
      this.onRefused(access, path, r.reason);
      throw RequestError.invalidParams({ path }, r.reason);
    }
    return r.path;
  }
}
