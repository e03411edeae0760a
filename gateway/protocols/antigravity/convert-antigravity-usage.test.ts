import { describe, expect, it } from 'vitest';
import { replayUsageFixture } from '../../../test/support/replay-usage-fixture.js';
import type { UsageReport } from '../../spec/usage-report.js';
import {
  createAntigravityUsageAccumulator,
  extractAntigravityUsage,
} from './convert-antigravity-usage.js';

const base = { flags: [], model: 'claude-sonnet-4-6', error: null };

const cases: { fixture: string; expected: UsageReport }[] = [
  {
    fixture: 'antigravity-text',
    expected: {
      ...base,
      usage: {
        inputUncached: 400,
        cacheRead: 100,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 100,
        reasoning: 70,
      },
      textChars: 25,
      complete: true,
      provisional: false,
      finishReasons: ['STOP'],
    },
  },
  {
    fixture: 'antigravity-cut-off',
    expected: {
      ...base,
      usage: {
        inputUncached: 500,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 30,
        reasoning: 30,
      },
      textChars: 8,
      complete: false,
      provisional: true,
    },
  },
];

describe('createAntigravityUsageAccumulator', () => {
  it.each(cases)('reads $fixture', ({ fixture, expected }) => {
    for (const chunkBytes of [1, 17, 1 << 20]) {
      const report = replayUsageFixture({
        fixture: new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
        accumulator: createAntigravityUsageAccumulator(),
        framing: 'sse',
        chunkBytes,
      });
      expect(report).toEqual(expected);
    }
  });
});

describe('extractAntigravityUsage', () => {
  it('unwraps {response} and reads a Google error body', () => {
    const report = extractAntigravityUsage({
      response: {
        candidates: [{ content: { parts: [{ text: 'hey' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1, thoughtsTokenCount: 2 },
        modelVersion: 'gemini-3-pro-high',
      },
      traceId: 't',
    });
    expect(report.usage).toEqual({
      inputUncached: 4,
      cacheRead: 0,
      cacheWrite5m: 0,
      cacheWrite1h: 0,
      output: 3,
      reasoning: 2,
    });
    expect(report.model).toBe('gemini-3-pro-high');
    expect(report.finishReasons).toEqual(['STOP']);
    const failure = extractAntigravityUsage({
      error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(failure).toMatchObject({ usage: null, error: 'RESOURCE_EXHAUSTED' });
    expect(failure.finishReasons).toBeUndefined();
  });
});
