// The short read-only list for approval `untrusted` (DESIGN.md "Sandbox × approval"): programs and
// git subcommands with the arguments under which *every* form is read-only. Flags that write
// (`sort -o`, `tree -o`, `file -C`, `git log --output`), execute (`rg --pre`, `find -exec`,
// `sort --compress-program`, `git diff --ext-diff`) or change state (`date -s`, `git branch x`)
// are simply absent: an unknown flag asks. Git's global options (`-c`, `-C`, `--git-dir`, …) ask too.
// Known and accepted: `git status` may refresh the index stat cache (git's own optional lock);
// a repository's existing config can still run programs (core.fsmonitor), which the sandbox's
// read-only `.git/config` keeps the agent from planting.
import { noPositional, parseArgs, type ArgSpec } from "./argSpec";

const LS: ArgSpec = {
  flags: "aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1".split("").map((c) => `-${c}`).concat(
    ["--all", "--almost-all", "--human-readable", "--recursive", "--reverse", "--size", "--directory", "--classify", "--inode", "--dereference", "--numeric-uid-gid", "--no-group", "--literal", "--quote-name", "--si", "--full-time", "--group-directories-first"],
  ),
  values: ["-I", "-w", "-T", "--ignore", "--hide", "--width", "--sort", "--time", "--time-style", "--format", "--block-size", "--tabsize", "--quoting-style", "--indicator-style"],
  optional: ["--color", "--colour"],
};

const CAT: ArgSpec = { flags: ["-A", "-b", "-e", "-E", "-n", "-s", "-t", "-T", "-u", "-v", "--number", "--number-nonblank", "--show-all", "--show-ends", "--show-tabs", "--squeeze-blank", "--show-nonprinting"] };
const HEAD_TAIL: ArgSpec = { flags: ["-q", "-v", "-z", "--quiet", "--silent", "--verbose", "--zero-terminated"], values: ["-n", "-c", "--lines", "--bytes"], numeric: true };
const WC: ArgSpec = { flags: ["-c", "-m", "-l", "-L", "-w", "--bytes", "--chars", "--lines", "--words", "--max-line-length"] };

const RG: ArgSpec = {
  flags: "aciFHIlLnNoOpqsSuUvwx0".split("").map((c) => `-${c}`).concat([
    "--hidden", "--no-hidden", "--follow", "--no-ignore", "--no-ignore-vcs", "--files", "--files-with-matches", "--files-without-match", "--count", "--count-matches",
    "--json", "--no-heading", "--heading", "--line-number", "--no-line-number", "--column", "--no-column", "--only-matching", "--fixed-strings", "--ignore-case",
    "--smart-case", "--case-sensitive", "--word-regexp", "--line-regexp", "--invert-match", "--multiline", "--multiline-dotall", "--pcre2", "--text", "--null",
    "--vimgrep", "--trim", "--stats", "--sort-files", "--type-list", "--with-filename", "--no-filename", "--no-messages", "--quiet", "--passthru", "--byte-offset",
    "--unrestricted", "--one-file-system", "--no-config", "--debug", "--crlf", "--no-unicode", "--binary",
  ]),
  values: ["-A", "-B", "-C", "-e", "-f", "-g", "-j", "-m", "-M", "-r", "-t", "-T", "-E", "--after-context", "--before-context", "--context", "--regexp", "--file",
    "--glob", "--iglob", "--threads", "--max-count", "--max-columns", "--max-depth", "--max-filesize", "--replace", "--type", "--type-not", "--encoding",
    "--sort", "--sortr", "--color", "--colors", "--context-separator", "--field-match-separator", "--path-separator", "--engine"],
};

const GREP: ArgSpec = {
  flags: "abcEFGhHiIlLnoPqrRsTUvwxyzZ".split("").map((c) => `-${c}`).concat([
    "--count", "--recursive", "--dereference-recursive", "--ignore-case", "--no-ignore-case", "--line-number", "--files-with-matches", "--files-without-match",
    "--invert-match", "--word-regexp", "--line-regexp", "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--only-matching",
    "--no-filename", "--with-filename", "--no-messages", "--quiet", "--silent", "--text", "--byte-offset", "--initial-tab", "--null", "--null-data",
  ]),
  values: ["-A", "-B", "-C", "-e", "-f", "-m", "-d", "-D", "--after-context", "--before-context", "--context", "--regexp", "--file", "--max-count",
    "--include", "--exclude", "--exclude-dir", "--exclude-from", "--binary-files", "--label", "--directories", "--devices"],
  optional: ["--color", "--colour"],
  numeric: true,
};

