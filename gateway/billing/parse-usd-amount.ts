/**
 * Exact decimal arithmetic for money: USD decimal strings to integer nano-USD and back, and scaled
 * parsing of prices (also in exponent notation, as LiteLLM's JSON writes `3.75e-06`). No floating
 * point is involved in any conversion.
 */
const NANO_PER_USD = 1_000_000_000n;
const USD_PATTERN = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,9}))?$/;
const DECIMAL_PATTERN = /^(-?)([0-9]+)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${what} is too large`);
  }
  return Number(value);
}

/** `'3.75'` -> 3_750_000_000. Accepts a non-negative decimal with at most 9 decimals, or an integer. */
export function parseUsdToNano(amount: string | number): number {
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const match = USD_PATTERN.exec(text);
  if (match === null) throw new RangeError(`not a USD amount: '${text}'`);
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(9, '0'));
  return toSafeNumber(whole * NANO_PER_USD + fraction, `USD amount '${text}'`);
}

/** 3_750_000_000 -> `'3.75'`; integer nano-USD to the shortest exact decimal. */
export function formatNanoAsUsd(nano: number): string {
  if (!Number.isSafeInteger(nano)) throw new RangeError(`not an integer nano-USD amount: ${nano}`);
  const sign = nano < 0 ? '-' : '';
  const magnitude = BigInt(Math.abs(nano));
  const whole = magnitude / NANO_PER_USD;
  const fraction = (magnitude % NANO_PER_USD).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

export interface ScaledDecimal {
  value: bigint;
  /** False when digits beyond the scale were rounded (half up). */
  exact: boolean;
}

/**
 * A decimal (or a JS number) times 10^scale, as an integer: `scaleDecimal('3.75e-06', 12)` is
 * 3_750_000n. Digits beyond the scale are rounded half up and reported. Null when not a decimal.
 */
export function scaleDecimal(input: string | number, scale: number): ScaledDecimal | null {
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = DECIMAL_PATTERN.exec(text);
  if (match === null) return null;
  const fraction = match[3] ?? '';
  const digits = BigInt(`${match[2] ?? '0'}${fraction}`);
  const shift = Number(match[4] ?? '0') - fraction.length + scale;
  let value: bigint;
  let exact = true;
  if (shift >= 0) {
    value = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    value = (digits * 2n + divisor) / (divisor * 2n);
    exact = digits % divisor === 0n;
  }
  return { value: match[1] === '-' ? -value : value, exact };
}
