// Stands in for the VS Code tier's files when their tools failed to install (scripts/run-tests.mjs
// adds it only then; its name has no `.test.`, so the runner never finds it on its own): one failing test
// that carries the installer's message, instead of every VS Code test reported as cancelled.
import { test } from "node:test";

test("VS Code tier: its tools are installed", () => {
  throw new Error(process.env.MANIFOLD_E2E_TOOLS_FAILURE ?? "the VS Code tier's tools did not install");
});
