// Waiting on a FolderSession's transcript state without polling: `changed(s)` listens to the session's
// `onDidEmit`, `when(s, pred)` resolves once `pred` holds for its state.
import type { FolderSession } from "../../../extension/sessions/folderSession";
import type { TranscriptState } from "../../../extension/common/transcript";

export interface StateWaiters {
  changed(s: FolderSession): void;
  when(s: FolderSession, pred: (st: TranscriptState) => boolean): Promise<void>;
}

export function stateWaiters(): StateWaiters {
  const waiters = new Map<FolderSession, (() => void)[]>();
  return {
    changed(s) {
      for (const w of waiters.get(s) ?? []) w();
    },
    when: (s, pred) =>
      new Promise<void>((resolve) => {
        if (pred(s.state)) return resolve();
        const list = waiters.get(s) ?? [];
        list.push(() => pred(s.state) && resolve());
        waiters.set(s, list);
      }),
  };
}
