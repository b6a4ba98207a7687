// A <details> whose body is built only once it has been open: a long history's collapsed tool cards
// (their output) and thoughts keep no rendered markdown and no DOM for it until the user opens one (or it
// was open, e.g. while its call ran). Once built, the body stays, so closing a card loses nothing.
import { useRef, useState } from "preact/hooks";

export function useShownOnce(open: boolean): { shown: boolean; onToggle: (ev: Event) => void } {
  const wasOpen = useRef(open);
  if (open) wasOpen.current = true;
  const [opened, setOpened] = useState(false);
  const onToggle = (ev: Event): void => {
    if ((ev.currentTarget as HTMLDetailsElement).open) setOpened(true);
  };
  return { shown: wasOpen.current || opened, onToggle };
}
