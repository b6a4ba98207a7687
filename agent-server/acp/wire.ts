// The names and capability flags of Manifold's ACP extensions, in one module with no dependencies:
// the start-up front (front.ts) answers `initialize` and routes every method by these names before
// the modules that implement them are loaded. Each extension's own module re-exports what it uses.
export const STEERING_METHOD = "_session/steering";
/** Merged into the top-level `_meta` of the `initialize` response. */
export const STEERING_META = { steering: { supported: true } } as const;

export const FORK_METHOD = "session/fork";
export const KEEP_PROMPTS_META = "manifold.dev/keepPrompts";

export const DELEGATE_AGENTS_META = "manifold.dev/delegateAgents";
export const DELEGATE_METHOD = "_manifold/delegate";
export const DELEGATE_CAPABILITY_META = { "manifold.dev/delegate": { method: DELEGATE_METHOD, agentsMeta: DELEGATE_AGENTS_META } } as const;
