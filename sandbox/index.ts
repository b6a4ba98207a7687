// Entry point of the sandbox layer.
export type { CommandSandbox, SandboxContext, SandboxBackendName, WrappedCommand } from "./types";
export { detectSandbox } from "./detect";
export type { DetectOptions } from "./detect";
export { guardPath, canonicalize, isInside, realRoot, PathGuardError } from "./pathGuard";
export type { GuardedPath } from "./pathGuard";
export { NO_BACKEND_MESSAGE } from "./none";
export { childEnv, isAllowedEnvName, isSecretEnvName } from "./env";
export { spawnTree, DEFAULT_KILL_GRACE_MS } from "./processTree";
export type { RunningProcess } from "./processTree";
export { descendantsOf, pidAlive, processRef, stillAlive } from "./procfs";
export type { ProcessRef } from "./procfs";
export { redact, redactValues } from "./redact";
export { shellQuote } from "./shellQuote";
