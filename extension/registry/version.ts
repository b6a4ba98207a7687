// Semantic version order, enough to tell "update available": numeric core, a pre-release sorts first.

function parts(v: string): { core: number[]; pre: string } {
  const [main = "", ...rest] = v.split("+")[0]!.split("-");
  return { core: main.split(".").map((n) => Number.parseInt(n, 10) || 0), pre: rest.join("-") };
}

/** Negative when `a` is older than `b`, 0 when equal, positive when newer. */
export function compareVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length); i++) {
    const d = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (d !== 0) return d;
  }
  if (pa.pre === pb.pre) return 0;
  if (pa.pre === "") return 1;
  if (pb.pre === "") return -1;
  return pa.pre < pb.pre ? -1 : 1;
}

/** semver.org's grammar of one version, exactly (no leading zeros, no "v", no range or tag). */
const EXACT_SEMVER =
  /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** An exact version (what a pin must be), as opposed to a range or a tag such as `latest`. */
export function isExactVersion(v: string): boolean {
  return EXACT_SEMVER.test(v);
}
