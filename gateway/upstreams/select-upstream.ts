/**
 * Upstream order for one request: lowest priority first; within a priority, a weighted random
 * order (so the first pick is weighted random and the rest are fallbacks when one is busy).
 */
export interface Weighted {
  weight: number;
  priority: number;
}

/** Weighted random order without replacement; zero weights go last in their given order. */
export function weightedOrder<T extends Weighted>(items: readonly T[], random: () => number): T[] {
  const pool = items.filter((item) => item.weight > 0);
  const zero = items.filter((item) => item.weight <= 0);
  const ordered: T[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, item) => sum + item.weight, 0);
    let point = random() * total;
    let index = 0;
    for (; index < pool.length - 1; index++) {
      point -= pool[index]?.weight ?? 0;
      if (point < 0) break;
    }
    ordered.push(...pool.splice(index, 1));
  }
  return [...ordered, ...zero];
}

export function orderUpstreams<T extends Weighted>(items: readonly T[], random: () => number): T[] {
  // One upstream (most groups): its order without the sets and arrays below, drawing the same
  // random number the weighted order would, so later draws do not change.
  if (items.length === 1) {
    const only = items[0] as T;
    if (only.weight > 0) random();
    return [only];
  }
  const priorities = [...new Set(items.map((item) => item.priority))].sort((a, b) => a - b);
  return priorities.flatMap((priority) =>
    weightedOrder(
      items.filter((item) => item.priority === priority),
      random,
    ),
  );
}

/**
 * The order one request tries the group's upstreams in: the upstream its session is bound to
 * first (sticky sessions), then priority order with a weighted random order within a priority.
 */
export function scheduleUpstreams<T extends Weighted & { name: string }>(
  items: readonly T[],
  options: { bound: string | null; random: () => number },
): T[] {
  const ordered = orderUpstreams(items, options.random);
  const index =
    options.bound === null ? -1 : ordered.findIndex((item) => item.name === options.bound);
  if (index <= 0) return ordered;
  const [bound] = ordered.splice(index, 1);
  return bound === undefined ? ordered : [bound, ...ordered];
}
