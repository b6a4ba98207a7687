// What the VS Code tier fails on in an extension-host log (`remoteexthost.log`): pure, so a unit test
// feeds it real excerpts. Every `[error]` line, as before. And the report of a PendingMigrationError
// that names Manifold, whatever its level. VS Code 1.139 does not log that one as an error: its
// getter for `navigator` (and any other pending migration) reports through the extension-aware error
// handler, which skips the error log for a PendingMigrationError, and writes a `[warning]
// [Deprecation Warning] …` entry whose `FROM:` stack names the extension only for an extension under
// development (for an installed one it is telemetry only). Before that handler is installed, the
// early one logs it as a plain `[error]`. Either way the entry's stack (the lines after its first)
// names the bundle, e.g. `at new ZodObject (…/dist/extension.js:8932:5)`.

/** One log entry: its level (`info`, `warning`, `error`…) and its lines, the first with the timestamp. */
export interface LogEntry {
  level: string;
  lines: string[];
}

/** An entry's first line: its date (1), time (2) and level (3). */
const ENTRY_START = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3}) \[(\w+)\]/;
/** A pending migration, reported directly or as the deprecation VS Code turns it into. */
const PENDING_MIGRATION = /PendingMigrationError|\[Deprecation Warning\]/;
/** Manifold's extension id, also the start of its install folder's name (`manifold-dev.manifold-0.1.0`). */
const MANIFOLD_ID = /\bmanifold-dev\.manifold\b/;
/**
 * A frame in a `dist/extension.js` (group 1: the path before it). One outside any `extensions/` folder is
 * Manifold's bundle run from its repository (extension development): built-in extensions live under
 * `lib/vscode/extensions/`, installed ones in the extensions dir. ("manifold" alone proves nothing: the
 * tier's tools and state folders are named /tmp/manifold-…, so VS Code's own paths have it too.)
 */
const BUNDLE_FRAME = /([^\s()]+)\/dist\/extension\.js:\d+:\d+/g;
/** How many lines of a flagged entry's stack are kept in the report. */
const STACK_LINES = 6;

/** Splits a log into entries: a line that starts with a timestamp and a level begins one, the others continue it. */
export function logEntries(log: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of log.split("\n")) {
    const start = ENTRY_START.exec(line);
    const last = entries.at(-1);
    if (start) entries.push({ level: start[3]!, lines: [line] });
    else if (last && line.trim() !== "") last.lines.push(line);
  }
  return entries;
}

/** Whether an entry is Manifold's: it names its id or install folder, or a frame of its bundle run from the repository. */
export function namesManifold(entry: LogEntry): boolean {
  const devFrame = (line: string): boolean => [...line.matchAll(BUNDLE_FRAME)].some((m) => !`${m[1]}/`.includes("/extensions/"));
  return entry.lines.some((line) => MANIFOLD_ID.test(line) || devFrame(line));
}

/**
 * The problems in one extension-host log, each a string: every line with `[error]` (a stack's later
 * lines are not added, so filters on the line's end still apply), then each pending-migration report
 * of another level that names Manifold, with the first lines of its stack.
 */
export function hostLogProblems(log: string): string[] {
  const errors = log.split("\n").filter((line) => line.includes("[error]"));
  const migrations = logEntries(log)
    .filter((e) => e.level !== "error" && e.lines.some((line) => PENDING_MIGRATION.test(line)) && namesManifold(e))
    .map((e) => e.lines.slice(0, 1 + STACK_LINES).join("\n"));
  return [...errors, ...migrations];
}

/**
 * VS Code's own socket between the extension host and the server, reset as the window closes: its
 * NodeSocket reports every socket error but EPIPE as unexpected, so the host logs this line. Logged
 * before the window was closed, it is still a problem (nothing of VS Code's is closing then).
 */
const SOCKET_RESET = /\[error\] Error: read ECONNRESET$/;

/** The time a log line was written (the extension host writes local time), or undefined without one. */
export function lineTime(line: string): number | undefined {
  const m = ENTRY_START.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

/** `problems` less the socket resets logged once the window was closed (`closedAt`, ms; none before it closed). */
export function withoutCloseResets(problems: string[], closedAt: number | undefined): string[] {
  if (closedAt === undefined) return problems;
  return problems.filter((line) => !(SOCKET_RESET.test(line) && (lineTime(line) ?? -Infinity) >= closedAt));
}
