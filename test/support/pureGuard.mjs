// Loaded into every test file by scripts/run-tests.mjs; active only in test/unit/ files, where it makes
// "unit means pure" hold: a child process, a disk write, a socket or a worker thread throws, and the
// file fails even if the code under test swallowed the error. Such a test belongs in test/integration/.
// The TypeScript loader (tsx → esbuild) may do all of these for itself: its own calls pass.
import childProcess from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import workerThreads from "node:worker_threads";

const file = process.argv[1] ?? "";
if (file.includes(`${sep}test${sep}unit${sep}`)) {
  const self = fileURLToPath(import.meta.url);
  /** Whether the nearest caller outside this file and Node's internals is the TypeScript loader. */
  const fromLoader = () => {
    const caller = (new Error().stack ?? "")
      .split("\n")
      .slice(1)
      .find((l) => !l.includes(self) && !l.includes("node:"));
    return caller !== undefined && /node_modules[\\/](esbuild|tsx|get-tsconfig)[\\/]/.test(caller);
  };
  const violations = [];
  const deny = (what) => {
    violations.push(what);
    throw new Error(`the unit tier is pure, but this test used ${what}: move it to test/integration/`);
  };
  const guard = (target, name, what) => {
    const orig = target[name];
    if (typeof orig !== "function") return;
    target[name] = function (...args) {
      return fromLoader() ? orig.apply(this, args) : deny(what(args));
    };
  };
  for (const name of ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"])
    guard(childProcess, name, () => `child_process.${name}`);
  const writes = [
    "writeFile",
    "appendFile",
    "mkdir",
    "mkdtemp",
    "rm",
    "rmdir",
    "unlink",
    "rename",
    "copyFile",
    "cp",
    "symlink",
    "link",
    "chmod",
    "chown",
    "truncate",
    "utimes",
  ];
  for (const base of writes) {
    for (const name of [base, `${base}Sync`]) guard(fs, name, ([p]) => `fs.${name}(${String(p)})`);
    guard(fs.promises, base, ([p]) => `fs.promises.${base}(${String(p)})`);
  }
  guard(fs, "createWriteStream", ([p]) => `fs.createWriteStream(${String(p)})`);
  const writeFlags = (flags) =>
    typeof flags === "number" ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0 : /[wa+]/.test(String(flags ?? "r"));
  for (const [target, name] of [
    [fs, "open"],
    [fs, "openSync"],
    [fs.promises, "open"],
  ]) {
    const orig = target[name];
    target[name] = function (p, flags, ...rest) {
      if (writeFlags(flags) && !fromLoader()) deny(`fs.${name}(${String(p)}, ${String(flags)})`);
      return orig.call(this, p, flags, ...rest);
    };
  }
  net.Server.prototype.listen = () => deny("a listening socket");
  net.Socket.prototype.connect = () => deny("a socket connection");
  const Worker = workerThreads.Worker;
  workerThreads.Worker = class extends Worker {
    constructor(...args) {
      if (!fromLoader()) deny("a worker thread");
      super(...args);
    }
  };
  syncBuiltinESMExports();
  process.on("exit", () => {
    if (violations.length === 0) return;
    process.stderr.write(`${file}: not pure: ${violations.join(", ")}\n`);
    process.exitCode = 1;
  });
}
