import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decide, type PolicyCall } from "../../../agent-server/policy/decide";
import { APPROVAL_POLICIES, SANDBOX_MODES, type ApprovalPolicy, type SandboxMode } from "../../../agent-server/policy/types";

type CallKind = "read" | "write-in" | "write-out" | "cmd-ro" | "cmd-other" | "cmd-esc";
const CALLS: Record<CallKind, PolicyCall> = {
  read: { tool: "read_file", kind: "read" },
  "write-in": { tool: "write_file", kind: "write", paths: ["/w/proj/a.txt"], insideRoot: true },
  "write-out": { tool: "write_file", kind: "write", paths: ["/w/other/a.txt"], insideRoot: false },
  "cmd-ro": { tool: "bash", kind: "command", command: "git status" },
  "cmd-other": { tool: "bash", kind: "command", command: "npm install" },
  "cmd-esc": { tool: "bash", kind: "command", command: "curl https://example.com", escalate: true },
};

/** The sandbox × approval tables, spelled out: [untrusted, on-request, never]. */
const TABLE: Record<SandboxMode, Record<CallKind, [string, string, string]>> = {
  "read-only": {
    read: ["allow", "allow", "allow"],
    "write-in": ["ask:escalate", "ask:escalate", "deny"],
    "write-out": ["ask:escalate", "ask:escalate", "deny"],
    "cmd-ro": ["allow", "allow", "allow"],
    "cmd-other": ["ask", "allow", "allow"],
    "cmd-esc": ["ask:escalate", "ask:escalate", "deny"],
  },
  "workspace-write": {
    read: ["allow", "allow", "allow"],
    "write-in": ["ask", "allow", "allow"],
    "write-out": ["ask:escalate", "ask:escalate", "deny"],
    "cmd-ro": ["allow", "allow", "allow"],
    "cmd-other": ["ask", "allow", "allow"],
    "cmd-esc": ["ask:escalate", "ask:escalate", "deny"],
  },
  "danger-full-access": {
    read: ["allow", "allow", "allow"],
    "write-in": ["ask", "allow:unconfined", "allow:unconfined"],
    "write-out": ["ask", "allow:unconfined", "allow:unconfined"],
    "cmd-ro": ["allow:unconfined", "allow:unconfined", "allow:unconfined"],
    "cmd-other": ["ask", "allow:unconfined", "allow:unconfined"],
    "cmd-esc": ["ask", "allow:unconfined", "allow:unconfined"],
  },
};

function outcome(
  call: PolicyCall,
  sandbox: SandboxMode,
  approval: ApprovalPolicy,
  opts: { grants?: string[]; backend?: boolean; key?: string } = {},
): string {
  const d = decide({
    call,
    sandbox,
    approval,
    grants: new Set(opts.grants ?? []),
    grantKey: opts.key ?? "k",
    backendAvailable: opts.backend ?? true,
  });
  if (d.kind === "allow") return d.unsandboxed ? "allow:unconfined" : "allow";
  if (d.kind === "ask") return d.escalate ? "ask:escalate" : "ask";
  return "deny";
}

describe("policy decide: sandbox × approval tables", () => {
  for (const mode of SANDBOX_MODES) {
    for (const kind of Object.keys(CALLS) as CallKind[]) {
      it(`${mode} × ${kind}: ${TABLE[mode][kind].join(" / ")} (untrusted / on-request / never)`, () => {
        const got = APPROVAL_POLICIES.map((a) => outcome(CALLS[kind], mode, a));
        assert.deepEqual(got, TABLE[mode][kind]);
      });
    }
  }
});

describe("policy decide: no sandbox backend (I-73)", () => {
  for (const mode of ["read-only", "workspace-write"] as const) {
    for (const kind of ["cmd-ro", "cmd-other", "cmd-esc"] as const) {
      it(`I-73: ${mode} × ${kind} asks to run unconfined, and is denied under never`, () => {
        assert.deepEqual(
          APPROVAL_POLICIES.map((a) => outcome(CALLS[kind], mode, a, { backend: false })),
          ["ask:escalate", "ask:escalate", "deny"],
        );
      });
    }
  }
  it("I-73: no backend asks are never grantable for the session, and a stored grant does not skip them", () => {
    const d = decide({
      call: CALLS["cmd-other"],
      sandbox: "workspace-write",
      approval: "on-request",
      grants: new Set(["k"]),
      grantKey: "k",
      backendAvailable: false,
    });
    assert.deepEqual(d, {
      kind: "ask",
      reason: "no sandbox backend works on this machine: the command would run unconfined",
      escalate: true,
      sessionGrantable: false,
      approved: { unsandboxed: true, writes: [] },
    });
  });
  it("danger-full-access does not need a backend", () => {
    assert.equal(outcome(CALLS["cmd-other"], "danger-full-access", "on-request", { backend: false }), "allow:unconfined");
  });
  it("the deny message under never says why, for the model", () => {
    const d = decide({
      call: CALLS["cmd-other"],
      sandbox: "workspace-write",
      approval: "never",
      grants: new Set(),
      grantKey: "k",
      backendAvailable: false,
    });
    assert.equal(d.kind, "deny");
    assert.match(d.kind === "deny" ? d.reason : "", /no sandbox backend.*never/);
  });
});

