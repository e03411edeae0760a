/**
 * Pure: how an amount of US dollars reads on the page. From $1 up, cents with thousands separators;
 * below $1, four significant digits (`$0.08679` for 0.086793), so that amounts shown side by side
 * still add up to the total shown; trailing zeros are dropped only where the shorter figure is the
 * exact amount (`$0.00055`, `$0.50`). Zero is `$0.00`. The arithmetic is on decimal digits, not
 * binary fractions, so `0.00012345` rounds the way it reads.
 */

export interface UsdFigure {
  /** The figure shown: `$0.08679`, `$1,234.50`. */
  shown: string;
  /** The amount as given, every digit kept: `$0.086793`. */
  exact: string;
  /** Whether `shown` is a rounding of `exact` (then the page offers the exact amount). */
  rounded: boolean;
}

const SIGNIFICANT = 4;
const PLAIN_DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

/** An amount as a whole number of `10^-scale` dollars. */
interface Scaled {
  units: bigint;
  scale: number;
}

function parseDecimal(value: string): Scaled | null {
  const trimmed = value.trim();
  let match = PLAIN_DECIMAL.exec(trimmed);
  if (match === null || trimmed === '' || trimmed === '-' || trimmed === '.') {
    // `1e-7` and the like: through a number, to the nano-dollar the ledger counts in.
    const amount = Number(trimmed);
    if (trimmed === '' || !Number.isFinite(amount)) return null;
    match = PLAIN_DECIMAL.exec(amount.toFixed(9));
    if (match === null) return null;
  }
  const fraction = match[3] ?? '';
  const magnitude = BigInt(`${match[2] ?? ''}${fraction}` || '0');
  return { units: match[1] === '-' ? -magnitude : magnitude, scale: fraction.length };
}

const power = (exponent: number): bigint => 10n ** BigInt(exponent);

/** Rounded half away from zero to `decimals` places. */
function roundTo(amount: Scaled, decimals: number): Scaled {
  if (decimals >= amount.scale) {
    return { units: amount.units * power(decimals - amount.scale), scale: decimals };
  }
  const divisor = power(amount.scale - decimals);
  const magnitude = amount.units < 0n ? -amount.units : amount.units;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return { units: amount.units < 0n ? -quotient : quotient, scale: decimals };
}

const sameAmount = (left: Scaled, right: Scaled): boolean => {
  const scale = Math.max(left.scale, right.scale);
  return left.units * power(scale - left.scale) === right.units * power(scale - right.scale);
};

/** `1234567` → `1,234,567`. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `$1,234.50`, `-$0.0012` from a scaled amount. */
function dollars(amount: Scaled): string {
  const negative = amount.units < 0n;
  const digits = (negative ? -amount.units : amount.units)
    .toString()
    .padStart(amount.scale + 1, '0');
  const whole = digits.slice(0, digits.length - amount.scale);
  const fraction = digits.slice(digits.length - amount.scale);
  const text = fraction === '' ? groupThousands(whole) : `${groupThousands(whole)}.${fraction}`;
  return `${negative ? '-' : ''}$${text}`;
}

/** Places after the point that show `SIGNIFICANT` digits of an amount below 1. */
function significantDecimals(amount: Scaled): number {
  const magnitude = amount.units < 0n ? -amount.units : amount.units;
  const leadingZeros = amount.scale - magnitude.toString().length;
  return leadingZeros + SIGNIFICANT;
}

const isBelowOne = (amount: Scaled): boolean => {
  const magnitude = amount.units < 0n ? -amount.units : amount.units;
  return magnitude < power(amount.scale);
};

/** The fewest places (at least 2) that still hold the same amount. */
function trimZeros(amount: Scaled): Scaled {
  let trimmed = amount;
  while (trimmed.scale > 2 && trimmed.units % 10n === 0n) {
    trimmed = { units: trimmed.units / 10n, scale: trimmed.scale - 1 };
  }
  return trimmed;
}

function roundForDisplay(amount: Scaled): Scaled {
  if (amount.units === 0n || !isBelowOne(amount)) return roundTo(amount, 2);
  const rounded = roundTo(amount, significantDecimals(amount));
  // 0.0099996 rounds up to 0.010000: one digit more than four significant ones.
  if (!isBelowOne(rounded)) return roundTo(rounded, 2);
  return roundTo(rounded, significantDecimals(rounded));
}

/** The figure of an amount given as a decimal string (`'0.086793'`, `'12.5'`). */
export function describeUsd(value: string): UsdFigure | null {
  const amount = parseDecimal(value);
  if (amount === null) return null;
  const rounded = roundForDisplay(amount);
  const exact = sameAmount(rounded, amount);
  return {
    shown: dollars(exact ? trimZeros(rounded) : rounded),
    exact: dollars(amount.scale < 2 ? roundTo(amount, 2) : amount),
    rounded: !exact,
  };
}

/** The shown figure; `—` for no amount, the text itself when it is not a number. */
export function formatUsd(value: string | null): string {
  if (value === null) return '—';
  return describeUsd(value)?.shown ?? value;
}

/** For a chart's tooltip (no hover inside it): `$0.08679 (exactly $0.086793)`. */
export function formatUsdWithExact(value: string): string {
  const figure = describeUsd(value);
  if (figure === null) return value;
  return figure.rounded ? `${figure.shown} (exactly ${figure.exact})` : figure.shown;
}

/** A whole number of nano-dollars as an exact decimal string: `86793000` → `'0.086793'`. */
export { nanoToUsd as usdTextOfNano } from '../../../server/usage/nano-to-usd.js';
