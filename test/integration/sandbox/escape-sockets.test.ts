// With the network off, no unix socket is reachable either. `--unshare-net`
// isolates IP and abstract sockets but not path-based ones: a listener anywhere visible (the
// Docker socket, the user's D-Bus, ssh-agent, a socket inside the session folder) was reachable
// from python, curl --unix-socket and node. Each test counts what the host listener received.
import assert from "node:assert/strict";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type { CommandSandbox } from "../../../sandbox/types";
import { listen } from "./hostPeers";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";

let fx: Fixture;
let sb: CommandSandbox;
let root: string;

before(async () => {
  fx = makeFixture("mf-esc-sock-");
  root = fx.dir("root");
  sb = await detect();
});
after(() => fx.cleanup());

const PY = "/usr/bin/python3";
/** Client attempts from inside; each prints CONNECTED or REFUSED. */
function clients(address: string): string[] {
  const pyAddr = address.startsWith("\0") ? `"\\0${address.slice(1)}"` : JSON.stringify(address);
  const py = `${PY} -c 'import socket,sys
s=socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(${pyAddr}); s.sendall(b"FROM-PYTHON"); print("py CONNECTED")' 2>/dev/null || echo py REFUSED`;
  const nodeAddr = JSON.stringify(address).replace(/'/g, "");
  const node = `${process.execPath} -e 'const s=require("net").connect(${nodeAddr},()=>{s.end("FROM-NODE");console.log("node CONNECTED")});s.on("error",()=>console.log("node REFUSED"))'`;
  const curl = address.startsWith("\0")
    ? `curl -s --max-time 5 --abstract-unix-socket ${JSON.stringify(address.slice(1))} http://x/FROM-CURL >/dev/null 2>&1; [ $? -eq 0 -o $? -eq 1 -o $? -eq 52 -o $? -eq 56 ] && echo curl CONNECTED || echo curl REFUSED`
    : `curl -s --max-time 5 --unix-socket ${JSON.stringify(address)} http://x/FROM-CURL >/dev/null 2>&1; rc=$?; [ $rc -eq 7 ] && echo curl REFUSED || echo curl CONNECTED rc=$rc`;
  return [py, node, curl];
}

describe(`bubblewrap: no unix sockets without network (${asWho})`, { skip: !linux && "Linux only" }, () => {
  for (const where of [
    "a socket outside the folder (like /var/tmp, /run)",
    "a socket inside the session folder created by a host process",
    "an abstract socket",
  ]) {
    it(`${where} cannot be reached by python, node or curl`, async () => {
      const address = where.startsWith("an abstract")
        ? `\0manifold-test-${process.pid}-${Date.now()}`
        : where.includes("inside")
          ? path.join(root, "host.sock")
          : path.join(fx.dir("run"), `agent-${Date.now()}.sock`);
      const l = await listen(address);
      try {
        const r = await runIn(sb, fx.ctxFor("sock", root), clients(address).join("\n"));
        assert.deepEqual(l.seen(), { connections: 0, data: "" }, r.out);
        assert.match(r.out, /py REFUSED\nnode REFUSED\ncurl REFUSED\n/);
      } finally {
        await l.close();
      }
    });
  }

  it("datagram unix sockets are refused too, also through a socketpair (sendto a path)", async () => {
    const script = `${PY} - <<'PY'
import socket
for name, make in (("dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)), ("pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0])):
    try:
        make(); print(name, "CREATED")
    except OSError:
        print(name, "REFUSED")
PY`;
    const r = await runIn(sb, fx.ctxFor("dg", root), script);
    assert.equal(r.out, "dgram REFUSED\npair REFUSED\n");
  });

  it("what legitimately needs a socketpair still works: stream socketpairs, node child processes", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("ok", root),
      `${PY} -c 'import socket; a,b=socket.socketpair(); a.sendall(b"x"); print("pair", b.recv(1).decode())'; ${process.execPath} -e 'console.log("child", require("child_process").execFileSync("/bin/echo",["ok"]).toString().trim())'`,
    );
    assert.equal(r.out, "pair x\nchild ok\n");
  });

  it("with the network allowed (an approved escalation), unix sockets are reachable: the escalation covers them", async () => {
    const l = await listen(path.join(fx.dir("run2"), "net-on.sock"));
    try {
      const r = await runIn(sb, fx.ctxFor("on", root, { network: true }), clients(l.address)[0] ?? "");
      assert.equal(r.out, "py CONNECTED\n");
      assert.equal(l.seen().connections, 1);
    } finally {
      await l.close();
    }
  });
});