describe("policy decide: session grants (I-47, I-74)", () => {
  const cases: Array<[string, CallKind, SandboxMode, ApprovalPolicy, string, string]> = [
    // [title, call, mode, approval, without grant, with grant]
    ["untrusted write inside the root", "write-in", "workspace-write", "untrusted", "ask", "allow"],
    ["untrusted command", "cmd-other", "workspace-write", "untrusted", "ask", "allow"],
    ["untrusted command in read-only", "cmd-other", "read-only", "untrusted", "ask", "allow"],
    ["untrusted command under full access", "cmd-other", "danger-full-access", "untrusted", "ask", "allow:unconfined"],
    ["on-request write outside the root (exact path key)", "write-out", "workspace-write", "on-request", "ask:escalate", "allow"],
    ["I-74: read-only write escalation is never covered by a grant", "write-in", "read-only", "on-request", "ask:escalate", "ask:escalate"],
    ["I-74: command escalation is never covered by a grant", "cmd-esc", "workspace-write", "on-request", "ask:escalate", "ask:escalate"],
    ["never stays deny even with a grant", "write-out", "workspace-write", "never", "deny", "deny"],
  ];
  for (const [title, kind, mode, approval, without, withGrant] of cases) {
    it(`I-47: ${title}: ${without} → ${withGrant}`, () => {
      assert.equal(outcome(CALLS[kind], mode, approval, { grants: [] }), without);
      assert.equal(outcome(CALLS[kind], mode, approval, { grants: ["k"], key: "k" }), withGrant);
      // A grant for another key changes nothing.
      assert.equal(outcome(CALLS[kind], mode, approval, { grants: ["other"], key: "k" }), without);
    });
  }
  it("I-74: escalations out of read-only are marked not grantable for the session", () => {
    const d = decide({
      call: CALLS["write-in"],
      sandbox: "read-only",
      approval: "on-request",
      grants: new Set(),
      grantKey: "k",
      backendAvailable: true,
    });
    assert.deepEqual(d, {
      kind: "ask",
      reason: "the session is read-only",
      escalate: true,
      sessionGrantable: false,
      approved: { unsandboxed: false, writes: ["/w/proj/a.txt"] },
    });
  });
  it("outside-root writes in workspace-write are grantable for the session", () => {
    const d = decide({
      call: CALLS["write-out"],
      sandbox: "workspace-write",
      approval: "on-request",
      grants: new Set(),
      grantKey: "k",
      backendAvailable: true,
    });
    assert.deepEqual(d, {
      kind: "ask",
      reason: "the target is outside the workspace",
      escalate: true,
      sessionGrantable: true,
      approved: { unsandboxed: false, writes: ["/w/other/a.txt"] },
    });
  });
});

describe("policy decide: protected targets (git metadata)", () => {
  const call: PolicyCall = {
    tool: "edit_file",
    kind: "write",
    paths: ["/w/proj/.git/config"],
    insideRoot: true,
    protected: "git metadata (a `.git` entry)",
  };
  it("every mode short of danger-full-access asks (never session-grantable, grants ignored); `never` refuses; full access is unchanged", () => {
    for (const sandbox of ["read-only", "workspace-write"] as const) {
      for (const approval of ["untrusted", "on-request"] as const) {
        const d = decide({ call, sandbox, approval, grants: new Set(["k"]), grantKey: "k", backendAvailable: true });
        assert.equal(d.kind, "ask", `${sandbox}/${approval}`);
        assert.equal(d.sessionGrantable, false);
      }
      assert.equal(outcome(call, sandbox, "never"), "deny");
    }
    assert.deepEqual(
      APPROVAL_POLICIES.map((a) => outcome(call, "danger-full-access", a)),
      ["ask", "allow:unconfined", "allow:unconfined"],
    );
  });
});

