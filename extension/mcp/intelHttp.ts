// The loopback HTTP listener of Manifold's own MCP server (I-103): one per window on 127.0.0.1 at a
// random port, one endpoint per folder session at /mcp/<id>, each with its own bearer secret
// (rotated whenever the session is (re)created, revoked when it ends). A request answers only if its
// secret is the current one of the endpoint it addresses; then it is served by that folder's tools.
// Stateless streamable HTTP: a fresh MCP server per request (the tools keep no state).
//
// Why loopback HTTP: every agent that speaks MCP over HTTP can reach it with a url and a header, and
// so can the built-in agent; MCP-over-ACP is an unstable RFD few agents speak, and a stdio server would
// need a second process that reaches back into the extension host anyway.
import type { McpServer as AcpMcpServer } from "@agentclientprotocol/sdk";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PathConfinement } from "../client/folderConfinement";
import type { LanguageIntelligence } from "./intelligence";
import { buildIntelServer } from "./intelTools";
import { OWN_SERVER_NAME } from "./mcpJson";
import { errorMessage } from "../../base/errors";

interface Endpoint {
  secret: Buffer;
  folder: PathConfinement;
  intel: LanguageIntelligence;
}

export class IntelHttpServer {
  readonly #endpoints = new Map<string, Endpoint>();
  #server?: Server;
  #listening?: Promise<number>;

  constructor(private readonly log: (line: string) => void = () => undefined) {}

  /** Starts listening (once); resolves to the port. */
  listen(): Promise<number> {
    this.#listening ??= new Promise<number>((resolve, reject) => {
      const server = createServer((req, res) => void this.#handle(req, res));
      this.#server = server;
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
    return this.#listening;
  }

  /** A new secret for endpoint `id` (the previous one stops working); the ACP entry for the agent. */
  async endpoint(id: string, folder: PathConfinement, intel: LanguageIntelligence): Promise<AcpMcpServer> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`invalid endpoint id ${id}`);
    const port = await this.listen();
    const secret = randomBytes(32);
    this.#endpoints.set(id, { secret, folder, intel });
    return {
      type: "http",
      name: OWN_SERVER_NAME,
      url: `http://127.0.0.1:${port}/mcp/${id}`,
      headers: [{ name: "Authorization", value: `Bearer ${secret.toString("base64url")}` }],
    };
  }

  revoke(id: string): void {
    this.#endpoints.delete(id);
  }

  async close(): Promise<void> {
    this.#endpoints.clear();
    const s = this.#server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const deny = (code: number, why: string) => {
      res.writeHead(code, { "content-type": "text/plain" }).end(why);
    };
    const port = (this.#server?.address() as AddressInfo | null)?.port;
    // A browser page could reach loopback (DNS rebinding, or a plain cross-origin POST): only our exact
    // Host is served, and any request that carries an Origin is refused.
    if (req.headers.host !== `127.0.0.1:${port}` || req.headers.origin !== undefined) return deny(403, "forbidden");
    const m = /^\/mcp\/([A-Za-z0-9_-]{1,64})$/.exec(new URL(req.url ?? "/", "http://x").pathname);
    const ep = m ? this.#endpoints.get(m[1]!) : undefined;
    if (!ep || !secretMatches(req.headers.authorization, ep.secret)) return deny(401, "unauthorized");
    const server = buildIntelServer(ep.folder, ep.intel);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (err) {
      this.log(`manifold MCP request failed: ${errorMessage(err)}`);
      if (!res.headersSent) deny(500, "internal error");
    }
  }
}

function secretMatches(header: string | undefined, secret: Buffer): boolean {
  const m = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(header ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!, "base64url");
  return given.length === secret.length && timingSafeEqual(given, secret);
}
