// The editor's side of `McpSources` for one folder: its `.vscode/mcp.json`, the user's
// `manifold.mcpServers`, workspace trust, the consent question (modal, showing all it grants) and its
// memory (global state), `${input:…}` values (passwords in SecretStorage, never logged; others in
// workspace state), and the hashes of folder files a server runs.
import * as vscode from "vscode";
import { homedir } from "node:os";
import { readFile, stat } from "node:fs/promises";
import { sha256 } from "../consent";
import { PathConfinement } from "../../client/folderConfinement";
import { mcpServersSetting } from "../../vscode/config";
import type { InputDef } from "../mcpJson";
import type { Consent, McpSources, Scope } from "../sessionServers";

const CONSENT_KEY = "manifold.mcpConsent";
const INPUTS_KEY = "manifold.mcpInputs";
/** A run file larger than this is not hashed (nor covered): a server script is small. */
const MAX_DIGEST_BYTES = 32 * 1024 * 1024;
const ALLOW = "Allow";
const ALLOW_OFFLINE = "Allow without network";

export function consentStore(
  context: vscode.ExtensionContext,
): McpSources["consent"] & { forget(pred: (key: string) => boolean): Promise<void>; all(): Record<string, Consent> } {
  const all = (): Record<string, Consent> => {
    const raw = context.globalState.get<unknown>(CONSENT_KEY);
    if (typeof raw !== "object" || raw === null) return {};
    return Object.fromEntries(
      Object.entries(raw).filter((e): e is [string, Consent] => e[1] === "allow" || e[1] === "allow-offline" || e[1] === "deny"),
    );
  };
  return {
    all,
    get: (key) => all()[key],
    set: (key, value) => Promise.resolve(context.globalState.update(CONSENT_KEY, { ...all(), [key]: value })),
    async ask(q) {
      const buttons = q.offerOffline ? [ALLOW, ALLOW_OFFLINE, "Don't Allow"] : [ALLOW, "Don't Allow"];
      const pick = await vscode.window.showWarningMessage(
        `Start MCP server "${q.name}" from folder ${q.folderName}?`,
        {
          modal: true,
          detail:
            `${q.detail.join("\n")}\n\nIt is defined in ${q.folderName}/.vscode/mcp.json. Allow it only if you trust this folder's configuration; ` +
            "a change to any of the above asks again.",
        },
        ...buttons,
      );
      return pick === ALLOW ? "allow" : pick === ALLOW_OFFLINE ? "allow-offline" : "deny";
    },
    async forget(pred) {
      await context.globalState.update(CONSENT_KEY, Object.fromEntries(Object.entries(all()).filter(([k]) => !pred(k))));
    },
  };
}

export function folderSources(
  context: vscode.ExtensionContext,
  folder: vscode.WorkspaceFolder,
  consent: McpSources["consent"],
): McpSources {
  const confinement = new PathConfinement(folder.uri.fsPath);
  const inputKey = (scope: Scope, def: InputDef) => `${scope === "folder" ? folder.uri.fsPath : "user"}\u0000${def.id}`;
  return {
    folder: folder.uri.fsPath,
    folderName: folder.name,
    trusted: () => vscode.workspace.isTrusted,
    async folderConfig() {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, ".vscode", "mcp.json")));
      } catch (err) {
        if (err instanceof vscode.FileSystemError && err.code === "FileNotFound") return undefined;
        throw err;
      }
    },
    userConfig: mcpServersSetting,
    consent,
    async input(scope, def) {
      const key = inputKey(scope, def);
      if (def.password) {
        const known = await context.secrets.get(`manifold.mcpInput.${key}`);
        if (known !== undefined) return known;
      } else {
        const known = context.workspaceState.get<Record<string, string>>(INPUTS_KEY)?.[key];
        if (typeof known === "string") return known;
      }
      const value = await vscode.window.showInputBox({
        title: `MCP input for ${folder.name}`,
        prompt: def.description,
        password: def.password,
        ignoreFocusOut: true,
      });
      if (value === undefined) return undefined;
      if (def.password) await context.secrets.store(`manifold.mcpInput.${key}`, value);
      else
        await context.workspaceState.update(INPUTS_KEY, {
          ...(context.workspaceState.get<Record<string, string>>(INPUTS_KEY) ?? {}),
          [key]: value,
        });
      return value;
    },
    async readEnvFile(scope, path) {
      // A folder's envFile stays inside the folder (it is the folder's configuration); the user's may be anywhere.
      if (scope === "folder") {
        const c = await confinement.confine(path);
        if (!c.ok) throw new Error(`envFile: ${c.reason}`);
        return readFile(c.path, "utf8");
      }
      return readFile(path, "utf8");
    },
    async fileDigest(path) {
      const c = await confinement.confine(path);
      if (!c.ok) return undefined;
      try {
        const st = await stat(c.path);
        if (!st.isFile() || st.size > MAX_DIGEST_BYTES) return undefined;
        return sha256(await readFile(c.path));
      } catch {
        return undefined;
      }
    },
    env: process.env,
    userHome: homedir(),
  };
}
