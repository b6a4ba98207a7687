// I-97 in a real browser: model output, tool output, file names and diff content full of markup reach
// alpha's chat panel. Nothing may run, nothing remote may load: checked in the webview's own frame and on
// the wire (every request the window made since it opened).
import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { screenshot } from "../support/browser";
import { byTestId, type Scenario } from "../support/scenario";
import { TEST_IDS } from "../../../extension/webview/testIds";

const REPLY = [
  'Here is <script>window.__pwned=1</script> and <img src=x onerror="window.__pwned=2">.',
  "",
  "A [link](javascript:window.__pwned=3) and a [spaced one](java\tscript:window.__pwned=33).",
  "",
  '<div onmouseover="window.__pwned=9"><b>raw html block</b><iframe src="http://example.com/frame"></iframe></div>',
  "",
  'Inline <svg onload="window.__pwned=10"></svg> and a remote image ![pic](http://example.com/x.png).',
  "",
  "<style>body{background:url(http://example.com/bg.png)}</style>",
].join("\n");
/** A file whose name and content are markup (tool output + file name), and one written (its name). */
const EVIL_NAME = `<img src=x onerror="window.__pwned=4">.md`;
const EVIL_CONTENT = `<script>window.__pwned=5</script><img src="http://example.com/y.png" onerror="window.__pwned=6">\n`;
const WRITTEN_NAME = "evil-<svg onload=window.__pwned=8>.txt";
const WRITTEN_CONTENT = `<img src=x onerror="window.__pwned=7"><script>window.__pwned=77</script>\n`;
const LOCAL = /^(https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/|data:|blob:|about:|https:\/\/[^/]*\.vscode-cdn\.net\/)/;

interface Found {
  pwned: unknown;
  scripts: number;
  imgs: number;
  iframes: number;
  jsLinks: number;
  onAttrs: string[];
  text: string;
}

/** Runs in the webview: what in the transcript could execute or load. A string, so the test runner's transform adds no helpers the page lacks. */
const probe = new Function(
  "root",
  `
  const count = (sel) => root.querySelectorAll(sel).length;
  const onAttrs = [...root.querySelectorAll("*")].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => el.tagName + "[" + a.name + "]"));
  return {
    pwned: window.__pwned,
    scripts: count("script"),
    imgs: count("img"),
    iframes: count("iframe, object, embed, style, svg[onload], foreignObject"),
    jsLinks: [...root.querySelectorAll("a[href]")].filter((a) => !/^(https?:|mailto:|#)/i.test(a.getAttribute("href") || "")).length,
    onAttrs,
    text: root.innerText,
  };`,
) as (root: Element) => Found;

export function webviewSafetyTests(scenario: () => Scenario): void {
  describe("untrusted text in the chat panel (I-97)", () => {
    it("I-97: script, img onerror, javascript: links, raw HTML and remote images are shown as text; nothing runs or loads", () => {
      const s = scenario();
      return s.step("xss", async () => {
        writeFileSync(join(s.workspace.alpha, EVIL_NAME), EVIL_CONTENT);
        s.model.route(
          "[xss]",
          { toolCalls: [{ name: "read_file", args: { path: EVIL_NAME } }] },
          { toolCalls: [{ name: "write_file", args: { path: WRITTEN_NAME, content: WRITTEN_CONTENT } }] },
          { text: REPLY },
        );
        await s.reveal("alpha");
        const cards = (await s.panel("alpha")).locator(byTestId(TEST_IDS.toolCard));
        const cardsBefore = await cards.count();
        const frame = await s.send("alpha", "[xss] show me <b>everything</b> <script>window.__pwned=11</script>");
        await frame.locator(byTestId(TEST_IDS.agentMessage), { hasText: "raw html block" }).waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(await cards.count(), cardsBefore + 2, "one card per tool call of this turn");
        // Open every card so their output and diff are rendered too.
        for (let i = 0; i < (await cards.count()); i++) await cards.nth(i).evaluate((el) => ((el as HTMLDetailsElement).open = true));
        await frame.locator(byTestId(TEST_IDS.toolCard), { hasText: "window.__pwned=5" }).waitFor({ state: "visible", timeout: 30_000 });
        // The write card names the file; its diff opens in VS Code's diff editor, not in the webview.
        await frame.locator(byTestId(TEST_IDS.toolCard), { hasText: WRITTEN_NAME }).first().waitFor({ state: "visible", timeout: 30_000 });
        await screenshot(s.page, "webview-untrusted-text");

        const found = await frame.locator(byTestId(TEST_IDS.transcript)).evaluate(probe);
        const topPwned: unknown = await s.page.evaluate("window.__pwned");
        assert.deepEqual(
          {
            pwned: found.pwned,
            topPwned,
            scripts: found.scripts,
            imgs: found.imgs,
            iframes: found.iframes,
            jsLinks: found.jsLinks,
            onAttrs: found.onAttrs,
          },
          { pwned: undefined, topPwned: undefined, scripts: 0, imgs: 0, iframes: 0, jsLinks: 0, onAttrs: [] },
        );
        // Shown as text, literally.
        for (const literal of [
          "<script>window.__pwned=1</script>",
          `<img src=x onerror="window.__pwned=2">`,
          "javascript:window.__pwned=3",
          "<b>raw html block</b>",
          "http://example.com/x.png",
          "<script>window.__pwned=11</script>",
          "window.__pwned=5",
          WRITTEN_NAME,
          `onerror="window.__pwned=4"`,
        ]) {
          assert.ok(found.text.includes(literal), `the transcript does not show ${JSON.stringify(literal)} as text:\n${found.text}`);
        }
        assert.ok(
          s.requests.some((r) => r.fromWebview),
          "the recorder saw none of the webview's own requests",
        );
        const remote = s.requests.filter((r) => !LOCAL.test(r.url));
        assert.deepEqual(
          remote.filter((r) => r.fromWebview || /example\.com/.test(r.url)),
          [],
          "a request left the machine from the chat panel",
        );
      });
    });
  });
}
