// Where Manifold keeps data that no session's tools or commands may reach (I-116): its global storage
// (every folder's checkpoint shadow repository, session logs, registry installs, caches, agent
// records), its workspace storage and its logs, and — when VS Code's usual layout
// `<user data>/User/globalStorage/<extension id>` is recognised — the whole user-data dir: its
// `state.vscdb` files hold Manifold's globalState, SecretStorage (MCP and sign-in secrets) and every
// workspace's queue, next to the logs and local history of every window.
import * as path from "node:path";

/** The three storage locations of an `ExtensionContext`, structurally (no `vscode` import here). */
export interface StorageLocations {
  globalStorageUri: { fsPath: string };
  storageUri?: { fsPath: string } | undefined;
  logUri: { fsPath: string };
}

/** The VS Code user-data dir holding `globalStorage`, or undefined when the layout is not the usual one. */
export function userDataDirOf(globalStorage: string): string | undefined {
  const parent = path.dirname(globalStorage);
  const user = path.dirname(parent);
  if (path.basename(parent) !== "globalStorage" || path.basename(user) !== "User") return undefined;
  const userData = path.dirname(user);
  return path.dirname(userData) === userData ? undefined : userData;
}

/** Absolute dirs to hide, outermost first; the caller validates them (sandbox/hideDirs.ts). */
export function manifoldStorageDirs(where: StorageLocations): string[] {
  const globalStorage = where.globalStorageUri.fsPath;
  const dirs = [userDataDirOf(globalStorage), globalStorage, where.storageUri?.fsPath, where.logUri.fsPath];
  return [...new Set(dirs.filter((d): d is string => d !== undefined && path.isAbsolute(d)))];
}
