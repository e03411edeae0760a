/**
 * The Antigravity platform through the real gateway to the fake's Antigravity
 * endpoints: `@anthropic-ai/sdk` on `/antigravity/v1/messages` (plain, streamed, count_tokens, a
 * tool call) and `@google/genai` on `/antigravity/v1beta` (generate, stream, countTokens), each
 * request wrapped in the envelope with the Upstream's project and a Google OAuth access token.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN,
  PROJECT_ID,
  settledRecords,
  startTranslatedEnv,
  upstreamCalls,
  type TranslatedEnv,
} from './translated-harness.js';

let env: TranslatedEnv;

beforeAll(async () => {
  env = await startTranslatedEnv();
});
afterAll(async () => {
  await env.close();
});
beforeEach(() => {
  env.fake.reset();
});

describe('@anthropic-ai/sdk on /antigravity', () => {
  const client = () =>
    new Anthropic({
      apiKey: env.keys.antigravity,
      baseURL: `${env.base}/antigravity`,
      maxRetries: 0,
    });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }];

  it('creates a message through :generateContent', async () => {
    const message = await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      system: 'Be terse.',
      messages,
    });
    expect(message.type).toBe('message');
    expect(message.model).toBe('claude-sonnet-4-6');
    expect(message.content).toEqual([
      { type: 'text', text: 'FAKE_OK claude-sonnet-4-6 part1 part2' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);

    const [upstream] = upstreamCalls(env, '/v1internal:generateContent');
    expect(upstream?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(upstream?.body).toMatchObject({
      project: PROJECT_ID,
      model: 'claude-sonnet-4-6',
      userAgent: 'antigravity',
      request: {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        systemInstruction: { role: 'user', parts: [{ text: 'Be terse.' }] },
        generationConfig: { maxOutputTokens: 64 },
      },
    });
    expect((upstream?.body as { requestId: string }).requestId).toMatch(/^agent-/);
  });

  it('streams a message through :streamGenerateContent?alt=sse', async () => {
    const stream = client().messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages,
    });
    const texts: string[] = [];
    stream.on('text', (text) => texts.push(text));
    const message = await stream.finalMessage();
    expect(texts.join('')).toBe('FAKE_OK claude-sonnet-4-6 part1 part2');
    expect(texts.length).toBeGreaterThan(1);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const [upstream] = upstreamCalls(env, '/v1internal:streamGenerateContent');
    expect(upstream?.query).toEqual({ alt: 'sse' });
  });

  it('returns a tool_use block for a functionCall', async () => {
    const message = await client().messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} } }],
      messages: [{ role: 'user', content: 'please use tool' }],
    });
    expect(message.stop_reason).toBe('tool_use');
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    expect(toolUse).toMatchObject({ name: 'lookup', input: { query: 'FAKE_OK' } });
  });

  it('counts tokens through :countTokens', async () => {
    const counted = await client().messages.countTokens({ model: 'claude-sonnet-4-6', messages });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const [upstream] = upstreamCalls(env, '/v1internal:countTokens');
    expect(upstream?.body).toEqual({
      request: {
        model: 'models/claude-sonnet-4-6',
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      },
    });
  });

  it('renders an upstream rate limit in the Anthropic shape', async () => {
    env.fake.setBehaviour({ status: 429 }, '/v1internal:generateContent');
    const error = await client()
      .messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    // The 429 cooled the shared upstream down (docs/upstream-pools.md): clear it.
    await env.store.reportUpstreamSuccess('antigravity-oauth');
  });

  it('translates an upstream 400 in the Google shape into the Anthropic shape', async () => {
    env.fake.setBehaviour({ status: 400 }, '/v1internal:generateContent');
    const error = await client()
      .messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
      type?: string;
      error?: { type?: string; message?: string };
    };
    expect(body.type).toBe('error');
    expect(body.error?.type).toBe('invalid_request_error');
    expect(body.error?.message).toContain('fake provider error 400');
  });

  it('ends a stream whose upstream reports an error with an Anthropic error event', async () => {
    env.fake.setBehaviour({ streamError: true }, '/v1internal:streamGenerateContent');
    const stream = client().messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages,
    });
    await expect(stream.finalMessage()).rejects.toThrow(/fake stream error/);
  });

  it('refuses an untranslatable request with a 400 before calling the upstream', async () => {
    const error = await client()
      .messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 8,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'url', url: 'https://example.invalid/x.png' } },
            ],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toMatch(/TG_BAD_REQUEST.*messages\[0\]\.content\[0\]\.source/);
    expect(env.fake.requests.filter((call) => call.path.startsWith('/v1internal'))).toHaveLength(0);
  });

  it('bills the translated message', async () => {
    const before = (await settledRecords(env, 0)).length;
    await client().messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages });
    const records = await settledRecords(env, before + 1);
    expect(records.some((record) => record.costNano > 0 && record.usage.output > 0)).toBe(true);
  });
});

describe('@google/genai on /antigravity', () => {
  const client = () =>
    new GoogleGenAI({
      apiKey: env.keys.antigravity,
      httpOptions: { baseUrl: `${env.base}/antigravity` },
    });

  it('generates content, unwrapped from the Antigravity envelope', async () => {
    const response = await client().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    });
    expect(response.text).toBe('FAKE_OK gemini-2.5-flash part1 part2');
    expect(response.responseId).toBe('fake-response-1');
    expect(response.usageMetadata?.promptTokenCount).toBeGreaterThan(0);
    const [upstream] = upstreamCalls(env, '/v1internal:generateContent');
    expect(upstream?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(upstream?.headers['x-goog-api-key']).toBeUndefined();
    expect(upstream?.body).toMatchObject({
      project: PROJECT_ID,
      model: 'gemini-2.5-flash',
      request: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
  });

  it('streams content as SSE chunks', async () => {
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    });
    const texts: string[] = [];
    let finishReason: string | undefined;
    for await (const chunk of stream) {
      texts.push(chunk.text ?? '');
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    }
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe('FAKE_OK gemini-2.5-flash part1 part2');
    expect(finishReason).toBe('STOP');
    expect(upstreamCalls(env, '/v1internal:streamGenerateContent')[0]?.query).toEqual({
      alt: 'sse',
    });
  });

  it('counts tokens', async () => {
    const counted = await client().models.countTokens({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    });
    expect(counted.totalTokens).toBeGreaterThan(0);
    expect(upstreamCalls(env, '/v1internal:countTokens')[0]?.body).toMatchObject({
      request: { model: 'models/gemini-2.5-flash' },
    });
  });
});
