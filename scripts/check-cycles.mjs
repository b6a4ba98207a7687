#!/usr/bin/env node
// Lists import cycles among the product's own modules (base/, agent-server/, extension/, sandbox/), type-only
// imports included: a cycle of types is still two modules that cannot be understood one at a time.
// Every relative `import … from "./x"` / `export … from "./x"` counts. Inside extension/ it also lists
// cycles between folders (extension/<folder>/, every vscode/ folder together as one layer): two folders that import
// each other are one responsibility split in two. Exit 1 when a cycle exists.
//   node scripts/check-cycles.mjs
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const files = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "base", "agent-server", "extension", "sandbox"],
  {
    cwd: root,
    encoding: "utf8",
  },
)
  .split("\n")
  .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && existsSync(join(root, f)));
const known = new Set(files);

function resolve(from, spec) {
  const base = normalize(join(dirname(from), spec));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

const graph = new Map();
for (const file of files) {
  const source = readFileSync(join(root, file), "utf8");
  const deps = new Set();
  for (const m of source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gms)) {
    const target = resolve(file, m[1]);
    if (target && target !== file) deps.add(target);
  }
  graph.set(file, [...deps]);
}

// Tarjan's strongly connected components: each component of more than one node is a cycle.
function stronglyConnected(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  function visit(v) {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/** extension/chat/html.ts → extension/chat; extension/chat/vscode/chatPanel.ts → the vscode layer; extension/api.ts → extension. */
function extensionFolder(file) {
  const parts = file.split("/");
  if (parts.slice(1, -1).includes("vscode")) return "extension/*/vscode";
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}
const folders = new Map();
for (const [file, deps] of graph) {
  if (!file.startsWith("extension/")) continue;
  const from = extensionFolder(file);
  const out = folders.get(from) ?? new Set();
  for (const dep of deps) if (dep.startsWith("extension/") && extensionFolder(dep) !== from) out.add(extensionFolder(dep));
  folders.set(from, out);
}

const cycles = stronglyConnected(graph);
const folderCycles = stronglyConnected(new Map([...folders].map(([k, v]) => [k, [...v]])));
if (cycles.length === 0) console.log(`no import cycles among ${graph.size} modules`);
else {
  console.log(`${cycles.length} import cycle(s) among ${graph.size} modules:`);
  for (const c of cycles) console.log(`  ${c.join(" ↔ ")}`);
}
if (folderCycles.length === 0) console.log(`no folder cycles among ${folders.size} extension folders`);
else {
  console.log(`${folderCycles.length} folder cycle(s) among ${folders.size} extension folders:`);
  for (const c of folderCycles) console.log(`  ${c.join(" ↔ ")}`);
}
if (cycles.length > 0 || folderCycles.length > 0) process.exit(1);
