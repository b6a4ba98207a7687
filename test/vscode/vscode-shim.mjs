#!/usr/bin/env node
// A stand-in "VS Code executable" for @vscode/test-electron's runTests() on machines where desktop VS Code
// cannot be had (offline CI): point VSCODE_EXECUTABLE_PATH here. It takes runTests' command line, runs the
// same extension-host tests in code-server (through headless Chromium), prints their output and exits with
// their exit code. The work is in support/shim.ts.
// Same TypeScript loader as `node --import tsx` (CommonJS and ESM hooks), registered before the import below.
import "tsx";

const shim = await import("./support/shim.ts");
// The package is CommonJS, so the module's exports may arrive as `default`.
const runShim = shim.runShim ?? shim.default.runShim;
process.exitCode = await runShim(process.argv.slice(2));
