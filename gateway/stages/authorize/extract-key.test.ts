import { describe, expect, it } from 'vitest';
import { extractKey } from './extract-key.js';
import { ROUTE_PROFILES } from '../request/route-profile.js';

describe('extractKey', () => {
  const messages = ROUTE_PROFILES.anthropicForward.keySources;
  const responses = ROUTE_PROFILES.openaiForward.keySources;
  const gemini = ROUTE_PROFILES.geminiForward.keySources;

  it.each([
    ['messages x-api-key', messages, { 'x-api-key': 'sk-a' }, {}, 'sk-a'],
    ['messages bearer', messages, { authorization: 'Bearer sk-b' }, {}, 'sk-b'],
    ['messages lower-case bearer', messages, { authorization: 'bearer sk-b' }, {}, 'sk-b'],
    [
      'messages x-api-key wins',
      messages,
      { 'x-api-key': 'sk-a', authorization: 'Bearer sk-b' },
      {},
      'sk-a',
    ],
    ['messages ignores goog header', messages, { 'x-goog-api-key': 'sk-g' }, {}, null],
    ['responses bearer', responses, { authorization: 'Bearer sk-o' }, {}, 'sk-o'],
    ['responses ignores x-api-key', responses, { 'x-api-key': 'sk-o' }, {}, null],
    ['responses ignores Basic', responses, { authorization: 'Basic abc' }, {}, null],
    ['gemini header', gemini, { 'x-goog-api-key': 'sk-g' }, {}, 'sk-g'],
    ['gemini query', gemini, {}, { key: 'sk-q' }, 'sk-q'],
    ['gemini ignores bearer', gemini, { authorization: 'Bearer sk-b' }, {}, null],
    ['empty header is missing', messages, { 'x-api-key': '  ' }, {}, null],
  ])('%s', (_name, sources, headers, query, expected) => {
    expect(extractKey({ headers, query }, sources)).toBe(expected);
  });

  it('antigravity gemini sub-paths accept bearer and the gemini rules', () => {
    const sources = ROUTE_PROFILES.antigravityGemini.keySources;
    expect(extractKey({ headers: { authorization: 'Bearer x1' }, query: {} }, sources)).toBe('x1');
    expect(extractKey({ headers: {}, query: { key: 'x2' } }, sources)).toBe('x2');
  });
});
