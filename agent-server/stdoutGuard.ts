// Imported first by main.ts: stdout carries ACP only, so every console method writes to stderr.
console.log = console.error;
console.info = console.error;
console.warn = console.error;
console.debug = console.error;
console.trace = console.error;
