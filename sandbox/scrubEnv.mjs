// The scrub itself, without the command-line entry of clean-env.mjs (which reads import.meta): the
// extension bundles this module (extension/registry/installer.ts) for the npm runs it starts.
import { delimiter } from "node:path";

/** Variables a package manager, a Node runtime or an enclosing editor sets for its own children. */
const DROPPED = [
  /^npm_/i, // npm_config_*, npm_package_*, npm_lifecycle_*, npm_node_execpath, npm_execpath, npm_command
  /^NODE_(?!EXTRA_CA_CERTS$)/, // NODE_OPTIONS, NODE_PATH, NODE_TEST_CONTEXT, NODE_ENV, … (the CA bundle is the user's)
  /^NODE$/, // npm's path to the Node running it
  /^INIT_CWD$/,
  /^COREPACK_/,
  /^VSCODE_/,
  /^ELECTRON_RUN_AS_NODE$/,
];

/** PATH entries that npm or npx put in front: node_modules/.bin folders and npm's node-gyp shim. */
function isToolShim(entry) {
  return /[\\/]node_modules[\\/]\.bin$/.test(entry) || /[\\/]@npmcli[\\/]run-script[\\/]lib[\\/]node-gyp-bin$/.test(entry);
}

export function isDroppedName(name) {
  return DROPPED.some((re) => re.test(name));
}

/** `PATH` without the shims, with `prepend` in front. */
export function cleanPath(path, prepend = []) {
  const kept = (path ?? "").split(delimiter).filter((e) => e.length > 0 && !isToolShim(e));
  return [...prepend, ...kept].join(delimiter);
}

/**
 * A copy of `source` without what a calling npm, Node or editor set for its children, then `extra`
 * on top (`undefined` removes a key). `prependPath` goes in front of the cleaned PATH.
 * @param {Record<string, string | undefined>} source
 * @param {Record<string, string | undefined>} [extra]
 * @param {string[]} [prependPath]
 * @returns {Record<string, string>}
 */
export function cleanEnv(source, extra = {}, prependPath = []) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || isDroppedName(key)) continue;
    env[key] = value;
  }
  env.PATH = cleanPath(source.PATH, prependPath);
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}
