/** Pure: how amounts, times and fractions read on the page. */

// Money has its own file; its one formatter is used everywhere from here.
export { describeUsd, formatUsd, usdTextOfNano } from './format-usd.js';

/** "in 3 h", "5 min ago": relative to `now`. */
export function formatRelative(time: string | null, now: number): string {
  if (time === null) return 'never';
  const at = Date.parse(time);
  if (Number.isNaN(at)) return time;
  const seconds = Math.round((at - now) / 1000);
  const size = Math.abs(seconds);
  const [amount, unit] =
    size < 60
      ? [size, 's']
      : size < 3600
        ? [Math.round(size / 60), 'min']
        : size < 86_400
          ? [Math.round(size / 3600), 'h']
          : [Math.round(size / 86_400), 'd'];
  if (size < 5) return 'just now';
  return seconds > 0 ? `in ${amount} ${unit}` : `${amount} ${unit} ago`;
}

/** Used over limit as a fraction in [0, 1]; null without a limit. */
export function usedFraction(used: string | null, limit: string | null): number | null {
  if (limit === null) return null;
  const cap = Number(limit);
  if (!(cap > 0)) return null;
  return Math.min(1, Math.max(0, Number(used ?? '0') / cap));
}
