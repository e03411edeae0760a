/**
 * Pure: a chart axis's ticks at "nice" steps (1, 2 or 5 × 10^n) from zero to at least the largest
 * value, and their labels with as many decimals as the step needs (the same on every tick).
 */
import { formatCount } from './format-usage.js';
import { groupThousands } from './format-usd.js';

export interface AxisTicks {
  ticks: number[];
  /** Places after the point that every tick is written with. */
  decimals: number;
}

const MULTIPLIERS = [1, 2, 5, 10] as const;

/** The smallest 1-2-5 step that covers `span` in at most `count` intervals. */
export function niceStep(span: number, count: number): number {
  const raw = span / count;
  const exponent = Math.floor(Math.log10(raw));
  const base = 10 ** exponent;
  const multiplier = MULTIPLIERS.find((candidate) => candidate * base >= raw * (1 - 1e-9)) ?? 10;
  return multiplier * base;
}

/**
 * Ticks from 0 up to the first step at or above `max`, about `count` intervals. `whole`: counts,
 * so steps are never below 1. With nothing above zero: a single step of 1.
 */
export function niceTicks(
  max: number,
  options: { count?: number; whole?: boolean; minimumDecimals?: number } = {},
): AxisTicks {
  const count = options.count ?? 4;
  const top = Number.isFinite(max) && max > 0 ? max : 0;
  let step = top === 0 ? 1 : niceStep(top, count);
  if (options.whole === true) step = Math.max(1, step);
  const exponent = Math.floor(Math.log10(step) + 1e-9);
  const decimals = Math.max(options.minimumDecimals ?? 0, -exponent);
  const intervals = Math.max(1, Math.ceil(top / step - 1e-9));
  const ticks = Array.from({ length: intervals + 1 }, (_, index) =>
    Number((index * step).toFixed(decimals)),
  );
  return { ticks, decimals };
}

/** A money tick: `$0.0004`, `$1,000.00`: `decimals` places, at least the cents. */
export function formatUsdTick(value: number, decimals: number): string {
  const [whole = '0', fraction] = Math.abs(value).toFixed(Math.max(2, decimals)).split('.');
  return `${value < 0 ? '-' : ''}$${groupThousands(whole)}${fraction === undefined ? '' : `.${fraction}`}`;
}

export interface ValueAxis {
  ticks: number[];
  domain: [number, number];
  label: (value: number) => string;
}

/**
 * A chart's value axis over `values`: money (`$0.0002` steps, the same decimals on every tick) or
 * counts (whole steps, `formatCount`).
 */
export function valueAxis(values: readonly number[], kind: 'usd' | 'count'): ValueAxis {
  const { ticks, decimals } = niceTicks(Math.max(0, ...values), { whole: kind === 'count' });
  return {
    ticks,
    domain: [0, ticks.at(-1) ?? 1],
    label: (value) => (kind === 'usd' ? formatUsdTick(value, decimals) : formatCount(value)),
  };
}
