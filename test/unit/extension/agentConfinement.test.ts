// The pure parts of confining a third-party agent: the environment it starts from (the allowlist
// plus its own variables, I-98), the panel's protection line for each case (I-118, I-119), and the
// refused path read back from the agent's stderr for the one-time note.
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { confinedText, readOnlyPath, runsAsYouText } from "../../../extension/agent/confinement";
import { protectionOf } from "../../../extension/common/protection";
import { agentBaseEnv } from "../../../sandbox/env";

test("I-118: a third-party agent starts from the allowlist plus its own variables: no host secret, no Electron switch", () => {
  const spec = resolveAgentSpec({
    settings: { agent: "a", agents: [{ name: "a", command: "/bin/a", env: { A_TOKEN: "its-own" } }] },
    secrets: { agentEnv: { A_API_KEY: "signed-in" } },
    baseEnv: {
      PATH: "/bin",
      HOME: "/home/u",
      XDG_CONFIG_HOME: "/home/u/.config",
      HTTPS_PROXY: "http://proxy:3128",
      GITHUB_TOKEN: "ghp_host",
      AWS_SECRET_ACCESS_KEY: "aws",
      ELECTRON_RUN_AS_NODE: "1",
      VSCODE_IPC_HOOK: "/run/user/0/vscode.sock",
      SSH_AUTH_SOCK: "/run/ssh.sock",
    },
    execPath: "/node",
    extensionPath: "/ext",
    dataDir: "/data",
    cwd: "/storage",
  });
  assert.deepEqual(spec.env, {
    PATH: "/bin",
    HOME: "/home/u",
    XDG_CONFIG_HOME: "/home/u/.config",
    HTTPS_PROXY: "http://proxy:3128",
    A_TOKEN: "its-own",
    A_API_KEY: "signed-in",
  });
  assert.deepEqual(agentBaseEnv({ GH_TOKEN: "x", NO_PROXY: "localhost" }), {
    NO_PROXY: "localhost",
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
  });
});

test("I-118: the panel line says which case applies, folder by folder", () => {
  assert.equal(
    confinedText("bubblewrap", ["alpha"]),
    "Confined by Manifold: writes only in alpha and its own state folders; network on; home secrets hidden.",
  );
  assert.equal(
    confinedText("sandbox-exec", ["alpha", "beta"]),
    "Confined by Manifold: writes only in alpha, beta and its own state folders; network on; home secrets hidden.",
  );
  assert.match(confinedText("landlock", ["alpha"]), /^Confined by Manifold \(Landlock\): .*home secrets and \.git hooks are NOT protected/);
  const confined = { kind: "confined" as const, text: confinedText("bubblewrap", ["alpha"]), backend: "bubblewrap" };
  assert.deepEqual(protectionOf({ builtin: false, folderName: "alpha", configOptions: [], confinement: confined }), {
    kind: "confined",
    text: confined.text,
    backend: "bubblewrap",
  });
});

test("I-119: 'runs as you' is said only with the user's choice named", () => {
  const text = runsAsYouText("manifold.agentSandbox.unconfined");
  assert.match(
    text,
    /^Runs as you, by your choice \(manifold\.agentSandbox\.unconfined\): it may write anywhere you can and read your home folder's secrets/,
  );
  assert.equal(
    protectionOf({ builtin: false, folderName: "alpha", configOptions: [], confinement: { kind: "runs-as-you", text } })?.kind,
    "runs-as-you",
  );
});

test("I-118: the refused path is read back from the agent's own error lines, and nothing else is", () => {
  assert.equal(readOnlyPath("Error: EROFS: read-only file system, open '/home/u/.bashrc'"), "/home/u/.bashrc");
  assert.equal(readOnlyPath("/bin/bash: line 1: /etc/passwd: Read-only file system"), "/etc/passwd");
  assert.equal(readOnlyPath("OSError: [Errno 30] Read-only file system: '/opt/x/y.txt'"), "/opt/x/y.txt");
  assert.equal(readOnlyPath("touch: cannot touch '/srv/out': Read-only file system"), "/srv/out");
  assert.equal(readOnlyPath("Read-only file system (os error 30)"), undefined);
  assert.equal(readOnlyPath("wrote /home/u/ws/a.txt"), undefined);
});
