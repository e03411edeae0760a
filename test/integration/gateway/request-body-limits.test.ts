/**
 * What the gateway reads of a request body, on a real port with raw sockets where clients would
 * not send the bytes: keys are checked at the headers (before any body is buffered), stalled
 * requests are cut with 408, long streamed answers are not, and compressed or non-JSON bodies are
 * decoded or refused with 415. Short timeouts are configured so the stalls end quickly.
 */
import { gzipSync } from 'node:zlib';
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  type KeyOptions,
} from '../../support/gateway-fixture.js';
import { exchange, upload } from './raw-http.js';

const secrets = newSecrets();
const namespace = 'team-body';
let store: Store;
let fake: FakeProvider;
/** The gateway with default timeouts, and one with short timeouts for the stall tests. */
let app: FastifyInstance;
let strict: FastifyInstance;
let base: string;
let port: number;
let strictBase: string;
let strictPort: number;

beforeAll(async () => {
  store = await openStore('memory', '');
  fake = await startFakeProvider({ keepRequests: 1_000 });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(base).port);
  strict = buildGateway(store, secrets, {
    config: {
      requestHeadersTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      requestBodyIdleTimeoutMs: 300,
    },
  });
  strictBase = await strict.listen({ port: 0, host: '127.0.0.1' });
  strictPort = Number(new URL(strictBase).port);
});

afterAll(async () => {
  await app.close();
  await strict.close();
  await fake.close();
  await store.close();
});

beforeEach(() => {
  fake.reset();
});

async function newKey(options: Partial<KeyOptions> = {}): Promise<string> {
  return (await createKey(store, secrets, { platform: 'Anthropic', namespace, ...options })).value;
}

const messageBody = JSON.stringify({
  model: 'claude-sonnet-4-6',
  max_tokens: 8,
  messages: [{ role: 'user', content: 'hi' }],
});

function head(path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('keys are checked before the body is read', () => {
  const bodyBytes = 30 * 1024 * 1024;

  it.each([
    {
      name: 'an unknown key on Anthropic Messages',
      path: '/v1/messages',
      key: 'unknown',
      status: 401,
      code: 'TG_KEY_UNKNOWN',
      shape: { type: 'error', error: { type: 'authentication_error' } },
    },
    {
      name: 'a missing key on OpenAI Responses',
      path: '/v1/responses',
      key: 'missing',
      status: 401,
      code: 'TG_KEY_MISSING',
      shape: { error: { code: 'TG_KEY_MISSING', type: 'invalid_request_error' } },
    },
    {
      name: 'a suspended key on Gemini generateContent',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      key: 'suspended',
      status: 403,
      code: 'TG_KEY_SUSPENDED',
      shape: { error: { code: 403, status: 'PERMISSION_DENIED' } },
    },
  ])('refuses $name after part of a 30 MB upload', async (route) => {
    const keyHeaders: Record<string, string> =
      {
        unknown: { 'x-api-key': 'sk-tg-unknown-key-value-000000' },
        missing: {},
        suspended: {
          'x-goog-api-key': await newKey({ platform: 'Gemini', overrides: { suspended: true } }),
        },
      }[route.key] ?? {};
    const result = await upload(
      port,
      head(route.path, {
        'content-type': 'application/json',
        'content-length': bodyBytes,
        connection: 'close',
        ...keyHeaders,
      }),
      bodyBytes,
    );
    expect(result.response.status).toBe(route.status);
    expect(result.response.body).toContain(route.code);
    expect(JSON.parse(result.response.body)).toMatchObject(route.shape);
    expect(result.response.headers.connection).toBe('close');
    // The answer came while most of the body was still unsent.
    expect(result.bodyBytesWritten).toBeLessThan(bodyBytes / 2);
  });

  it('still admits a valid key and forwards its body', async () => {
    const client = new Anthropic({ apiKey: await newKey(), baseURL: base, maxRetries: 0 });
    const reply = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(reply.type).toBe('message');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('stalled requests are cut', () => {
  it('answers 408 in the route protocol when the body goes silent', async () => {
    const response = await exchange(strictPort, [
      head('/v1/messages', {
        'content-type': 'application/json',
        'content-length': 1_000,
        'x-api-key': await newKey(),
      }),
      '{"model":',
    ]);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toMatchObject({
      type: 'error',
      error: { type: 'timeout_error' },
    });
    expect(response.body).toContain('TG_REQUEST_TIMEOUT');
    expect(fake.requests).toHaveLength(0);
  });

  it('does not cut a body that keeps arriving for longer than the idle timeout', async () => {
    // Five pieces 110 ms apart: 440 ms in all, past the 300 ms idle timeout, never silent for it.
    const size = Math.ceil(messageBody.length / 5);
    const pieces = Array.from({ length: 5 }, (_, index) =>
      messageBody.slice(index * size, (index + 1) * size),
    );
    const response = await exchange(
      strictPort,
      [
        head('/v1/messages', {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(messageBody),
          'x-api-key': await newKey(),
          connection: 'close',
        }),
        ...pieces,
      ],
      110,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ type: 'message' });
    expect(fake.requests).toHaveLength(1);
  });

  it('answers 408 when the headers never end', async () => {
    const response = await exchange(strictPort, [
      'POST /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\n',
    ]);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'TG_REQUEST_TIMEOUT' } });
  });

  it('answers 408 when a body is dripped past the request timeout', async () => {
    const drip = Array.from({ length: 40 }, () => ' ');
    const response = await exchange(
      strictPort,
      [
        head('/v1/chat/completions', {
          'content-type': 'application/json',
          'content-length': 1_000,
          authorization: `Bearer ${await newKey({ platform: 'OpenAI' })}`,
        }),
        ...drip,
      ],
      100,
    );
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'TG_REQUEST_TIMEOUT' } });
  });

  it('does not cut a streamed answer that outlasts every request timeout', async () => {
    fake.setBehaviour({ firstByteDelayMs: 1_200, chunkGapMs: 400, chunks: 2 });
    const client = new Anthropic({ apiKey: await newKey(), baseURL: strictBase, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 8,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(final.content.length).toBeGreaterThan(0);
  });
});

