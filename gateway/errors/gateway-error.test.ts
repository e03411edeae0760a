import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.js';
import { GatewayError, isGatewayError } from './gateway-error.js';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

describe('GatewayError', () => {
  it('takes status and retryability from the catalogue and is branded', () => {
    const error = new GatewayError('TG_WINDOW_EXHAUSTED', { retryAfterSeconds: 30, cause: 'x' });
    expect(error.statusCode).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.cause).toBe('x');
    expect(isGatewayError(error)).toBe(true);
    expect(isGatewayError({ [Symbol.for('tollgate.GatewayError')]: true })).toBe(true);
    expect(isGatewayError(new Error('plain'))).toBe(false);
  });
});

describe('retry-after', () => {
  // Every retryable refusal (429 or 503); a window's refusal sets its own reset time.
  const refusals = codes.filter((code) => {
    const entry = ERROR_CATALOGUE[code];
    const refusal = entry.status === 429 || entry.status === 503;
    return refusal && entry.retryable && code !== 'TG_WINDOW_EXHAUSTED';
  });

  it.each(refusals)('%s, retryable, carries a default retry-after', (code) => {
    expect(new GatewayError(code).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('keeps a retry-after given by the refusal', () => {
    expect(new GatewayError('TG_KEY_CONCURRENCY', { retryAfterSeconds: 9 }).retryAfterSeconds).toBe(
      9,
    );
  });

  it.each(['TG_QUOTA_EXHAUSTED', 'TG_BALANCE_EXHAUSTED'] as const)('%s has none', (code) => {
    expect(new GatewayError(code).retryAfterSeconds).toBeUndefined();
  });
});
