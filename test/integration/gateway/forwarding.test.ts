/**
 * Pass-through forwarding against the real fake provider: bytes untouched, model overrides,
 * headers and queries, streaming without buffering, client aborts and mid-stream drops.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  callMessages,
  env,
  key,
  message,
  putUpstream,
  useForwardingGateway,
} from './forwarding-setup.js';

useForwardingGateway();

describe('request shaping', () => {
  it('forwards the body bytes untouched when no override applies', async () => {
    const body =
      '{"model":"claude-sonnet-4-6",   "max_tokens":8,\n "messages":[{"role":"user","content":"hi"}]}';
    const response = await callMessages(await key(), body);
    expect(response.statusCode).toBe(200);
    await response.body.text();
    expect(env.fake.requests.at(-1)?.rawBody).toBe(body);
  });

  it('rewrites the model in the body (Anthropic) and in the path (Gemini)', async () => {
    await putUpstream({
      name: 'override-anthropic',
      platform: 'Anthropic',
      baseURL: env.fake.url,
      modelOverrides: { 'claude-sonnet-4-6': 'claude-sonnet-4-5-20250929' },
    });
    const anthropicKey = await key({
      upstreams: [{ name: 'override-anthropic', weight: 1, priority: 0 }],
    });
    const response = await callMessages(anthropicKey, message());
    await response.body.text();
    expect((env.fake.requests.at(-1)?.body as { model: string }).model).toBe(
      'claude-sonnet-4-5-20250929',
    );

    await putUpstream({
      name: 'override-gemini',
      platform: 'Gemini',
      baseURL: env.fake.url,
      modelOverrides: { 'gemini-2.5-flash': 'gemini-2.5-pro' },
    });
    const geminiKey = await key({
      platform: 'Gemini',
      upstreams: [{ name: 'override-gemini', weight: 1, priority: 0 }],
    });
    const gemini = await request(`${env.base}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': geminiKey },
      body: '{"contents":[{"parts":[{"text":"hi"}]}]}',
    });
    expect(gemini.statusCode).toBe(200);
    await gemini.body.text();
    expect(env.fake.requests.at(-1)?.path).toBe('/v1beta/models/gemini-2.5-pro:generateContent');
    expect(env.fake.requests.at(-1)?.rawBody).toBe('{"contents":[{"parts":[{"text":"hi"}]}]}');
  });

  it('forwards client headers and queries but not credentials or hop-by-hop headers', async () => {
    const apiKey = await key();
    const response = await request(`${env.base}/v1/messages?beta=true`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'context-1m-2025-08-07',
        cookie: 'session=1',
        'x-forwarded-for': '6.6.6.6',
      },
      body: message(),
    });
    await response.body.text();
    const upstream = env.fake.requests.at(-1)!;
    expect(upstream.query.beta).toBe('true');
    expect(upstream.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.headers['x-api-key']).toBe('fake-upstream-key');
    expect(upstream.headers.authorization).toBeUndefined();
    expect(upstream.headers.cookie).toBeUndefined();
    expect(upstream.headers['x-forwarded-for']).toBeUndefined();
  });

  it('strips ?key= but keeps ?alt=sse for Gemini', async () => {
    const geminiKey = await key({ platform: 'Gemini' });
    const response = await request(
      `${env.base}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${geminiKey}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"contents":[]}' },
    );
    expect(response.statusCode).toBe(200);
    expect(await response.body.text()).toContain('data: ');
    const upstream = env.fake.requests.at(-1)!;
    expect(upstream.query).toEqual({ alt: 'sse' });
    expect(upstream.headers['x-goog-api-key']).toBe('fake-upstream-key');
  });
});

describe('streaming', () => {
  it('writes each upstream chunk as it arrives', async () => {
    env.fake.setBehaviour({ chunkGapMs: 250, chunks: 4 });
    const started = Date.now();
    const response = await callMessages(await key(), message('claude-sonnet-4-6', true));
    expect(response.headers['content-type']).toContain('text/event-stream');
    let firstChunkAt = 0;
    let text = '';
    for await (const chunk of response.body) {
      if (firstChunkAt === 0) firstChunkAt = Date.now();
      text += String(chunk);
    }
    const endedAt = Date.now();
    expect(text).toContain('event: message_stop');
    expect(endedAt - firstChunkAt).toBeGreaterThanOrEqual(500);
    expect(firstChunkAt - started).toBeLessThan(endedAt - started - 500);
  });

  it('aborts the upstream when the client goes away and frees the slot', async () => {
    env.fake.setBehaviour({ chunkGapMs: 300, chunks: 20 });
    const apiKey = await key({ overrides: { maxConcurrent: 1 } });
    const response = await callMessages(apiKey, message('claude-sonnet-4-6', true), {});
    const reader = response.body;
    await new Promise<void>((resolve) => {
      reader.once('data', () => {
        resolve();
      });
    });
    reader.destroy();
    env.fake.setBehaviour({});
    let status = 0;
    for (let attempt = 0; attempt < 40 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const next = await callMessages(apiKey, message());
      status = next.statusCode;
      await next.body.text();
    }
    expect(status).toBe(200);
  });

  it('ends a dropped stream with the protocol error event and frees the slot', async () => {
    env.fake.setBehaviour({ dropAfterChunks: 2, chunks: 6 });
    const apiKey = await key({ overrides: { maxConcurrent: 1 } });
    const response = await callMessages(apiKey, message('claude-sonnet-4-6', true));
    expect(response.statusCode).toBe(200);
    const text = await response.body.text();
    expect(text).not.toContain('message_stop');
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
    expect(text).toContain('TG_UPSTREAM_UNREACHABLE');
    env.fake.setBehaviour({});
    const next = await callMessages(apiKey, message());
    expect(next.statusCode).toBe(200);
    await next.body.text();
  });

  it('ends a dropped Gemini SSE stream with an error chunk', async () => {
    env.fake.setBehaviour({ dropAfterChunks: 1, chunks: 4 });
    const geminiKey = await key({ platform: 'Gemini' });
    const response = await request(
      `${env.base}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': geminiKey },
        body: '{"contents":[{"parts":[{"text":"hi"}]}]}',
      },
    );
    const text = await response.body.text();
    const last = text.trim().split('\n\n').at(-1) ?? '';
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({
      error: { code: 502, status: 'UNAVAILABLE' },
    });
  });

  it('does not leak slots over sequential requests', async () => {
    const apiKey = await key({ overrides: { maxConcurrent: 1 } });
    for (let index = 0; index < 5; index++) {
      const response = await callMessages(apiKey, message());
      expect(response.statusCode).toBe(200);
      await response.body.text();
    }
  });
});
