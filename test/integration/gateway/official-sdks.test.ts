/**
 * The official SDKs through the gateway to the real fake provider: Anthropic (Bearer and
 * x-api-key), OpenAI Responses (plain, streamed, models), Google genai (generate, stream,
 * models list and get). Memory store; the Redis path is covered by the refusal suite.
 */
import type { IncomingHttpHeaders } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';

let store: Store;
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
const secrets = newSecrets();
const keys = { anthropic: '', openai: '', gemini: '' };
/** Headers as the gateway received them from the SDKs. */
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  store = await openStore('memory', '');
  fake = await startFakeProvider({ keepRequests: 1_000 });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, 'team-a');
  keys.anthropic = (
    await createKey(store, secrets, { platform: 'Anthropic', namespace: 'team-a' })
  ).value;
  keys.openai = (
    await createKey(store, secrets, { platform: 'OpenAI', namespace: 'team-a' })
  ).value;
  keys.gemini = (
    await createKey(store, secrets, { platform: 'Gemini', namespace: 'team-a' })
  ).value;
  app = buildGateway(store, secrets);
  app.addHook('onRequest', async (request) => {
    await Promise.resolve();
    received.push(request.headers);
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await fake.close();
  await store.close();
});

function lastUpstreamRequest() {
  const request = fake.requests.at(-1);
  if (request === undefined) throw new Error('no upstream request');
  return request;
}

describe('@anthropic-ai/sdk', () => {
  const clients = () => ({
    bearer: new Anthropic({ apiKey: keys.anthropic, baseURL: base, maxRetries: 0 }),
    xApiKey: new Anthropic({
      apiKey: null,
      authToken: null,
      baseURL: base,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': keys.anthropic },
    }),
  });

  it.each(['bearer', 'xApiKey'] as const)('creates a message (%s)', async (variant) => {
    const client = clients()[variant];
    const message = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.type).toBe('message');
    const sent = received.at(-1)!;
    if (variant === 'bearer') expect(sent.authorization).toBe(`Bearer ${keys.anthropic}`);
    else expect([sent['x-api-key'], sent.authorization]).toEqual([keys.anthropic, undefined]);
    const upstream = lastUpstreamRequest();
    expect(upstream.headers['x-api-key']).toBe('fake-upstream-key');
    expect(upstream.headers.authorization).toBeUndefined();
    expect(JSON.stringify(upstream.headers)).not.toContain(keys.anthropic);
  });

  it('streams a message to finalMessage()', async () => {
    const stream = clients().bearer.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const message = await stream.finalMessage();
    expect(message.content.length).toBeGreaterThan(0);
    expect(message.stop_reason).not.toBeNull();
  });

  it('counts tokens and lists and gets models', async () => {
    const client = clients().xApiKey;
    const counted = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('claude-sonnet-4-6');
    const one = await client.models.retrieve('claude-sonnet-4-6');
    expect(one.display_name).toBe('Claude Sonnet 4.6');
  });

  it('surfaces a refusal as the SDK error class', async () => {
    const client = new Anthropic({
      apiKey: 'sk-tg-not-a-key-000000',
      baseURL: base,
      maxRetries: 0,
    });
    const error = await client.models.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as Error).message).toContain('TG_KEY_UNKNOWN');
  });
});

describe('openai', () => {
  const client = () => new OpenAI({ apiKey: keys.openai, baseURL: `${base}/v1`, maxRetries: 0 });

  it('creates a response', async () => {
    const response = await client().responses.create({ model: 'gpt-5', input: 'Hello' });
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(lastUpstreamRequest().headers.authorization).toBe('Bearer fake-upstream-key');
  });

  it('streams a response to finalResponse()', async () => {
    const stream = client().responses.stream({ model: 'gpt-5', input: 'Hello' });
    const response = await stream.finalResponse();
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(response.usage).not.toBeNull();
  });

  it('lists models in the OpenAI shape', async () => {
    const ids: string[] = [];
    for await (const model of client().models.list()) ids.push(model.id);
    expect(ids).toContain('gpt-5');
    expect(ids).not.toContain('claude-sonnet-4-6');
  });

  it('answers chat completions through the Responses upstream', async () => {
    const completion = await client().chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toContain('FAKE_OK');
    expect(lastUpstreamRequest().path).toBe('/v1/responses');
  });
});

describe('@google/genai', () => {
  const client = () => new GoogleGenAI({ apiKey: keys.gemini, httpOptions: { baseUrl: base } });

  it('generates content', async () => {
    const response = await client().models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
    });
    expect(response.text?.length ?? 0).toBeGreaterThan(0);
    expect(lastUpstreamRequest().headers['x-goog-api-key']).toBe('fake-upstream-key');
  });

  it('streams content', async () => {
    const stream = await client().models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
    });
    let text = '';
    for await (const chunk of stream) text += chunk.text ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(lastUpstreamRequest().query.alt).toBe('sse');
  });

  it('lists and gets models', async () => {
    const names: string[] = [];
    const pager = await client().models.list();
    for await (const model of pager) names.push(model.name ?? '');
    expect(names).toContain('models/gemini-2.5-flash');
    const one = await client().models.get({ model: 'gemini-2.5-pro' });
    expect(one.displayName).toBe('Gemini 2.5 Pro');
  });
});
