// A two-folder workspace (`.code-workspace` with folders alpha and beta, each with a file or two),
// created in a fresh temp dir.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TwoFolderWorkspace {
  /** Temp dir holding everything (remove it when done). */
  root: string;
  workspaceFile: string;
  /** Absolute, canonical folder paths. */
  alpha: string;
  beta: string;
}

/** `settings` go into the `.code-workspace` file (workspace settings). */
export function createTwoFolderWorkspace(prefix = "manifold-ws-", settings: Record<string, unknown> = {}): TwoFolderWorkspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const alpha = join(root, "alpha");
  const beta = join(root, "beta");
  mkdirSync(join(alpha, "src"), { recursive: true });
  mkdirSync(beta, { recursive: true });
  writeFileSync(join(alpha, "README.md"), "# alpha\n\nThe first folder of the test workspace.\n");
  writeFileSync(join(alpha, "src/greet.ts"), "export const greet = (name: string) => `hello ${name}`;\n");
  writeFileSync(join(beta, "notes.txt"), "beta: the second folder of the test workspace.\n");
  const workspaceFile = join(root, "two-folders.code-workspace");
  writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: "alpha" }, { path: "beta" }], settings }, null, 2));
  return { root, workspaceFile, alpha, beta };
}
