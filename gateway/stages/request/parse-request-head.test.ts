import { describe, expect, it } from 'vitest';
import { parseRequestHead } from './parse-request-head.js';

describe('parseRequestHead', () => {
  it('reads the request line and the headers present', () => {
    const packet = Buffer.from(
      'POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nX-Api-Key: k\r\nX-Big: aaa',
    );
    expect(parseRequestHead(packet)).toEqual({
      method: 'POST',
      path: '/v1/messages?beta=true',
      headers: { host: 'x', 'x-api-key': 'k', 'x-big': 'aaa' },
    });
  });

  it('reads a URL cut short by the packet', () => {
    const packet = Buffer.from(`GET /v1beta/models?page=${'a'.repeat(40_000)}`);
    expect(parseRequestHead(packet)?.path.startsWith('/v1beta/models?page=aaa')).toBe(true);
  });

  it('gives null for bytes that are not a request head', () => {
    expect(parseRequestHead(Buffer.from('X-A: bbbb\r\n'))).toBeNull();
    expect(parseRequestHead(undefined)).toBeNull();
  });
});
