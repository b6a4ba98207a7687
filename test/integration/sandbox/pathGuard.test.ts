import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { canonicalize, guardPath, hasOtherHardLinks, isInside, PathGuardError } from "../../../sandbox/pathGuard";

// Layout (all real): <base>/w/proj (root), <base>/w/proj-evil, <base>/outside, links inside proj.
let base: string;
let root: string;
let outside: string;

before(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mf-guard-")));
  root = path.join(base, "w", "proj");
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(root, "sub", "deep"), { recursive: true });
  fs.mkdirSync(path.join(base, "w", "proj-evil"), { recursive: true });
  fs.mkdirSync(path.join(outside, "c"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.txt"), "s");
  fs.writeFileSync(path.join(root, "file.txt"), "f");
  fs.symlinkSync(outside, path.join(root, "link-out")); // dir link leaving the root
  fs.symlinkSync("sub/deep", path.join(root, "link-in")); // dir link staying inside
  fs.symlinkSync(path.join(outside, "nope.txt"), path.join(root, "dangling-out")); // dangling, outside
  fs.symlinkSync("missing-target", path.join(root, "dangling-in")); // dangling, inside
  fs.symlinkSync(path.join(outside, "c"), path.join(root, "deep-out")); // for link/.. : parent is <outside>
  fs.symlinkSync("loop-b", path.join(root, "loop-a"));
  fs.symlinkSync("loop-a", path.join(root, "loop-b"));
  fs.symlinkSync("deep-out/../secret.txt", path.join(root, "tricky")); // target itself contains link/..
  fs.symlinkSync(root, path.join(base, "alias")); // the root reached through an alias
  fs.linkSync(path.join(outside, "secret.txt"), path.join(root, "hard.txt")); // pre-existing hard link
});
after(() => fs.rmSync(base, { recursive: true, force: true }));

const check = (input: string) => guardPath(input, root, [root]);

describe("path guard: component-by-component resolution (reference/sandbox.md §1.5)", () => {
  const insideCases: Array<[string, string]> = [
    ["a.txt", "a.txt"],
    ["./sub/../a.txt", "a.txt"],
    ["sub/deep/x", "sub/deep/x"],
    ["..foo", "..foo"],
    ["...", "..."],
    ["%2e%2e/x", "%2e%2e/x"],
    ["%2e%2e%2fx", "%2e%2e%2fx"],
    ["link-in/x", "sub/deep/x"],
    ["link-in/../y", "sub/y"],
    ["missing/../z", "z"],
    ["dangling-in", "missing-target"],
    ["new/dir/file.txt", "new/dir/file.txt"],
    ["sub//deep///x", "sub/deep/x"],
  ];
  for (const [input, rel] of insideCases) {
    it(`I-68: ${JSON.stringify(input)} stays inside as ${rel}`, () => {
      const g = check(input);
      assert.deepEqual({ real: g.real, within: g.within }, { real: path.join(root, rel), within: root });
    });
  }

  const outsideCases: Array<[string, () => string]> = [
    ["../x", () => path.join(base, "w", "x")],
    ["sub/../../other/x", () => path.join(base, "w", "other", "x")],
    ["missing/../../x", () => path.join(base, "w", "x")],
    ["/etc/passwd", () => "/etc/passwd"],
    ["../proj-evil/x", () => path.join(base, "w", "proj-evil", "x")],
    ["link-out/x", () => path.join(outside, "x")],
    ["link-out", () => outside],
    ["dangling-out", () => path.join(outside, "nope.txt")],
    ["deep-out/../x", () => path.join(outside, "x")],
    ["tricky", () => path.join(outside, "secret.txt")],
    [".", () => root],
  ];
  for (const [input, expected] of outsideCases) {
    const inside = input === ".";
    it(`I-67 I-68 I-69: ${JSON.stringify(input)} resolves to its physical target${inside ? " (the root itself is inside)" : " outside the root"}`, () => {
      const g = check(input);
      assert.deepEqual({ real: g.real, within: g.within }, { real: expected(), within: inside ? root : null });
    });
  }

  it("I-67: containment is separator-aware (root-evil is not inside root)", () => {
    assert.equal(isInside(path.join(base, "w", "proj-evil", "x"), root), false);
    assert.equal(isInside(path.join(base, "w", "proj-evil"), root), false);
    assert.equal(isInside(path.join(base, "w", "proj"), root), true);
    assert.equal(guardPath(path.join(base, "w", "proj-evil", "x"), root, [root]).within, null);
  });

  it("I-71: link/.. is the physical parent of the link target, not the lexical parent", () => {
    // <root>/deep-out -> <outside>/c, so <root>/deep-out/.. is <outside>, not <root>.
    // (string concatenation on purpose: path.join would fold `deep-out/..` lexically)
    const spelled = `${root}/deep-out/..`;
    assert.equal(canonicalize(spelled), outside);
    const g = guardPath(spelled, root, [root]);
    assert.equal(g.within, null);
  });

  it("a root reached through an alias symlink is the same root", () => {
    const g = guardPath(path.join(base, "alias", "a.txt"), root, [root]);
    assert.deepEqual({ real: g.real, within: g.within }, { real: path.join(root, "a.txt"), within: root });
  });

  it("a relative path is resolved against the given root, never process.cwd() (I-65)", () => {
    const g = guardPath("x.txt", root, [root]);
    assert.equal(g.real, path.join(root, "x.txt"));
    assert.notEqual(path.dirname(g.real), process.cwd());
  });

  it("a NUL byte is rejected", () => {
    assert.throws(
      () => check("a\0b"),
      (e: unknown) => e instanceof PathGuardError && e.code === "NUL",
    );
    assert.throws(
      () => check("/etc/passwd\0.txt"),
      (e: unknown) => e instanceof PathGuardError && e.code === "NUL",
    );
  });

  it("a symlink loop ends in ELOOP", () => {
    assert.throws(
      () => check("loop-a/x"),
      (e: unknown) => e instanceof PathGuardError && e.code === "ELOOP",
    );
  });

  it("a regular file used as a directory is refused", () => {
    assert.throws(
      () => check("file.txt/x"),
      (e: unknown) => e instanceof PathGuardError && e.code === "NOTDIR",
    );
  });

  it("an empty path is refused", () => {
    assert.throws(
      () => check(""),
      (e: unknown) => e instanceof PathGuardError && e.code === "EMPTY",
    );
  });

  it("a pre-existing hard link to an outside file is detected (nlink > 1)", () => {
    assert.equal(hasOtherHardLinks(path.join(root, "hard.txt")), true);
    assert.equal(hasOtherHardLinks(path.join(root, "file.txt")), false);
    assert.equal(hasOtherHardLinks(path.join(root, "missing")), false);
  });

  it("the first containing root is reported (session temp area as a second root)", () => {
    const g = guardPath(path.join(outside, "c", "t.txt"), root, [root, path.join(outside, "c")]);
    assert.equal(g.within, path.join(outside, "c"));
  });
});
