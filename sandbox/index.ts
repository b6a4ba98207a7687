// Entry point of the sandbox layer.
export type { CommandSandbox, SandboxContext, SandboxBackendName, WrappedCommand } from "./types";
export { detectSandbox } from "./detect";
export type { DetectOptions } from "./detect";
export { guardPath, canonicalize, isInside, PathGuardError } from "./pathGuard";
export type { GuardedPath } from "./pathGuard";
export { NO_BACKEND_MESSAGE } from "./none";
