/**
 * Refusals that happen before or beside admission, each in the caller's protocol: oversized heads
 * and bad framing refused by Node's parser, malformed URLs, wrong methods on known paths; and the
 * upstream reply headers a caller may see (an allow-list: no gateway or CORS headers from upstream).
 */
import Anthropic from '@anthropic-ai/sdk';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  env,
  key,
  messagesReply,
  putUpstream,
  tinyUpstream,
  useForwardingGateway,
} from './forwarding-setup.js';
import { exchange } from './raw-http.js';

useForwardingGateway();

const port = () => Number(new URL(env.base).port);

describe('refusals of Node and fastify in the caller protocol', () => {
  it('answers a 20 KB header with 431 in the Anthropic shape', async () => {
    const response = await exchange(port(), [
      'POST /v1/messages HTTP/1.1\r\nhost: 127.0.0.1\r\nanthropic-version: 2023-06-01\r\n' +
        `x-padding: ${'a'.repeat(20 * 1024)}\r\ncontent-length: 2\r\n\r\n{}`,
    ]);
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    expect(response.body).toContain('TG_HEADERS_TOO_LARGE');
    expect(response.headers['x-tollgate-request-id']).toMatch(/^req_/);
  });

  it('answers a 60 KB URL with 431 in the Google shape', async () => {
    const response = await exchange(port(), [
      `GET /v1beta/models?pageToken=${'a'.repeat(60 * 1024)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
    ]);
    expect(response.status).toBe(431);
    expect(JSON.parse(response.body)).toMatchObject({
      error: { code: 431, status: 'INVALID_ARGUMENT' },
    });
    expect(response.body).toContain('TG_HEADERS_TOO_LARGE');
  });

  it('answers conflicting Content-Length and Transfer-Encoding with 400 in the OpenAI shape', async () => {
    const response = await exchange(port(), [
      'POST /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n' +
        'content-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      error: { code: 'TG_MALFORMED_REQUEST', type: 'invalid_request_error', param: null },
    });
  });

  it('answers a malformed percent-encoding with 400 in the Google shape', async () => {
    const response = await exchange(port(), [
      'POST /v1beta/models/gemini%E0%A4%A:generateContent HTTP/1.1\r\nhost: 127.0.0.1\r\n' +
        'content-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}',
    ]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT' },
    });
    expect(response.body).toContain('TG_MALFORMED_REQUEST');
    expect(response.body).not.toContain('FST_ERR');
  });

  it.each([
    {
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      headers: { 'x-goog-api-key': 'any' },
      body: { error: { code: 405, status: 'UNIMPLEMENTED' } },
    },
    {
      path: '/v1/messages',
      headers: { 'anthropic-version': '2023-06-01' },
      body: { type: 'error', error: { type: 'invalid_request_error' } },
    },
    {
      path: '/v1/chat/completions',
      headers: {},
      body: { error: { code: 'TG_METHOD_NOT_ALLOWED', type: 'invalid_request_error' } },
    },
  ])('answers GET $path with 405 and allow: POST in its shape', async (route) => {
    const response = await request(`${env.base}${route.path}`, { headers: route.headers });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('POST');
    const text = await response.body.text();
    expect(JSON.parse(text)).toMatchObject(route.body);
    expect(text).toContain('TG_METHOD_NOT_ALLOWED');
  });

  it('still answers an unknown path with 404', async () => {
    const response = await request(`${env.base}/v2/nothing`);
    expect(response.statusCode).toBe(404);
    expect(await response.body.text()).toContain('TG_ROUTE_NOT_FOUND');
  });
});

describe('upstream reply headers', () => {
  it('forwards the allow-list only, never gateway, CORS or cookie headers', async () => {
    const url = await tinyUpstream((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'request-id': 'req_upstream_1',
        'anthropic-ratelimit-requests-remaining': '41',
        'x-tollgate-request-id': 'forged',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
        'set-cookie': 'session=upstream',
        'x-powered-by': 'upstream-internals',
        server: 'upstream-server/1.0',
      });
      response.end(messagesReply('hi', { input_tokens: 3, output_tokens: 1 }));
    });
    await putUpstream({ name: 'leaky', platform: 'Anthropic', baseURL: url });
    const apiKey = await key({ upstreams: [{ name: 'leaky', weight: 1, priority: 0 }] });
    const client = new Anthropic({ apiKey, baseURL: env.base, maxRetries: 0 });
    const { data, response } = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .withResponse();
    expect(data.content[0]).toMatchObject({ text: 'hi' });
    expect(response.headers.get('x-tollgate-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(response.headers.get('request-id')).toBe('req_upstream_1');
    expect(response.headers.get('anthropic-ratelimit-requests-remaining')).toBe('41');
    for (const name of [
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'set-cookie',
      'x-powered-by',
      'server',
    ]) {
      expect(response.headers.get(name), name).toBeNull();
    }
  });
});
