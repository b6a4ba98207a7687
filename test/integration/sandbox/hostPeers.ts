// What the sandbox attack tests run on the host beside the confined process: a listener it tries to
// reach (unix path, abstract name or loopback TCP), and a swapper that exchanges two paths in a
// loop to race the binds (renameat2 RENAME_EXCHANGE, through python3's ctypes).
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";

export interface Listener {
  address: string;
  /** Bytes and connections the listener has seen. */
  seen(): { connections: number; data: string };
  close(): Promise<void>;
}

/**
 * A host listener that answers one line and counts what reached it: a unix path (made reachable by
 * any uid, like /run/docker.sock for its group: only the sandbox may stop it), an abstract name
 * (`\0…`) or `127.0.0.1:0` (the address it got is returned).
 */
export async function listen(address: string): Promise<Listener> {
  let connections = 0;
  let data = "";
  const server = net.createServer((s) => {
    connections++;
    s.setEncoding("utf8");
    s.on("data", (d: string) => (data += d));
    s.on("error", () => {});
    s.end("HELLO-FROM-HOST\n");
  });
  const tcp = address.startsWith("127.0.0.1:");
  await new Promise<void>((r) => (tcp ? server.listen(0, "127.0.0.1", r) : server.listen(address, r)));
  if (!tcp && !address.startsWith("\0")) fs.chmodSync(address, 0o777);
  const bound = server.address();
  const at = tcp && bound !== null && typeof bound === "object" ? `127.0.0.1:${bound.port}` : address;
  return { address: at, seen: () => ({ connections, data }), close: () => new Promise((r) => server.close(() => r())) };
}

export const PY = "/usr/bin/python3";

/**
 * Exchanges two paths atomically in a loop until killed, holding each state `argv[3]` seconds (0: as
 * fast as it can); prints "ready" once the first exchange worked.
 */
const SWAPPER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, hold = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), float(sys.argv[3])
def swap():
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.stderr.write(os.strerror(ctypes.get_errno()) + "\\n"); sys.exit(1)
swap(); swap()
sys.stdout.write("ready\\n"); sys.stdout.flush()
while True:
    swap()
    if hold: time.sleep(hold)
`;

/** Starts the swapper of `a` and `b`; resolves once it has exchanged them (and back) once. */
export function startSwapper(a: string, b: string, holdMs: number): Promise<ChildProcess> {
  const child = spawn(PY, ["-I", "-c", SWAPPER, a, b, String(holdMs / 1000)], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout?.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`swapper exited ${code}: ${err}`)));
  });
}
