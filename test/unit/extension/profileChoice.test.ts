// Unit: what New Session… offers for agent profiles (extension/sessions/profileChoice.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { profileChoices, withProfileMeta } from "../../../extension/sessions/profileChoice";

const profiles = [
  { id: "reviewer", name: "Reviewer", description: "reads only" },
  { id: "builder", name: "Builder" },
];

test("Default first, then each profile with its id and description", () => {
  assert.deepEqual(profileChoices(profiles, true), [
    { label: "Default", description: "no profile", profileId: undefined },
    { label: "Reviewer", description: "reviewer", detail: "reads only", profileId: "reviewer" },
    { label: "Builder", description: "builder", profileId: "builder" },
  ]);
});

test("no pick without profiles, or for an agent other than the built-in one", () => {
  assert.deepEqual(profileChoices([], true), []);
  assert.deepEqual(profileChoices(profiles, false), []);
});

test("the choice becomes the session/new _meta key, next to what is already there", () => {
  assert.deepEqual(withProfileMeta(undefined, "reviewer"), { "manifold.dev/profile": "reviewer" });
  assert.deepEqual(withProfileMeta({ a: 1 }, "reviewer"), { a: 1, "manifold.dev/profile": "reviewer" });
  assert.equal(withProfileMeta(undefined, undefined), undefined);
  const meta = { a: 1 };
  assert.equal(withProfileMeta(meta, undefined), meta);
});
