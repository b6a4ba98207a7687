// The VS Code tier's check of the extension-host log (test/vscode/support/hostLog.ts), fed with excerpts
// in the format code-server 1.139 writes to `remoteexthost.log`: Manifold's read of `navigator` as the
// early error handler logs it (`[error]`) and as the extension-aware one reports it for an extension
// under development (`[warning] [Deprecation Warning]`), next to other extensions' entries.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostLogProblems, lineTime, logEntries, namesManifold, withoutCloseResets } from "../../vscode/support/hostLog";

const VSCODE = "/tmp/manifold-e2e-tools/code-server-4.139.1/node_modules/code-server/lib/vscode";
const GETTER = `\tat get (file://${VSCODE}/out/vs/workbench/api/node/extensionHostProcess.js:805:7210)`;
const MESSAGE =
  "navigator is now a global in nodejs, please see https://aka.ms/vscode-extensions/navigator for additional info on this error.";
const zodFrames = (bundle: string): string[] => [
  GETTER,
  `\tat get value [as value] (${bundle}:8115:21)`,
  `\tat new ZodObject (${bundle}:8932:5)`,
  `\tat Object.<anonymous> (${bundle}:31204:21)`,
  `\tat Module._compile (node:internal/modules/cjs/loader:1730:14)`,
];
const deprecation = (at: string, bundle: string): string[] => [
  `${at} [warning] [Deprecation Warning] 'PendingMigrationError' is deprecated. ${MESSAGE}`,
  ` FROM: PendingMigrationError: ${MESSAGE}`,
  ...zodFrames(bundle),
];

const INSTALLED = "/tmp/manifold-ui-Ab12Cd/.code-server/extensions/manifold-dev.manifold-0.1.0/dist/extension.js";
const DEVELOPED = "/work/main/dist/extension.js";
const BUILT_IN = `${VSCODE}/extensions/github/dist/extension.js`;
const OTHER = "/tmp/manifold-ui-Ab12Cd/.code-server/extensions/some.other-1.2.3/dist/extension.js";

const LOG = [
  `2026-12-01 23:48:14.096 [info] Extension host with pid 12041 started`,
  `2026-12-01 23:48:14.232 [info] Lock '/tmp/manifold-ui-Ab12Cd/.code-server/user-data/User/workspaceStorage/4bfbd587/vscode.lock': Lock acquired.`,
  `2026-12-01 23:48:19.030 [info] ExtensionService#_doActivateExtension manifold-dev.manifold, startup: false, activationEvent: 'onStartupFinished'`,
  ...deprecation("2026-12-01 23:48:19.412", DEVELOPED),
  ...deprecation("2026-12-01 23:48:19.520", BUILT_IN),
  ...deprecation("2026-12-01 23:48:19.640", OTHER),
  `2026-12-01 23:48:20.001 [warning] [manifold-dev.manifold] a warning that is not a migration`,
  `2026-12-01 23:50:02.118 [error] Canceled: Canceled`,
  `\tat ${VSCODE}/out/vs/workbench/api/node/extensionHostProcess.js:12:34`,
  "",
].join("\n");

test("a log splits into entries: a timestamped line starts one, a stack's lines continue it", () => {
  const entries = logEntries(LOG);
  assert.deepEqual(
    entries.map((e) => [e.level, e.lines.length]),
    [
      ["info", 1],
      ["info", 1],
      ["info", 1],
      ["warning", 7],
      ["warning", 7],
      ["warning", 7],
      ["warning", 1],
      ["error", 2],
    ],
  );
});

test("Manifold's read of navigator, reported as a deprecation for its bundle under development, is a problem", () => {
  const problems = hostLogProblems(LOG);
  assert.equal(problems.length, 2, problems.join("\n---\n"));
  assert.equal(problems[0], "2026-12-01 23:50:02.118 [error] Canceled: Canceled", "an [error] line stays one line, as before");
  assert.match(problems[1]!, /^2026-12-01 23:48:19\.412 \[warning\] \[Deprecation Warning\] 'PendingMigrationError'/);
  assert.match(problems[1]!, /at new ZodObject \(\/work\/main\/dist\/extension\.js:8932:5\)/, "the report carries the stack");
});

test("the same report for Manifold installed from its .vsix is a problem; for other extensions it is not", () => {
  const log = [...deprecation("2026-12-01 23:48:19.412", INSTALLED), ...deprecation("2026-12-01 23:48:19.520", OTHER)].join("\n");
  const problems = hostLogProblems(log);
  assert.equal(problems.length, 1);
  assert.ok(problems[0]!.includes("manifold-dev.manifold-0.1.0/dist/extension.js:8932:5"), problems[0]);
  const [installed, other] = logEntries(log);
  assert.equal(namesManifold(installed!), true);
  assert.equal(namesManifold(other!), false, "a path under /tmp/manifold-… is not Manifold's by that alone");
});

test("the early handler's [error] for the same read is a problem, as every [error] line is", () => {
  const log = [
    `2026-12-01 23:48:19.412 [error] ${MESSAGE}: PendingMigrationError: ${MESSAGE}`,
    ...zodFrames(INSTALLED),
    `2026-12-01 23:48:19.500 [info] ExtensionService#_doActivateExtension vscode.git, startup: false`,
  ].join("\n");
  assert.deepEqual(hostLogProblems(log), [`2026-12-01 23:48:19.412 [error] ${MESSAGE}: PendingMigrationError: ${MESSAGE}`]);
});

test("a clean log has no problems", () => {
  const clean = LOG.split("\n")
    .filter((line) => line.includes("[info]"))
    .join("\n");
  assert.deepEqual(hostLogProblems(clean), []);
});

test("VS Code's socket reset is dropped only when logged once the window was closed; before, it stays a problem", () => {
  const reset = (at: string): string => `2026-12-02 07:48:${at} [error] Error: read ECONNRESET`;
  const other = "2026-12-02 07:48:03.000 [error] Error: Manifold failed";
  const problems = [reset("01.500"), reset("02.098"), other];
  const closedAt = lineTime("2026-12-02 07:48:02.000 [info] x");
  assert.equal(typeof closedAt, "number");
  assert.deepEqual(withoutCloseResets(problems, closedAt), [reset("01.500"), other]);
  assert.deepEqual(withoutCloseResets(problems, undefined), problems, "a window still open drops nothing");
  assert.equal(lineTime("\tat a stack line"), undefined);
});
