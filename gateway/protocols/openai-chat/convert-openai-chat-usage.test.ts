import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStreamTap } from '../../bytes/create-stream-tap.js';
import { replayUsageFixture } from '../../../test/support/replay-usage-fixture.js';
import type { UsageReport } from '../../spec/usage-report.js';
import {
  createOpenAIChatUsageAccumulator,
  extractOpenAIChatUsage,
} from './convert-openai-chat-usage.js';

const base = { flags: [], model: 'gpt-4.1-2025-04-14', provisional: false, error: null };

const cases: { fixture: string; expected: UsageReport }[] = [
  {
    fixture: 'chat-usage',
    expected: {
      ...base,
      usage: {
        inputUncached: 40,
        cacheRead: 20,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 15,
        reasoning: 5,
      },
      textChars: 5,
      complete: true,
      finishReasons: ['stop'],
    },
  },
  {
    fixture: 'chat-no-usage',
    expected: { ...base, usage: null, textChars: 5, complete: true, finishReasons: ['stop'] },
  },
  {
    fixture: 'chat-stream-error',
    expected: { ...base, usage: null, textChars: 5, complete: false, error: 'server_error' },
  },
  {
    fixture: 'chat-tool-call',
    expected: {
      ...base,
      usage: {
        inputUncached: 60,
        cacheRead: 0,
        cacheWrite5m: 0,
        cacheWrite1h: 0,
        output: 15,
        reasoning: 0,
      },
      textChars: 20,
      complete: true,
      finishReasons: ['tool_calls'],
    },
  },
];

describe('createOpenAIChatUsageAccumulator', () => {
  it.each(cases)('reads $fixture', ({ fixture, expected }) => {
    for (const chunkBytes of [1, 29, 1 << 20]) {
      const report = replayUsageFixture({
        fixture: new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
        accumulator: createOpenAIChatUsageAccumulator(),
        framing: 'sse',
        chunkBytes,
      });
      expect(report).toEqual(expected);
    }
  });
});

describe('extractOpenAIChatUsage', () => {
  it('reads a non-streamed chat.completion', () => {
    const report = extractOpenAIChatUsage({
      object: 'chat.completion',
      model: 'gpt-4o-mini-2024-07-18',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' },
        { index: 1, message: { role: 'assistant', content: ' there' }, finish_reason: 'length' },
      ],
      usage: {
        prompt_tokens: 30,
        completion_tokens: 12,
        prompt_tokens_details: { cached_tokens: 10, cache_write_tokens: 5 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    expect(report).toEqual({
      ...base,
      model: 'gpt-4o-mini-2024-07-18',
      usage: {
        inputUncached: 15,
        cacheRead: 10,
        cacheWrite5m: 5,
        cacheWrite1h: 0,
        output: 12,
        reasoning: 2,
      },
      textChars: 11,
      complete: true,
      finishReasons: ['stop', 'length'],
    });
  });

  it('names no finish reason for an error body', () => {
    const report = extractOpenAIChatUsage({ error: { type: 'server_error', message: 'oops' } });
    expect(report.error).toBe('server_error');
    expect(report.finishReasons).toBeUndefined();
  });
});

describe('the Chat stream fast path (text deltas read from the bytes)', () => {
  it.each(['chat-no-usage', 'chat-usage', 'chat-tool-call', 'chat-stream-error'])(
    'gives the same report as parsing every chunk: %s',
    (fixture) => {
      const lines = readFileSync(
        new URL(`__fixtures__/${fixture}.chunks.txt`, import.meta.url),
        'utf8',
      )
        .split('\n')
        .filter((line) => line.trim() !== '');
      const sse = Buffer.from(
        lines.map((line) => `data: ${line}\n\n`).join('') + 'data: [DONE]\n\n',
      );
      const fast = createOpenAIChatUsageAccumulator();
      let rawTaken = 0;
      const counting = {
        ...fast,
        feedBytes: (bytes: Uint8Array, start: number, end: number) =>
          fast.feedBytes?.(bytes, start, end) === true ? ++rawTaken > 0 : false,
      };
      const parsed = createOpenAIChatUsageAccumulator();
      const run = (sink: typeof fast) => {
        const tap = createStreamTap({ framing: 'sse', sink });
        tap.write(sse);
        return tap.finish({ sourceEnded: true });
      };
      const withFastPath = run(counting);
      const withoutFastPath = run({
        feed: (payload) => {
          parsed.feed(payload);
        },
        result: () => parsed.result(),
      });
      expect(withFastPath).toEqual(withoutFastPath);
      if (fixture === 'chat-no-usage' || fixture === 'chat-usage')
        expect(rawTaken).toBeGreaterThan(0);
    },
  );

  it('reads the finish reason from the bytes of the chunk that names it', () => {
    const chunk = Buffer.from(
      '{"id":"c","object":"chat.completion.chunk","model":"gpt-4.1","choices":' +
        '[{"index":0,"delta":{},"logprobs":null,"finish_reason":"length"}],"usage":null}',
    );
    const accumulator = createOpenAIChatUsageAccumulator();
    expect(accumulator.feedBytes?.(chunk, 0, chunk.length)).toBe(true);
    const pending = Buffer.from(
      '{"model":"gpt-4.1","choices":[{"index":1,"delta":{"content":"x"},"finish_reason":null}]}',
    );
    expect(accumulator.feedBytes?.(pending, 0, pending.length)).toBe(true);
    expect(accumulator.result().finishReasons).toEqual(['length']);
  });
});
