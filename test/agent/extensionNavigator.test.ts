// The BUILT extension bundle never reads `navigator`. VS Code's extension host replaces Node's
// `navigator` global with a getter that reports a PendingMigrationError on every read (`typeof`
// included): zod's JIT probe read it when the first object schema was built, at module load, and a
// real window logged the error with a stack from `new ZodObject`. The bundle is loaded here under such
// a getter (one that records the read and throws), and its text must not name `navigator` at all, so
// schemas built later (at activation, on the first message) cannot read it either.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";

const EXTENSION_BUNDLE = resolve(__dirname, "../../dist/extension.js");

// A child process, so neither the getter nor the `vscode` stub (a proxy that answers any property
// read, as in extensionBundle.test.ts) leaks into this one. It prints the stack of every read.
const LOADER = `
const reads = [];
class PendingMigrationError extends Error {}
Object.defineProperty(globalThis, "navigator", {
  configurable: true,
  get() {
    const e = new PendingMigrationError("navigator is now a global in nodejs");
    reads.push(e.stack);
    throw e;
  },
});
const Module = require("node:module");
const load = Module._load;
const any = new Proxy(function () {}, { get: () => any, apply: () => any, construct: () => any });
Module._load = function (request, ...rest) { return request === "vscode" ? any : load.call(this, request, ...rest); };
let failure = "";
try {
  const ext = require(process.argv[1]);
  if (typeof ext.activate !== "function") failure = "no activate export";
} catch (e) {
  failure = String(e && e.stack || e);
}
process.stdout.write(JSON.stringify({ reads, failure }));
`;

/** Loads a bundle under the throwing getter: the stack of each read, and why loading failed (empty: it loaded). */
function loadUnderNavigatorGetter(bundle: string): { reads: string[]; failure: string } {
  const r = spawnSync(process.execPath, ["-e", LOADER, bundle], { encoding: "utf8", cwd: "/", timeout: 60_000 });
  assert.equal(r.status, 0, `the loader itself failed:\n${r.stderr.slice(-2_000)}`);
  const out: unknown = JSON.parse(r.stdout);
  assert.ok(typeof out === "object" && out !== null && "reads" in out && "failure" in out, `unexpected loader output: ${r.stdout}`);
  const { reads, failure } = out;
  assert.ok(Array.isArray(reads) && reads.every((x) => typeof x === "string") && typeof failure === "string", r.stdout);
  return { reads, failure };
}

test("the built extension bundle loads without reading `navigator` (VS Code's PendingMigrationError getter)", () => {
  const { reads, failure } = loadUnderNavigatorGetter(EXTENSION_BUNDLE);
  assert.deepEqual(reads, [], `dist/extension.js read navigator while loading; first read:\n${reads[0] ?? ""}`);
  assert.equal(failure, "", `dist/extension.js did not load under the navigator getter:\n${failure.slice(0, 2_000)}`);
});

test("the built extension bundle names no `navigator` (nothing can read it later either)", () => {
  const lines = readFileSync(EXTENSION_BUNDLE, "utf8").split("\n");
  const hits = lines.flatMap((line, i) => (/\bnavigator\b/.test(line) ? [`${i + 1}: ${line.trim().slice(0, 160)}`] : []));
  assert.deepEqual(hits, [], `dist/extension.js reads navigator (esbuild's define for it is gone?):\n  ${hits.join("\n  ")}`);
});
