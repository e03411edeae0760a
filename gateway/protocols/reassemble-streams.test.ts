/**
 * The reassemblers of every wire format (registry `REPLY_REASSEMBLERS`): streamed events in, the
 * message the same API answers without streaming out, from recorded fixtures and small streams
 * with the parts a fixture lacks (thinking, tool input pieces, cut streams).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPLY_REASSEMBLERS } from './registry.js';
import type { UpstreamWireFormat } from '../spec/protocol-adapter.js';

function fixture(path: string): unknown[] {
  return readFileSync(new URL(path, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
}

function reassemble(format: UpstreamWireFormat, events: readonly unknown[]): unknown {
  const reassembler = REPLY_REASSEMBLERS[format]();
  for (const event of events) reassembler.feed(event);
  return reassembler.result();
}

describe('anthropic-messages', () => {
  it('rebuilds the Message of a recorded stream', () => {
    const message = reassemble(
      'anthropic-messages',
      fixture('anthropic-messages/__fixtures__/anthropic-text.chunks.txt'),
    );
    expect(message).toMatchObject({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello world' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 25, output_tokens: 61, cache_read_input_tokens: 13993 },
    });
  });

  const start = { type: 'message_start', message: { id: 'm', type: 'message', content: [] } };
  const thinkingAndTool = [
    start,
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let ' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'me' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
    },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"path":' },
    },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '"a.txt"}' },
    },
  ];

  it('joins thinking, its signature and the tool input pieces', () => {
    const message = reassemble('anthropic-messages', [
      ...thinkingAndTool,
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
    ]);
    expect(message).toEqual({
      id: 'm',
      type: 'message',
      content: [
        { type: 'thinking', thinking: 'Let me', signature: 'sig' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.txt' } },
      ],
      stop_reason: 'tool_use',
      usage: { output_tokens: 9 },
    });
  });

  it('keeps the input text of a tool block a cut stream never stopped', () => {
    const message = reassemble('anthropic-messages', thinkingAndTool.slice(0, -1)) as {
      content: { input?: unknown }[];
    };
    expect(message.content[1]?.input).toBe('{"path":');
  });

  it('answers null for a stream without events', () => {
    expect(reassemble('anthropic-messages', ['[DONE]'])).toBeNull();
  });
});

describe('openai-responses', () => {
  it('takes the response of response.completed', () => {
    const response = reassemble(
      'openai-responses',
      fixture('openai-responses/__fixtures__/responses-text.chunks.txt'),
    ) as { object: string; status: string };
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
  });

  it('ends a cut stream with the latest response and the items done', () => {
    const response = reassemble('openai-responses', [
      {
        type: 'response.created',
        response: { id: 'r', object: 'response', status: 'in_progress' },
      },
      { type: 'response.output_item.done', item: { type: 'message', content: [{ text: 'hi' }] } },
      { type: 'response.output_text.delta', delta: 'x' },
    ]);
    expect(response).toEqual({
      id: 'r',
      object: 'response',
      status: 'in_progress',
      output: [{ type: 'message', content: [{ text: 'hi' }] }],
    });
  });
});

describe('openai-chat', () => {
  it('rebuilds a chat.completion with its tool call and usage', () => {
    expect(
      reassemble('openai-chat', fixture('openai-chat/__fixtures__/chat-tool-call.chunks.txt')),
    ).toEqual({
      id: 'chatcmpl-X',
      created: 1753343173,
      model: 'gpt-4.1-2025-04-14',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_Hje',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"README.md"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 60,
        completion_tokens: 15,
        total_tokens: 75,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    });
  });

  it('joins the content deltas of each choice', () => {
    const chunk = (index: number, content: string, finish: string | null = null) => ({
      id: 'c',
      choices: [{ index, delta: { content }, finish_reason: finish }],
    });
    const completion = reassemble('openai-chat', [
      chunk(1, 'B'),
      chunk(0, 'A'),
      chunk(0, 'a', 'stop'),
      chunk(1, 'b', 'length'),
      '[DONE]',
    ]) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(
      completion.choices.map((choice) => [choice.message.content, choice.finish_reason]),
    ).toEqual([
      ['Aa', 'stop'],
      ['Bb', 'length'],
    ]);
  });
});

describe('gemini-generate-content and antigravity', () => {
  it('merges the text parts and keeps the last usage', () => {
    expect(
      reassemble(
        'gemini-generate-content',
        fixture('gemini-generate-content/__fixtures__/gemini-text.chunks.txt'),
      ),
    ).toEqual({
      candidates: [
        {
          content: { parts: [{ text: '18°C and sunny.' }], role: 'model' },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 120,
        cachedContentTokenCount: 20,
        candidatesTokenCount: 8,
        thoughtsTokenCount: 40,
        totalTokenCount: 168,
      },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'mBj1',
    });
  });

  it('unwraps the Antigravity envelope; thought and answer text and calls stay apart', () => {
    const merged = reassemble(
      'antigravity',
      fixture('antigravity/__fixtures__/antigravity-text.chunks.txt'),
    ) as { candidates: { content: { parts: unknown[] } }[] };
    expect(merged.candidates[0]?.content.parts.slice(0, 3)).toEqual([
      { text: 'thinking', thought: true },
      { text: 'Done.' },
      { functionCall: { name: 'read_file', args: { path: 'a' }, id: 'toolu_1' } },
    ]);
  });
});
