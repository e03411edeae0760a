/** Pure: which thresholds (percent of a cap) a spend has reached. */

export const DEFAULT_THRESHOLDS: readonly number[] = [80, 100];

/** The thresholds reached by `usedNano` of `capNano`, ascending; none for an absent cap. */
export function reachedThresholds(input: {
  usedNano: number;
  capNano: number;
  thresholds: readonly number[] | undefined;
}): number[] {
  const { usedNano, capNano } = input;
  if (!(capNano > 0)) return [];
  const thresholds = input.thresholds ?? DEFAULT_THRESHOLDS;
  // Integer comparison: used * 100 >= cap * threshold, no rounding at the edge.
  return [...new Set(thresholds)]
    .filter((threshold) => usedNano * 100 >= capNano * threshold)
    .sort((a, b) => a - b);
}

/** The spend as a percentage of the cap, one decimal. */
export function percentOf(usedNano: number, capNano: number): number {
  return Math.round((usedNano * 1000) / capNano) / 10;
}
