// POSIX shell quoting of one word: the text between single quotes is taken literally by sh and
// bash, and a single quote inside is closed, escaped and reopened. For building `bash -c` lines
// that `CommandSandbox.wrap` runs from argv the caller was given (never from model text).

export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
