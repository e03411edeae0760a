import { describe, expect, it } from 'vitest';
import { decideUpstreamError, mapTransportError } from './map-upstream-failure.js';

describe('mapTransportError', () => {
  it.each([
    ['UND_ERR_CONNECT_TIMEOUT', 504, 'TG_UPSTREAM_TIMEOUT'],
    ['UND_ERR_HEADERS_TIMEOUT', 504, 'TG_UPSTREAM_TIMEOUT'],
    ['UND_ERR_BODY_TIMEOUT', 504, 'TG_UPSTREAM_IDLE_TIMEOUT'],
    ['ECONNREFUSED', 502, 'TG_UPSTREAM_UNREACHABLE'],
    ['ECONNRESET', 502, 'TG_UPSTREAM_UNREACHABLE'],
    ['UND_ERR_SOCKET', 502, 'TG_UPSTREAM_UNREACHABLE'],
  ])('%s -> %i', (code, status, tollgateCode) => {
    const error = mapTransportError(Object.assign(new Error('x'), { code }));
    expect(error.statusCode).toBe(status);
    expect(error.code).toBe(tollgateCode);
  });
});

/** A stand-in caller shape: `{error:{message,type}}` (the protocol checkers are tested with them). */
function isOpenAIErrorBody(body: unknown): boolean {
  const error = (body as { error?: { message?: unknown; type?: unknown } } | null)?.error;
  return typeof error?.message === 'string' && typeof error.type === 'string';
}

describe('decideUpstreamError', () => {
  const shaped = { error: { message: 'slow down', type: 'rate_limit_error' } };
  const base = { retryAfter: '7', isCallerShape: isOpenAIErrorBody };

  it('passes a shaped 429 with its retry-after', () => {
    expect(decideUpstreamError({ ...base, status: 429, body: shaped })).toEqual({
      kind: 'pass',
      status: 429,
      retryAfter: '7',
    });
  });

  it('renders an unshaped 429 but keeps retry-after', () => {
    const decision = decideUpstreamError({ ...base, status: 429, body: undefined });
    expect(decision.kind).toBe('render');
    expect(decision.retryAfter).toBe('7');
  });

  it('never leaks an unshaped 5xx body', () => {
    const decision = decideUpstreamError({ ...base, status: 500, body: { oops: 'stack' } });
    expect(decision.kind === 'render' && decision.error.statusCode).toBe(502);
  });

  it('turns upstream credential refusals into 502', () => {
    const decision = decideUpstreamError({ ...base, status: 401, body: shaped });
    expect(decision.kind === 'render' && decision.error.code).toBe('TG_UPSTREAM_AUTH_FAILED');
  });

  it('passes other client errors through', () => {
    expect(decideUpstreamError({ ...base, status: 400, body: shaped }).kind).toBe('pass');
  });
});
