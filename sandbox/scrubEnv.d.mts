// Types of scrubEnv.mjs (plain JS: clean-env.mjs runs it with any Node, no tsx).
export function isDroppedName(name: string): boolean;
export function cleanPath(path: string | undefined, prepend?: string[]): string;
export function cleanEnv(
  source: Record<string, string | undefined>,
  extra?: Record<string, string | undefined>,
  prependPath?: string[],
): Record<string, string>;
