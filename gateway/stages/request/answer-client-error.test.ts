import { describe, expect, it } from 'vitest';
import { clientErrorFor, renderClientErrorResponse } from './answer-client-error.js';

describe('clientErrorFor', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 'TG_HEADERS_TOO_LARGE', 431],
    ['ERR_HTTP_REQUEST_TIMEOUT', 'TG_REQUEST_TIMEOUT', 408],
    ['HPE_INVALID_TRANSFER_ENCODING', 'TG_MALFORMED_REQUEST', 400],
    ['HPE_INVALID_METHOD', 'TG_MALFORMED_REQUEST', 400],
  ])('%s -> %s %d', (code, expected, status) => {
    const error = clientErrorFor(code);
    expect(error?.code).toBe(expected);
    expect(error?.statusCode).toBe(status);
  });

  it('answers nobody on a reset connection', () => {
    expect(clientErrorFor('ECONNRESET')).toBeNull();
  });
});

describe('renderClientErrorResponse', () => {
  it('writes a complete response that closes the connection', () => {
    const error = clientErrorFor('HPE_HEADER_OVERFLOW');
    if (error === null) throw new Error('no error');
    const text = renderClientErrorResponse(error, { shape: 'google', requestId: 'req_1' });
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toContain('connection: close');
    expect(head).toContain('x-tollgate-request-id: req_1');
    expect(head).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 431, status: 'INVALID_ARGUMENT' } });
  });
});
