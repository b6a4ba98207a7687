// `_meta["manifold.dev/protectedPaths"]` on session/new, load, resume and fork (I-112): absolute
// paths the client wants protected like editor config for this session — the `envFile` of each
// MCP server it configured. Checked here (zod, bounded); the ones outside the session root are
// ignored where they are used (sandbox/configPaths.ts `extraInRoot`).
import * as path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";
import { MAX_PROTECTED_PATHS } from "../../sandbox/configPaths";

export const PROTECTED_PATHS_META = "manifold.dev/protectedPaths";

const ProtectedPaths = z
  .array(
    z
      .string()
      .min(1)
      .max(4096)
      .refine((p) => !p.includes("\0") && path.isAbsolute(p), "each protected path must be absolute"),
  )
  .max(MAX_PROTECTED_PATHS);

/** The paths the request names, or undefined when it names none (keep what the session has). Throws invalid params. */
export function protectedPathsOf(params: { _meta?: Record<string, unknown> | null }): string[] | undefined {
  const raw = params._meta?.[PROTECTED_PATHS_META];
  if (raw === undefined || raw === null) return undefined;
  const r = ProtectedPaths.safeParse(raw);
  if (!r.success)
    throw RequestError.invalidParams(
      undefined,
      `${PROTECTED_PATHS_META} must be at most ${MAX_PROTECTED_PATHS} absolute paths: ${r.error.issues[0]?.message ?? "bad shape"}`,
    );
  return r.data;
}
