// The window's MCP wiring: the servers each folder session receives (sessionServers.ts over the
// editor's sources) and Manifold's own server (one loopback listener; one endpoint per folder whose
// secret is new for every session new/load/resume and revoked with the folder's session).
import * as vscode from "vscode";
import type { McpServer } from "@agentclientprotocol/sdk";
import { createHash } from "node:crypto";
import type { AgentFeatures } from "../../agent/acpClient";
import { PathConfinement } from "../../client/folderConfinement";
import { IntelHttpServer } from "../intelHttp";
import { consentPrefix } from "../consent";
import { collectSessionServers, type SessionServers } from "../sessionServers";
import { followReports, vscodeIntelligence } from "./vscodeIntelligence";
import { consentStore, folderSources } from "./vscodeSources";
import { errorMessage } from "../../../base/errors";

export class McpHost implements vscode.Disposable {
  readonly #intel: IntelHttpServer;
  readonly #consent: ReturnType<typeof consentStore>;
  /** Which open files have a diagnostics report on its way, followed from the window's start. */
  readonly #reports = followReports();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: (line: string) => void,
  ) {
    this.#intel = new IntelHttpServer(log);
    this.#consent = consentStore(context);
  }

  /** What a (new, loaded or resumed) session of `folder` receives, and the panel's rows. */
  async serversFor(folder: vscode.WorkspaceFolder, features: AgentFeatures): Promise<SessionServers> {
    let own: McpServer | undefined;
    try {
      own = await this.#intel.endpoint(endpointId(folder.uri.fsPath), new PathConfinement(folder.uri.fsPath), vscodeIntelligence);
    } catch (err) {
      this.log(`[${folder.name}] Manifold's MCP server is unavailable: ${errorMessage(err)}`);
    }
    const got = await collectSessionServers(
      folderSources(this.context, folder, this.#consent),
      { ...features.mcp, confine: features.mcpConfine },
      own,
    );
    // Names and states only: values (env, headers, inputs) may hold secrets.
    this.log(
      `[${folder.name}] MCP servers: ${got.rows.map((r) => `${r.name} (${r.source}) ${r.state}${r.detail ? `: ${r.detail}` : ""}`).join("; ") || "none"}`,
    );
    return got;
  }

  /** Before a restart: a declined folder server of this name is asked about again (every denial of it). */
  async forgetDenial(folder: vscode.WorkspaceFolder, name: string): Promise<void> {
    const prefix = `${consentPrefix(folder.uri.fsPath, name)}.`;
    await this.#consent.forget((k) => k.startsWith(prefix) && this.#consent.get(k) === "deny");
  }

  /** The folder's session ended: its secret stops working. */
  revoke(folder: string): void {
    this.#intel.revoke(endpointId(folder));
  }

  dispose(): void {
    this.#reports.dispose();
    void this.#intel.close();
  }
}

function endpointId(folder: string): string {
  return createHash("sha256").update(folder).digest("base64url").slice(0, 22);
}
