import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { decodingSteps, hasBody, isJsonMediaType } from './read-request-body.js';

describe('request body rules', () => {
  it('sees a body from a length above zero or chunked framing', () => {
    expect(hasBody({ 'content-length': '12' })).toBe(true);
    expect(hasBody({ 'transfer-encoding': 'chunked' })).toBe(true);
    expect(hasBody({ 'content-length': '0' })).toBe(false);
    expect(hasBody({})).toBe(false);
  });

  it.each([
    [undefined, true],
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/vnd.api+json', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['multipart/form-data; boundary=x', false],
  ])('content-type %s is JSON: %s', (header, json) => {
    expect(isJsonMediaType(header)).toBe(json);
  });

  it('decodes the codings in reverse order and ignores identity', () => {
    expect(decodingSteps(undefined)).toEqual([]);
    expect(decodingSteps('identity')).toEqual([]);
    expect(decodingSteps('GZIP')).toEqual(['gzip']);
    expect(decodingSteps('deflate, br')).toEqual(['br', 'deflate']);
  });

  it('refuses an unknown coding with 415', () => {
    const refusal = decodingSteps('gzip, zstd');
    expect(GatewayError.is(refusal) && refusal.code).toBe('TG_UNSUPPORTED_MEDIA_TYPE');
    expect(GatewayError.is(refusal) && refusal.message).toContain('zstd');
  });
});
