// Checks a program's arguments against an allowlist: every flag must be known, flags that take a
// value consume it (`--x=v`, `--x v`, `-xv`, `-x v`), short flags may be bundled (`-la`), and the
// positional words pass a per-program check. Anything unknown fails, so a flag we never heard of
// (or an abbreviation, or a quoting trick that changes a flag's spelling) asks instead of running.

export interface ArgSpec {
  /** Flags without a value. Short ones (`-l`) may be bundled unless `singleDash` is set. */
  readonly flags?: readonly string[];
  /** Flags that take a value. */
  readonly values?: readonly string[];
  /** Flags whose value is optional and can only be attached (`--color=auto`, `-M50%`). */
  readonly optional?: readonly string[];
  /** `-5` means a count (head, git log). */
  readonly numeric?: boolean;
  /** Words starting with `-` are whole names (find's `-name`), never bundles. */
  readonly singleDash?: boolean;
  /** Every word is positional text (echo). */
  readonly anyArgs?: boolean;
  /** The positional words (after values were consumed) and the flags seen. Default: anything. */
  readonly positional?: (words: readonly string[], flags: ReadonlySet<string>) => boolean;
}

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
}

function set(list: readonly string[] | undefined): ReadonlySet<string> {
  return new Set(list ?? []);
}

/** Parses `args` by `spec`; null when any word is not allowed. */
export function parseArgs(spec: ArgSpec, args: readonly string[]): ParsedArgs | null {
  if (spec.anyArgs) return { positional: [...args], flags: new Set() };
  const flags = set(spec.flags);
  const values = set(spec.values);
  const optional = set(spec.optional);
  const out: ParsedArgs = { positional: [], flags: new Set() };
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    // find has no `--` for its expression: there `--` would hide `-delete` behind "end of options".
    if (!endOfOptions && a === "--" && !spec.singleDash) {
      endOfOptions = true;
      continue;
    }
    if (endOfOptions || !a.startsWith("-") || a === "-") {
      out.positional.push(a);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(a)) continue;
    if (a.startsWith("--") || spec.singleDash) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a : a.slice(0, eq);
      out.flags.add(name);
      if (flags.has(name) && eq === -1) continue;
      if (optional.has(name)) continue;
      if (values.has(name)) {
        if (eq === -1 && ++i >= args.length) return null;
        continue;
      }
      return null;
    }
    // A bundle of short flags; a value flag takes the rest of the word, or the next word.
    for (let j = 1; j < a.length; j++) {
      const f = `-${a[j] as string}`;
      out.flags.add(f);
      if (flags.has(f)) continue;
      if (optional.has(f)) break;
      if (values.has(f)) {
        if (j === a.length - 1 && ++i >= args.length) return null;
        break;
      }
      return null;
    }
  }
  if (spec.positional && !spec.positional(out.positional, out.flags)) return null;
  return out;
}

export const noPositional = (words: readonly string[]): boolean => words.length === 0;
