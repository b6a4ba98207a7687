// The seccomp program itself, run on a small classic-BPF interpreter against synthetic
// `seccomp_data`: every architecture branch is checked here, whichever host runs the tests.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import { filterFile, socketFilter } from "../../../sandbox/seccomp";

const X86_64 = 0xc000003e;
const AARCH64 = 0xc00000b7;
const I386 = 0x40000003;
const ALLOW = 0x7fff0000;
const KILL = 0x80000000;
const EACCES = 0x00050000 | 13;
const ENOSYS = 0x00050000 | 38;

/** Evaluates a `struct sock_filter[]` program on seccomp_data {nr, arch, args}. */
function run(prog: Buffer, nr: number, arch: number, args: bigint[] = []): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(nr >>> 0, 0);
  data.writeUInt32LE(arch >>> 0, 4);
  args.forEach((a, i) => data.writeBigUInt64LE(a, 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc * 8 < prog.length; pc++) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = data.readUInt32LE(k);
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else throw new Error(`unknown opcode ${code}`);
  }
  throw new Error("fell off the end");
}

const unix = socketFilter({ sockets: "unix" });
const all = socketFilter({ sockets: "all" });
const SOCK_STREAM = 1n;
const SOCK_DGRAM = 2n;
const SOCK_SEQPACKET = 5n;
const CLOEXEC_NONBLOCK = 0x80000n | 0x800n;

describe("seccomp socket filter (classic BPF, assembled in TypeScript)", () => {
  it("x86_64: socket(AF_UNIX) is refused with EACCES, IP sockets pass (the netns isolates them)", () => {
    assert.equal(run(unix, 41, X86_64, [1n, SOCK_STREAM]), EACCES);
    assert.equal(run(unix, 41, X86_64, [1n, SOCK_DGRAM | CLOEXEC_NONBLOCK]), EACCES);
    assert.equal(run(unix, 41, X86_64, [0x1_0000_0001n, SOCK_STREAM]), EACCES, "the kernel reads the int domain: high bits do not matter");
    assert.equal(run(unix, 41, X86_64, [2n, SOCK_STREAM]), ALLOW);
    assert.equal(run(unix, 41, X86_64, [10n, SOCK_DGRAM]), ALLOW);
  });

  it("socketpair(AF_UNIX): stream and seqpacket pass (with flags), datagram is refused (sendto may name any path)", () => {
    for (const [nr, arch] of [
      [53, X86_64],
      [199, AARCH64],
    ] as const) {
      assert.equal(run(unix, nr, arch, [1n, SOCK_STREAM | CLOEXEC_NONBLOCK]), ALLOW);
      assert.equal(run(unix, nr, arch, [1n, SOCK_SEQPACKET]), ALLOW);
      assert.equal(run(unix, nr, arch, [1n, SOCK_DGRAM | CLOEXEC_NONBLOCK]), EACCES);
    }
  });

  it("aarch64 uses its own numbers: 198 socket, 199 socketpair; x86_64's 41 there is not socket", () => {
    assert.equal(run(unix, 198, AARCH64, [1n, SOCK_STREAM]), EACCES);
    assert.equal(run(unix, 198, AARCH64, [2n, SOCK_STREAM]), ALLOW);
    assert.equal(run(unix, 41, AARCH64, [1n]), ALLOW);
  });

  it("io_uring (which can create and connect sockets without socket()) gets ENOSYS on both arches", () => {
    for (const nr of [425, 426, 427]) for (const arch of [X86_64, AARCH64]) assert.equal(run(unix, nr, arch), ENOSYS);
  });

  it("x32 numbers, i386 (int 0x80) and unknown architectures are killed", () => {
    assert.equal(run(unix, 41 | 0x40000000, X86_64, [1n]), KILL);
    assert.equal(run(unix, 0x40000000 | 1, X86_64), KILL);
    assert.equal(run(unix, 102, I386, [1n]), KILL, "socketcall");
    assert.equal(run(unix, 359, I386, [1n]), KILL);
    assert.equal(run(unix, 0, 0x12345678), KILL);
  });

  it("everything else passes", () => {
    for (const nr of [0, 1, 2, 59, 60, 231, 42, 49]) assert.equal(run(unix, nr, X86_64, [1n]), ALLOW);
  });

  it("`sockets: all` (no network namespace) refuses every socket() but keeps stream socketpairs", () => {
    assert.equal(run(all, 41, X86_64, [2n, SOCK_STREAM]), EACCES);
    assert.equal(run(all, 198, AARCH64, [10n, SOCK_DGRAM]), EACCES);
    assert.equal(run(all, 53, X86_64, [1n, SOCK_STREAM]), ALLOW);
  });

  it("the filter file is content-addressed and rewritten when tampered with", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mf-seccomp-"));
    try {
      const f = filterFile(dir, unix);
      assert.deepEqual(fs.readFileSync(f), unix);
      fs.writeFileSync(f, Buffer.alloc(8));
      assert.equal(filterFile(dir, unix), f);
      assert.deepEqual(fs.readFileSync(f), unix);
      assert.notEqual(filterFile(dir, all), f);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
