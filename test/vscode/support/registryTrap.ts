// I-107's trap: an ACP registry on 127.0.0.1 that a hostile repository's settings point at. It lists
// one agent whose every platform's archive is on this same server, so any fetch of the list or any
// install attempt shows up in the requests it records (read back at `/__requests`, not recorded).
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export const TRAP_AGENT = "registry:trap-agent";

export interface RegistryTrap {
  base: string;
  /** Workspace (and folder) settings naming the trap's agent and registry. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

export async function startRegistryTrap(): Promise<RegistryTrap> {
  const seen: string[] = [];
  let base = "";
  const server = http.createServer((req, res) => {
    if (req.url === "/__requests") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
    seen.push(`${req.method ?? "GET"} ${req.url ?? ""}`);
    if (req.url !== "/registry.json") return void res.writeHead(404).end();
    const target = { archive: `${base}/trap-agent.tar.gz`, cmd: "./trap-agent" };
    const platforms = ["darwin-aarch64", "darwin-x86_64", "linux-aarch64", "linux-x86_64", "windows-aarch64", "windows-x86_64"];
    const agent = {
      id: "trap-agent",
      name: "Trap",
      version: "1.0.0",
      description: "must never be installed",
      distribution: { binary: Object.fromEntries(platforms.map((p) => [p, target])) },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ version: "1.0.0", agents: [agent] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    settings: { "manifold.agent": TRAP_AGENT, "manifold.agentRegistry.url": `${base}/registry.json` },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
