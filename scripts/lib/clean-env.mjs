#!/usr/bin/env node
// The one place that scrubs the environment of a nested tool run (npm, node-gyp, code-server).
//
// Run under `npm test` or `npm start`, a script inherits the outer npm's configuration as variables
// (`npm_config_user_agent`, `npm_config_nodedir`, `npm_node_execpath`, `INIT_CWD`, `NODE`, …) and a
// PATH with node_modules/.bin and npm's node-gyp shim in front. A nested npm running on another Node
// reads them as its own config: code-server's postinstall then sees the outer Node's version in the
// user agent and refuses to install. Node's test runner adds NODE_TEST_CONTEXT, which turns a child
// node into a test reporter, and an enclosing VS Code adds VSCODE_* and ELECTRON_RUN_AS_NODE.
// Nothing of that reaches a nested tool: it starts from what the user's shell had.
//
// Library:  import { cleanEnv } from "./clean-env.mjs";  cleanEnv(process.env, { KEY: "value" })
// Command:  node scripts/lib/clean-env.mjs [--prepend-path DIR]… [KEY=VALUE]… COMMAND [ARG]…
//           runs COMMAND in the scrubbed environment (stdio inherited) and exits with its code.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { cleanEnv } from "../../sandbox/scrubEnv.mjs";

export { cleanEnv, cleanPath, isDroppedName } from "../../sandbox/scrubEnv.mjs";

function main(argv) {
  const prepend = [];
  const extra = {};
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--prepend-path" && i + 1 < argv.length) prepend.push(argv[++i]);
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
      const eq = arg.indexOf("=");
      extra[arg.slice(0, eq)] = arg.slice(eq + 1);
    } else break;
  }
  const [command, ...args] = argv.slice(i);
  if (!command) {
    console.error("usage: clean-env.mjs [--prepend-path DIR]… [KEY=VALUE]… COMMAND [ARG]…");
    process.exit(2);
  }
  const result = spawnSync(command, args, { stdio: "inherit", env: cleanEnv(process.env, extra, prepend) });
  if (result.error) {
    console.error(`clean-env: could not run ${command}: ${result.error.message}`);
    process.exit(127);
  }
  process.exit(result.status ?? 1);
}

const invoked = process.argv[1] ? realpathSync(process.argv[1]) : "";
if (invoked === realpathSync(fileURLToPath(import.meta.url))) main(process.argv.slice(2));
