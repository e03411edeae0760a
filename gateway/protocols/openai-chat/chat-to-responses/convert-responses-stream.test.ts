import { describe, expect, it } from 'vitest';
import { decodeFrames, readSseFixture } from '../../../../test/support/read-sse-fixture.js';
import { createChatStreamTranslator } from './convert-responses-stream.js';

function translate(fixture: string, includeUsage: boolean) {
  const translator = createChatStreamTranslator({ includeUsage });
  const frames = readSseFixture(new URL(`./__fixtures__/${fixture}`, import.meta.url)).flatMap(
    (event) => translator.push(event),
  );
  frames.push(...translator.end());
  const data = decodeFrames(frames).map((frame) => frame.data);
  return { translator, data };
}

interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: { index: number; delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: unknown;
}

const chunks = (data: unknown[]) => data.filter((d): d is Chunk => typeof d === 'object');

describe('createChatStreamTranslator', () => {
  it('translates a text stream: role chunk, deltas, finish, usage, [DONE]', () => {
    const { translator, data } = translate('text-with-usage.chunks.txt', true);
    const all = chunks(data);
    expect(all.map((c) => c.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hel' },
      { content: 'lo' },
      {},
      undefined,
    ]);
    expect(all[3]?.choices[0]?.finish_reason).toBe('stop');
    expect(all.every((c) => c.id === 'chatcmpl-abc' && c.object === 'chat.completion.chunk')).toBe(
      true,
    );
    expect(all[0]).toMatchObject({ created: 1768560502, model: 'gpt-4.1-2025-04-14', usage: null });
    expect(all[4]).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 11,
        completion_tokens: 18,
        total_tokens: 29,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 6 },
      },
    });
    expect(data.at(-1)).toBe('[DONE]');
    expect(translator.outcome).toBe('completed');
    expect(translator.usage?.input_tokens).toBe(11);
  });

  it('omits the usage chunk (and usage:null) unless include_usage was asked for', () => {
    const { translator, data } = translate('text-with-usage.chunks.txt', false);
    const all = chunks(data);
    expect(all).toHaveLength(4);
    expect(all.some((c) => 'usage' in c)).toBe(false);
    expect(translator.usage?.output_tokens).toBe(18);
  });

  it('indexes tool calls in order and finishes with tool_calls, dropping reasoning', () => {
    const { data } = translate('two-tool-calls.chunks.txt', false);
    const deltas = chunks(data).map((c) => c.choices[0]?.delta);
    expect(deltas).toEqual([
      { role: 'assistant', content: '' },
      {
        tool_calls: [
          { index: 0, id: 'call_A', type: 'function', function: { name: 'add', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"a":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '3}' } }] },
      {
        tool_calls: [
          { index: 1, id: 'call_B', type: 'function', function: { name: 'mul', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 1, function: { arguments: '{}' } }] },
      {},
    ]);
    expect(chunks(data).at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(data.at(-1)).toBe('[DONE]');
  });

  it('streams refusals and maps an incomplete response to length', () => {
    const { translator, data } = translate('refusal-incomplete.chunks.txt', true);
    const all = chunks(data);
    expect(all[1]?.choices[0]?.delta).toEqual({ refusal: "I can't" });
    expect(all[2]?.choices[0]?.finish_reason).toBe('length');
    expect(all[3]?.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 16 });
    expect(translator.outcome).toBe('incomplete');
  });

  it('turns response.failed into an error chunk, closes without [DONE] and ignores later events', () => {
    const { translator, data } = translate('failed.chunks.txt', true);
    expect(data.at(-1)).toEqual({
      error: {
        message: 'The model failed to generate a response.',
        type: 'server_error',
        param: null,
        code: 'server_error',
      },
    });
    expect(data).not.toContain('[DONE]');
    expect(data).toHaveLength(2);
    expect(translator.outcome).toBe('failed');
  });

  it('turns a flat error event into an error chunk', () => {
    const { data } = translate('error-event.chunks.txt', false);
    expect(data).toEqual([
      {
        error: {
          message: 'Something went wrong',
          type: 'server_error',
          param: null,
          code: 'ERR_SOMETHING',
        },
      },
    ]);
  });

  it('finishes a cut-off stream with stop and [DONE] and reports usage as unknown', () => {
    const { translator, data } = translate('cut-off.chunks.txt', true);
    const all = chunks(data);
    expect(all.map((c) => c.choices[0]?.finish_reason)).toEqual([null, null, 'stop']);
    expect(all.some((c) => c.choices.length === 0)).toBe(false);
    expect(data.at(-1)).toBe('[DONE]');
    expect(translator.outcome).toBe('cut-off');
    expect(translator.usage).toBeUndefined();
  });

  it('emits nothing more after a terminal event, and end() is then a no-op', () => {
    const translator = createChatStreamTranslator({ includeUsage: false });
    translator.push({ type: 'response.completed', response: { status: 'completed' } });
    expect(translator.push({ type: 'response.output_text.delta', delta: 'x' })).toEqual([]);
    expect(translator.end()).toEqual([]);
  });

  it('ignores unknown and malformed events', () => {
    const translator = createChatStreamTranslator({ includeUsage: false });
    expect(translator.push({ type: 'response.web_search_call.searching' })).toEqual([]);
    expect(translator.push(42)).toEqual([]);
    expect(translator.outcome).toBe('open');
  });
});
