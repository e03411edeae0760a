import { describe, expect, it } from 'vitest';
import { replayUsageFixture } from '../../../test/support/replay-usage-fixture.js';
import type { UsageReport } from '../../spec/usage-report.js';
import {
  convertAnthropicMessagesUsage,
  createAnthropicMessagesUsageAccumulator,
  extractAnthropicMessagesUsage,
} from './convert-anthropic-messages-usage.js';

const cases: { fixture: string; expected: UsageReport }[] = [
  {
    fixture: 'anthropic-text',
    expected: {
      usage: {
        inputUncached: 25,
        cacheRead: 13993,
        cacheWrite5m: 100,
        cacheWrite1h: 50,
        output: 61,
        reasoning: 0,
      },
      flags: [],
      model: 'claude-sonnet-4-5-20250929',
      textChars: 11,
      complete: true,
      provisional: false,
      error: null,
      finishReasons: ['end_turn'],
    },
  },
  {
    fixture: 'anthropic-cut-off',
    expected: {
      usage: {
        inputUncached: 25,
        cacheRead: 13993,
        cacheWrite5m: 100,
        cacheWrite1h: 50,
        output: 1,
        reasoning: 0,
      },
      flags: [],
      model: 'claude-sonnet-4-5-20250929',
      textChars: 11,
      complete: false,
      provisional: true,
      error: null,
    },
  },
  {
    fixture: 'anthropic-legacy-cache',
    expected: {
      usage: {
        inputUncached: 12,
        cacheRead: 0,
        cacheWrite5m: 200,
        cacheWrite1h: 0,
        output: 10,
        reasoning: 0,
      },
      flags: ['cache-write-ttl-unknown'],
      model: 'claude-3-5-haiku-20241022',
      textChars: 16,
      complete: true,
      provisional: false,
      error: null,
      finishReasons: ['tool_use'],
    },
  },
  {
    fixture: 'anthropic-stream-error',
    expected: {
      usage: {
        inputUncached: 10,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 1,
        reasoning: 0,
      },
      flags: [],
      model: 'claude-opus-4-5-20251101',
      textChars: 3,
      complete: false,
      provisional: true,
      error: 'overloaded_error',
    },
  },
];

describe('createAnthropicMessagesUsageAccumulator', () => {
  it.each(cases)('reads $fixture', ({ fixture, expected }) => {
    for (const chunkBytes of [1, 7, 64, 1 << 20]) {
      const report = replayUsageFixture({
        fixture: new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
        accumulator: createAnthropicMessagesUsageAccumulator(),
        framing: 'sse-with-event-lines',
        chunkBytes,
      });
      expect(report).toEqual(expected);
    }
  });
});

describe('an Anthropic stream without usage', () => {
  it('reports no usage rather than zeros', () => {
    const accumulator = createAnthropicMessagesUsageAccumulator();
    accumulator.feed({ type: 'message_start', message: { model: 'claude-x' } });
    accumulator.feed({ type: 'message_delta', delta: { stop_reason: 'end_turn' } });
    accumulator.feed({ type: 'message_stop' });
    expect(accumulator.result()).toMatchObject({
      usage: null,
      complete: true,
      model: 'claude-x',
      finishReasons: ['end_turn'],
    });
  });

  it('keeps the stop reason of a message_delta through a later one without it', () => {
    const accumulator = createAnthropicMessagesUsageAccumulator();
    accumulator.feed({ type: 'message_delta', delta: { stop_reason: 'max_tokens' } });
    accumulator.feed({ type: 'message_delta', delta: { stop_reason: null } });
    expect(accumulator.result().finishReasons).toEqual(['max_tokens']);
  });
});

describe('convertAnthropicMessagesUsage', () => {
  it('treats null cache fields as 0 and flags a split that does not add up', () => {
    expect(
      convertAnthropicMessagesUsage({
        input_tokens: 5,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: null,
        cache_creation: { ephemeral_5m_input_tokens: 4, ephemeral_1h_input_tokens: 4 },
        output_tokens: 3,
        output_tokens_details: { thinking_tokens: 2 },
      }),
    ).toEqual({
      usage: {
        inputUncached: 5,
        cacheRead: 0,
        cacheWrite5m: 4,
        cacheWrite1h: 4,
        output: 3,
        reasoning: 2,
      },
      flags: ['cache-write-split-mismatch'],
    });
  });

  it('clamps and flags negative counts', () => {
    expect(convertAnthropicMessagesUsage({ input_tokens: -3, output_tokens: 2 })).toEqual({
      usage: {
        inputUncached: 0,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 2,
        reasoning: 0,
      },
      flags: ['negative-inputUncached'],
    });
  });
});

describe('extractAnthropicMessagesUsage', () => {
  it('reads a non-streamed reply', () => {
    const report = extractAnthropicMessagesUsage({
      type: 'message',
      model: 'claude-haiku-4-5-20251001',
      content: [{ type: 'text', text: 'Hi!' }],
      stop_reason: 'max_tokens',
      usage: {
        input_tokens: 12,
        cache_creation_input_tokens: 30,
        cache_read_input_tokens: 7,
        cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 },
        output_tokens: 5,
      },
    });
    expect(report).toEqual({
      usage: {
        inputUncached: 12,
        cacheRead: 7,
        cacheWrite5m: 10,
        cacheWrite1h: 20,
        output: 5,
        reasoning: 0,
      },
      flags: [],
      model: 'claude-haiku-4-5-20251001',
      textChars: 3,
      complete: true,
      provisional: false,
      error: null,
      finishReasons: ['max_tokens'],
    });
  });

  it('reads an error body as no usage', () => {
    const report = extractAnthropicMessagesUsage({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    expect(report.usage).toBeNull();
    expect(report.error).toBe('rate_limit_error');
    expect(report.finishReasons).toBeUndefined();
  });
});
