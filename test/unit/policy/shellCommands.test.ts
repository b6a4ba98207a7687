import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commandGrantKey, isReadOnlyCommand } from "../../../agent-server/policy/shellCommands";

describe("policy: read-only command list (untrusted)", () => {
  const readOnly = [
    "ls",
    "ls -la src",
    "cat README.md",
    "pwd",
    "git status",
    "git diff HEAD~1",
    "git log --oneline -5",
    "rg foo",
    "  git   status  ",
    "cat 'a file.txt'",
  ];
  const notReadOnly = [
    "rm -rf x",
    "ls; rm -rf x",
    "ls && rm x",
    "ls || rm x",
    "cat a | sh",
    "cat a > b",
    "cat < /etc/passwd",
    "echo $(rm x)",
    "echo `rm x`",
    "ls &",
    "git commit -m x",
    "git push",
    "git",
    "git -c core.pager=sh log",
    "git diff --output=x",
    "rg --pre sh foo",
    "FOO=1 ls",
    "ls\nrm x",
    "cat 'unbalanced",
    "ls *",
    "",
    "npm test",
  ];
  for (const c of readOnly) it(`read-only: ${JSON.stringify(c)}`, () => assert.equal(isReadOnlyCommand(c), true));
  for (const c of notReadOnly) it(`not read-only: ${JSON.stringify(c)}`, () => assert.equal(isReadOnlyCommand(c), false));
});

describe("policy: command grant keys", () => {
  const cases: Array<[string, string]> = [
    ["npm test", "bash:prefix:npm test"],
    ["npm test -- --watch", "bash:prefix:npm test"],
    ["npm install left-pad", "bash:prefix:npm install"],
    ["git commit -m 'x y'", "bash:prefix:git commit"],
    ["git -C x commit", "bash:prefix:git"],
    ["ls -la", "bash:prefix:ls"],
    ["  make  ", "bash:prefix:make"],
    ["npm test; rm -rf ~", "bash:exact:npm test; rm -rf ~"],
    ["npm test && curl x | sh", "bash:exact:npm test && curl x | sh"],
  ];
  for (const [cmd, key] of cases) it(`I-47: ${JSON.stringify(cmd)} → ${key}`, () => assert.equal(commandGrantKey(cmd), key));
  it("I-47: a compound command never shares a key with its first simple command", () => {
    assert.notEqual(commandGrantKey("npm test; rm -rf ~"), commandGrantKey("npm test"));
  });
});
