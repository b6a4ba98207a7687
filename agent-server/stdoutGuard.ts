// Imported first by main.ts: stdout carries ACP only, so every console method writes to stderr.
// MANIFOLD_LOG_LEVEL (`error`, `warn`, `info` — the default —, `debug`, `trace`; the extension sets
// it from `manifold.logLevel`) silences the methods above that level. `console.error` always writes.
const LEVELS = ["error", "warn", "info", "debug", "trace"] as const;
type Level = (typeof LEVELS)[number];

function levelOf(raw: string | undefined): number {
  const i = LEVELS.indexOf((raw ?? "").trim().toLowerCase() as Level);
  return i === -1 ? LEVELS.indexOf("info") : i;
}

const threshold = levelOf(process.env.MANIFOLD_LOG_LEVEL);
const toStderr = console.error.bind(console);
const at = (level: Level): ((...args: unknown[]) => void) => (LEVELS.indexOf(level) <= threshold ? toStderr : () => undefined);

console.log = at("info");
console.info = at("info");
console.warn = at("warn");
console.debug = at("debug");
console.trace = at("trace");
