// Config a fenced third-party agent creates where nothing existed (I-112, I-118). The fence binds the
// protected entries a folder has read-only, but a missing one has nothing to bind, and a new
// `*.code-workspace` has no fixed name: at a folder's top level the agent can create `.vscode/`,
// `.devcontainer/`, an agent config folder or a workspace file. The built-in agent's commands get the
// agent-server's catch-and-hold; a third-party agent gets this: after each turn of a session it
// serves, a new top-level config entry the user did not make through the editor is moved out of
// the folder into Manifold's storage, and the panel says where it went.
import * as fs from "node:fs";
import * as path from "node:path";
import { isConfigName } from "../../sandbox/configPaths";
import { moveTree } from "../../sandbox/moveTree";

export interface HeldConfig {
  folder: string;
  /** The entry's top-level name (`.vscode`, `x.code-workspace`). */
  name: string;
  /** Where it was moved. */
  heldAt: string;
}

function configEntries(folder: string): Set<string> {
  try {
    return new Set(fs.readdirSync(folder).filter(isConfigName));
  } catch {
    return new Set();
  }
}

export class FencedConfigGuard {
  /** Per folder, the top-level config entries that are not the agent's doing. */
  readonly #known = new Map<string, Set<string>>();
  #checks = 0;

  constructor(
    folders: readonly string[],
    private readonly holdDir: string,
  ) {
    for (const f of folders) this.#known.set(f, configEntries(f));
  }

  /** The user made or saved `p` through the editor: its top-level config entry is theirs. */
  userMade(p: string): void {
    for (const [folder, known] of this.#known) {
      const rel = path.relative(folder, p);
      if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) continue;
      const top = rel.split(path.sep)[0] ?? "";
      if (isConfigName(top)) known.add(top);
    }
  }

  /** New top-level config entries since the start or the last check, moved into the hold dir. */
  check(): HeldConfig[] {
    const held: HeldConfig[] = [];
    const batch = path.join(this.holdDir, `${Date.now()}-${++this.#checks}`);
    for (const [folder, known] of this.#known) {
      const now = configEntries(folder);
      for (const name of now) {
        if (known.has(name)) continue;
        const heldAt = path.join(batch, path.basename(folder), name);
        moveTree(path.join(folder, name), heldAt);
        held.push({ folder, name, heldAt });
      }
      // An entry the user removed is no longer known: one created again later is checked again.
      for (const name of known) if (!now.has(name)) known.delete(name);
    }
    return held;
  }
}
