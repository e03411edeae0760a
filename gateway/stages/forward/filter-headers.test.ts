import { describe, expect, it } from 'vitest';
import { headersForClient, headersForUpstream } from './filter-headers.js';

describe('headersForClient', () => {
  it('keeps content-type, request ids and rate-limit headers only', () => {
    expect(
      headersForClient({
        'Content-Type': 'text/event-stream',
        'request-id': 'req_a',
        'x-request-id': 'req_b',
        'retry-after': '3',
        'anthropic-ratelimit-tokens-remaining': '1000',
        'x-ratelimit-reset-requests': '6m0s',
        'x-tollgate-request-id': 'forged',
        'access-control-allow-origin': '*',
        'set-cookie': ['a=b'],
        'content-length': '10',
        'transfer-encoding': 'chunked',
        'content-encoding': 'gzip',
        server: 'upstream',
      }),
    ).toEqual({
      'content-type': 'text/event-stream',
      'request-id': 'req_a',
      'x-request-id': 'req_b',
      'retry-after': '3',
      'anthropic-ratelimit-tokens-remaining': '1000',
      'x-ratelimit-reset-requests': '6m0s',
    });
  });
});

describe('headersForUpstream', () => {
  it('drops credentials and the body coding the gateway has decoded', () => {
    const headers = headersForUpstream({
      'x-api-key': 'sk-tg-x',
      'content-encoding': 'gzip',
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    });
    expect(headers).toEqual({
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    });
  });

  it('drops hop-by-hop headers and those the Connection header names', () => {
    expect(
      headersForUpstream({
        connection: 'keep-alive, X-Trace-Hop',
        'keep-alive': 'timeout=5',
        'x-trace-hop': '1',
        'x-trace-end': '2',
        te: 'trailers',
      }),
    ).toEqual({ 'x-trace-end': '2' });
    expect(
      headersForUpstream({
        connection: ['close', 'x-trace-hop'],
        'x-trace-hop': '1',
        accept: '*/*',
      }),
    ).toEqual({ accept: '*/*' });
    expect(headersForUpstream({ connection: 'keep-alive', accept: '*/*' })).toEqual({
      accept: '*/*',
    });
  });
});
