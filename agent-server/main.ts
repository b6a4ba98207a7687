// Placeholder entry; replaced by the real entry (console → stderr first, build the graph, exit on close).
console.log = console.error;
console.error("[agent-server] starting");
