// Settings only the user decides (I-107, I-113): the one helper that reads a setting's User (or, in a
// remote window, Remote) value and never a workspace's, and how a workspace value that was ignored is
// found and told once. A cloned repository's `.vscode/settings.json`, or one a confined agent wrote,
// must not loosen a session, pick what runs, or decide where data and keys go.
import { parse, type ParseError } from "jsonc-parser";

/** The scopes of a `WorkspaceConfiguration.inspect()` result this code reads or reports. */
export interface InspectedSetting<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The user's (or machine's) value, else the default; a workspace or folder value is never read. */
export function userValue<T>(i: InspectedSetting<T> | undefined): T | undefined {
  return i?.globalValue ?? i?.defaultValue;
}

export function hasWorkspaceValue(i: InspectedSetting<unknown> | undefined): boolean {
  return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Which of `known` (setting ids without the `manifold.` prefix) a settings file's text sets: a
 * folder's `.vscode/settings.json`, or the `settings` of a `.code-workspace` (`workspaceFile`).
 * Dotted keys and nested objects (`"manifold": {"defaultMode": …}`) both count. VS Code drops a
 * machine-scoped value from what `inspect()` shows, so the file is where an ignored value is seen.
 * Text that is not JSON sets nothing.
 */
export function settingsSetIn(text: string, known: ReadonlySet<string>, workspaceFile: boolean): string[] {
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const root = workspaceFile ? (isRecord(raw) ? raw.settings : undefined) : raw;
  if (!isRecord(root)) return [];
  const found = new Set<string>();
  const walk = (obj: Record<string, unknown>, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix === "" ? k : `${prefix}.${k}`;
      const id = path.startsWith("manifold.") ? path.slice("manifold.".length) : undefined;
      if (id !== undefined && known.has(id)) found.add(id);
      else if (isRecord(v) && ("manifold.".startsWith(`${path}.`) || path.startsWith("manifold."))) walk(v, path);
    }
  };
  walk(root, "");
  return [...found];
}

/** What the panel says about a workspace value of a user-only setting it ignored. */
export function ignoredSettingNotice(id: string): string {
  return (
    `manifold.${id} is set in this workspace's settings and is ignored: a workspace cannot loosen a session, ` +
    `pick what runs or decide where data and keys go. Move it to your User settings ` +
    `(Preferences: Open User Settings (JSON)), or Remote settings in a remote window.`
  );
}

/** Each ignored setting is told once per window (not at every session). */
export class IgnoredSettingNotices {
  readonly #told = new Set<string>();

  /** The settings of `found` not told yet, now marked told. */
  take(found: Iterable<string>): string[] {
    const fresh = [...new Set(found)].filter((id) => !this.#told.has(id));
    for (const id of fresh) this.#told.add(id);
    return fresh.sort();
  }
}
