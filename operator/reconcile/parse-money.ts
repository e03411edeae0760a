/**
 * Exact decimal money: USD written as an integer or a decimal string becomes integer nano-USD, and
 * back. No floating point is involved anywhere.
 */
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,9}))?$/;
const NANO_PER_USD = 1_000_000_000;

/** Parses `12`, `"0.25"`, `"999999.999999"` into nano-USD; throws on anything else. */
export function parseMoneyToNano(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value;
  const match = DECIMAL.exec(text);
  if (match === null) throw new Error(`'${text}' is not a decimal amount`);
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(9, '0'));
  const nano = whole * NANO_PER_USD + fraction;
  if (!Number.isSafeInteger(nano)) throw new Error(`'${text}' is too large`);
  return nano;
}

/** The optional form: absent stays absent. */
export function parseOptionalMoneyToNano(value: number | string | undefined): number | null {
  return value === undefined ? null : parseMoneyToNano(value);
}

/** Nano-USD as a decimal string without trailing zeros: 1500000000 -> "1.5", negative allowed. */
export function formatNanoAsUSD(nano: number): string {
  if (!Number.isSafeInteger(nano)) throw new Error(`${nano} is not an integer amount`);
  const sign = nano < 0 ? '-' : '';
  const magnitude = Math.abs(nano);
  const whole = Math.floor(magnitude / NANO_PER_USD);
  const fraction = String(magnitude % NANO_PER_USD)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return fraction === '' ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

/** Integer division rounding half up, for non-negative operands. */
export function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}
