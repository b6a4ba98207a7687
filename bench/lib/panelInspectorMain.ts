// Child-process relay between stdio and one Node inspector WebSocket (CDP): a line on stdin is sent
// as a message, each message received is written as a line on stdout; "OPEN" once connected. It is
// a child because the bench's Node 20 has WebSocket only behind --experimental-websocket, which this
// process is started with; nothing else needs the flag.
import { createInterface } from "node:readline";

interface MinimalSocket {
  send(data: string): void;
  close(): void;
  addEventListener(type: "open" | "close" | "error", listener: () => void): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}
type SocketCtor = new (url: string) => MinimalSocket;

const Ctor = (globalThis as { WebSocket?: SocketCtor }).WebSocket;
const url = process.argv[2];
if (!Ctor || !url) {
  process.stderr.write("panel inspector relay: needs --experimental-websocket and a ws:// URL\n");
  process.exit(2);
}
const ws = new Ctor(url);
ws.addEventListener("open", () => {
  process.stdout.write("OPEN\n");
  createInterface({ input: process.stdin })
    .on("line", (line) => ws.send(line))
    .on("close", () => ws.close());
});
ws.addEventListener("message", (event) => void process.stdout.write(`${String(event.data)}\n`));
ws.addEventListener("close", () => process.exit(0));
ws.addEventListener("error", () => process.exit(1));
