// I-116, the extension's half: which of Manifold's storage dirs it computes and how the built-in
// agent receives them (MANIFOLD_HIDE_DIRS in the spawn env; the agent-server validates them).
import assert from "node:assert/strict";
import * as path from "node:path";
import { describe, it } from "node:test";
import { resolveAgentSpec } from "../../../extension/agent/agentSpec";
import { manifoldStorageDirs, userDataDirOf } from "../../../extension/agent/storageDirs";
import { HIDE_DIRS_ENV, parseHideDirs } from "../../../sandbox/hideDirs";

const EXT = "manifold.manifold";
const uri = (fsPath: string) => ({ fsPath });

describe("I-116: Manifold's storage dirs", { skip: process.platform === "win32" && "POSIX paths" }, () => {
  it("I-116: VS Code's layout: the user-data dir (state.vscdb, logs, every workspace's storage) plus the three locations", () => {
    const ud = "/home/u/.config/Code";
    const dirs = manifoldStorageDirs({
      globalStorageUri: uri(`${ud}/User/globalStorage/${EXT}`),
      storageUri: uri(`${ud}/User/workspaceStorage/abc/${EXT}`),
      logUri: uri(`${ud}/logs/20260101T000000/window1/exthost/${EXT}`),
    });
    assert.deepEqual(dirs, [
      ud,
      `${ud}/User/globalStorage/${EXT}`,
      `${ud}/User/workspaceStorage/abc/${EXT}`,
      `${ud}/logs/20260101T000000/window1/exthost/${EXT}`,
    ]);
  });

  it("I-116: a remote server's data dir is recognised; an unknown layout hides the three locations only; no workspace storage in an empty window", () => {
    assert.equal(userDataDirOf(`/home/u/.vscode-server/data/User/globalStorage/${EXT}`), "/home/u/.vscode-server/data");
    assert.equal(userDataDirOf(`/srv/storage/${EXT}`), undefined);
    assert.equal(userDataDirOf(`/User/globalStorage/${EXT}`), undefined, "never the file system root");
    assert.deepEqual(
      manifoldStorageDirs({ globalStorageUri: uri(`/srv/storage/${EXT}`), storageUri: undefined, logUri: uri("/srv/logs") }),
      [`/srv/storage/${EXT}`, "/srv/logs"],
    );
  });

  it("I-116: the built-in agent gets them in MANIFOLD_HIDE_DIRS; a third-party agent's env is left as it was", () => {
    const hideDirs = ["/home/u/.config/Code", "/srv/logs"];
    const common = {
      secrets: {},
      baseEnv: { PATH: "/usr/bin" },
      execPath: "/usr/bin/node",
      extensionPath: "/ext",
      dataDir: `/home/u/.config/Code/User/globalStorage/${EXT}/sessions`,
      cwd: "/tmp",
      hideDirs,
    };
    const builtin = resolveAgentSpec({ ...common, settings: { agent: "builtin", agents: [] } });
    assert.deepEqual(parseHideDirs(builtin.env[HIDE_DIRS_ENV]), hideDirs);
    assert.equal(builtin.env[HIDE_DIRS_ENV], hideDirs.join(path.delimiter));
    const other = resolveAgentSpec({ ...common, settings: { agent: "x", agents: [{ name: "x", command: "/bin/x" }] } });
    assert.equal(other.env[HIDE_DIRS_ENV], undefined);
  });
});
