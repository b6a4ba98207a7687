// The policy for MCP calls (I-100): opaque side effects outside the sandbox. They ask under
// `untrusted`/`on-request`, run under `never`, and read-only never grants them for the session.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide } from "../../../agent-server/policy/decide";
import { mcpGrantKey } from "../../../agent-server/policy/grants";
import type { ApprovalPolicy, SandboxMode } from "../../../agent-server/policy/types";

const key = mcpGrantKey("srv", "tool");
const run = (sandbox: SandboxMode, approval: ApprovalPolicy, granted = false) =>
  decide({
    call: { tool: "mcp__srv__tool", kind: "mcp" },
    sandbox,
    approval,
    grants: new Set(granted ? [key] : []),
    grantKey: key,
    backendAvailable: true,
  });

describe("policy: MCP calls", () => {
  it("I-100: ask under untrusted and on-request in every sandbox mode, with a session grant outside read-only", () => {
    for (const sandbox of ["workspace-write", "danger-full-access"] as const) {
      for (const approval of ["untrusted", "on-request"] as const) {
        const d = run(sandbox, approval);
        assert.equal(d.kind, "ask", `${sandbox}/${approval}`);
        assert.equal(d.sessionGrantable, true);
        assert.equal(run(sandbox, approval, true).kind, "allow");
      }
    }
    const ro = run("read-only", "on-request");
    assert.equal(ro.kind, "ask");
    assert.equal(ro.sessionGrantable, false);
    assert.equal(run("read-only", "on-request", true).kind, "ask", "a grant never widens read-only");
  });

  it("I-100: run under never (full access), refused under read-only + never", () => {
    assert.equal(run("danger-full-access", "never").kind, "allow");
    assert.equal(run("workspace-write", "never").kind, "allow");
    assert.equal(run("read-only", "never").kind, "deny");
  });

  it("grant keys are per server and tool, unambiguous", () => {
    assert.notEqual(mcpGrantKey("a:b", "c"), mcpGrantKey("a", "b:c"));
  });
});
