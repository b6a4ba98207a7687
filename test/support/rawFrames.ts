// Raw JSON-RPC lines for hostile-input tests: write bytes to a spawned agent's stdin and wait for
// the reply that carries a given id (or any predicate) without sleeping.
import type { AgentProcess } from "./agentProcess";

export type Frame = Record<string, unknown>;

const WAIT_SAFETY_MS = 60_000;

/** `[[[…]]]` nested `depth` levels (as text: building it as an object would itself overflow). */
export function nestedArray(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** `{"a":{"a":…{}}}` nested `depth` levels. */
export function nestedObject(depth: number): string {
  return '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
}

export function writeRaw(p: AgentProcess, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => p.child.stdin!.write(data, (err) => (err ? reject(err) : resolve())));
}

/** Resolves with the first recorded stdout frame that matches, waiting on stdout data events. */
export function waitForFrame(p: AgentProcess, match: (f: Frame) => boolean, what = "a frame"): Promise<Frame> {
  const find = (): Frame | undefined => p.frames.find((f): f is Frame => typeof f === "object" && f !== null && match(f as Frame));
  const hit = find();
  if (hit) return Promise.resolve(hit);
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      // The recorder's own listener ran first (registered at spawn), so `frames` is current.
      const f = find();
      if (f) done(() => resolve(f));
    };
    const onExit = (code: number | null, signal: string | null): void =>
      done(() => reject(new Error(`the agent exited (code ${code}, signal ${signal}) while waiting for ${what}`)));
    const timer = setTimeout(() => done(() => reject(new Error(`no ${what} within ${WAIT_SAFETY_MS} ms`))), WAIT_SAFETY_MS);
    const done = (settle: () => void): void => {
      clearTimeout(timer);
      p.child.stdout!.off("data", onData);
      p.child.off("exit", onExit);
      settle();
    };
    p.child.stdout!.on("data", onData);
    p.child.once("exit", onExit);
  });
}

export function replyTo(p: AgentProcess, id: string | number): Promise<Frame> {
  return waitForFrame(p, (f) => f.id === id && ("result" in f || "error" in f), `the reply to ${JSON.stringify(id)}`);
}

export function isAlive(p: AgentProcess): boolean {
  return p.child.exitCode === null && p.child.signalCode === null;
}
