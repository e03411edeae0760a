import { describe, expect, it } from 'vitest';
import { replayUsageFixture } from '../../../test/support/replay-usage-fixture.js';
import type { UsageReport } from '../../spec/usage-report.js';
import {
  convertGeminiGenerateContentUsage,
  createGeminiGenerateContentUsageAccumulator,
  extractGeminiGenerateContentUsage,
} from './convert-gemini-generate-content-usage.js';

const base = { flags: [], model: 'gemini-2.5-flash', error: null };
const firstChunk = {
  inputUncached: 120,
  cacheRead: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  output: 3,
  reasoning: 0,
};

const cases: { fixture: string; expected: UsageReport }[] = [
  {
    fixture: 'gemini-text',
    expected: {
      ...base,
      usage: {
        inputUncached: 100,
        cacheRead: 20,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 48,
        reasoning: 40,
      },
      textChars: 15,
      complete: true,
      provisional: false,
      finishReasons: ['STOP'],
    },
  },
  {
    fixture: 'gemini-cut-off',
    expected: { ...base, usage: firstChunk, textChars: 4, complete: false, provisional: true },
  },
  {
    fixture: 'gemini-stream-error',
    expected: {
      ...base,
      usage: firstChunk,
      textChars: 4,
      complete: false,
      provisional: true,
      error: 'INTERNAL',
    },
  },
];

describe('createGeminiGenerateContentUsageAccumulator', () => {
  it.each(cases)('reads $fixture as SSE and as a JSON array', ({ fixture, expected }) => {
    for (const framing of ['sse', 'json-array'] as const) {
      for (const chunkBytes of [1, 11, 1 << 20]) {
        const report = replayUsageFixture({
          fixture: new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
          accumulator: createGeminiGenerateContentUsageAccumulator(),
          framing,
          chunkBytes,
        });
        expect(report).toEqual(expected);
      }
    }
  });

  it('reads a string finish reason from the bytes, and parses a chunk whose reason is not one', () => {
    const accumulator = createGeminiGenerateContentUsageAccumulator();
    const last = Buffer.from(
      '{"candidates":[{"content":{"parts":[{"text":"ab"}]},"finishReason":"MAX_TOKENS"}],' +
        '"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2},"modelVersion":"g"}',
    );
    expect(accumulator.feedBytes?.(last, 0, last.length)).toBe(true);
    expect(accumulator.result()).toMatchObject({ complete: true, finishReasons: ['MAX_TOKENS'] });
    const odd = Buffer.from('{"candidates":[{"finishReason":null}]}');
    expect(accumulator.feedBytes?.(odd, 0, odd.length)).toBe(false);
  });
});

describe('convertGeminiGenerateContentUsage', () => {
  it('bills tool-use prompt tokens as input and flags a total that does not add up', () => {
    expect(
      convertGeminiGenerateContentUsage({
        promptTokenCount: 50,
        cachedContentTokenCount: 10,
        toolUsePromptTokenCount: 5,
        candidatesTokenCount: 7,
        totalTokenCount: 99,
      }),
    ).toEqual({
      usage: {
        inputUncached: 45,
        cacheRead: 10,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 7,
        reasoning: 0,
      },
      flags: ['total-mismatch'],
    });
  });
});

describe('extractGeminiGenerateContentUsage', () => {
  it('reads a non-streamed reply, and a blocked prompt without candidates', () => {
    const report = extractGeminiGenerateContentUsage({
      candidates: [
        { content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' },
        { content: { parts: [] }, finishReason: 'MAX_TOKENS' },
      ],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 1, totalTokenCount: 10 },
      modelVersion: 'gemini-2.5-pro',
    });
    expect(report).toMatchObject({
      model: 'gemini-2.5-pro',
      complete: true,
      provisional: false,
      finishReasons: ['STOP', 'MAX_TOKENS'],
    });
    expect(report.usage).toMatchObject({ inputUncached: 9, output: 1 });
    const blocked = extractGeminiGenerateContentUsage({
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
    });
    expect(blocked).toMatchObject({ complete: true, provisional: false, textChars: 0 });
    expect(blocked.finishReasons).toBeUndefined();
    expect(blocked.usage?.inputUncached).toBe(9);
  });
});
