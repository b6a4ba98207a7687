// Mocha entry for the extension-host tests (the `run()` contract of @vscode/test-electron). Bundled by
// test/vscode/build-suite.mjs into out/test/suite/; every sibling `*.suite.js` there is loaded.
// Names end in `.suite.ts` so node's test runner (which runs `*.test.ts`) never picks them up.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", color: false, timeout: 120_000, reporter: "spec" });
  for (const name of readdirSync(__dirname).sort()) {
    if (name.endsWith(".suite.js")) mocha.addFile(join(__dirname, name));
  }
  // The shim (support/shim.ts) prints the workbench log from this line on.
  console.log("manifold-extension-tests: mocha starting");
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
