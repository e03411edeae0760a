import { describe, expect, it } from 'vitest';
import type { CapturedBody } from '../api/usage-api.js';
import { prettyBodyText, redactionSummary, sizeSummary } from './describe-captured-body.js';

const body = (changes: Partial<CapturedBody>): CapturedBody => ({
  text: '{"a":1,"b":[true]}',
  bytes: 18,
  truncated: false,
  contentType: 'application/json',
  redactions: [],
  ...changes,
});

describe('a captured body as shown', () => {
  it('indents whole JSON and leaves a cut or non-JSON body as stored', () => {
    expect(prettyBodyText(body({}))).toBe('{\n  "a": 1,\n  "b": [\n    true\n  ]\n}');
    const cut = '{"a":1,"b":[tr';
    expect(prettyBodyText(body({ text: cut, truncated: true }))).toBe(cut);
    expect(prettyBodyText(body({ text: 'plain text', contentType: 'text/plain' }))).toBe(
      'plain text',
    );
    expect(prettyBodyText(body({ text: '{not json' }))).toBe('{not json');
  });

  it('names what was redacted, how often', () => {
    expect(redactionSummary([])).toBe('Nothing redacted');
    expect(
      redactionSummary([
        { kind: 'anthropic-key', count: 2 },
        { kind: 'bearer-token', count: 1 },
      ]),
    ).toBe('Redacted: 2 × anthropic-key, 1 × bearer-token');
  });

  it('says the size, and where the body was cut', () => {
    expect(sizeSummary(body({}))).toBe('18 bytes');
    expect(sizeSummary(body({ text: 'é'.repeat(10), bytes: 70_000, truncated: true }))).toBe(
      '70,000 bytes, cut to the first 20',
    );
  });
});