const FILE: ArgSpec = {
  flags: ["-b", "-i", "-k", "-L", "-h", "-N", "-n", "-r", "-s", "-z", "-Z", "-0", "-E", "--brief", "--mime", "--mime-type", "--mime-encoding", "--keep-going",
    "--dereference", "--no-dereference", "--no-pad", "--no-buffer", "--raw", "--special-files", "--uncompress", "--uncompress-noreport", "--print0", "--extension", "--apple"],
  values: ["-e", "-f", "-F", "-m", "-P", "--exclude", "--exclude-quiet", "--files-from", "--separator", "--magic-file", "--parameter"],
};

const STAT: ArgSpec = { flags: ["-L", "-f", "-t", "--dereference", "--file-system", "--terse"], values: ["-c", "--format", "--printf", "--cached"] };

const TREE: ArgSpec = {
  flags: "adlfxpsughDFqNQrtvUcCnAS".split("").map((c) => `-${c}`).concat(["-J", "-X", "--noreport", "--dirsfirst", "--filesfirst", "--du", "--prune", "--si", "--inodes", "--device", "--gitignore", "--matchdirs", "--ignore-case", "--fromfile"]),
  values: ["-L", "-P", "-I", "-H", "-T", "--filelimit", "--charset", "--sort", "--timefmt", "--gitfile", "--hintro", "--houtro"],
};

const DU: ArgSpec = {
  flags: ["-0", "-a", "-b", "-c", "-D", "-h", "-H", "-k", "-l", "-L", "-m", "-P", "-s", "-S", "-x", "--all", "--apparent-size", "--bytes", "--total", "--human-readable", "--si", "--summarize", "--separate-dirs", "--one-file-system", "--dereference", "--no-dereference", "--count-links", "--inodes", "--null"],
  values: ["-B", "-d", "-t", "-X", "--block-size", "--max-depth", "--threshold", "--exclude", "--exclude-from", "--time-style"],
  optional: ["--time"],
};

const DF: ArgSpec = {
  flags: ["-a", "-h", "-H", "-i", "-k", "-l", "-P", "-T", "--all", "--human-readable", "--si", "--inodes", "--local", "--portability", "--print-type", "--total", "--no-sync", "--sync"],
  values: ["-B", "-t", "-x", "--block-size", "--type", "--exclude-type"],
  // df's --output is a list of columns printed to stdout, not a file.
  optional: ["--output"],
};

const DATE: ArgSpec = {
  flags: ["-u", "-R", "--utc", "--universal", "--rfc-email", "--debug"],
  values: ["-d", "-r", "--date", "--reference"],
  optional: ["-I", "--iso-8601", "--rfc-3339"],
  // A positional other than +FORMAT sets the clock (`date MMDDhhmm`).
  positional: (w) => w.every((x) => x.startsWith("+")),
};

const SORT: ArgSpec = {
  flags: "bdfgiMhnRrVcCmsuz".split("").map((c) => `-${c}`).concat([
    "--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort", "--ignore-nonprinting", "--month-sort", "--human-numeric-sort",
    "--numeric-sort", "--random-sort", "--reverse", "--version-sort", "--merge", "--stable", "--unique", "--zero-terminated", "--debug",
  ]),
  values: ["-k", "-t", "-S", "--key", "--field-separator", "--buffer-size", "--sort", "--parallel"],
  optional: ["--check"],
};

/** find: paths, then an expression of tests and the actions that only print to stdout. */
const FIND: ArgSpec = {
  singleDash: true,
  flags: ["-H", "-L", "-P", "-print", "-print0", "-ls", "-prune", "-quit", "-not", "-a", "-o", "-and", "-or", "-true", "-false", "-empty", "-readable", "-writable",
    "-executable", "-nouser", "-nogroup", "-depth", "-xdev", "-mount", "-follow", "-daystart", "-ignore_readdir_race", "-noleaf"],
  values: ["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-regextype", "-lname", "-ilname", "-type", "-xtype", "-maxdepth",
    "-mindepth", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-anewer", "-cnewer", "-user", "-group", "-uid", "-gid", "-perm",
    "-links", "-inum", "-samefile", "-printf", "-used", "-fstype"],
};

// ---- git ----

