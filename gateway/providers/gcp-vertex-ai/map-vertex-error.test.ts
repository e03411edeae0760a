import { describe, expect, it } from 'vitest';
import { mapVertexError } from './map-vertex-error.js';

const exhausted = {
  error: {
    code: 429,
    message:
      'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.',
    status: 'RESOURCE_EXHAUSTED',
  },
};

function bytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

describe('Vertex AI errors', () => {
  it('turns Google’s 429 RESOURCE_EXHAUSTED into an Anthropic rate_limit_error, status kept', () => {
    const mapped = mapVertexError('Anthropic', { status: 429, bytes: bytes(exhausted) });
    expect(mapped?.status).toBe(429);
    expect(JSON.parse(mapped?.bytes.toString() ?? '')).toEqual({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message:
          'Vertex AI RESOURCE_EXHAUSTED: Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.',
      },
    });
    expect(mapped?.retryAfterSeconds).toBeUndefined();
  });

  it.each([
    [403, 'PERMISSION_DENIED', 'permission_error'],
    [404, 'NOT_FOUND', 'not_found_error'],
    [400, 'INVALID_ARGUMENT', 'invalid_request_error'],
    [503, 'UNAVAILABLE', 'api_error'],
  ])('maps %i %s to %s for Claude', (status, name, type) => {
    const body = { error: { code: status, message: 'm', status: name } };
    const mapped = mapVertexError('Anthropic', { status, bytes: bytes(body) });
    expect(JSON.parse(mapped?.bytes.toString() ?? '')).toMatchObject({ error: { type } });
  });

  it('hands on RetryInfo as the seconds to wait', () => {
    const body = {
      error: {
        ...exhausted.error,
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '19.2s' }],
      },
    };
    expect(
      mapVertexError('Anthropic', { status: 429, bytes: bytes(body) })?.retryAfterSeconds,
    ).toBe(20);
    const gemini = mapVertexError('Gemini', { status: 429, bytes: bytes(body) });
    expect(gemini?.retryAfterSeconds).toBe(20);
    expect(gemini?.bytes.toString()).toBe(JSON.stringify(body));
  });

  it('passes on an Anthropic-shaped refusal from the model, and a Gemini one in Google’s shape', () => {
    const anthropic = { type: 'error', error: { type: 'invalid_request_error', message: 'x' } };
    expect(mapVertexError('Anthropic', { status: 400, bytes: bytes(anthropic) })).toBeNull();
    expect(mapVertexError('Gemini', { status: 429, bytes: bytes(exhausted) })).toBeNull();
    expect(mapVertexError('Anthropic', { status: 502, bytes: Buffer.from('<html>') })).toBeNull();
  });

  it('unwraps the one-element array a Gemini stream refusal comes in', () => {
    const mapped = mapVertexError('Gemini', { status: 429, bytes: bytes([exhausted]) });
    expect(mapped).toEqual({ status: 429, bytes: bytes(exhausted) });
  });
});
