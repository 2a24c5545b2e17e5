/**
 * `compute` with its last answers kept by `keyOf` of the same arguments, at most `max` of them (all
 * forgotten at once when full: the keys that matter come back at once). For pure work asked again
 * and again with the same few arguments, such as a burst of 10,000 alerts saying the same few
 * moments.
 */
export function remembered<A extends unknown[], T>(max: number, keyOf: (...args: A) => string, compute: (...args: A) => T): (...args: A) => T {
  const kept = new Map<string, T>();
  return (...args) => {
    const key = keyOf(...args);
    const known = kept.get(key);
    if (known !== undefined || kept.has(key)) return known as T;
    const value = compute(...args);
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
