// The BUILT extension bundle loads: every dependency esbuild inlined resolves without a node_modules
// beside it (the .vsix ships none). jsonc-parser's UMD entry once made dist/extension.js throw
// "Cannot find module './impl/format'" at activation, which only a real window showed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { test } from "node:test";

const EXTENSION_BUNDLE = resolve(__dirname, "../../dist/extension.js");

// `vscode` exists only inside the extension host: a stub that answers any property read. A child
// process, so the stub never leaks into this one.
const LOADER = `
const Module = require("node:module");
const load = Module._load;
const any = new Proxy(function () {}, { get: () => any, apply: () => any, construct: () => any });
Module._load = function (request, ...rest) { return request === "vscode" ? any : load.call(this, request, ...rest); };
const ext = require(process.argv[1]);
if (typeof ext.activate !== "function") throw new Error("no activate export");
`;

test("the built extension bundle loads with only `vscode` provided (no unresolved require)", () => {
  const r = spawnSync(process.execPath, ["-e", LOADER, EXTENSION_BUNDLE], { encoding: "utf8", cwd: "/", timeout: 60_000 });
  assert.equal(r.status, 0, `dist/extension.js did not load:\n${r.stderr.slice(-2_000)}`);
});
