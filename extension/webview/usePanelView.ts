// The Preact side of the panel store: the current view, re-rendered on each change.
import { useEffect, useState } from "preact/hooks";
import type { PanelStore, PanelView } from "./panelStore";

export function usePanelView(store: PanelStore): PanelView {
  const [view, setView] = useState(store.getSnapshot);
  useEffect(() => {
    const unsubscribe = store.subscribe(() => setView(store.getSnapshot()));
    // A change between the first render and this subscription is not lost.
    setView(store.getSnapshot());
    return unsubscribe;
  }, [store]);
  return view;
}
