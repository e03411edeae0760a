/**
 * The fake provider's behaviours over real HTTP (undici): errors in each platform's shape, 429 with
 * `retry-after`, Anthropic 529, slow headers, connection drops, per-path settings, the Gemini JSON
 * array stream, the Antigravity envelope and the OAuth token endpoint, and request recording.
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJsonArrayStreamParser } from '../../gateway/bytes/parse-json-array-stream.js';
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

const anthropicHeaders = {
  'x-api-key': DEFAULT_FAKE_CREDENTIAL,
  'content-type': 'application/json',
};
const bearer = {
  authorization: `Bearer ${DEFAULT_FAKE_CREDENTIAL}`,
  'content-type': 'application/json',
};
const google = { 'x-goog-api-key': DEFAULT_FAKE_CREDENTIAL, 'content-type': 'application/json' };

async function post(path: string, options: { headers: Record<string, string>; body: unknown }) {
  const response = await request(`${fake.url}${path}`, {
    method: 'POST',
    headers: options.headers,
    body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: await response.body.text(),
  };
}

const message = {
  model: 'claude-haiku-4-5',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'hi' }],
};

describe('errors', () => {
  it('answers 401 in each platform shape for a wrong credential', async () => {
    const anthropic = await post('/v1/messages', {
      headers: { 'x-api-key': 'nope' },
      body: message,
    });
    expect(anthropic.status).toBe(401);
    expect(JSON.parse(anthropic.text)).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const openai = await post('/v1/responses', {
      headers: { authorization: 'Bearer nope' },
      body: {},
    });
    expect(JSON.parse(openai.text)).toMatchObject({ error: { code: 'invalid_api_key' } });
    const gemini = await post('/v1beta/models/gemini-2.5-flash:generateContent', {
      headers: { 'x-goog-api-key': 'nope' },
      body: {},
    });
    expect(JSON.parse(gemini.text)).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED' },
    });
  });

  it('answers 429 with retry-after, 529 overloaded and 500, per path', async () => {
    fake.setBehaviour({ status: 429, retryAfterSeconds: 12 }, '/v1/messages');
    const limited = await post('/v1/messages', { headers: anthropicHeaders, body: message });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('12');
    expect(JSON.parse(limited.text)).toMatchObject({ error: { type: 'rate_limit_error' } });
    const other = await post('/v1/chat/completions', {
      headers: bearer,
      body: { model: 'gpt-4.1', messages: [] },
    });
    expect(other.status).toBe(200);
    fake.setBehaviour({ status: 529 });
    const overloaded = await post('/v1/messages/count_tokens', {
      headers: anthropicHeaders,
      body: message,
    });
    expect(overloaded.status).toBe(529);
    expect(JSON.parse(overloaded.text)).toMatchObject({ error: { type: 'overloaded_error' } });
    fake.setBehaviour({ status: 500 });
    const failed = await post('/v1beta/models/gemini-2.5-flash:generateContent', {
      headers: google,
      body: {},
    });
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text)).toMatchObject({ error: { status: 'INTERNAL' } });
  });
});

describe('streams', () => {
  it('waits before the first byte', async () => {
    fake.setBehaviour({ firstByteDelayMs: 150 });
    const started = Date.now();
    const reply = await post('/v1/messages', { headers: anthropicHeaders, body: message });
    expect(reply.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('drops the connection after N frames', async () => {
    fake.setBehaviour({ dropAfterChunks: 2, chunks: 5 });
    const response = await request(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders,
      body: JSON.stringify({ ...message, stream: true }),
    });
    let received = '';
    const failure = await (async () => {
      for await (const chunk of response.body) received += String(chunk);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toContain('event: message_start');
    expect(received).not.toContain('message_stop');
  });

  it('ends with in-stream errors and can omit usage', async () => {
    fake.setBehaviour({ streamError: true });
    const anthropic = await post('/v1/messages', {
      headers: anthropicHeaders,
      body: { ...message, stream: true },
    });
    expect(anthropic.text).toContain(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error"',
    );
    const chat = await post('/v1/chat/completions', {
      headers: bearer,
      body: { model: 'gpt-4.1', messages: [], stream: true },
    });
    expect(chat.text).toContain('data: {"error":');
    expect(chat.text).not.toContain('[DONE]');
    fake.setBehaviour({ omitUsage: true });
    const responses = await post('/v1/responses', {
      headers: bearer,
      body: { model: 'gpt-5', input: 'x' },
    });
    expect(JSON.parse(responses.text)).toMatchObject({ usage: null });
  });

  it('streams Gemini as a JSON array without alt=sse', async () => {
    const reply = await post('/v1beta/models/gemini-2.5-pro:streamGenerateContent', {
      headers: google,
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
    expect(reply.text.startsWith('[')).toBe(true);
    const parser = createJsonArrayStreamParser();
    const elements = parser.feed(Buffer.from(reply.text));
    expect(parser.closed).toBe(true);
    expect(elements).toHaveLength(3);
    expect(JSON.parse(elements[2]!)).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });
  });
});

describe('Antigravity and OAuth', () => {
  it('issues an access token for the refresh token and counts the calls', async () => {
    const form = 'grant_type=refresh_token&refresh_token=fake-refresh-token&client_id=c';
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const token = await post('/oauth2/token', { headers, body: form });
    expect(JSON.parse(token.text)).toEqual({
      access_token: 'fake-access-token',
      expires_in: 3600,
      token_type: 'Bearer',
    });
    const refused = await post('/oauth2/token', {
      headers,
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    expect(refused.status).toBe(400);
    expect(fake.oauthCalls).toBe(2);
    expect(fake.requests[0]?.body).toMatchObject({ grant_type: 'refresh_token', client_id: 'c' });
  });

  it('wraps replies and stream chunks in {response}, and wants the access token', async () => {
    const body = { model: 'claude-sonnet-4-6', project: 'p', request: { contents: [] } };
    const denied = await post('/v1internal:generateContent', { headers: bearer, body });
    expect(denied.status).toBe(401);
    const headers = {
      authorization: 'Bearer fake-access-token',
      'content-type': 'application/json',
    };
    const reply = await post('/v1internal:generateContent', { headers, body });
    expect(JSON.parse(reply.text)).toMatchObject({
      response: { candidates: [{ finishReason: 'STOP' }], modelVersion: 'claude-sonnet-4-6' },
    });
    const stream = await post('/v1internal:streamGenerateContent?alt=sse', { headers, body });
    const lines = stream.text.split('\n').filter((line) => line.startsWith('data: '));
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!.slice(6))).toHaveProperty(
      'response.usageMetadata.promptTokenCount',
    );
    const count = await post('/v1internal:countTokens', {
      headers,
      body: { request: { contents: [] } },
    });
    expect(JSON.parse(count.text)).toHaveProperty('totalTokens');
    expect(fake.requests.at(-2)?.query).toEqual({ alt: 'sse' });
    const tools = [{ functionDeclarations: [{ name: 'read_file' }] }];
    const contents = [{ role: 'user', parts: [{ text: 'use tool' }] }];
    const toolReply = await post('/v1internal:generateContent', {
      headers,
      body: { ...body, request: { contents, tools } },
    });
    expect(JSON.parse(toolReply.text)).toMatchObject({
      response: {
        candidates: [{ content: { parts: [{}, { functionCall: { name: 'read_file' } }] } }],
      },
    });
  });
});