/** Diff and revision-walk options shared by diff, log and show: output formats and filters only. */
const GIT_DIFF_FLAGS = [
  "-p", "-u", "-s", "-w", "-b", "-R", "-a", "-z", "-W", "-D", "--patch", "--no-patch", "--raw", "--patch-with-raw", "--patch-with-stat", "--stat", "--numstat", "--shortstat",
  "--compact-summary", "--summary", "--name-only", "--name-status", "--check", "--full-index", "--binary", "--no-color", "--color-words", "--minimal", "--patience",
  "--histogram", "--ignore-space-change", "--ignore-all-space", "--ignore-space-at-eol", "--ignore-blank-lines", "--ignore-cr-at-eol", "--text", "--no-renames",
  "--no-ext-diff", "--no-textconv", "--exit-code", "--quiet", "--no-prefix", "--default-prefix", "--function-context", "--irreversible-delete", "--cached", "--staged",
  "--merge-base", "--no-index", "--ita-invisible-in-index", "--ita-visible-in-index", "--no-relative", "--cumulative", "--indent-heuristic", "--no-indent-heuristic",
];
const GIT_DIFF_VALUES = ["-U", "-S", "-G", "-O", "-l", "--unified", "--diff-filter", "--src-prefix", "--dst-prefix", "--line-prefix", "--anchored", "--diff-algorithm", "--stat-width", "--stat-count", "--inter-hunk-context", "--output-indicator-new", "--output-indicator-old", "--output-indicator-context"];
const GIT_DIFF_OPTIONAL = ["-M", "-C", "-B", "--find-renames", "--find-copies", "--break-rewrites", "--color", "--word-diff", "--word-diff-regex", "--color-moved", "--color-moved-ws", "--dirstat", "--abbrev", "--relative", "--submodule", "--ignore-submodules", "--stat", "--find-copies-harder", "--pickaxe-regex", "--pickaxe-all"];
const GIT_LOG_FLAGS = [
  "--oneline", "--graph", "--all", "--reverse", "--first-parent", "--merges", "--no-merges", "--abbrev-commit", "--no-abbrev-commit", "--follow", "--left-right",
  "--cherry-pick", "--cherry-mark", "--cherry", "--date-order", "--author-date-order", "--topo-order", "--no-walk", "--walk-reflogs", "-g", "--boundary", "--source",
  "--use-mailmap", "--full-history", "--simplify-merges", "--ancestry-path", "--show-signature", "--log-size", "--parents", "--children", "--regexp-ignore-case", "-i",
  "--extended-regexp", "-E", "--fixed-strings", "-F", "--perl-regexp", "-P", "--all-match", "--invert-grep", "--no-decorate", "--relative-date", "--show-notes", "--no-notes",
  "--mailmap", "--no-mailmap", "--full-diff", "-m", "-c", "--cc", "--remerge-diff", "--not", "--bisect", "--stdin", "--no-min-parents", "--no-max-parents",
  "--branches", "--tags", "--remotes", "--reflog", "--alternate-refs", "--single-worktree", "--ignore-missing", "--expand-tabs", "--no-expand-tabs",
];
const GIT_LOG_VALUES = ["-n", "-L", "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author", "--committer", "--grep", "--grep-reflog", "--min-parents", "--max-parents", "--format", "--date", "--encoding", "--glob", "--exclude", "--since-as-filter"];
const GIT_LOG_OPTIONAL = ["--decorate", "--pretty", "--branches", "--tags", "--remotes", "--diff-merges", "--notes", "--expand-tabs", "--decorate-refs", "--decorate-refs-exclude", "--clear-decorations", "--show-linear-break"];

const GIT_DIFF: ArgSpec = { flags: GIT_DIFF_FLAGS, values: GIT_DIFF_VALUES, optional: GIT_DIFF_OPTIONAL };
const GIT_LOG: ArgSpec = {
  flags: [...GIT_DIFF_FLAGS, ...GIT_LOG_FLAGS],
  values: [...GIT_DIFF_VALUES, ...GIT_LOG_VALUES],
  optional: [...GIT_DIFF_OPTIONAL, ...GIT_LOG_OPTIONAL],
  numeric: true,
};

/** `git branch` lists only when it has no positional word, or `--list`/`-l` makes the words patterns. */
const GIT_BRANCH: ArgSpec = {
  flags: ["-a", "-r", "-v", "-i", "-l", "--all", "--remotes", "--verbose", "--list", "--show-current", "--ignore-case", "--no-color", "--no-column", "--no-abbrev", "--omit-empty"],
  // These take a commit (git consumes the next word as it), never a branch name.
  values: ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format"],
  optional: ["--color", "--column", "--abbrev"],
  positional: (w, f) => w.length === 0 || f.has("--list") || f.has("-l"),
};

const GIT_STATUS: ArgSpec = {
  flags: ["-s", "-b", "-v", "-z", "--short", "--branch", "--long", "--verbose", "--show-stash", "--ahead-behind", "--no-ahead-behind", "--renames", "--no-renames", "--no-column"],
  optional: ["-u", "--untracked-files", "--ignored", "--ignore-submodules", "--porcelain", "--column", "--find-renames"],
};

