/**
 * End to end over real HTTP: the fake provider's streams go through undici, the pass-through tap and
 * each protocol's accumulator; the bytes arrive unchanged and the metered usage equals what the fake
 * reported, including cut-off streams (estimated) and the Gemini JSON-array stream.
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicMessagesUsageAccumulator } from '../../gateway/protocols/anthropic-messages/convert-anthropic-messages-usage.js';
import { createAntigravityUsageAccumulator } from '../../gateway/protocols/antigravity/convert-antigravity-usage.js';
import { createGeminiGenerateContentUsageAccumulator } from '../../gateway/protocols/gemini-generate-content/convert-gemini-generate-content-usage.js';
import { createOpenAIChatUsageAccumulator } from '../../gateway/protocols/openai-chat/convert-openai-chat-usage.js';
import { createOpenAIResponsesUsageAccumulator } from '../../gateway/protocols/openai-responses/convert-openai-responses-usage.js';
import { resolveMeteredUsage } from '../../gateway/metering/resolve-metered-usage.js';
import type { UsageAccumulator } from '../../gateway/spec/usage-report.js';
import {
  createStreamTap,
  type StreamFraming,
  type TapOutcome,
} from '../../gateway/bytes/create-stream-tap.js';
import type { UsageReport } from '../../gateway/spec/usage-report.js';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
} from './start-fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

async function meter(options: {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  framing: StreamFraming;
  accumulator: UsageAccumulator;
}): Promise<{ passed: string; outcome: TapOutcome<UsageReport>; bodyBytes: number }> {
  const body = JSON.stringify(options.body);
  const response = await request(`${fake.url}${options.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body,
  });
  // The tap as the relay drives it: every chunk written as it passes, finished once at the end.
  const tap = createStreamTap({ framing: options.framing, sink: options.accumulator });
  const pieces: Buffer[] = [];
  let sourceEnded = false;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      tap.write(chunk);
      pieces.push(chunk);
    }
    sourceEnded = true;
  } catch {
    // A dropped connection ends the body with an error: the source did not end.
  }
  return {
    passed: Buffer.concat(pieces).toString(),
    outcome: tap.finish({ sourceEnded }),
    bodyBytes: Buffer.byteLength(body),
  };
}

const anthropic = { 'x-api-key': DEFAULT_FAKE_CREDENTIAL };
const bearer = { authorization: `Bearer ${DEFAULT_FAKE_CREDENTIAL}` };
const google = { 'x-goog-api-key': DEFAULT_FAKE_CREDENTIAL };
const messages = [{ role: 'user', content: 'Hello there' }];
const text = (model: string): string => `FAKE_OK ${model} part1 part2`;

describe('metering the fake provider', () => {
  it('Anthropic: usage with cache writes equals what the stream reported', async () => {
    fake.setBehaviour({
      cacheReadTokens: 40,
      cacheWrite5mTokens: 20,
      cacheWrite1hTokens: 10,
      chunkGapMs: 2,
    });
    const model = 'claude-sonnet-4-5';
    const { passed, outcome, bodyBytes } = await meter({
      path: '/v1/messages',
      headers: anthropic,
      body: { model, max_tokens: 10, stream: true, messages },
      framing: 'sse',
      accumulator: createAnthropicMessagesUsageAccumulator(),
    });
    expect(passed).toContain('event: message_stop');
    expect(outcome.bytes).toBe(Buffer.byteLength(passed));
    const inputTotal = Math.max(Math.ceil(bodyBytes / 4), 71);
    expect(outcome.result).toMatchObject({
      complete: true,
      model,
      usage: {
        inputUncached: inputTotal - 70,
        cacheRead: 40,
        cacheWrite5m: 20,
        cacheWrite1h: 10,
        output: Math.ceil(text(model).length / 4),
      },
    });
  });

  it('Anthropic: a dropped stream is billed from message_start plus an output estimate', async () => {
    fake.setBehaviour({ dropAfterChunks: 5, chunks: 4 });
    const { outcome } = await meter({
      path: '/v1/messages',
      headers: anthropic,
      body: { model: 'claude-haiku-4-5', max_tokens: 10, stream: true, messages },
      framing: 'sse',
      accumulator: createAnthropicMessagesUsageAccumulator(),
    });
    expect(outcome.sourceEnded).toBe(false);
    expect(outcome.result).toMatchObject({ complete: false, provisional: true });
    const metered = resolveMeteredUsage({ report: outcome.result, estimatedInputTokens: 0 });
    expect(metered.accuracy).toBe('estimated');
    // Two deltas arrived: "FAKE_OK claude-haiku-4-5" and " part1" (30 chars -> 8 tokens).
    expect(metered.usage.output).toBe(8);
  });

  it('OpenAI Responses and Chat: cached and reasoning tokens', async () => {
    fake.setBehaviour({ cacheReadTokens: 3, reasoningTokens: 5 });
    const responses = await meter({
      path: '/v1/responses',
      headers: bearer,
      body: { model: 'gpt-5', input: 'Hello there', stream: true },
      framing: 'sse',
      accumulator: createOpenAIResponsesUsageAccumulator(),
    });
    const output = Math.ceil(text('gpt-5').length / 4) + 5;
    expect(responses.outcome.result.usage).toMatchObject({ cacheRead: 3, output, reasoning: 5 });
    expect(responses.outcome.result.usage?.inputUncached).toBe(
      Math.ceil(responses.bodyBytes / 4) - 3,
    );
    const chat = await meter({
      path: '/v1/chat/completions',
      headers: bearer,
      body: { model: 'gpt-4.1', messages, stream: true, stream_options: { include_usage: true } },
      framing: 'sse',
      accumulator: createOpenAIChatUsageAccumulator(),
    });
    expect(chat.outcome.result).toMatchObject({
      complete: true,
      usage: { cacheRead: 3, reasoning: 5 },
    });
  });

  it('Gemini: SSE and JSON-array streams give the same usage', async () => {
    fake.setBehaviour({ reasoningTokens: 9, cacheReadTokens: 2 });
    const body = { contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }] };
    const sse = await meter({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      headers: google,
      body,
      framing: 'sse',
      accumulator: createGeminiGenerateContentUsageAccumulator(),
    });
    const array = await meter({
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      headers: google,
      body,
      framing: 'json-array',
      accumulator: createGeminiGenerateContentUsageAccumulator(),
    });
    expect(sse.outcome.result).toMatchObject({
      complete: true,
      usage: { cacheRead: 2, reasoning: 9 },
    });
    expect(array.outcome.result).toEqual(sse.outcome.result);
  });

  it('Antigravity: the envelope', async () => {
    const { outcome } = await meter({
      path: '/v1internal:streamGenerateContent?alt=sse',
      headers: { authorization: 'Bearer fake-access-token' },
      body: { model: 'claude-sonnet-4-6', project: 'p', request: { contents: [] } },
      framing: 'sse',
      accumulator: createAntigravityUsageAccumulator(),
    });
    expect(outcome.result).toMatchObject({
      complete: true,
      model: 'claude-sonnet-4-6',
      textChars: text('claude-sonnet-4-6').length,
    });
    expect(outcome.result.usage?.output).toBe(Math.ceil(text('claude-sonnet-4-6').length / 4));
  });
});
