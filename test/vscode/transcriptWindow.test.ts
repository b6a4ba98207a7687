// needs: e2e-tools
// The panel's webview bundle on its own in headless Chromium (no VS Code: a stub `acquireVsCodeApi`
// and this file as the host), fed a long transcript the way the host feeds it: a snapshot of the latest
// entries, then older pages as the webview asks for them. What a reader sees must hold while only the
// entries near the viewport are rendered: the panel opens on the latest entry, every page put above
// leaves the entry they read where it was on screen, the DOM stays small however much is held, and
// the session's first and last entries are both reached.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TranscriptEntry } from "../../extension/common/transcript";
import { emptyTranscript } from "../../extension/common/transcriptSession";
import type { TranscriptPage, TranscriptWindow } from "../../extension/common/transcriptWindow";
import type { HostToWebview } from "../../extension/common/webviewProtocol";
import { launchBrowser } from "./support/browser";
import { ensureBuilt } from "./support/build";
import { ensureTools } from "./support/tools";

const repoRoot = join(import.meta.dirname, "../..");
const TOTAL = 2_000;
const TAIL = 150;

/** Entries of varied heights: one line, a paragraph, a list, a code block. */
function entry(i: number): TranscriptEntry {
  const body = [
    `Entry ${i} says one line.`,
    `Entry ${i} says a paragraph. ${"It goes on for a while, as answers do. ".repeat(12)}`,
    `Entry ${i} lists:\n\n- one\n- two\n- three\n- four`,
    `Entry ${i} shows code:\n\n\`\`\`ts\n${Array.from({ length: 8 }, (_, k) => `const v${k} = ${k};`).join("\n")}\n\`\`\``,
  ][i % 4] as string;
  return { id: `e${i}`, kind: "agent", text: body } as TranscriptEntry;
}

const ALL = Array.from({ length: TOTAL }, (_, i) => entry(i));

function windowAt(start: number): TranscriptWindow {
  return { start, promptsBefore: 0 };
}

const PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/styles.css">
<script>
  window.__posted = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
