// Context window sizes (tokens) for well-known model families, for `usage_update.size`.
// A rough table: first matching prefix wins; unknown models get DEFAULT_CONTEXT_WINDOW.

export const DEFAULT_CONTEXT_WINDOW = 128_000;

const KNOWN: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ["claude", 200_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-5", 400_000],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5", 16_385],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  ["gemini", 1_048_576],
  ["llama3.1", 131_072],
  ["llama3.2", 131_072],
  ["llama3", 8_192],
  ["qwen2.5-coder", 32_768],
  ["qwen", 32_768],
  ["mistral", 32_768],
  ["deepseek", 128_000],
];

export function contextWindowFor(model: string): number {
  const name = (model.split("/").pop() ?? model).toLowerCase();
  for (const [prefix, tokens] of KNOWN) if (name.startsWith(prefix)) return tokens;
  return DEFAULT_CONTEXT_WINDOW;
}
