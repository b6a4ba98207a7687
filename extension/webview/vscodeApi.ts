// The webview side of the message channel.
import type { HostToWebview, WebviewToHost } from "../protocol/webviewProtocol";

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api: VsCodeApi =
  typeof acquireVsCodeApi === "function"
    ? acquireVsCodeApi()
    : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };

export function post(msg: WebviewToHost): void {
  api.postMessage(msg);
}

/** Remembers the panel's folder so VS Code can restore the panel after a reload. */
export function rememberFolder(folder: string): void {
  api.setState({ folder });
}

export function onHostMessage(handler: (msg: HostToWebview) => void): void {
  window.addEventListener("message", (e: MessageEvent<HostToWebview>) => {
    // Messages from the host arrive through VS Code's own frame; ignore anything without a type.
    if (e.data && typeof e.data === "object" && typeof e.data.type === "string") handler(e.data);
  });
}
