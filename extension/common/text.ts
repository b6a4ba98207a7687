// Small text helpers the host halves share.

/** The message of anything thrown (an Error, a JSON-RPC error object, or anything else). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "object" && err !== null && "message" in err) return String((err as { message: unknown }).message);
  return String(err);
}

/** One line of untrusted text for a quick pick or notification (whitespace folded, long text cut). */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A prompt's text quoted in a title, a confirmation or a "since …" line: one short line in curly quotes. */
export function quotePrompt(text: string, max = 60): string {
  return `“${oneLine(text, max)}”`;
}
