/**
 * The fake provider against the official SDKs: each SDK makes a non-streamed call, a
 * streamed call, a model list and a token count, and must accept the answers.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_FAKE_CREDENTIAL,
  startFakeProvider,
  type FakeProvider,
} from './start-fake-provider.js';

let fake: FakeProvider;

beforeAll(async () => {
  fake = await startFakeProvider({ keepRequests: 1_000 });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

describe('with @anthropic-ai/sdk', () => {
  const client = (): Anthropic =>
    new Anthropic({ apiKey: DEFAULT_FAKE_CREDENTIAL, baseURL: fake.url, maxRetries: 0 });

  it('creates a message and reports usage with cache fields', async () => {
    fake.setBehaviour({ cacheReadTokens: 7, cacheWrite5mTokens: 3, cacheWrite1hTokens: 2 });
    const message = await client().messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.content[0]).toMatchObject({
      type: 'text',
      text: 'FAKE_OK claude-sonnet-4-5 part1 part2',
    });
    expect(message.usage.cache_read_input_tokens).toBe(7);
    expect(message.usage.cache_creation?.ephemeral_1h_input_tokens).toBe(2);
    const bytes = Buffer.byteLength(fake.requests[0]!.rawBody);
    expect(message.usage.input_tokens).toBe(Math.max(Math.ceil(bytes / 4), 13) - 12);
  });

  it('streams a message the SDK can assemble, with message_stop', async () => {
    const stream = client().messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ text: 'FAKE_OK claude-haiku-4-5 part1 part2' });
    expect(final.usage.output_tokens).toBe(
      Math.ceil('FAKE_OK claude-haiku-4-5 part1 part2'.length / 4),
    );
  });

  it('lists models and counts tokens', async () => {
    const page = await client().models.list();
    expect(page.data.map((model) => model.id)).toContain('claude-sonnet-4-5-20250929');
    const count = await client().messages.countTokens({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
    const one = await client().models.retrieve('claude-opus-4-5-20251101');
    expect(one).toMatchObject({ type: 'model', id: 'claude-opus-4-5-20251101' });
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/v1/models',
      '/v1/messages/count_tokens',
      '/v1/models/claude-opus-4-5-20251101',
    ]);
  });

  it('is refused with an Anthropic-shaped 401 for a wrong key', async () => {
    const wrong = new Anthropic({ apiKey: 'wrong', baseURL: fake.url, maxRetries: 0 });
    const failure = await wrong.models.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.AuthenticationError);
  });
});

describe('with openai', () => {
  const client = (): OpenAI =>
    new OpenAI({ apiKey: DEFAULT_FAKE_CREDENTIAL, baseURL: `${fake.url}/v1`, maxRetries: 0 });

  it('creates a response and streams one with usage', async () => {
    fake.setBehaviour({ cacheReadTokens: 5, reasoningTokens: 4 });
    const response = await client().responses.create({ model: 'gpt-5', input: 'Hello' });
    expect(response.output_text).toBe('FAKE_OK gpt-5 part1 part2');
    expect(response.usage?.input_tokens_details.cached_tokens).toBe(5);
    const stream = client().responses.stream({ model: 'gpt-5', input: 'Hello' });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('FAKE_OK gpt-5 part1 part2');
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(4);
  });

  it('answers with a function call when tools are present and the user asks for one', async () => {
    const response = await client().responses.create({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'please use tool now' }],
      tools: [{ type: 'function', name: 'lookup', parameters: {}, strict: false }],
      stream: true,
    });
    const types: string[] = [];
    for await (const event of response) types.push(event.type);
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types.at(-1)).toBe('response.completed');
  });

  it('streams chat chunks with a usage chunk only when asked', async () => {
    const withUsage = await client().chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usageChunks = 0;
    for await (const chunk of withUsage) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usageChunks += 1;
    }
    expect(text).toBe('FAKE_OK gpt-4.1 part1 part2');
    expect(usageChunks).toBe(1);
    const without = await client().chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    });
    for await (const chunk of without) expect(chunk.usage ?? null).toBeNull();
    const plain = await client().chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(plain.usage?.prompt_tokens).toBeGreaterThan(0);
    const models = await client().models.list();
    expect(models.data.map((model) => model.id)).toContain('gpt-5');
    expect(await client().models.retrieve('gpt-4.1')).toMatchObject({
      id: 'gpt-4.1',
      object: 'model',
    });
  });
});

describe('with @google/genai', () => {
  const client = (): GoogleGenAI =>
    new GoogleGenAI({ apiKey: DEFAULT_FAKE_CREDENTIAL, httpOptions: { baseUrl: fake.url } });

  it('generates, streams (alt=sse) with a finish reason, counts and lists', async () => {
    fake.setBehaviour({ reasoningTokens: 6, cacheReadTokens: 2 });
    const reply = await client().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
    });
    expect(reply.text).toBe('FAKE_OK gemini-2.5-flash part1 part2');
    expect(reply.usageMetadata?.thoughtsTokenCount).toBe(6);
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('FAKE_OK gemini-2.5-flash part1 part2');
    expect(chunks.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(chunks.at(-1)?.usageMetadata?.cachedContentTokenCount).toBe(2);
    const count = await client().models.countTokens({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
    });
    expect(count.totalTokens).toBeGreaterThan(0);
    const model = await client().models.get({ model: 'gemini-2.5-pro' });
    expect(model.name).toBe('models/gemini-2.5-pro');
    const streamRequest = fake.requests.find((request) =>
      request.path.endsWith(':streamGenerateContent'),
    );
    expect(streamRequest?.query.alt).toBe('sse');
    expect(streamRequest?.headers['x-goog-api-key']).toBe(DEFAULT_FAKE_CREDENTIAL);
  });
});

describe('tool calls, when tools are present and the last user text says "use tool"', () => {
  it('Anthropic streams a tool_use block the SDK assembles', async () => {
    const client = new Anthropic({
      apiKey: DEFAULT_FAKE_CREDENTIAL,
      baseURL: fake.url,
      maxRetries: 0,
    });
    const final = await client.messages
      .stream({
        model: 'claude-haiku-4-5',
        max_tokens: 64,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'Please use tool lookup' }],
      })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[1]).toMatchObject({
      type: 'tool_use',
      name: 'lookup',
      input: { query: 'FAKE_OK' },
    });
  });

  it('Chat Completions returns tool_calls, streamed and not', async () => {
    const client = new OpenAI({
      apiKey: DEFAULT_FAKE_CREDENTIAL,
      baseURL: `${fake.url}/v1`,
      maxRetries: 0,
    });
    const request = {
      model: 'gpt-4.1',
      tools: [{ type: 'function' as const, function: { name: 'lookup', parameters: {} } }],
      messages: [{ role: 'user' as const, content: 'use tool please' }],
    };
    const plain = await client.chat.completions.create(request);
    expect(plain.choices[0]?.finish_reason).toBe('tool_calls');
    expect(plain.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'lookup' },
    });
    const stream = client.chat.completions.stream({ ...request, stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'lookup', arguments: '{"query":"FAKE_OK"}' },
    });
  });

  it('Gemini returns a functionCall part', async () => {
    const client = new GoogleGenAI({
      apiKey: DEFAULT_FAKE_CREDENTIAL,
      httpOptions: { baseUrl: fake.url },
    });
    const reply = await client.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'use tool now',
      config: { tools: [{ functionDeclarations: [{ name: 'lookup' }] }] },
    });
    expect(reply.functionCalls?.[0]).toMatchObject({ name: 'lookup', args: { query: 'FAKE_OK' } });
  });
});
