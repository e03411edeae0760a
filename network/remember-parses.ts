/**
 * A parse remembered per text, for the few strings policies and callers repeat on every request
 * (address ranges, caller addresses, model globs). The cache starts over when it holds `limit`
 * texts; remembered results are shared, so they must never be changed.
 */
export function remembered<T extends object | null>(
  parse: (text: string) => T,
  limit = 10_000,
): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const parsed = parse(text);
    if (cache.size >= limit) cache.clear();
    cache.set(text, parsed);
    return parsed;
  };
}
