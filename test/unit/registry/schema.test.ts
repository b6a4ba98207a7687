// The registry's format (extension/registry/schema.ts): real entries parse, bad ones are skipped
// with a reason, unknown fields are tolerated, and the bundled snapshot is a valid registry.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseRegistry, parseRegistryText, RegistryFormatError } from "../../../extension/registry/schema";
import snapshot from "../../../extension/registry/snapshot.json";
import { SNAPSHOT_SOURCE } from "../../../extension/registry/source";

const good = {
  id: "some-agent",
  name: "Some Agent",
  version: "1.2.3",
  description: "an agent",
  distribution: { npx: { package: "@scope/some-agent@1.2.3", args: ["--acp"] } },
};

describe("registry schema", () => {
  test("the bundled snapshot parses whole: every agent kept, none skipped", () => {
    const { registry, skipped } = parseRegistry(snapshot);
    assert.deepEqual(skipped, []);
    assert.equal(registry.agents.length, snapshot.agents.length);
    assert.ok(registry.agents.some((a) => a.distribution.npx) && registry.agents.some((a) => a.distribution.binary));
    assert.match(SNAPSHOT_SOURCE.date, /^\d{4}-\d{2}-\d{2}$/);
  });

  test("unknown fields (top level, entry, distribution target) are tolerated", () => {
    const { registry, skipped } = parseRegistry({
      version: "1.0.0",
      extensions: [],
      future: true,
      agents: [{ ...good, capabilities: { x: 1 }, distribution: { npx: { ...good.distribution.npx, future: 1 }, docker: {} } }],
    });
    assert.deepEqual(skipped, []);
    assert.equal(registry.agents[0]?.id, "some-agent");
  });

  test("bad entries are skipped with a reason; the good ones stay", () => {
    const { registry, skipped } = parseRegistry({
      version: "1.0.0",
      agents: [
        good,
        { ...good, id: "../escape" },
        { ...good, id: "v", version: "1.0.0/../../x" },
        { ...good, id: "nodist", distribution: {} },
        {
          ...good,
          id: "badsha",
          distribution: { binary: { "linux-x86_64": { archive: "https://x/a.tar.gz", cmd: "./a", sha256: "zz" } } },
        },
        42,
        good,
      ],
    });
    assert.deepEqual(
      registry.agents.map((a) => a.id),
      ["some-agent"],
    );
    assert.deepEqual(
      skipped.map((s) => s.entry),
      ["../escape", "v", "nodist", "badsha", "#5", "some-agent"],
    );
    assert.match(skipped[0]!.reason, /^id: /);
    assert.match(skipped[3]!.reason, /sha256/);
    assert.match(skipped[5]!.reason, /duplicate/);
  });

  test("a binary target for a platform the format does not know is ignored; sha256 is kept lowercased", () => {
    const sha = "AB".repeat(32);
    const { registry } = parseRegistry({
      version: "1.0.0",
      agents: [
        {
          ...good,
          distribution: { binary: { "plan9-mips": { x: 1 }, "linux-x86_64": { archive: "https://x/a.tar.gz", cmd: "./a", sha256: sha } } },
        },
      ],
    });
    assert.deepEqual(Object.keys(registry.agents[0]!.distribution.binary ?? {}), ["linux-x86_64"]);
    assert.equal(registry.agents[0]!.distribution.binary?.["linux-x86_64"]?.sha256, sha.toLowerCase());
  });

  test("a document that is not a registry, or not JSON, is a RegistryFormatError (never a crash)", () => {
    assert.throws(() => parseRegistry({ agents: "no" }), RegistryFormatError);
    assert.throws(() => parseRegistry(null), RegistryFormatError);
    assert.throws(() => parseRegistryText("<html>"), RegistryFormatError);
  });
});
