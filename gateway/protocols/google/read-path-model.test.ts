import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/gateway-error.js';
import { isValidModelName, readPathModel } from './read-path-model.js';

function codeOf(action: () => unknown): string | null {
  try {
    action();
    return null;
  } catch (error) {
    return GatewayError.is(error) ? error.code : 'not a gateway error';
  }
}

describe('readPathModel', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:generateContent', 'gemini-2.5-flash', 'generateContent'],
    [
      '/antigravity/v1beta/models/claude-opus-4-6-thinking:countTokens',
      'claude-opus-4-6-thinking',
      'countTokens',
    ],
    [
      '/v1beta/models/gemini%2D2.5-pro:streamGenerateContent',
      'gemini-2.5-pro',
      'streamGenerateContent',
    ],
    ['/v1beta/models/claude-3-5-sonnet@20240620', 'claude-3-5-sonnet@20240620', ''],
  ])('%s', (path, model, method) => {
    expect(readPathModel(path)).toEqual({ model, method });
  });

  it('finds no model where the path carries none', () => {
    expect(readPathModel('/v1/messages')).toBeNull();
  });

  it.each([
    'gemini-2.5-flash%2F..%2F..%2Fv1%2Fmessages',
    '..',
    '%2E%2E',
    '.',
    'gemini%5C..%5Cx',
    'gemini%00',
    'gemini%0D%0AHost%3A%20evil',
    'gemini%3AcountTokens',
    'gemini%252F',
    'gemini%20flash',
    'gemini%E0%A4%A',
    'x'.repeat(201),
  ])('refuses %s with TG_MODEL_NAME_INVALID', (segment) => {
    expect(codeOf(() => readPathModel(`/v1beta/models/${segment}:generateContent`))).toBe(
      'TG_MODEL_NAME_INVALID',
    );
  });

  it('accepts names of every platform', () => {
    for (const name of ['gpt-5.1', 'gemini-3-pro-high', 'claude_x', 'a']) {
      expect(isValidModelName(name)).toBe(true);
    }
  });
});
