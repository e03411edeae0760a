import { describe, expect, it } from 'vitest';
import { readForwardContext } from '../../spec/read-forward-context.js';
import {
  openAIChatAdapter,
  openAIChatNativeAdapter,
  openAIChatTranslatedAdapter,
} from './openai-chat-adapter.js';

const messages = [{ role: 'user', content: 'hi' }];

function contextOf(fields: Record<string, unknown>) {
  const body = Buffer.from(JSON.stringify({ model: 'gpt-5', messages, ...fields }));
  return readForwardContext('/v1/chat/completions', body);
}

function upstreamJson(parts: { body: Buffer | null }): Record<string, unknown> {
  return JSON.parse(parts.body?.toString('utf8') ?? '{}') as Record<string, unknown>;
}

describe('the Chat Completions output cap', () => {
  it('reserves the 4,000 tokens the upstream is asked for with max_tokens 0', () => {
    const context = contextOf({ max_tokens: 0, max_completion_tokens: 4000 });
    expect(openAIChatAdapter.readOutputCap(context)).toBe(4000);
    const translated = upstreamJson(openAIChatTranslatedAdapter.buildUpstream(context, null));
    expect(translated.max_output_tokens).toBe(4000);
  });

  it.each([
    [{}, null],
    [{ max_tokens: 300 }, 300],
    [{ max_completion_tokens: 300 }, 300],
    [{ max_completion_tokens: 5 }, 16],
    [{ max_completion_tokens: 0 }, 16],
    [{ max_completion_tokens: null, max_tokens: 700 }, 700],
    [{ max_completion_tokens: 800, max_tokens: 20 }, 800],
  ])('%j: the reservation and the translated request agree on %s', (fields, expected) => {
    const context = contextOf(fields);
    const translated = upstreamJson(openAIChatTranslatedAdapter.buildUpstream(context, null));
    expect(translated.max_output_tokens ?? null).toBe(expected);
    expect(openAIChatAdapter.readOutputCap(context)).toBe(expected);
  });

  it('covers a native upstream that may honour the larger of the two fields', () => {
    const context = contextOf({ max_completion_tokens: 100, max_tokens: 9000 });
    const native = upstreamJson(openAIChatNativeAdapter.buildUpstream(context, null));
    expect(native).toMatchObject({ max_completion_tokens: 100, max_tokens: 9000 });
    expect(openAIChatAdapter.readOutputCap(context)).toBe(9000);
  });

  it('reserves for every answer a native upstream may be asked for', () => {
    expect(openAIChatAdapter.readOutputCap(contextOf({ max_completion_tokens: 1000, n: 4 }))).toBe(
      4000,
    );
    expect(openAIChatAdapter.readOutputCap(contextOf({ n: 2 }))).toBe(256_000);
    expect(openAIChatAdapter.readOutputCap(contextOf({ max_tokens: 100, n: 1 }))).toBe(100);
  });

  it('assumes no cap when a cap field is not an integer', () => {
    expect(openAIChatAdapter.readOutputCap(contextOf({ max_completion_tokens: 'many' }))).toBe(
      null,
    );
    expect(openAIChatAdapter.readOutputCap(contextOf({ max_tokens: 12.5 }))).toBe(null);
  });
});
