import { describe, expect, it } from 'vitest';
import { replayUsageFixture } from '../../../test/support/replay-usage-fixture.js';
import type { UsageReport } from '../../spec/usage-report.js';
import {
  convertOpenAIResponsesUsage,
  createOpenAIResponsesUsageAccumulator,
  extractOpenAIResponsesUsage,
} from './convert-openai-responses-usage.js';

const base = { flags: [], model: 'gpt-4.1-2025-04-14', textChars: 7, provisional: false };

const cases: { fixture: string; expected: UsageReport }[] = [
  {
    fixture: 'responses-text',
    expected: {
      ...base,
      usage: {
        inputUncached: 129,
        cacheRead: 11904,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 44,
        reasoning: 10,
      },
      complete: true,
      error: null,
      finishReasons: ['completed'],
    },
  },
  {
    fixture: 'responses-incomplete',
    expected: {
      ...base,
      usage: {
        inputUncached: 50,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 16,
        reasoning: 0,
      },
      complete: true,
      error: null,
      finishReasons: ['max_output_tokens'],
    },
  },
  {
    fixture: 'responses-cut-off',
    expected: { ...base, usage: null, complete: false, error: null },
  },
  {
    fixture: 'responses-failed',
    expected: {
      ...base,
      textChars: 0,
      usage: null,
      complete: true,
      error: 'server_error',
      finishReasons: ['failed'],
    },
  },
  {
    fixture: 'responses-error-event',
    expected: { ...base, textChars: 0, usage: null, complete: true, error: 'ERR_SOMETHING' },
  },
];

describe('createOpenAIResponsesUsageAccumulator', () => {
  it.each(cases)('reads $fixture', ({ fixture, expected }) => {
    for (const chunkBytes of [1, 13, 1 << 20]) {
      const report = replayUsageFixture({
        fixture: new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
        accumulator: createOpenAIResponsesUsageAccumulator(),
        framing: chunkBytes === 13 ? 'sse' : 'sse-with-event-lines',
        chunkBytes,
      });
      expect(report).toEqual(expected);
    }
  });

  it('treats response.done as terminal', () => {
    const accumulator = createOpenAIResponsesUsageAccumulator();
    accumulator.feed({
      type: 'response.done',
      response: { model: 'gpt-5', usage: { input_tokens: 3, output_tokens: 2 } },
    });
    expect(accumulator.result()).toMatchObject({
      complete: true,
      usage: { inputUncached: 3, output: 2 },
    });
  });
});

describe('convertOpenAIResponsesUsage', () => {
  it('takes cache writes out of the input total and flags cache larger than the total', () => {
    expect(
      convertOpenAIResponsesUsage({
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 60, cache_write_tokens: 30 },
        output_tokens: 9,
      }).usage,
    ).toEqual({
      inputUncached: 10,
      cacheRead: 60,
      cacheWrite5m: 30,
      cacheWrite1h: 0,
      output: 9,
      reasoning: 0,
    });
    expect(
      convertOpenAIResponsesUsage({
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 20 },
      }),
    ).toEqual({
      usage: {
        inputUncached: 0,
        cacheRead: 20,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 0,
        reasoning: 0,
      },
      flags: ['cache-exceeds-input-total', 'negative-inputUncached'],
    });
  });
});

describe('extractOpenAIResponsesUsage', () => {
  it('reads a non-streamed reply with a function call', () => {
    const report = extractOpenAIResponsesUsage({
      object: 'response',
      model: 'gpt-5-2025-08-07',
      output: [{ type: 'function_call', call_id: 'c', name: 'add', arguments: '{"a":3}' }],
      usage: { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4 },
    });
    expect(report).toMatchObject({ model: 'gpt-5-2025-08-07', textChars: 7, complete: true });
    expect(report.usage?.inputUncached).toBe(20);
    expect(report.finishReasons).toBeUndefined();
  });

  it('names the status of a finished reply, or why an incomplete one stopped', () => {
    const reply = (fields: Record<string, unknown>) =>
      extractOpenAIResponsesUsage({ object: 'response', model: 'gpt-5', output: [], ...fields });
    expect(reply({ status: 'completed' }).finishReasons).toEqual(['completed']);
    expect(
      reply({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } })
        .finishReasons,
    ).toEqual(['content_filter']);
    expect(reply({ status: 'incomplete', incomplete_details: null }).finishReasons).toEqual([
      'incomplete',
    ]);
    expect(reply({ status: 'in_progress' }).finishReasons).toBeUndefined();
  });
});
