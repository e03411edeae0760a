import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSseFixture } from '../../support/read-sse-fixture.js';
import { createChatStreamTranslator } from '../../../gateway/protocols/openai-chat/chat-to-responses/convert-responses-stream.js';
import { convertResponsesReply } from '../../../gateway/protocols/openai-chat/chat-to-responses/convert-responses-reply.js';
import { createMessagesStreamTranslator } from '../../../gateway/protocols/antigravity/messages-to-antigravity/convert-antigravity-stream.js';
import replies from '../../../gateway/protocols/openai-chat/chat-to-responses/__fixtures__/responses-replies.json' with { type: 'json' };

/**
 * The official SDKs read what the translators write: a real HTTP server on 127.0.0.1 serves the
 * translated fixtures, and the SDKs' own stream accumulators must rebuild the expected result.
 */
function translateChat(fixture: string): string {
  const translator = createChatStreamTranslator({ includeUsage: true });
  const url = new URL(
    `../../../gateway/protocols/openai-chat/chat-to-responses/__fixtures__/${fixture}`,
    import.meta.url,
  );
  return [
    ...readSseFixture(url).flatMap((event) => translator.push(event)),
    ...translator.end(),
  ].join('');
}

function translateMessages(fixture: string): string {
  const translator = createMessagesStreamTranslator({
    model: 'claude-sonnet-4-6',
    messageId: 'msg_sdk',
  });
  const url = new URL(
    `../../../gateway/protocols/antigravity/messages-to-antigravity/__fixtures__/${fixture}`,
    import.meta.url,
  );
  return [
    ...readSseFixture(url).flatMap((chunk) => translator.push(chunk)),
    ...translator.end(),
  ].join('');
}

let server: Server;
let baseUrl = '';
/** What the next request gets: the body and its content type. */
let nextReply = { type: 'text/event-stream', body: '' };

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': nextReply.type });
      response.end(nextReply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
});

const openai = () =>
  new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'test-key', maxRetries: 0, timeout: 5_000 });
const anthropic = () =>
  new Anthropic({ baseURL: baseUrl, apiKey: 'test-key', maxRetries: 0, timeout: 5_000 });
const chatParams = { model: 'gpt-4.1', messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('translated Chat streams, read by the openai SDK', () => {
  it('rebuilds the text and usage', async () => {
    nextReply = { type: 'text/event-stream', body: translateChat('text-with-usage.chunks.txt') };
    const stream = openai().chat.completions.stream({
      ...chatParams,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Hello');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 18,
      total_tokens: 29,
    });
  });

  it('rebuilds two tool calls', async () => {
    nextReply = { type: 'text/event-stream', body: translateChat('two-tool-calls.chunks.txt') };
    const final = await openai().chat.completions.stream(chatParams).finalChatCompletion();
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ['call_A', 'add', '{"a":3}'],
      ['call_B', 'mul', '{}'],
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('surfaces a failed response as an SDK error', async () => {
    nextReply = { type: 'text/event-stream', body: translateChat('failed.chunks.txt') };
    await expect(
      openai().chat.completions.stream(chatParams).finalChatCompletion(),
    ).rejects.toThrow('The model failed to generate a response.');
  });

  it('reads a translated non-streamed reply', async () => {
    const converted = convertResponsesReply(replies[1]?.reply);
    nextReply = {
      type: 'application/json',
      body: JSON.stringify(converted.ok && converted.completion),
    };
    const completion = await openai().chat.completions.create(chatParams);
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(2);
  });
});

describe('translated Messages streams, read by the @anthropic-ai/sdk', () => {
  const params = {
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    messages: [{ role: 'user' as const, content: 'Hi' }],
  };

  it('rebuilds signed thinking, text and usage', async () => {
    nextReply = {
      type: 'text/event-stream',
      body: translateMessages('text-and-thinking.chunks.txt'),
    };
    const message = await anthropic().messages.stream(params).finalMessage();
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me think', signature: 'sig-1' },
      { type: 'text', text: 'Hello world' },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 100,
      cache_read_input_tokens: 20,
      output_tokens: 48,
    });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('rebuilds interleaved tool_use inputs', async () => {
    nextReply = {
      type: 'text/event-stream',
      body: translateMessages('interleaved-tools.chunks.txt'),
    };
    const message = await anthropic().messages.stream(params).finalMessage();
    const tools = message.content.filter((block) => block.type === 'tool_use');
    expect(tools.map((block) => [block.id, block.name, block.input])).toEqual([
      ['toolu_1', 'Read', { path: 'a' }],
      ['toolu_sdk_3', 'Grep', { q: 'x' }],
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('surfaces a mid-stream error event as an SDK error', async () => {
    nextReply = {
      type: 'text/event-stream',
      body: translateMessages('error-midstream.chunks.txt'),
    };
    await expect(anthropic().messages.stream(params).finalMessage()).rejects.toThrow(
      'Resource has been exhausted',
    );
  });
});
