/** The group rate multiplier as an exact reduced fraction (cost x numerator / denominator). */
const POSITIVE_DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,9}))?$/;

export interface Fraction {
  numerator: number;
  denominator: number;
}

function greatestCommonDivisor(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

export function parseMultiplier(value: number | string): Fraction {
  const text = typeof value === 'number' ? String(value) : value;
  const match = POSITIVE_DECIMAL.exec(text);
  if (match === null) throw new Error(`'${text}' is not a decimal multiplier`);
  const fractionDigits = match[2] ?? '';
  const numerator = Number(`${match[1] ?? '0'}${fractionDigits}`);
  const denominator = 10 ** fractionDigits.length;
  if (numerator === 0) throw new Error('the multiplier must be greater than 0');
  const divisor = greatestCommonDivisor(numerator, denominator);
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}
