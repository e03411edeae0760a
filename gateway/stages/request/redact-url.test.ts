import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['/v1beta/models/m:generateContent?key=abc', '/v1beta/models/m:generateContent?key=[redacted]'],
    ['/v1beta/models?alt=sse&key=abc&x=1', '/v1beta/models?alt=sse&key=[redacted]&x=1'],
    ['/v1/messages?beta=true', '/v1/messages?beta=true'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
