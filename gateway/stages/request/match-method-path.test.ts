import { describe, expect, it } from 'vitest';
import { allowedMethods } from './match-method-path.js';

describe('allowedMethods', () => {
  it.each([
    ['/v1/messages', 'POST'],
    ['/v1/messages/count_tokens?beta=true', 'POST'],
    ['/v1/chat/completions', 'POST'],
    ['/v1/responses', 'POST'],
    ['/v1/responses/compact', 'POST'],
    ['/antigravity/v1/responses/compact', 'POST'],
    ['/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', 'POST'],
    ['/antigravity/v1/messages', 'POST'],
    ['/antigravity/v1beta/models/gemini-3-pro:countTokens', 'POST'],
    ['/v1/models', 'GET, HEAD'],
    ['/v1beta/models/gemini-2.5-flash', 'GET, HEAD'],
    ['/antigravity/models', 'GET, HEAD'],
    ['/v1beta/models/gemini-2.5-flash:unknownMethod', null],
    ['/models', null],
    ['/v2/messages', null],
  ])('%s -> %s', (path, allow) => {
    expect(allowedMethods(path)).toBe(allow);
  });
});