describe('request body encodings and media types', () => {
  async function post(path: string, body: Buffer | string, headers: Record<string, string>) {
    const response = await request(`${base}${path}`, { method: 'POST', headers, body });
    return { status: response.statusCode, text: await response.body.text() };
  }

  it('decodes a gzip body and forwards it uncompressed', async () => {
    const result = await post('/v1/messages', gzipSync(messageBody), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'x-api-key': await newKey(),
    });
    expect(result.status, result.text).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.body).toMatchObject({ model: 'claude-sonnet-4-6' });
    expect(fake.requests[0]?.headers['content-encoding']).toBeUndefined();
  });

  it('stops a gzip bomb at the body limit (413)', async () => {
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20));
    const result = await post('/v1/messages', bomb, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'x-api-key': await newKey(),
    });
    expect(result.status).toBe(413);
    expect(result.text).toContain('TG_BODY_TOO_LARGE');
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an unknown content-encoding with 415', async () => {
    const result = await post('/v1/responses', 'x', {
      'content-type': 'application/json',
      'content-encoding': 'zstd',
      authorization: `Bearer ${await newKey({ platform: 'OpenAI' })}`,
    });
    expect(result.status).toBe(415);
    expect(JSON.parse(result.text)).toMatchObject({
      error: { code: 'TG_UNSUPPORTED_MEDIA_TYPE', type: 'invalid_request_error' },
    });
  });

  it('refuses a body that is not valid gzip with 400, saying so', async () => {
    const result = await post('/v1/messages', 'not gzip at all', {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'x-api-key': await newKey(),
    });
    expect(result.status).toBe(400);
    expect(result.text).toContain('could not be decoded as gzip');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])(
    'refuses content-type %s on a JSON route with 415',
    async (contentType) => {
      const result = await post('/v1beta/models/gemini-2.5-flash:generateContent', '{}', {
        'content-type': contentType,
        'x-goog-api-key': await newKey({ platform: 'Gemini' }),
      });
      expect(result.status).toBe(415);
      expect(JSON.parse(result.text)).toMatchObject({
        error: { code: 415, status: 'INVALID_ARGUMENT' },
      });
      expect(result.text).toContain('TG_UNSUPPORTED_MEDIA_TYPE');
    },
  );
});
