import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { describe, expect, it } from 'vitest';
import { encodeChunk, encodeException } from '../../../test/support/fake-bedrock-wire.js';
import { AnthropicStreamEmitter } from './emit-anthropic-stream.js';

const start = {
  type: 'message_start',
  message: {
    id: 'msg_bdrk_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  },
};
const body = [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi ✓' } },
  { type: 'content_block_stop', index: 0 },
];
const delta = {
  type: 'message_delta',
  delta: { stop_reason: 'end_turn', stop_sequence: null },
  usage: { output_tokens: 5 },
};
const metrics = {
  inputTokenCount: 12,
  outputTokenCount: 5,
  invocationLatency: 100,
  firstByteLatency: 30,
  cacheReadInputTokenCount: 3,
  cacheWriteInputTokenCount: 4,
};
const stop = { type: 'message_stop', 'amazon-bedrock-invocationMetrics': metrics };

const sse = (event: { type: string }) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
const frames = (events: object[]) =>
  Buffer.concat(events.map((e) => encodeChunk(e as Record<string, unknown>)));

function emitSplit(bytes: Buffer, cut: number): string {
  const emitter = new AnthropicStreamEmitter();
  const out = [
    emitter.push(bytes.subarray(0, cut)),
    emitter.push(bytes.subarray(cut)),
    emitter.end(),
  ];
  return Buffer.concat(out).toString('utf8');
}

describe('AnthropicStreamEmitter', () => {
  const events = [start, ...body, delta, stop];
  const expected = [start, ...body, delta, { type: 'message_stop' }].map(sse).join('');

  it('re-emits every chunk as the first-party SSE event, split anywhere', () => {
    const bytes = frames(events);
    for (let cut = 0; cut <= bytes.length; cut += 7) expect(emitSplit(bytes, cut)).toBe(expected);
  });

  it('is read by the Anthropic SDK as a message stream', async () => {
    const emitter = new AnthropicStreamEmitter();
    const text = Buffer.concat([emitter.push(frames(events)), emitter.end()]).toString('utf8');
    const response = new Response(text, { headers: { 'content-type': emitter.contentType } });
    const read: { type: string }[] = [];
    for await (const event of Stream.fromSSEResponse<{ type: string }>(
      response,
      new AbortController(),
    )) {
      read.push(event);
    }
    expect(read.map((event) => event.type)).toEqual(events.map((event) => event.type));
  });

  it('puts the invocation metrics into a message_delta that has no usage', () => {
    const bare = { type: delta.type, delta: delta.delta };
    const usage = {
      input_tokens: 12,
      output_tokens: 5,
      cache_read_input_tokens: 3,
      cache_creation_input_tokens: 4,
    };
    const expectedText = [start, ...body, { ...bare, usage }, { type: 'message_stop' }]
      .map(sse)
      .join('');
    const bytes = frames([start, ...body, bare, stop]);
    for (let cut = 0; cut <= bytes.length; cut += 11)
      expect(emitSplit(bytes, cut)).toBe(expectedText);
    // Without metrics after it, the delta goes out as sent (at the latest when the stream ends).
    expect(emitSplit(frames([bare]), 0)).toBe(sse(bare));
  });

  it('turns an exception frame into the Anthropic error event and stops', () => {
    const bytes = Buffer.concat([
      frames([start, body[0] ?? {}]),
      encodeException('throttlingException', 'Too many tokens.'),
      frames([stop]),
    ]);
    const text = emitSplit(bytes, 50);
    const error = {
      type: 'error',
      error: { type: 'rate_limit_error', message: 'ThrottlingException: Too many tokens.' },
    };
    expect(text).toBe([start, body[0] ?? { type: '' }].map(sse).join('') + sse(error));
  });

  it('maps a mid-stream internal error to api_error and an unavailable model to overloaded_error', () => {
    for (const [exception, type] of [
      ['internalServerException', 'api_error'],
      ['serviceUnavailableException', 'overloaded_error'],
      ['modelStreamErrorException', 'api_error'],
    ] as const) {
      const text = emitSplit(Buffer.from(encodeException(exception, 'x')), 0);
      expect(JSON.parse(text.split('data: ')[1] ?? '')).toMatchObject({
        type: 'error',
        error: { type },
      });
    }
  });

  it('refuses a truncated stream', () => {
    const emitter = new AnthropicStreamEmitter();
    expect(() => emitter.push(frames([start]).subarray(0, 20))).not.toThrow();
    expect(() => emitter.end()).toThrow(/ended inside a message/);
  });

  it('refuses a chunk whose bytes are not an event', () => {
    const notEvent = Buffer.from(encodeChunk({ no: 'type' }));
    expect(() => new AnthropicStreamEmitter().push(notEvent)).toThrow(/without type/);
  });
});
