// An MCP transport over a stdio server that we spawn ourselves with sandbox/processTree.ts, so that
// closing it kills the server's whole process tree (the SDK's StdioClientTransport kills only the
// child). Framing is the SDK's own (ReadBuffer / serializeMessage); stderr is kept as a short tail
// for error messages.
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { releaseDescriptors } from "../../sandbox/bindFds";
import { spawnTree, type RunningProcess } from "../../sandbox/processTree";
import type { WrappedCommand } from "../../sandbox/types";

/** A server line longer than this ends the connection (the reader never buffers without bound). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL = 2_000;

export class TreeStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private proc: RunningProcess | null = null;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private stderrTail = "";
  private closed = false;
  /** Why the server went away, when it was not us closing it. */
  exitReason: string | null = null;

  /** `preamble`: bytes written to the server's stdin before any MCP message (a sandboxed server's env, launch.ts). */
  constructor(
    private readonly cmd: WrappedCommand,
    private readonly preamble?: Buffer,
  ) {}

  stderr(): string {
    return this.stderrTail.trim();
  }

  async start(): Promise<void> {
    if (this.proc) throw new Error("already started");
    const proc = spawnTree(
      this.cmd,
      (chunk) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
      },
      { stdin: true, rawStdout: true },
    );
    this.proc = proc;
    const { child } = proc;
    child.stdin?.on("error", () => undefined); // EPIPE after a crash surfaces through `exited`
    if (this.preamble) child.stdin?.write(this.preamble);
    child.stdout?.on("data", (chunk: Buffer) => this.onData(chunk));
    void proc.exited.then(({ exitCode, signal }) => {
      if (!this.closed) this.exitReason = signal ? `killed by ${signal}` : `exited with code ${exitCode}`;
      this.finish();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    try {
      this.buffer.append(chunk);
    } catch (err) {
      this.exitReason = `sent a message larger than ${MAX_MESSAGE_BYTES} bytes`;
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      void this.close();
      return;
    }
    for (;;) {
      let msg: JSONRPCMessage | null;
      try {
        msg = this.buffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC is skipped (the reader already moved past it).
        this.onerror?.(
          new Error(`the server wrote a line that is not JSON-RPC: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`),
        );
        continue;
      }
      if (!msg) return;
      this.onmessage?.(msg);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.proc?.child.stdin;
      if (!stdin || this.closed || stdin.destroyed) return reject(new Error("the server is not running"));
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Kills the whole tree and waits until every process of it is gone. */
  async close(): Promise<void> {
    const first = !this.closed;
    this.closed = true;
    releaseDescriptors(this.cmd); // closed before it was started: its bind descriptors (spawnTree closes them otherwise)
    if (this.proc) await this.proc.kill();
    if (first) this.finish();
  }

  private finished = false;
  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
