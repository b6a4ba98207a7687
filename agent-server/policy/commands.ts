// Shell command classification for the policy: the short read-only list (untrusted approval) and
// the normalized prefix that "Allow for this session" stores. Anything compound — separators,
// pipes, redirections, substitutions, globs of env assignments — is never "read-only" and is keyed
// by its exact text, so a grant for `npm test` never covers `npm test; rm -rf ~`.

/** Characters that make a command more than one simple command (or redirect/substitute). */
const COMPOUND = /[;&|<>`$()\n\r\\{}]|^\s*\w+=/;

const READ_ONLY_SIMPLE = new Set(["ls", "cat", "pwd", "head", "tail", "wc", "rg", "grep", "which", "file", "stat", "echo", "tree", "du", "df", "whoami", "date", "uname"]);
const READ_ONLY_GIT = new Set(["status", "diff", "log", "show", "branch", "rev-parse", "blame", "ls-files"]);
/** Flags that make otherwise read-only tools write or execute. */
const DANGEROUS_FLAG = /^--?(output|o|exec|pre|upload-pack|ext-diff|textconv|config-env)(=|$)|^-c$|^--exec-path/;

/** Tools whose first argument is a subcommand; their key keeps two words. */
const SUBCOMMAND_TOOLS = new Set(["git", "npm", "npx", "pnpm", "yarn", "cargo", "go", "docker", "kubectl", "pip", "pip3", "make", "bun", "deno", "dotnet", "gradle", "mvn", "poetry", "uv"]);

export function isCompound(command: string): boolean {
  return COMPOUND.test(command);
}

function words(command: string): string[] | null {
  if (isCompound(command)) return null;
  const out: string[] = [];
  // Simple quoting only: quoted words are kept verbatim; anything unbalanced is compound.
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command)) !== null) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  if (/['"]/.test(command.replace(/'[^']*'|"[^"]*"/g, ""))) return null;
  return out;
}

export function isReadOnlyCommand(command: string): boolean {
  const w = words(command.trim());
  if (!w || w.length === 0) return false;
  const [cmd, ...rest] = w as [string, ...string[]];
  if (rest.some((a) => DANGEROUS_FLAG.test(a) || /[*?[]/.test(a))) return false;
  if (cmd === "git") {
    const sub = rest[0];
    return sub !== undefined && READ_ONLY_GIT.has(sub);
  }
  return READ_ONLY_SIMPLE.has(cmd);
}

/** The normalized key an "Allow for this session" on this command stores. */
export function commandGrantKey(command: string): string {
  const trimmed = command.trim();
  const w = words(trimmed);
  if (!w || w.length === 0) return `bash:exact:${trimmed}`;
  const [cmd, sub] = w;
  const prefix = cmd && SUBCOMMAND_TOOLS.has(cmd) && sub !== undefined && !sub.startsWith("-") ? `${cmd} ${sub}` : (cmd ?? "");
  return `bash:prefix:${prefix}`;
}

/** Human spelling of a grant key for the permission card. */
export function describeGrantKey(key: string): string {
  if (key.startsWith("bash:prefix:")) return `commands starting with \`${key.slice("bash:prefix:".length)}\``;
  if (key.startsWith("bash:exact:")) return `exactly \`${key.slice("bash:exact:".length)}\``;
  const i = key.indexOf(":");
  return i === -1 ? key : `${key.slice(0, i)} on ${key.slice(i + 1)}`;
}
