// The Landlock helper, a small Python (ctypes) program run as `python3 -I -c <source> …`: it
// restricts itself with Landlock (raw syscalls 444/445/446, the same on x86_64 and arm64), sets
// no_new_privs, drops every capability (a command or agent run as root would otherwise keep them:
// Landlock and no_new_privs leave the ones already held, and CAP_SYS_MODULE alone undoes any
// confinement), then execs the command. Landlock confines the calling process and its children
// only, which is why it runs per command and never inside the server.
//
// argv: <net 0|1> <seccomp filter as hex, or -> <writable dir or file>... -- <program> <args>...
// The seccomp filter (seccomp.ts) is what "no network" means for a command (`sockets: "all"`: there
// is no network namespace, so every socket() is refused, unix ones included); a fenced agent keeps
// the network and gets `sockets: "unix"`. A writable file (an agent's `~/.claude.json`) gets the
// file rights only: Landlock refuses a rule with directory rights on a file (EINVAL).
// Exit 126 with a message on stderr when Landlock is unavailable (never runs the command then).
export const LANDLOCK_HELPER_SOURCE = String.raw`
import ctypes, os, stat, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def die(msg):
    sys.stderr.write("landlock helper: " + msg + "\n"); sys.exit(126)
a = sys.argv[1:]
if "--" not in a: die("usage")
sep = a.index("--")
net, bpf, roots, cmd = a[0] == "1", a[1], a[2:sep], a[sep + 1:]
abi = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
if abi < 1: die("Landlock is not available (errno %d)" % ctypes.get_errno())
WF, RMD, RMF, MCH, MDIR, MREG, MSOCK, MFIFO, MBLK, MSYM = [1 << i for i in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
write = WF | RMD | RMF | MCH | MDIR | MREG | MSOCK | MFIFO | MBLK | MSYM
if abi >= 2: write |= 1 << 13
if abi >= 3: write |= 1 << 14
file_write = WF | ((1 << 14) if abi >= 3 else 0)
class Attr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]
attr = Attr(write, 0, 0)
size = 8
if abi >= 4:
    size = 16
    if not net: attr.net = 1 | 2
if abi >= 6:
    size = 24
    attr.scoped = 1 | 2
if not net and abi < 4: sys.stderr.write("landlock helper: ABI %d cannot block the network\n" % abi)
rs = libc.syscall(444, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
if rs < 0: die("create_ruleset failed (errno %d)" % ctypes.get_errno())
class Beneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]
def allow(path, access):
    try: fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError: return
    if not stat.S_ISDIR(os.fstat(fd).st_mode): access &= file_write
    r = libc.syscall(445, ctypes.c_int(rs), ctypes.c_int(1), ctypes.byref(Beneath(access, fd)), ctypes.c_uint32(0))
    os.close(fd)
    if r < 0: die("add_rule %s failed (errno %d)" % (path, ctypes.get_errno()))
for r in roots: allow(r, write)
for dev in ("/dev/null", "/dev/zero", "/dev/tty", "/dev/full"): allow(dev, file_write)
if libc.prctl(38, 1, 0, 0, 0) != 0: die("no_new_privs failed")
if libc.syscall(446, ctypes.c_int(rs), ctypes.c_uint32(0)) != 0: die("restrict_self failed (errno %d)" % ctypes.get_errno())
def caps():
    with open("/proc/self/status") as f:
        return {l.split(":")[0]: int(l.split()[1], 16) for l in f if l.startswith("Cap")}
# The bounding set where we may (CAP_SETPCAP), the ambient set, then effective/permitted/inheritable
# to nothing; with no_new_privs an exec gains none back, root or not. Verified, never assumed.
if caps()["CapEff"] & (1 << 8):
    with open("/proc/sys/kernel/cap_last_cap") as f: last = int(f.read())
    for c in range(last + 1):
        if libc.prctl(24, c, 0, 0, 0) != 0: die("dropping capability %d failed (errno %d)" % (c, ctypes.get_errno()))
libc.prctl(47, 4, 0, 0, 0)
class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
if libc.capset(ctypes.byref(CapHeader(0x20080522, 0)), ctypes.byref((ctypes.c_uint32 * 6)())) != 0: die("capset failed (errno %d)" % ctypes.get_errno())
if any(caps()[k] for k in ("CapEff", "CapPrm", "CapInh", "CapAmb")): die("capabilities remain after dropping them")
if bpf != "-":
    prog = ctypes.create_string_buffer(bytes.fromhex(bpf))
    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
    if libc.prctl(22, 2, ctypes.byref(Fprog(len(prog.raw) // 8, ctypes.addressof(prog))), 0, 0) != 0: die("seccomp failed (errno %d)" % ctypes.get_errno())
os.execvp(cmd[0], cmd)
`;
