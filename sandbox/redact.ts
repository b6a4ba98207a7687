// Keeping keys out of text both processes show or store: the agent-server's model errors and the
// extension's agent log. One copy, so a pattern fixed here is fixed everywhere.

const KEY_PATTERNS: RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{4,}/g, // OpenAI / Anthropic style (sk-…, sk-ant-…)
  /\bBearer\s+[^\s"',}]+/gi,
  /((?:api[_-]?key|x-api-key|authorization|access[_-]?token|secret|token)["']?\s*[:=]\s*["']?)[^\s"',}&]+/gi,
  /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g, // long opaque tokens
];

/** Replaces each given secret (4+ characters) wherever it occurs verbatim. */
export function redactValues(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}

/** Removes anything key-like (and the given secrets verbatim) from a message. */
export function redact(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = redactValues(text, secrets);
  for (const re of KEY_PATTERNS) {
    out = out.replace(re, (match: string, prefix?: unknown) =>
      typeof prefix === "string" && match.startsWith(prefix) ? `${prefix}[redacted]` : "[redacted]",
    );
  }
  return out;
}
