// A classic-BPF seccomp filter, assembled here in TypeScript (no native dependency), that closes
// what a network namespace leaves open: path-based unix sockets. A command
// with the network off must not reach the Docker socket, the user's D-Bus (`systemd-run --user`
// runs anything unconfined), ssh-agent, or any listener in a folder it can see.
//
// What the filter refuses (EACCES unless noted), on x86_64 and aarch64:
// - socket(AF_UNIX, …) — and with `sockets: "all"` (backends without a network namespace) every
//   socket(); socketpair(AF_UNIX, SOCK_STREAM|SOCK_SEQPACKET) stays allowed: a connected pair
//   reaches nothing (node, python and libuv use it for child stdio). A SOCK_DGRAM pair is refused,
//   because sendto() on a datagram socket may name any socket path.
// - io_uring_setup/enter/register (ENOSYS, so libuv falls back): IORING_OP_SOCKET/CONNECT would
//   create sockets without the socket() syscall.
// - any call under another audit arch (i386 via int 0x80, arm32 compat) and x32 numbers
//   (nr & 0x40000000) kill the process: their numbers differ and would slip past the checks.
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;
const EACCES = 13;
const ENOSYS = 38;
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_TYPE_MASK = 0xf; // strips SOCK_CLOEXEC / SOCK_NONBLOCK

/** Syscall numbers per architecture (asm/unistd.h). io_uring is 425–427 on both. */
const ARCHES = [
  { name: "x86_64", audit: AUDIT_ARCH_X86_64, socket: 41, socketpair: 53, x32: true },
  { name: "aarch64", audit: AUDIT_ARCH_AARCH64, socket: 198, socketpair: 199, x32: false },
] as const;
const IO_URING = [425, 426, 427];

// seccomp_data: nr @0, arch @4, instruction_pointer @8, args[i] @16+8i (low word first: both arches are little-endian).
const OFF_NR = 0;
const OFF_ARCH = 4;
const offArgLow = (i: number): number => 16 + 8 * i;

const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;
const ALU_AND_K = 0x54;

type Label = string;
type Insn =
  | { op: "ld"; off: number }
  | { op: "and"; k: number }
  | { op: "jeq" | "jset"; k: number; jt: Label | null; jf: Label | null }
  | { op: "ret"; k: number }
  | { op: "label"; name: Label };

/** Resolves labels (null = fall through) into 8-byte `struct sock_filter`s. */
function assemble(program: readonly Insn[]): Buffer {
  const at = new Map<Label, number>();
  const code: Exclude<Insn, { op: "label" }>[] = [];
  for (const i of program) {
    if (i.op === "label") at.set(i.name, code.length);
    else code.push(i);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((i, pc) => {
    const rel = (l: Label | null): number => {
      if (l === null) return 0;
      const target = at.get(l);
      if (target === undefined || target <= pc || target - pc - 1 > 255) throw new Error(`seccomp: bad jump to ${l}`);
      return target - pc - 1;
    };
    const [opcode, jt, jf, k] =
      i.op === "ld"
        ? [LD_W_ABS, 0, 0, i.off]
        : i.op === "and"
          ? [ALU_AND_K, 0, 0, i.k]
          : i.op === "ret"
            ? [RET_K, 0, 0, i.k]
            : [i.op === "jeq" ? JMP_JEQ_K : JMP_JSET_K, rel(i.jt), rel(i.jf), i.k];
    out.writeUInt16LE(opcode, pc * 8);
    out.writeUInt8(jt, pc * 8 + 2);
    out.writeUInt8(jf, pc * 8 + 3);
    out.writeUInt32LE(k >>> 0, pc * 8 + 4);
  });
  return out;
}

export interface SocketFilterOptions {
  /** "unix": refuse AF_UNIX sockets (a network namespace isolates the rest); "all": refuse every socket(). */
  sockets: "unix" | "all";
}

/** The filter program (`struct sock_filter[]`, as `bwrap --seccomp` and prctl take it). */
export function socketFilter(opts: SocketFilterOptions): Buffer {
  const p: Insn[] = [{ op: "ld", off: OFF_ARCH }];
  for (const a of ARCHES) p.push({ op: "jeq", k: a.audit, jt: a.name, jf: null });
  p.push({ op: "ret", k: RET_KILL_PROCESS });
  for (const a of ARCHES) {
    p.push({ op: "label", name: a.name }, { op: "ld", off: OFF_NR });
    if (a.x32) p.push({ op: "jset", k: X32_SYSCALL_BIT, jt: "kill", jf: null });
    p.push({ op: "jeq", k: a.socket, jt: "socket", jf: null }, { op: "jeq", k: a.socketpair, jt: "socketpair", jf: null });
    for (const nr of IO_URING) p.push({ op: "jeq", k: nr, jt: "nosys", jf: null });
    p.push({ op: "ret", k: RET_ALLOW });
  }
  p.push({ op: "label", name: "socket" });
  if (opts.sockets === "unix") p.push({ op: "ld", off: offArgLow(0) }, { op: "jeq", k: AF_UNIX, jt: "deny", jf: "allow" });
  else p.push({ op: "ret", k: RET_ERRNO | EACCES });
  p.push(
    { op: "label", name: "socketpair" },
    { op: "ld", off: offArgLow(0) },
    { op: "jeq", k: AF_UNIX, jt: null, jf: "allow" },
    { op: "ld", off: offArgLow(1) },
    { op: "and", k: SOCK_TYPE_MASK },
    { op: "jeq", k: SOCK_DGRAM, jt: "deny", jf: "allow" },
    { op: "label", name: "deny" },
    { op: "ret", k: RET_ERRNO | EACCES },
    { op: "label", name: "nosys" },
    { op: "ret", k: RET_ERRNO | ENOSYS },
    { op: "label", name: "allow" },
    { op: "ret", k: RET_ALLOW },
    { op: "label", name: "kill" },
    { op: "ret", k: RET_KILL_PROCESS },
  );
  return assemble(p);
}

/** The filter only knows these hosts' syscall numbers; elsewhere there is no filter (and the backend says so). */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch === "x64" || arch === "arm64";
}

/**
 * Writes `filter` into `dir` (a directory no confined command can write: the masked parent of the
 * session temp areas) under a content-addressed name, rewritten whenever it is missing or differs,
 * and returns its path. bwrap reads it through an fd at spawn time.
 */
export function filterFile(dir: string, filter: Buffer): string {
  const file = path.join(dir, `.seccomp-${createHash("sha256").update(filter).digest("hex").slice(0, 16)}.bpf`);
  try {
    if (fs.readFileSync(file).equals(filter)) return file;
  } catch {
    /* missing: written below */
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString("hex")}`;
  fs.writeFileSync(tmp, filter, { mode: 0o644 });
  fs.renameSync(tmp, file);
  return file;
}
