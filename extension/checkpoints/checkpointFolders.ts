// One FolderCheckpoints per workspace folder, under the extension's global storage; git is probed
// once, and without it every caller gets the same plain reason instead of a checkpoint.
import * as path from "node:path";
import { FolderCheckpoints, type FolderCheckpointsOptions } from "./folderCheckpoints";
import { gitVersion } from "./git";
import { Emitter, type Event } from "../../base/event";
import { errorMessage } from "../../base/errors";

export class CheckpointFolders {
  readonly #folders = new Map<string, FolderCheckpoints>();
  #unavailable?: string;
  readonly #onDidChange = new Emitter<string>();
  /** Record changes of any folder, named as asked for in forFolder (the sessions view redraws its changed files). */
  readonly onDidChange: Event<string> = this.#onDidChange.event;

  constructor(
    readonly storageRoot: string,
    private readonly opts: FolderCheckpointsOptions = {},
    log: (m: string) => void = () => undefined,
  ) {
    gitVersion().then(
      (v) => log(`checkpoints: ${v}`),
      (err: unknown) => {
        this.#unavailable = `Checkpoints are off: ${errorMessage(err)} Install git to review and undo the agent's changes.`;
        log(this.#unavailable);
      },
    );
  }

  forFolder(folder: string): { ck: FolderCheckpoints } | { unavailable: string } {
    if (this.#unavailable) return { unavailable: this.#unavailable };
    let ck = this.#folders.get(folder);
    if (!ck) {
      try {
        ck = new FolderCheckpoints(path.join(this.storageRoot), folder, { ...this.opts, onChanged: () => this.#changed(folder) });
      } catch (err) {
        return { unavailable: `Checkpoints are off for ${folder}: ${errorMessage(err)}` };
      }
      this.#folders.set(folder, ck);
    }
    return { ck };
  }

  #changed(folder: string): void {
    this.opts.onChanged?.(folder);
    this.#onDidChange.fire(folder);
  }

  /** A folder's checkpoints when available (for the session's prompt hooks), else undefined. */
  get(folder: string): FolderCheckpoints | undefined {
    const r = this.forFolder(folder);
    return "ck" in r ? r.ck : undefined;
  }
}
