// What Select Agent… lists of the registry (extension/registry/listing.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { registryRows, rowStateText } from "../../../extension/registry/listing";
import type { RegistryAgent } from "../../../extension/registry/schema";
import type { InstalledAgent } from "../../../extension/registry/store";

const npx = (id: string, version: string): RegistryAgent => ({
  id,
  name: id.toUpperCase(),
  version,
  description: `${id} agent`,
  distribution: { npx: { package: id } },
});
const installed = (id: string, version: string): InstalledAgent => ({
  dir: `/s/${id}/${version}`,
  manifest: { id, name: id.toUpperCase(), version, kind: "npx", command: "x", relative: true, args: [], env: {}, installedAt: "" },
});

test("rows: not installed, installed, update available, no longer listed; agents with nothing for this platform are left out", () => {
  const macOnly: RegistryAgent = {
    id: "mac",
    name: "MAC",
    version: "1.0.0",
    description: "",
    distribution: { binary: { "darwin-aarch64": { archive: "https://x/a.zip", cmd: "./a" } } },
  };
  const rows = registryRows(
    { version: "1.0.0", agents: [npx("a", "1.0.0"), npx("b", "2.0.0"), npx("c", "1.0.0"), macOnly] },
    new Map([
      ["b", installed("b", "1.5.0")],
      ["c", installed("c", "1.0.0")],
      ["gone", installed("gone", "0.1.0")],
    ]),
    "linux-x86_64",
  );
  assert.deepEqual(
    rows.map((r) => [r.id, r.state, rowStateText(r)]),
    [
      ["a", "not-installed", "1.0.0 · not installed"],
      ["b", "update-available", "1.5.0 · update available (2.0.0)"],
      ["c", "installed", "1.0.0 · installed"],
      ["gone", "not-in-registry", "0.1.0 · installed, no longer in the registry"],
    ],
  );
});
