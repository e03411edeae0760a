import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_OUTCOMES,
  failsOver,
  failureKind,
  outcomeOfStatus,
  outcomeOfTransportError,
} from './classify-attempt.js';

describe('classify-attempt', () => {
  it('classifies statuses and transport errors', () => {
    expect([200, 400, 404, 429, 500, 503, 529].map(outcomeOfStatus)).toEqual([
      'ok',
      'status_4xx',
      'status_4xx',
      'status_429',
      'status_5xx',
      'status_5xx',
      'status_529',
    ]);
    expect(outcomeOfTransportError({ code: 'UND_ERR_HEADERS_TIMEOUT' })).toBe('timeout');
    expect(outcomeOfTransportError({ code: 'UND_ERR_CONNECT_TIMEOUT' })).toBe('timeout');
    expect(outcomeOfTransportError({ code: 'ECONNREFUSED' })).toBe('connect_error');
    expect(outcomeOfTransportError(new Error('x'))).toBe('connect_error');
  });

  it('fails over on transport errors, 5xx, 429 and 529 only', () => {
    expect(ATTEMPT_OUTCOMES.filter(failsOver)).toEqual([
      'connect_error',
      'timeout',
      'status_429',
      'status_529',
      'status_5xx',
      'first_output_timeout',
      'no_output',
    ]);
  });

  it('cools 429 / 529 down, counts other failures, and a 5xx with a reset time as overloaded', () => {
    expect(failureKind('status_429', null)).toBe('rate-limited');
    expect(failureKind('status_529', null)).toBe('overloaded');
    expect(failureKind('status_5xx', null)).toBe('failed');
    expect(failureKind('status_5xx', 123)).toBe('overloaded');
    expect(failureKind('timeout', null)).toBe('failed');
    expect(failureKind('status_4xx', null)).toBeNull();
    expect(failureKind('stream_error', null)).toBeNull();
    expect(failureKind('first_output_timeout', null)).toBe('failed');
    expect(failureKind('no_output', null)).toBe('failed');
    expect(failureKind('stream_idle_timeout', null)).toBeNull();
  });
});
