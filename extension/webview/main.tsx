// Webview entry: receives the snapshot and events from the host, folds them with the shared
// reducer, and renders at most once per animation frame (streaming stays smooth).
import { render } from "preact";
import { reduceTranscript, type TranscriptState } from "../common/transcript";
import { assertNever, type Attachment, type ChangesView, type HostToWebview, type RestoreDoneView, type RestorePlanView } from "../common/webviewProtocol";
import { App } from "./components/App";
import { rememberFolder } from "./panelState";
import { onHostMessage, post } from "./vscodeApi";

const root = document.getElementById("root") ?? document.body;
const folder = document.querySelector('meta[name="manifold-folder"]')?.getAttribute("content");
if (folder) rememberFolder(folder);

let state: TranscriptState | undefined;
let attachments: Attachment[] = [];
let focusSignal = 0;
let changes: ChangesView | undefined;
let restorePlan: RestorePlanView | undefined;
let restoreDone: RestoreDoneView | undefined;
let inbox: HostToWebview[] = [];
let frame: number | undefined;

function apply(msg: HostToWebview): void {
  switch (msg.type) {
    case "snapshot":
      state = msg.state;
      return;
    case "events":
      if (state) for (const ev of msg.events) state = reduceTranscript(state, ev);
      return;
    case "composer/attach":
      attachments = [...attachments, ...msg.attachments];
      return;
    case "composer/focus":
      focusSignal++;
      return;
    case "changes":
      changes = msg.changes;
      return;
    case "restore/plan":
      restorePlan = msg.plan;
      return;
    case "restore/done":
      restoreDone = msg.done;
      return;
    default:
      assertNever(msg);
  }
}

function draw(): void {
  frame = undefined;
  const batch = inbox;
  inbox = [];
  for (const m of batch) apply(m);
  render(
    <App
      state={state}
      attachments={attachments}
      focusSignal={focusSignal}
      onDetach={(id) => {
        attachments = attachments.filter((a) => a.id !== id);
        schedule();
      }}
      {...(changes ? { changes } : {})}
      {...(restorePlan ? { restorePlan } : {})}
      {...(restoreDone ? { restoreDone } : {})}
      onCloseDone={() => {
        restoreDone = undefined;
        schedule();
      }}
      onSent={() => {
        attachments = [];
        schedule();
      }}
    />,
    root,
  );
}

function schedule(): void {
  frame ??= requestAnimationFrame(draw);
}

onHostMessage((msg) => {
  inbox.push(msg);
  schedule();
});

draw();
post({ type: "ready" });
