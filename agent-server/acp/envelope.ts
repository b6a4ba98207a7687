// Strict checks on a parsed incoming message that the SDK's lenient schemas let through (I-108):
// params must be an object when present, and every `_meta` anywhere in them must be an object (or
// null). The SDK silently turns `_meta: 5` into "absent"; we answer invalid params instead, so a
// client learns its message was wrong. Depth is already bounded by the frame guard. Pure.

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Null when the params are acceptable, else a short reason. */
export function paramsProblem(params: unknown): string | null {
  if (params === undefined) return null;
  if (!isPlainObject(params))
    return `params must be an object, not ${Array.isArray(params) ? "an array" : params === null ? "null" : typeof params}`;
  // Iterative walk: the shape is bounded by the frame guard, but a walk never needs the stack anyway.
  const stack: Array<{ value: unknown; path: string }> = [{ value: params, path: "params" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        if (typeof v === "object" && v !== null) stack.push({ value: v, path: `${path}[${i}]` });
      });
      continue;
    }
    if (!isPlainObject(value)) continue;
    for (const [key, v] of Object.entries(value)) {
      if (key === "_meta" && v !== null && !isPlainObject(v)) return `${path}._meta must be an object`;
      if (typeof v === "object" && v !== null && key !== "_meta") stack.push({ value: v, path: `${path}.${key}` });
    }
  }
  return null;
}

/** The message's problem if it is a client request or notification with bad params. */
export function messageProblem(message: unknown): string | null {
  if (!isPlainObject(message) || typeof message.method !== "string") return null;
  return paramsProblem(message.params);
}

/** Whether `value` nests objects/arrays deeper than `max` levels (iterative: safe at any depth). */
export function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, d + 1]);
  }
  return false;
}
