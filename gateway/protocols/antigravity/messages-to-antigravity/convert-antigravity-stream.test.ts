import { describe, expect, it } from 'vitest';
import { decodeFrames, readSseFixture } from '../../../../test/support/read-sse-fixture.js';
import { createMessagesStreamTranslator } from './convert-antigravity-stream.js';

const options = { model: 'claude-sonnet-4-6', messageId: 'msg_abc' };

function translate(fixture: string) {
  const translator = createMessagesStreamTranslator(options);
  const frames = readSseFixture(new URL(`./__fixtures__/${fixture}`, import.meta.url)).flatMap(
    (chunk) => translator.push(chunk),
  );
  frames.push(...translator.end());
  const events = decodeFrames(frames);
  for (const event of events) expect((event.data as { type: string }).type).toBe(event.event);
  return { translator, events, data: events.map((event) => event.data) };
}

describe('createMessagesStreamTranslator', () => {
  it('streams thinking (with signature before its stop) then text, then usage and message_stop', () => {
    const { translator, events, data } = translate('text-and-thinking.chunks.txt');
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(data[0]).toMatchObject({
      message: {
        id: 'msg_abc',
        model: 'claude-sonnet-4-6',
        role: 'assistant',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 100, cache_read_input_tokens: 20, output_tokens: 0 },
      },
    });
    expect(data.slice(1, 6)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Let me' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: ' think' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'sig-1' },
      },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(data.slice(6, 10)).toEqual([
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' world' } },
      { type: 'content_block_stop', index: 1 },
    ]);
    expect(data[10]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: {
        input_tokens: 100,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 20,
        output_tokens: 48,
      },
    });
    expect(translator.outcome).toBe('finished');
    expect(translator.usage?.output_tokens).toBe(48);
    expect(translator.rawUsage?.thoughtsTokenCount).toBe(40);
  });

  it('interleaves thinking and tool_use blocks with input_json_delta and stop_reason tool_use', () => {
    const { data } = translate('interleaved-tools.chunks.txt');
    const blocks = data.filter(
      (d): d is { type: string; index: number; content_block?: unknown; delta?: unknown } =>
        ['content_block_start', 'content_block_delta', 'content_block_stop'].includes(
          (d as { type: string }).type,
        ),
    );
    expect(blocks).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Plan A' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'sig-a' },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'thinking', thinking: '' } },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'thinking_delta', thinking: 'Plan B' },
      },
      {
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'signature_delta', signature: 'sig-b' },
      },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'toolu_abc_3', name: 'Grep', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 3,
        delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' },
      },
      { type: 'content_block_stop', index: 3 },
    ]);
    expect(data.at(-2)).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 50, output_tokens: 30 },
    });
  });

  it('ends a cut-off stream validly and marks it cut-off', () => {
    const { translator, events } = translate('cut-off.chunks.txt');
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(translator.outcome).toBe('cut-off');
    expect(translator.usage).toMatchObject({ input_tokens: 9, output_tokens: 1 });
  });

  it('emits an error event for a mid-stream Google error and nothing afterwards', () => {
    const { translator, events, data } = translate('error-midstream.chunks.txt');
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'error',
    ]);
    expect(data.at(-1)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Resource has been exhausted' },
    });
    expect(translator.outcome).toBe('failed');
  });

  it('still emits a valid (empty) message when the stream closed before any chunk', () => {
    const translator = createMessagesStreamTranslator(options);
    const events = decodeFrames(translator.end());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(translator.usage).toBeUndefined();
    expect(translator.end()).toEqual([]);
  });
});
