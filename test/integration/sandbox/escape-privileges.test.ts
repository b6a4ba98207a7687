// A command must hold no capability inside the sandbox, as root or not, so it
// cannot rearrange its mounts (remount rw, umount a read-only bind or a mask, mount over things,
// new namespaces, chroot/pivot_root, setuid binaries). Each test states the attack and checks the
// host afterwards, not only the command's own report.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { privilegesDropped } from "../../../sandbox/detect";
import type { CommandSandbox } from "../../../sandbox/types";
import { asWho, detect, linux, makeFixture, type Fixture } from "./fixture";
import { runIn } from "./run";

let fx: Fixture;
let sb: CommandSandbox;
let root: string;
let outside: string;
let data: string;

before(async () => {
  fx = makeFixture("mf-esc-priv-");
  root = fx.dir("root");
  outside = fx.dir("outside");
  data = fx.dir("data");
  fs.writeFileSync(path.join(data, "other-session.jsonl"), "LOG-OF-ANOTHER-SESSION\n");
  fs.mkdirSync(path.join(root, ".git", "hooks"), { recursive: true });
  fs.writeFileSync(path.join(root, ".git", "config"), "[core]\n");
  sb = await detect({ hide: [data] });
});
after(() => fx.cleanup());
// Each attack starts from a clean host, so one escape cannot make a later test fail.
beforeEach(() => {
  fs.rmSync(outsideFile(), { force: true });
  fs.rmSync(path.join(root, ".git", "hooks", "pre-commit"), { force: true });
  fs.writeFileSync(path.join(root, ".git", "config"), "[core]\n");
});

const outsideFile = () => path.join(outside, "pwned");
const assertNoEscape = (out: string) => {
  assert.equal(fs.existsSync(outsideFile()), false, `wrote outside the root; output:\n${out}`);
  assert.equal(fs.existsSync(path.join(root, ".git", "hooks", "pre-commit")), false, `planted a hook; output:\n${out}`);
  assert.equal(fs.readFileSync(path.join(root, ".git", "config"), "utf8"), "[core]\n", `changed .git/config; output:\n${out}`);
};

describe(`bubblewrap: no capabilities inside (${asWho})`, { skip: !linux && "Linux only" }, () => {
  it("the command and its children have empty capability sets and no_new_privs", async () => {
    const r = await runIn(sb, fx.ctxFor("caps", root), "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status");
    assert.equal(
      r.out,
      [
        "CapInh:\t0000000000000000",
        "CapPrm:\t0000000000000000",
        "CapEff:\t0000000000000000",
        "CapBnd:\t0000000000000000",
        "CapAmb:\t0000000000000000",
        "NoNewPrivs:\t1",
        "",
      ].join("\n"),
    );
  });

  it("`mount -o remount,bind,rw /` cannot make the host writable", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("rm", root),
      `mount -o remount,bind,rw / 2>&1; mount -o remount,rw / 2>&1; echo x > ${outsideFile()} 2>&1; echo done`,
    );
    assertNoEscape(r.out);
  });

  it("`umount` / `umount -l` cannot drop the read-only .git binds", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("um", root),
      `for m in .git/hooks .git/config; do umount "$m" 2>&1; umount -l "$m" 2>&1; done; echo evil > .git/hooks/pre-commit 2>&1; echo '[core] fsmonitor = evil' >> .git/config 2>&1; echo done`,
    );
    assertNoEscape(r.out);
  });

  it("`umount` of a mask does not reveal the data dir (another session's log)", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("mask", root),
      `umount ${data} 2>&1; umount -l ${data} 2>&1; cat ${data}/other-session.jsonl 2>&1; echo done`,
    );
    assert.doesNotMatch(r.out, /LOG-OF-ANOTHER-SESSION/);
  });

  it("`mount --bind` and `mount -t tmpfs` cannot put a writable mount outside the root or over .git/hooks", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("mb", root),
      `mkdir -p w; mount --bind w ${outside} 2>&1; mount -t tmpfs none ${outside} 2>&1; mount -t tmpfs none .git/hooks 2>&1; mount --bind w .git/hooks 2>&1; echo x > ${outsideFile()} 2>&1; echo evil > .git/hooks/pre-commit 2>&1; echo done`,
    );
    assertNoEscape(r.out);
    assert.equal(fs.readdirSync(path.join(root, "w")).length, 0, "a bind of w over outside leaked writes into w");
  });

  it("a read-only session cannot remount its root writable", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("ro", root, { mode: "read-only" }),
      `mount -o remount,bind,rw ${root} 2>&1; mount --bind ${root} ${root} 2>&1; echo x > ro-written 2>&1; echo done`,
    );
    assert.equal(fs.existsSync(path.join(root, "ro-written")), false, r.out);
  });

  it("new namespaces (`unshare -m`, `unshare -Urm`) give no way out, and nested user namespaces are refused", async () => {
    const attack = `mount -o remount,rw / 2>&1; mount -o remount,rw ${outside} 2>&1; umount -l .git/hooks 2>&1; echo x > ${outsideFile()} 2>&1; echo evil > .git/hooks/pre-commit 2>&1`;
    const r = await runIn(
      sb,
      fx.ctxFor("ns", root),
      `unshare -m sh -c '${attack}' 2>&1; unshare -Urm sh -c '${attack}' 2>&1; unshare -U true 2>/dev/null && echo USERNS-OK || echo USERNS-REFUSED`,
    );
    assertNoEscape(r.out);
    assert.match(r.out, /USERNS-REFUSED\n$/);
  });

  it("`chroot` and `pivot_root` are refused", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("ch", root),
      "mkdir -p nr/old; chroot / true 2>/dev/null && echo CHROOT-OK || echo CHROOT-REFUSED; pivot_root nr nr/old 2>/dev/null && echo PIVOT-OK || echo PIVOT-REFUSED",
    );
    assert.equal(r.out, "CHROOT-REFUSED\nPIVOT-REFUSED\n");
  });

  it("writing through /proc/self/root or /proc/1/root reaches no host file", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("pr", root),
      `echo x > /proc/self/root${outsideFile()} 2>&1; echo x > /proc/1/root${outsideFile()} 2>&1; echo evil > /proc/self/root${root}/.git/hooks/pre-commit 2>&1; echo done`,
    );
    assertNoEscape(r.out);
  });

  it("a setuid-root binary (mount) gains nothing", async () => {
    const r = await runIn(
      sb,
      fx.ctxFor("su", root),
      `/usr/bin/mount -o remount,rw / 2>&1; /usr/bin/mount --bind . ${outside} 2>&1; echo x > ${outsideFile()} 2>&1; echo done`,
    );
    assertNoEscape(r.out);
  });
});

describe("bubblewrap probe: refuses a bwrap whose commands would keep privileges", () => {
  const status = (eff: string, nnp = "1") =>
    `Name:\tcat\nCapInh:\t0000000000000000\nCapPrm:\t${eff}\nCapEff:\t${eff}\nCapBnd:\t${eff}\nCapAmb:\t0000000000000000\nNoNewPrivs:\t${nnp}\n`;
  it("all-zero capability sets with no_new_privs pass; any capability or a missing no_new_privs fails", () => {
    assert.equal(privilegesDropped(status("0000000000000000")), true);
    assert.equal(privilegesDropped(status("000001fffeffffff")), false);
    assert.equal(privilegesDropped(status("0000000000000000", "0")), false);
    assert.equal(privilegesDropped("garbage"), false);
  });
});