</script></head><body><div id="root"></div><script src="/main.js"></script></body></html>`;

/** The entry at the top of the transcript's viewport and its distance from that top, in px. */
async function topEntry(page: Page): Promise<{ id: string; offset: number }> {
  return page.evaluate(() => {
    const box = document.querySelector(".transcript") as HTMLElement;
    const top = box.getBoundingClientRect().top;
    for (const slot of Array.from(document.querySelectorAll(".entry"))) {
      const r = slot.getBoundingClientRect();
      if (r.bottom > top) return { id: slot.getAttribute("data-entry") ?? "", offset: r.top - top };
    }
    throw new Error("no entry on screen");
  });
}

/** Where the entry `id` stands from the top of the transcript's viewport, in px (null: not rendered). */
async function offsetOf(page: Page, id: string): Promise<number | null> {
  return page.evaluate((entryId) => {
    const box = document.querySelector(".transcript") as HTMLElement;
    const slot = document.querySelector(`[data-entry="${entryId}"]`);
    return slot ? slot.getBoundingClientRect().top - box.getBoundingClientRect().top : null;
  }, id);
}

/** The last rendered entry, whether it is on screen, and how many entries are rendered. */
async function lastEntry(page: Page): Promise<{ id: string | null; onScreen: boolean; atEnd: boolean; slots: number }> {
  return page.evaluate(() => {
    const box = document.querySelector(".transcript") as HTMLElement;
    const last = document.querySelector(".entry:last-child") as HTMLElement;
    return {
      id: last.getAttribute("data-entry"),
      onScreen: last.getBoundingClientRect().bottom <= box.getBoundingClientRect().bottom + 1,
      atEnd: box.scrollHeight - box.scrollTop - box.clientHeight < 2,
      slots: document.querySelectorAll(".entry").length,
    };
  });
}

async function frames(page: Page, n: number): Promise<void> {
  // A string: the test's own transform would name an inner function with a helper the page lacks.
  await page.evaluate(
    `new Promise((done) => { let left = ${n}; const step = () => (left-- <= 0 ? done() : requestAnimationFrame(step)); step(); })`,
  );
}

/** Waits until the rendered entries stop changing (the overscan is mounted a budget per frame). */
async function settled(page: Page): Promise<void> {
  let last = "";
  for (let i = 0; i < 100; i++) {
    await frames(page, 2);
    const now = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".entry"))
        .map((s) => s.getAttribute("data-entry"))
        .join(","),
    );
    if (now === last) return;
    last = now;
  }
  throw new Error("the rendered entries never settled");
}

async function send(page: Page, msg: HostToWebview): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, "*"), msg as unknown as Record<string, unknown>);
}

/** The next `transcript/page` request the webview posts (removed from its outbox). */
async function nextPageRequest(page: Page): Promise<{ beforeId: string; count: number }> {
  const handle = await page.waitForFunction(() => {
    const posted = (window as unknown as { __posted: Array<{ type: string }> }).__posted;
    const i = posted.findIndex((m) => m.type === "transcript/page");
    return i < 0 ? undefined : posted.splice(i, 1)[0];
  });
  return (await handle.jsonValue()) as unknown as { beforeId: string; count: number };
}

describe("the transcript renders the entries near its viewport (a real browser)", () => {
  let browser: Browser | undefined;
  let page: Page | undefined;
  const p = (): Page => {
    if (!page) throw new Error("the page did not start (see the before hook)");
    return page;
  };

  before(async () => {
    ensureBuilt({ vsix: false });
    browser = await launchBrowser(ensureTools().chromium);
    page = await browser.newPage({ viewport: { width: 700, height: 600 } });
    const dist = join(repoRoot, "dist/webview");
    await page.route("http://webview.test/**", async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/") return route.fulfill({ contentType: "text/html", body: PAGE_HTML });
      if (path === "/main.js") return route.fulfill({ contentType: "text/javascript", body: readFileSync(join(dist, "main.js")) });
      if (path === "/styles.css") return route.fulfill({ contentType: "text/css", body: readFileSync(join(dist, "styles.css")) });
      return route.fulfill({ status: 404, body: "" });
    });
    await page.goto("http://webview.test/");
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === "ready"));
    const state = { ...emptyTranscript("folder", "agent"), entries: ALL.slice(TOTAL - TAIL), nextId: TOTAL };
    await send(p(), { type: "snapshot", state, window: windowAt(TOTAL - TAIL) });
  });

  after(async () => {
    await browser?.close();
  });

  it("I-123: opens on the latest entry, then renders the whole snapshot (find sees it)", async () => {
    await p().waitForSelector(`[data-entry="e${TOTAL - 1}"]`);
    await settled(p());
    const seen = await lastEntry(p());
    assert.equal(seen.id, `e${TOTAL - 1}`);
    assert.ok(seen.atEnd, "the transcript is scrolled to its end");
    assert.ok(seen.onScreen, "the latest entry is on screen");
    assert.equal(seen.slots, TAIL, "a snapshot's entries are all rendered once mounted");
  });

  it("I-123: keeps the entry being read in place as each earlier page is put above it, and reaches the first entry", async () => {
    let start = TOTAL - TAIL;
    let pages = 0;
    let mostSlots = 0;
    while (start > 0) {
      await p().evaluate(() => {
        (document.querySelector(".transcript") as HTMLElement).scrollTop = 0;
      });
      const ask = await nextPageRequest(p());
      assert.equal(ask.beforeId, `e${start}`, "the webview asks for the entries before its first one");
      await settled(p());
      const before = await topEntry(p());
      const from = Math.max(0, start - ask.count);
      const pageMsg: TranscriptPage = { beforeId: ask.beforeId, entries: ALL.slice(from, start), window: windowAt(from) };
      await send(p(), { type: "transcript/page", page: pageMsg });
      await p().waitForSelector(from === 0 ? '[data-testid="load-earlier"] >> nth=0' : `text=(${from} more entries)`, {
        state: from === 0 ? "detached" : "attached",
      });
      await settled(p());
      const now = await offsetOf(p(), before.id);
      assert.ok(now !== null, `page ${pages + 1}: the entry read (${before.id}) is still rendered`);
      assert.ok(Math.abs(now - before.offset) <= 1, `page ${pages + 1}: the entry read moved ${now - before.offset} px`);
      mostSlots = Math.max(mostSlots, await p().evaluate(() => document.querySelectorAll(".entry").length));
      start = from;
      pages++;
    }
    assert.ok(pages >= 2, `${pages} pages`);
    assert.ok(mostSlots < 120, `at most ${mostSlots} entries were rendered while up to ${TOTAL} were held`);
    await p().evaluate(() => {
      (document.querySelector(".transcript") as HTMLElement).scrollTop = 0;
    });
    await settled(p());
    assert.equal((await topEntry(p())).id, "e0", "the session's first entry is at the top");
  });

  it("I-123: goes back to the latest entry at the bottom, rendering only what is near it", async () => {
    await p().evaluate(() => {
      const box = document.querySelector(".transcript") as HTMLElement;
      box.scrollTop = box.scrollHeight;
    });
    await settled(p());
    // Padding stood in for entries never measured: once they are, the end moves; scroll there again.
    await p().evaluate(() => {
      const box = document.querySelector(".transcript") as HTMLElement;
      box.scrollTop = box.scrollHeight;
    });
    await settled(p());
    const seen = await lastEntry(p());
    assert.equal(seen.id, `e${TOTAL - 1}`);
    assert.ok(seen.onScreen, "the latest entry is on screen");
    assert.ok(seen.slots < 120, `${seen.slots} entries rendered`);
  });
});
