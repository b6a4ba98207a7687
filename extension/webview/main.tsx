// Webview entry: the host's messages go into the panel store at most once per animation frame
// (streaming stays smooth); the App renders the store's view.
import { render } from "preact";
import { App } from "./components/App";
import { rememberFolder } from "./panelState";
import { PanelStore } from "./panelStore";
import { onHostMessage, post } from "./vscodeApi";
import type { HostToWebview } from "../common/webviewProtocol";

const root = document.getElementById("root") ?? document.body;
const folder = document.querySelector('meta[name="manifold-folder"]')?.getAttribute("content");
if (folder) rememberFolder(folder);

const store = new PanelStore();
let inbox: HostToWebview[] = [];
let frame: number | undefined;

onHostMessage((msg) => {
  inbox.push(msg);
  frame ??= requestAnimationFrame(() => {
    frame = undefined;
    const batch = inbox;
    inbox = [];
    store.receive(batch);
  });
});

render(<App store={store} />, root);
post({ type: "ready" });
