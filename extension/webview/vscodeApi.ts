// The webview side of the message channel.
import type { HostToWebview } from "../common/webviewProtocol";
import type { WebviewToHost } from "../common/webviewMessages";

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Outside a webview (unit tests) messages go nowhere and the state lives in memory. */
function detachedApi(): VsCodeApi {
  let state: unknown;
  return {
    postMessage: () => undefined,
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  };
}

const api: VsCodeApi = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : detachedApi();

export function post(msg: WebviewToHost): void {
  api.postMessage(msg);
}

/** VS Code's webview state (kept across hide/show and reloads); panelState.ts gives it its shape. */
export const vscodeState = {
  get: (): unknown => api.getState(),
  set: (state: unknown): void => api.setState(state),
};

export function onHostMessage(handler: (msg: HostToWebview) => void): void {
  window.addEventListener("message", (e: MessageEvent<HostToWebview>) => {
    // Messages from the host arrive through VS Code's own frame; ignore anything without a type.
    if (e.data && typeof e.data === "object" && typeof e.data.type === "string") handler(e.data);
  });
}
