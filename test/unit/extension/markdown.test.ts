import assert from "node:assert/strict";
import { test } from "node:test";
import { isSafeHref, MARKDOWN_CACHE_CHARS, renderMarkdown } from "../../../extension/webview/markdown";

test("I-97: markdown of untrusted text renders <script>, <img onerror>, javascript: links and raw HTML as inert text", () => {
  const cases: Record<string, string> = {
    "<script>alert(1)</script>": "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n",
    "<img src=x onerror=alert(1)>": "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n",
    "[click](javascript:alert(1))": "<p>[click](javascript:alert(1))</p>\n",
    "[click](JaVaScRiPt:alert(1))": "<p>[click](JaVaScRiPt:alert(1))</p>\n",
    "[x](data:text/html;base64,PHNjcmlwdD4=)": "<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n",
    '<a href="javascript:alert(1)">x</a>': "<p>&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;</p>\n",
    "<div onclick=alert(1)>raw</div>": "<p>&lt;div onclick=alert(1)&gt;raw&lt;/div&gt;</p>\n",
    "![pixel](https://tracker.example/p.png)": '<p><span class="md-image">[pixel: https://tracker.example/p.png]</span></p>\n',
    "```\n<script>x</script>\n```": "<pre><code>&lt;script&gt;x&lt;/script&gt;\n</code></pre>\n",
    "<iframe src=https://evil.example></iframe>":
      '<p>&lt;iframe src=<a href="https://evil.example" title="https://evil.example" rel="noopener noreferrer">https://evil.example</a>&gt;&lt;/iframe&gt;</p>\n',
  };
  const rendered = Object.fromEntries(Object.keys(cases).map((k) => [k, renderMarkdown(k)]));
  assert.deepEqual(rendered, cases);
});

test("I-97: safe links stay links; no rendered output carries script-capable markup", () => {
  assert.equal(
    renderMarkdown("[docs](https://example.com/a?b=1)"),
    '<p><a href="https://example.com/a?b=1" title="https://example.com/a?b=1" rel="noopener noreferrer">docs</a></p>\n',
  );
  const inputs = [
    "<svg onload=alert(1)>",
    "[a](vbscript:x)",
    "[a](java\tscript:x)",
    "<style>*{}</style>",
    "<<script>>",
    "**<b onmouseover=x>**",
    "[x](<javascript:alert(1)>)",
  ];
  // Every real tag in the output is a plain formatting tag; no event handlers; only safe hrefs.
  const allowed = new Set(["p", "a", "em", "strong", "code", "pre", "span", "ul", "ol", "li", "blockquote", "br", "hr"]);
  for (const html of inputs.map(renderMarkdown)) {
    for (const m of html.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
      assert.ok(allowed.has((m[1] ?? "").toLowerCase()), `tag ${m[0]} in ${html}`);
      assert.doesNotMatch(m[2] ?? "", /\son\w+\s*=|href="(?!https?:|mailto:|#)/i, html);
    }
  }
  assert.deepEqual(
    [
      "https://x",
      "http://x",
      "mailto:a@b",
      "#x",
      "javascript:x",
      " javascript:x",
      "java\nscript:x",
      "file:///etc/passwd",
      "data:x",
      "vscode:x",
      "command:foo",
    ].map(isSafeHref),
    [true, true, true, true, false, false, false, false, false, false, false],
  );
});

test("a text rendered again comes from the cache, the same HTML; the cache is bounded by characters", () => {
  const text = "# Title\n\nSome *text* with a [link](https://example.com).";
  const first = renderMarkdown(text);
  assert.equal(renderMarkdown(text), first);
  // Far more than the cache holds: older texts fall out and render again, to the same HTML.
  for (let i = 0; i < 60; i++) renderMarkdown(`${"x".repeat(MARKDOWN_CACHE_CHARS / 40)} ${i}`);
  assert.equal(renderMarkdown(text), first);
  assert.equal(renderMarkdown("<script>alert(1)</script>"), "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
});
