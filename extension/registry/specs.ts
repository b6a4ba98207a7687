// What a registry entry's `package` may be (I-117): a name the package registry serves, at an exact
// version. npm and uv read anything else as a place to fetch from (a URL, a git repository, a file or
// folder, a tarball, an alias of another package) or as a moving target (a tag or a range), and npm
// runs the fetched package's install scripts on the host before anything else checks it. Pure: each
// check answers the problem in words, and the plan (plan.ts) refuses the entry with it before any
// process starts.
import { isExactVersion } from "./version";

export type SpecCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface NpmSpec {
  name: string;
  /** Absent: the entry names no version (the registry's version of the agent is used). */
  version?: string;
}

export interface PythonSpec {
  /** The name with its extras (`kimi-cli[acp]`): what goes before `==`. */
  requirement: string;
  name: string;
  version?: string;
}

const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

/** npm's rules for a new package name (validate-npm-package-name): lowercase, URL-safe, ≤ 214 characters. */
const NPM_NAME = /^(?:@[a-z0-9-][a-z0-9._-]*\/)?[a-z0-9-][a-z0-9._-]*$/;
const NPM_RESERVED = new Set(["node_modules", "favicon.ico"]);

/** Why `name` is not an npm registry package name, or undefined when it is one. */
export function npmNameProblem(name: string): string | undefined {
  if (name.length === 0) return "has no package name";
  if (name.length > 214) return "has a package name longer than 214 characters";
  if (name !== name.toLowerCase()) return `has a package name with capital letters ("${name}")`;
  if (/^[._]/.test(name) || /\/[._]/.test(name)) return `has a package name starting with "." or "_" ("${name}")`;
  if (NPM_RESERVED.has(name)) return `has a reserved package name ("${name}")`;
  if (!NPM_NAME.test(name))
    return `is not an npm package name ("${name}": only lowercase letters, digits, "-", "." and "_", with an optional @scope/)`;
  return undefined;
}

/** What a spec that is not `name[@version]` points at, in npm's terms (npm-package-arg), if it is one. */
function npmSourceKind(spec: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(spec)?.[1]?.toLowerCase();
  if (scheme === "npm" || /@npm:/i.test(spec)) return "is an alias of another package (npm:…)";
  if (scheme === "file") return "is a file path (file:…)";
  if (scheme === "http" || scheme === "https") return "is a URL (npm would fetch and run whatever it points at)";
  if (scheme !== undefined && /^(git|git\+.*|github|gitlab|bitbucket|gist)$/.test(scheme)) return "is a git repository spec";
  if (scheme !== undefined) return `is a URL (${scheme}:…)`;
  if (/^git@|^[^@/]+@[^/]+:/.test(spec)) return "is a git repository spec (user@host:path)";
  if (/^[./~\\]/.test(spec) || /^[A-Za-z]:[\\/]/.test(spec) || spec.includes("\\")) return "is a file path";
  if (/\.(tgz|tar|tar\.gz)$/i.test(spec)) return "is a tarball";
  // `user/repo` (no leading @scope): npm's GitHub shorthand.
  if (!spec.startsWith("@") && spec.includes("/")) return "is a git repository spec (GitHub's user/repo shorthand)";
  if (spec.includes("#")) return "is a git repository spec (#ref)";
  return undefined;
}

/** Why `version` is not one exact version, in words. */
function versionProblem(spec: string, version: string): string {
  if (version === "") return `ends with "@" and names no version`;
  if (/^[a-z][a-z0-9._-]*$/i.test(version) && !/^v?\d/.test(version)) return `is not pinned to an exact version: "${version}" is a tag`;
  return `is not pinned to an exact version: "${version}" is a range or not a semantic version (e.g. "${spec.slice(0, spec.lastIndexOf("@"))}@1.2.3")`;
}

/** An npx entry's `package`: exactly `<npm package name>` or `<npm package name>@<exact semver>`. */
export function checkNpmSpec(spec: string): SpecCheck<NpmSpec> {
  if (spec !== spec.trim() || /\s/.test(spec)) return fail("contains white space");
  const kind = npmSourceKind(spec);
  if (kind) return fail(kind);
  const at = spec.lastIndexOf("@");
  const name = at > 0 ? spec.slice(0, at) : spec;
  const version = at > 0 ? spec.slice(at + 1) : undefined;
  const nameProblem = npmNameProblem(name);
  if (nameProblem) return fail(nameProblem);
  if (version !== undefined && !isExactVersion(version)) return fail(versionProblem(spec, version));
  return { ok: true, value: { name, ...(version !== undefined ? { version } : {}) } };
}

/** A PEP 508 project name (normalised or not): letters, digits, ".", "_", "-", alphanumeric at both ends. */
const PY_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A PEP 440 public version, exactly (no wildcard, no local version, no `===`). */
const PY_VERSION = /^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$/;

/** A uvx entry's `package`: `<name>[extras]` optionally with `==<exact version>` (or `@<exact version>`). */
export function checkPythonSpec(spec: string): SpecCheck<PythonSpec> {
  if (/\s/.test(spec)) return fail("contains white space (a URL or marker requirement, not a name)");
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || /@[a-z][a-z0-9+.-]*:/i.test(spec))
    return fail("is a URL or a direct reference, not a package name");
  if (/^[./~\\]/.test(spec) || spec.includes("/") || spec.includes("\\")) return fail("is a file path, not a package name");
  const m = /^([^[=@]+)(\[[^\]]*\])?(?:(==|@)(.*))?$/.exec(spec);
  if (!m) return fail("is not `<name>==<exact version>` (a range or marker is not a pin)");
  const name = m[1]!;
  if (!PY_NAME.test(name)) return fail(`is not a Python package name ("${name}")`);
  const extras = m[2];
  if (
    extras !== undefined &&
    !extras
      .slice(1, -1)
      .split(",")
      .every((e) => PY_NAME.test(e.trim()))
  )
    return fail(`has malformed extras (${extras})`);
  const version = m[4];
  if (m[3] !== undefined && (version === undefined || !PY_VERSION.test(version)))
    return fail(`is not pinned to an exact version: "${version ?? ""}" is not one exact version (e.g. "${name}==1.2.3")`);
  return { ok: true, value: { requirement: name + (extras ?? ""), name, ...(version !== undefined ? { version } : {}) } };
}

/** The command uvx runs from the installed package: a bare executable name, never a path. */
export function pythonCmdProblem(cmd: string): string | undefined {
  return PY_NAME.test(cmd) ? undefined : `the command "${cmd}" is not a bare executable name`;
}

/** The registry's version of the agent used as the package's pin: exact semver for npm, PEP 440 for Python. */
export function exactPin(kind: "npx" | "uvx", version: string): boolean {
  return kind === "npx" ? isExactVersion(version) : PY_VERSION.test(version) || isExactVersion(version);
}
