/**
 * `POST /v1/chat/completions` through the real gateway with the official `openai` SDK: translated
 * to the fake's `/v1/responses` (plain, streamed with and without usage, a tool round trip, an
 * `n: 2` refusal, upstream and in-stream errors) and passed through natively for an Upstream with
 * `chatCompletions: Native`. Runs on the memory store and on Redis.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { StoreKind } from '../../support/gateway-fixture.js';
import {
  settledRecords,
  startTranslatedEnv,
  upstreamCalls,
  type TranslatedEnv,
} from './translated-harness.js';

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Looks something up.',
      parameters: { type: 'object', properties: { query: { type: 'string' } } },
    },
  },
];

function chunkText(chunks: readonly OpenAI.Chat.Completions.ChatCompletionChunk[]): string {
  return chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
}

describe.each<StoreKind>(['memory', 'redis'])('chat completions on the %s store', (kind) => {
  let env: TranslatedEnv;
  const client = (key?: string) =>
    new OpenAI({ apiKey: key ?? env.keys.chat, baseURL: `${env.base}/v1`, maxRetries: 0 });

  beforeAll(async () => {
    env = await startTranslatedEnv({ store: kind, redisUrl: inject('redisUrl') });
  });
  afterAll(async () => {
    await env.close();
  });
  beforeEach(() => {
    env.fake.reset();
  });

  it('translates a non-streamed request to Responses and the reply back', async () => {
    const completion = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'hi' },
      ],
      max_completion_tokens: 4,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toBe('chatcmpl-fake_1');
    expect(completion.choices[0]?.message.content).toBe('FAKE_OK gpt-5 part1 part2');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
    const [upstream] = upstreamCalls(env, '/v1/responses');
    expect(upstream?.headers.authorization).toBe('Bearer fake-upstream-key');
    expect(upstream?.body).toMatchObject({
      model: 'gpt-5',
      store: false,
      max_output_tokens: 16,
      input: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(upstreamCalls(env, '/v1/chat/completions')).toHaveLength(0);
  });

  it('streams chunks without a usage chunk when include_usage is off', async () => {
    const stream = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunkText(chunks)).toBe('FAKE_OK gpt-5 part1 part2');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((chunk) => chunk.usage == null)).toBe(true);
    expect(upstreamCalls(env, '/v1/responses')[0]?.body).toMatchObject({ stream: true });
  });

  it('streams the usage chunk last when include_usage is on', async () => {
    const stream = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('round-trips a tool call (streamed call, non-streamed answer)', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'please use tool' },
    ];
    const runner = client().chat.completions.stream({ model: 'gpt-5', messages, tools });
    const first = await runner.finalChatCompletion();
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type).toBe('function');
    if (call?.type !== 'function') throw new Error('no function call');
    expect(call.id).toBe('call_fake_1');
    expect(call.function.name).toBe('lookup');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: 'FAKE_OK' });

    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call.id,
      content: 'forty-two',
    });
    const second = await client().chat.completions.create({ model: 'gpt-5', messages, tools });
    expect(second.choices[0]?.message.content).toBe('FAKE_OK gpt-5 part1 part2');
    const input = (upstreamCalls(env, '/v1/responses')[1]?.body as { input: unknown[] }).input;
    expect(input).toEqual([
      { role: 'user', content: 'please use tool' },
      {
        type: 'function_call',
        call_id: 'call_fake_1',
        name: 'lookup',
        arguments: '{"query":"FAKE_OK"}',
      },
      { type: 'function_call_output', call_id: 'call_fake_1', output: 'forty-two' },
    ]);
  });

  it('refuses n: 2 with a 400 naming the parameter, without calling the upstream', async () => {
    const error = await client()
      .chat.completions.create({ model: 'gpt-5', n: 2, messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.param).toBe('n');
    expect(bad.type).toBe('invalid_request_error');
    expect(bad.code).toBe('TG_BAD_REQUEST');
    expect(env.fake.requests).toHaveLength(0);
  });

  it('renders an upstream 429 and an in-stream failure as Chat Completions errors', async () => {
    env.fake.setBehaviour({ status: 429 }, '/v1/responses');
    const limited = await client()
      .chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    // The 429 cooled the shared upstream down (docs/upstream-pools.md): clear it.
    await env.store.reportUpstreamSuccess('openai-translate');

    env.fake.setBehaviour({ streamError: true }, '/v1/responses');
    const stream = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const read = async () => {
      for await (const chunk of stream) expect(chunk.object).toBe('chat.completion.chunk');
    };
    await expect(read()).rejects.toThrow(/fake stream error/);
  });

  it('answers a non-streamed Responses reply that failed with an error status', async () => {
    env.fake.setBehaviour({ streamError: true }, '/v1/responses');
    const failed = await client()
      .chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    const error = failed as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.message).toContain('fake response failed');
  });

  it('ends a translated stream the upstream drops with an error chunk', async () => {
    env.fake.setBehaviour({ dropAfterChunks: 5 }, '/v1/responses');
    const stream = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const texts: string[] = [];
    const read = async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(read()).rejects.toThrow(/TG_UPSTREAM|upstream/i);
    expect(texts.join('')).toBe('FAKE_OK gpt-5');
  });

  it('keeps the usage chunk of a Native stream when the client asked for it', async () => {
    const stream = await client(env.keys.native).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('passes chat through to a Native upstream and strips the usage it asked for', async () => {
    const plain = await client(env.keys.native).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(plain.id).toBe('chatcmpl-fake');
    expect(plain.choices[0]?.message.content).toBe('FAKE_OK gpt-4.1 part1 part2');

    const stream = await client(env.keys.native).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunkText(chunks)).toBe('FAKE_OK gpt-4.1 part1 part2');
    expect(chunks.every((chunk) => chunk.choices.length > 0)).toBe(true);

    const calls = upstreamCalls(env, '/v1/chat/completions');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.body).toEqual({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(calls[1]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(upstreamCalls(env, '/v1/responses')).toHaveLength(0);
  });

  it('bills the translated request from the Responses usage', async () => {
    const before = (await settledRecords(env, 0)).length;
    await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'bill me' }],
    });
    const records = await settledRecords(env, before + 1);
    const record = records.find((entry) => entry.usage.output > 0 && entry.status === 200);
    expect(record?.costNano).toBeGreaterThan(0);
    expect(record?.accuracy).toBe('exact');
  });
});