const GIT_REV_PARSE: ArgSpec = {
  flags: ["-q", "--quiet", "--verify", "--show-toplevel", "--show-prefix", "--show-cdup", "--git-dir", "--git-common-dir", "--absolute-git-dir", "--is-inside-work-tree",
    "--is-inside-git-dir", "--is-bare-repository", "--is-shallow-repository", "--show-superproject-working-tree", "--shared-index-path", "--symbolic", "--symbolic-full-name",
    "--all", "--head", "--not", "--revs-only", "--no-revs", "--flags", "--no-flags", "--sq", "--sq-quote", "--local-env-vars"],
  values: ["--default", "--git-path", "--since", "--after", "--until", "--before", "--prefix", "--resolve-git-dir"],
  optional: ["--short", "--abbrev-ref", "--branches", "--tags", "--remotes", "--glob", "--exclude", "--disambiguate", "--show-object-format", "--path-format"],
};

const GIT_BLAME: ArgSpec = {
  flags: ["-b", "-c", "-e", "-f", "-l", "-n", "-p", "-s", "-t", "-w", "--root", "--show-stats", "--porcelain", "--line-porcelain", "--incremental", "--show-name",
    "--show-number", "--show-email", "--reverse", "--first-parent", "--progress", "--no-progress", "--color-lines", "--color-by-age", "--minimal"],
  values: ["-L", "-S", "--contents", "--date", "--ignore-rev", "--ignore-revs-file", "--encoding"],
  optional: ["-M", "-C", "--abbrev", "--score-debug"],
};

const GIT_LS_FILES: ArgSpec = {
  flags: ["-c", "-d", "-m", "-o", "-i", "-s", "-u", "-k", "-z", "-t", "-v", "-f", "--cached", "--deleted", "--modified", "--others", "--ignored", "--stage", "--unmerged",
    "--killed", "--directory", "--no-empty-directory", "--exclude-standard", "--full-name", "--error-unmatch", "--recurse-submodules", "--eol", "--deduplicate", "--resolve-undo", "--sparse", "--debug"],
  values: ["-x", "-X", "--exclude", "--exclude-from", "--exclude-per-directory", "--format"],
  optional: ["--abbrev"],
};

const GIT_SUBCOMMANDS: Readonly<Record<string, ArgSpec>> = {
  status: GIT_STATUS,
  diff: GIT_DIFF,
  log: GIT_LOG,
  show: GIT_LOG,
  branch: GIT_BRANCH,
  "rev-parse": GIT_REV_PARSE,
  blame: GIT_BLAME,
  "ls-files": GIT_LS_FILES,
};

/** The only options allowed before a git subcommand: the rest (-c, -C, --git-dir, --exec-path, -p, …) can redirect or run things. */
const GIT_GLOBAL_FLAGS = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"]);

const PROGRAMS: Readonly<Record<string, ArgSpec>> = {
  ls: LS,
  cat: CAT,
  head: HEAD_TAIL,
  tail: HEAD_TAIL,
  wc: WC,
  rg: RG,
  grep: GREP,
  file: FILE,
  stat: STAT,
  tree: TREE,
  du: DU,
  df: DF,
  date: DATE,
  sort: SORT,
  find: FIND,
  echo: { anyArgs: true },
  which: { flags: ["-a", "-s"] },
  pwd: { flags: ["-L", "-P"], positional: noPositional },
  whoami: { positional: noPositional },
  uname: { flags: "asnrvmpio".split("").map((c) => `-${c}`).concat(["--all", "--kernel-name", "--nodename", "--kernel-release", "--kernel-version", "--machine", "--processor", "--hardware-platform", "--operating-system"]), positional: noPositional },
};

/** True when the program with these arguments is on the read-only list (the words come from `shellWords`). */
export function readOnlyInvocation(words: readonly string[]): boolean {
  const [cmd, ...args] = words;
  if (cmd === undefined) return false;
  if (cmd === "git") {
    let i = 0;
    while (i < args.length && GIT_GLOBAL_FLAGS.has(args[i] as string)) i++;
    const sub = args[i];
    const spec = sub !== undefined && Object.hasOwn(GIT_SUBCOMMANDS, sub) ? GIT_SUBCOMMANDS[sub] : undefined;
    return spec !== undefined && parseArgs(spec, args.slice(i + 1)) !== null;
  }
  const spec = Object.hasOwn(PROGRAMS, cmd) ? PROGRAMS[cmd] : undefined;
  return spec !== undefined && parseArgs(spec, args) !== null;
}