describe("policy decide: the decision carries its consequences", () => {
  const run = (call: PolicyCall, sandbox: SandboxMode, approval: ApprovalPolicy, backend = true) =>
    decide({ call, sandbox, approval, grants: new Set(), grantKey: "k", backendAvailable: backend });
  it("a command runs unsandboxed only under full access or once an escalation is approved", () => {
    assert.deepEqual(run(CALLS["cmd-other"], "workspace-write", "on-request"), { kind: "allow", unsandboxed: false, writes: [] });
    assert.deepEqual(run(CALLS["cmd-other"], "danger-full-access", "on-request"), { kind: "allow", unsandboxed: true, writes: [] });
    const esc = run(CALLS["cmd-esc"], "workspace-write", "on-request");
    assert.deepEqual(esc.kind === "ask" && esc.approved, { unsandboxed: true, writes: [] });
    // An approval under `untrusted` that is not an escalation stays in the sandbox…
    const plain = run(CALLS["cmd-other"], "workspace-write", "untrusted");
    assert.deepEqual(plain.kind === "ask" && plain.approved, { unsandboxed: false, writes: [] });
    // …and under full access the approved command runs unsandboxed like every other command there.
    const full = run(CALLS["cmd-other"], "danger-full-access", "untrusted");
    assert.deepEqual(full.kind === "ask" && { escalate: full.escalate, approved: full.approved }, {
      escalate: false,
      approved: { unsandboxed: true, writes: [] },
    });
    const noBackend = run(CALLS["cmd-ro"], "read-only", "on-request", false);
    assert.deepEqual(noBackend.kind === "ask" && noBackend.approved, { unsandboxed: true, writes: [] });
  });
  it("a write may land exactly on its checked targets, in the roots or approved outside them; nothing else writes", () => {
    assert.deepEqual(run(CALLS["write-in"], "workspace-write", "on-request"), {
      kind: "allow",
      unsandboxed: false,
      writes: ["/w/proj/a.txt"],
    });
    assert.deepEqual(run(CALLS["write-out"], "danger-full-access", "never"), {
      kind: "allow",
      unsandboxed: true,
      writes: ["/w/other/a.txt"],
    });
    const out = run(CALLS["write-out"], "workspace-write", "on-request");
    assert.deepEqual(out.kind === "ask" && out.approved, { unsandboxed: false, writes: ["/w/other/a.txt"] });
    // File tools never run under the command sandbox: a read has nothing to bypass, even under full access.
    assert.deepEqual(run(CALLS.read, "danger-full-access", "never"), { kind: "allow", unsandboxed: false, writes: [] });
    assert.deepEqual(run({ tool: "bash_output", kind: "none" }, "read-only", "untrusted"), {
      kind: "allow",
      unsandboxed: false,
      writes: [],
    });
  });
});

describe("policy decide: a delegation to another agent", () => {
  const call: PolicyCall = { tool: "delegate", kind: "delegate" };
  const sessionGrantable = (sandbox: SandboxMode, approval: ApprovalPolicy): boolean | undefined =>
    decide({ call, sandbox, approval, grants: new Set(), grantKey: "k", backendAvailable: true }).sessionGrantable;

  it("asks unless granted for the session or the policy is never; from read-only it asks every time and never is refused", () => {
    assert.deepEqual(
      APPROVAL_POLICIES.map((a) => outcome(call, "workspace-write", a)),
      ["ask", "ask", "allow"],
    );
    assert.deepEqual(
      APPROVAL_POLICIES.map((a) => outcome(call, "workspace-write", a, { grants: ["k"] })),
      ["allow", "allow", "allow"],
    );
    assert.deepEqual(
      APPROVAL_POLICIES.map((a) => outcome(call, "read-only", a, { grants: ["k"] })),
      ["ask", "ask", "deny"],
    );
    assert.equal(sessionGrantable("workspace-write", "on-request"), true);
    assert.equal(sessionGrantable("read-only", "on-request"), false);
  });

  it("never runs anything of its own unconfined", () => {
    const d = decide({ call, sandbox: "danger-full-access", approval: "never", grants: new Set(), grantKey: "k", backendAvailable: true });
    assert.equal(d.kind === "allow" && d.unsandboxed, false);
  });
});
