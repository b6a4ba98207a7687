// Splits one *simple* shell command into the words bash would pass to the program, or null when
// the text is anything more: several commands, pipes, redirections, substitutions, expansions,
// env assignments, globs, escapes or whitespace other than space/tab. Quotes are honoured the way
// bash does (adjacent quoted and unquoted pieces form one word), so `-'o'` is the word `-o`.

/** Characters that make a command more than one simple command (or redirect/substitute/expand). */
const COMPOUND = /[;&|<>`$()\\{}\n\r]/;
/** Whitespace or control characters bash does not split on: a word could hide what it looks like. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const ODD_SPACE = /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** An assignment word before the command (`FOO=1 ls`) changes the program's environment. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Unquoted pathname-expansion characters. */
const GLOB = /[*?[]/;

export function isCompound(command: string): boolean {
  return COMPOUND.test(command);
}

export interface ShellWords {
  words: string[];
  /** A word had an unquoted glob character (its expansion is unknown until run time). */
  globbed: boolean;
}

/** The words of a simple command, or null when it is not one (see the header). */
export function shellWords(command: string): ShellWords | null {
  if (COMPOUND.test(command) || ODD_SPACE.test(command)) return null;
  const words: string[] = [];
  let globbed = false;
  let cur: string | null = null;
  let rawFirst = "";
  for (let i = 0; i < command.length;) {
    const c = command[i] as string;
    if (c === " " || c === "\t") {
      if (cur !== null) words.push(cur);
      cur = null;
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end === -1) return null;
      cur = (cur ?? "") + command.slice(i + 1, end);
      if (words.length === 0) rawFirst += command.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (GLOB.test(c)) globbed = true;
    cur = (cur ?? "") + c;
    if (words.length === 0) rawFirst += c;
    i++;
  }
  if (cur !== null) words.push(cur);
  // Only an unquoted NAME= at the start is an assignment; a quoted one is a (strange) program name.
  if (words.length > 0 && ASSIGNMENT.test(rawFirst)) return null;
  return { words, globbed };
}
