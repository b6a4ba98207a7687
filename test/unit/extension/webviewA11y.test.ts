// Accessibility facts of the webview that hold in its source, checked without a browser (the UI tier
// checks the rendered panel): icon-only buttons are named for screen readers, the transcript log is
// not a live region (streamed chunks would be read out one by one), one polite status region is.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const components = fileURLToPath(new URL("../../../extension/webview/components/", import.meta.url));
const sources = readdirSync(components)
  .filter((f) => f.endsWith(".tsx"))
  .map((f) => ({ file: f, text: readFileSync(join(components, f), "utf8") }));

/** The opening tags `<tag …>` of a TSX source, attributes included (braces may hold `=>`). */
function openingTags(text: string, tag: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf(`<${tag}`); i !== -1; i = text.indexOf(`<${tag}`, i + 1)) {
    if (/[\w-]/.test(text[i + tag.length + 1] ?? "")) continue;
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === ">" && depth === 0) break;
    }
    out.push(text.slice(i, j + 1));
  }
  return out;
}

test("every icon-only button has an aria-label", () => {
  const unnamed = sources.flatMap(({ file, text }) =>
    openingTags(text, "button")
      .filter((t) => /class="icon"/.test(t) && !/aria-label=/.test(t))
      .map((t) => `${file}: ${t.replace(/\s+/g, " ").slice(0, 120)}`),
  );
  assert.deepEqual(unnamed, []);
  assert.ok(
    sources.some(({ text }) => openingTags(text, "button").some((t) => /class="icon"/.test(t))),
    "the scan found icon buttons at all",
  );
});

test("the transcript log is not a live region; one polite status region announces", () => {
  const live = sources.flatMap(({ file, text }) =>
    openingTags(text, "div")
      .filter((t) => /aria-live=/.test(t))
      .map((t) => ({ file, status: /role="status"/.test(t), polite: /aria-live="polite"/.test(t) })),
  );
  assert.deepEqual(live, [{ file: "App.tsx", status: true, polite: true }]);
  const log = sources.flatMap(({ text }) => openingTags(text, "div").filter((t) => /role="log"/.test(t)));
  assert.equal(log.length, 1);
});

test("focus never goes through test ids: no querySelector on data-testid in the webview", () => {
  const lookups = sources.filter(({ text }) => /querySelector[^(]*\([^)]*(data-testid|TEST_IDS)/.test(text)).map(({ file }) => file);
  assert.deepEqual(lookups, []);
});
