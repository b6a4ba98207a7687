// The one way a keyed owner (the session manager's folder sessions) creates an entry.

/**
 * The value stored under `key`, or a new one: created, **stored**, and only then announced. A listener
 * of the announcement that asks for the same key (the sessions view's badge asks for every folder's
 * session) gets this value, never a second one, so no endless create → announce → create.
 */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V, announce: (value: V) => void): V {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const value = create();
  map.set(key, value);
  announce(value);
  return value;
}
