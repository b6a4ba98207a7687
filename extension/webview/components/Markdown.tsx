// Markdown the agent wrote, rendered to inert HTML (raw HTML off, safe link schemes only: ../markdown.ts);
// memoised, so a streamed message re-renders only when its text changed.
import { memo } from "preact/compat";
import { useMemo } from "preact/hooks";
import { renderMarkdown } from "../markdown";

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div class="md" dangerouslySetInnerHTML={{ __html: html }} />;
});
