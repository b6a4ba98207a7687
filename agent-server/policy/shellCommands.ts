// Shell command classification for the policy: the short read-only list (untrusted approval) and
// the normalized prefix that "Allow for this session" stores. Anything compound — separators,
// pipes, redirections, substitutions, globs, env assignments — is never "read-only" and is keyed
// by its exact text, so a grant for `npm test` never covers `npm test; rm -rf ~`.
import { readOnlyInvocation } from "./readOnlyCommands";
import { isCompound, shellWords } from "./shellWords";

export { isCompound };

/** Tools whose first argument is a subcommand; their key keeps two words. */
const SUBCOMMAND_TOOLS = new Set([
  "git",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "pip",
  "pip3",
  "make",
  "bun",
  "deno",
  "dotnet",
  "gradle",
  "mvn",
  "poetry",
  "uv",
]);

/** On the read-only list: one simple command, no unquoted glob, every argument allowed (readOnlyCommands.ts). */
export function isReadOnlyCommand(command: string): boolean {
  const parsed = shellWords(command);
  if (!parsed || parsed.globbed || parsed.words.length === 0) return false;
  return readOnlyInvocation(parsed.words);
}

/** The normalized key an "Allow for this session" on this command stores. */
export function commandGrantKey(command: string): string {
  const trimmed = command.trim();
  const w = shellWords(trimmed)?.words;
  if (!w || w.length === 0) return `bash:exact:${trimmed}`;
  const [cmd, sub] = w;
  const prefix = cmd && SUBCOMMAND_TOOLS.has(cmd) && sub !== undefined && !sub.startsWith("-") ? `${cmd} ${sub}` : (cmd ?? "");
  return `bash:prefix:${prefix}`;
}
