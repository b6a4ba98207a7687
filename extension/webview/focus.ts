// Focus moves by refs, never by looking elements up by test id: the composer's input is one shared ref.
import { createRef } from "preact";

export const composerInput = createRef<HTMLTextAreaElement>();

/** The user is typing a message: a card that arrives must not take focus from it. */
export function userIsTyping(): boolean {
  const input = composerInput.current;
  return input !== null && document.activeElement === input && input.value !== "";
}
