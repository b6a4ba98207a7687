// A session folder's confinement for what the extension serves to agents (fs/*, terminal cwd, I-94):
// a thin adapter over the one path guard in sandbox/ (reference/sandbox.md §1.5), answering with a
// result instead of throwing. Callers must operate on the returned real path, never on the raw input.
import { guardPath, PathGuardError, realRoot } from "../../sandbox";
import { configProtection } from "../../sandbox/configPaths";

export type ConfineResult = { ok: true; path: string } | { ok: false; reason: string };

export class PathConfinement {
  /** `protectedPaths`: the session's extra protected paths (its MCP servers' env files, I-112). */
  constructor(
    readonly root: string,
    private readonly protectedPaths: () => readonly string[] = () => [],
  ) {}

  /** The real root (the sandbox's workspace-write root and the default cwd). */
  async realRoot(): Promise<string> {
    return realRoot(this.root);
  }

  /**
   * `write`: also refuse protected paths (git metadata, editor/agent config, I-112): the editor and
   * Manifold honour them outside any sandbox, and this request carries no question to the user.
   */
  async confine(input: string, access: "read" | "write" = "read"): Promise<ConfineResult> {
    if (typeof input !== "string" || input.length === 0) return { ok: false, reason: "empty path" };
    let root: string;
    try {
      root = realRoot(this.root);
    } catch {
      return { ok: false, reason: `the session folder ${this.root} is not accessible` };
    }
    try {
      const g = guardPath(input, root, [root]);
      if (g.within === null) return { ok: false, reason: `${input} is outside the session folder ${this.root}` };
      if (access === "write") {
        const why = g.protected
          ? `${g.protected}, which git runs code from outside any sandbox`
          : configProtection(g.real, g.spelled, root, this.protectedPaths());
        if (why) return { ok: false, reason: `${input} is protected: ${why}. Agents may not write it; ask the user to change it.` };
      }
      return { ok: true, path: g.real };
    } catch (err) {
      if (err instanceof PathGuardError) return { ok: false, reason: `cannot resolve ${input}: ${err.message}` };
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      return { ok: false, reason: `cannot resolve ${input} (${code})` };
    }
  }
}
