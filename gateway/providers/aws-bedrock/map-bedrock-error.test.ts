import { describe, expect, it } from 'vitest';
import { mapBedrockError, normaliseExceptionName } from './map-bedrock-error.js';
import { convertCountTokensReply } from './decode-count-tokens-reply.js';

function reply(status: number, type: string | null, message: string) {
  return {
    status,
    headers:
      type === null
        ? {}
        : { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
    bytes: Buffer.from(JSON.stringify({ message })),
  };
}

describe('mapBedrockError', () => {
  const table = [
    [429, 'ThrottlingException', 429, 'rate_limit_error'],
    [503, 'ServiceUnavailableException', 529, 'overloaded_error'],
    [429, 'ModelNotReadyException', 529, 'overloaded_error'],
    [400, 'ValidationException', 400, 'invalid_request_error'],
    [403, 'AccessDeniedException', 403, 'permission_error'],
    [404, 'ResourceNotFoundException', 404, 'not_found_error'],
    [408, 'ModelTimeoutException', 504, 'timeout_error'],
    [424, 'ModelErrorException', 500, 'api_error'],
    [500, 'InternalServerException', 500, 'api_error'],
    [403, 'InvalidSignatureException', 403, 'permission_error'],
    [403, 'UnrecognizedClientException', 403, 'permission_error'],
    [503, null, 529, 'overloaded_error'],
    [418, null, 418, 'invalid_request_error'],
  ] as const;
  for (const [status, type, mappedStatus, anthropicType] of table) {
    it(`${String(status)} ${type ?? '(no type)'} -> ${String(mappedStatus)} ${anthropicType}`, () => {
      const mapped = mapBedrockError(reply(status, type, 'Something happened.'));
      expect(mapped.status).toBe(mappedStatus);
      expect(JSON.parse(mapped.bytes.toString('utf8'))).toEqual({
        type: 'error',
        error: {
          type: anthropicType,
          message: type === null ? 'Something happened.' : `${type}: Something happened.`,
        },
      });
    });
  }

  it('reads the type from __type and keeps a retry-after', () => {
    const mapped = mapBedrockError({
      status: 400,
      headers: { 'retry-after': '7' },
      bytes: Buffer.from('{"__type":"com.amazon.bedrock#ThrottlingException","message":"slow"}'),
    });
    expect(mapped).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    expect(normaliseExceptionName('throttlingException')).toBe('ThrottlingException');
  });

  it('answers a body that is not JSON', () => {
    const mapped = mapBedrockError({ status: 502, headers: {}, bytes: Buffer.from('<html>') });
    expect(JSON.parse(mapped.bytes.toString('utf8'))).toMatchObject({
      error: { type: 'api_error', message: 'AWS Bedrock answered 502' },
    });
  });
});

describe('convertCountTokensReply', () => {
  it('turns inputTokens into input_tokens', () => {
    expect(convertCountTokensReply('{"inputTokens":42}')).toBe('{"input_tokens":42}');
    expect(convertCountTokensReply('{"tokens":42}')).toBeNull();
    expect(convertCountTokensReply('nope')).toBeNull();
  });
});
