// Markdown for untrusted text (model output, tool output). No DOM needed: returns an HTML string
// that contains no raw HTML from the input (html: false escapes it), no images (rendered as text:
// no remote loads), and only links with a safe scheme (others become plain text). I-97.
// The rendering is cached per text, bounded by characters.
import MarkdownIt from "markdown-it";

const SAFE_LINK = /^(https?:|mailto:|#)/i;

export function isSafeHref(href: string): boolean {
  // Browsers ignore control characters and whitespace inside schemes (`java\tscript:`).
  let compact = "";
  for (const ch of href) {
    const c = ch.codePointAt(0) ?? 0;
    if (c > 0x20 && (c < 0x7f || c > 0x9f)) compact += ch;
  }
  return SAFE_LINK.test(compact);
}

function createRenderer() {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.validateLink = (url: string) => isSafeHref(url);
  // Images would load remote content: show the alt text and the address as text instead.
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx];
    if (!t) return "";
    const src = String(t.attrGet("src") ?? "");
    const alt = t.content || "image";
    return `<span class="md-image">[${md.utils.escapeHtml(alt)}: ${md.utils.escapeHtml(src)}]</span>`;
  };
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const t = tokens[idx];
    if (t) {
      t.attrSet("title", String(t.attrGet("href") ?? ""));
      t.attrSet("rel", "noopener noreferrer");
    }
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return md;
}

let renderer: ReturnType<typeof createRenderer> | undefined;

/**
 * Rendered texts, least recently used first: an entry whose component is built again (a
 * snapshot, an earlier page, a card re-keyed) does not parse its text again. Bounded by the characters
 * it holds (text and HTML), so many panels in one renderer stay small; a streaming message's partial
 * texts pass through and fall out.
 */
const cache = new Map<string, string>();
let cachedChars = 0;
export const MARKDOWN_CACHE_CHARS = 1_000_000;

/** Renders untrusted markdown to inert HTML. */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  renderer ??= createRenderer();
  const html = renderer.render(text);
  cache.set(text, html);
  cachedChars += text.length + html.length;
  for (const [oldText, oldHtml] of cache) {
    if (cachedChars <= MARKDOWN_CACHE_CHARS) break;
    cache.delete(oldText);
    cachedChars -= oldText.length + oldHtml.length;
  }
  return html;
}
