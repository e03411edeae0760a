import { describe, expect, it } from 'vitest';
import { decideErrorShape } from './decide-error-shape.js';
import { ROUTE_PROFILES } from './route-profile.js';

const hints = (path: string, headers: Record<string, string> = {}) => ({ path, headers });

describe('decideErrorShape', () => {
  it("takes a route's declared shape, whatever the path or the key", () => {
    expect(
      decideErrorShape({
        profile: ROUTE_PROFILES.antigravityModels,
        keyPlatform: 'Antigravity',
        hints: hints('/antigravity/models'),
      }),
    ).toBe('openai');
    expect(
      decideErrorShape({
        profile: ROUTE_PROFILES.geminiForward,
        keyPlatform: null,
        hints: hints('/v1beta/models/x:generateContent', { 'x-api-key': 'k' }),
      }),
    ).toBe('google');
  });

  it("answers a by-platform route in its key's shape once the key is known", () => {
    const profile = ROUTE_PROFILES.sharedModels;
    const anthropicHeaders = hints('/v1/models', { 'anthropic-version': '2023-06-01' });
    expect(decideErrorShape({ profile, keyPlatform: 'OpenAI', hints: anthropicHeaders })).toBe(
      'openai',
    );
    expect(
      decideErrorShape({ profile, keyPlatform: 'Anthropic', hints: hints('/v1/models') }),
    ).toBe('anthropic');
    expect(decideErrorShape({ profile, keyPlatform: null, hints: anthropicHeaders })).toBe(
      'anthropic',
    );
    expect(decideErrorShape({ profile, keyPlatform: null, hints: hints('/v1/models') })).toBe(
      'openai',
    );
  });

  it('guesses from the path, then the headers, when no route matched', () => {
    const guess = (path: string, headers: Record<string, string> = {}) =>
      decideErrorShape({ profile: null, keyPlatform: null, hints: hints(path, headers) });
    expect(guess('/v1beta/nope?key=x')).toBe('google');
    expect(guess('/antigravity/v1/nope')).toBe('anthropic');
    expect(guess('/antigravity/v1/responses/compact')).toBe('openai');
    expect(guess('/v1/chat/nope')).toBe('openai');
    expect(guess('/antigravity/nope')).toBe('google');
    expect(guess('/nope', { 'x-api-key': 'k' })).toBe('anthropic');
    expect(guess('/nope')).toBe('openai');
  });
});
