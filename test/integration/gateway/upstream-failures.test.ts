/**
 * Upstream failures (against the fake and tiny node:http upstreams for what the fake does not
 * produce), upstream choice, edge routes, settlement and metrics.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  callMessages,
  env,
  key,
  message,
  namespace,
  putUpstream,
  registry,
  secrets,
  tinyServers,
  tinyUpstream,
  useForwardingGateway,
} from './forwarding-setup.js';
import { buildGateway, createKey } from '../../support/gateway-fixture.js';

useForwardingGateway();

describe('upstream failures', () => {
  it('keeps retry-after on an upstream 429', async () => {
    env.fake.setBehaviour({ status: 429, retryAfterSeconds: 7 });
    const response = await callMessages(await key(), message());
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(((await response.body.json()) as { type: string }).type).toBe('error');
    // The 429 cooled the suite's shared upstream down for 7 s (upstream-pools.md): clear it.
    await env.store.reportUpstreamSuccess('anthropic-upstream');
  });

  it('maps an upstream credential refusal to 502', async () => {
    env.fake.setBehaviour({ status: 401 });
    const response = await callMessages(await key(), message());
    expect(response.statusCode).toBe(502);
    expect(await response.body.text()).toContain('TG_UPSTREAM_AUTH_FAILED');
  });

  it('does not leak an unshaped upstream 5xx body', async () => {
    const url = await tinyUpstream((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('Traceback: secret internals');
    });
    await putUpstream({ name: 'broken', platform: 'OpenAI', baseURL: url });
    const openaiKey = await key({
      platform: 'OpenAI',
      upstreams: [{ name: 'broken', weight: 1, priority: 0 }],
    });
    const response = await request(`${env.base}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${openaiKey}` },
      body: '{"model":"gpt-5","input":"hi"}',
    });
    expect(response.statusCode).toBe(502);
    const text = await response.body.text();
    expect(text).not.toContain('Traceback');
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'TG_UPSTREAM_ERROR', param: null } });
  });

  it('answers 502 when the upstream is unreachable', async () => {
    const url = await tinyUpstream(() => undefined);
    const server = tinyServers().at(-1)!;
    await new Promise((resolve) => server.close(resolve));
    await putUpstream({ name: 'gone', platform: 'Anthropic', baseURL: url });
    const response = await callMessages(
      await key({ upstreams: [{ name: 'gone', weight: 1, priority: 0 }] }),
      message(),
    );
    expect(response.statusCode).toBe(502);
    expect(await response.body.text()).toContain('TG_UPSTREAM_UNREACHABLE');
  });

  it('answers 504 when the upstream headers are too slow', async () => {
    const slow = buildGateway(env.store, secrets, { config: { headersTimeoutMs: 200 } });
    const slowBase = await slow.listen({ port: 0, host: '127.0.0.1' });
    try {
      env.fake.setBehaviour({ firstByteDelayMs: 1500 });
      const response = await request(`${slowBase}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': await key() },
        body: message(),
      });
      expect(response.statusCode).toBe(504);
      expect(await response.body.text()).toContain('timeout_error');
    } finally {
      env.fake.setBehaviour({});
      await slow.close();
    }
  });
});

describe('upstream choice', () => {
  it('uses the lowest priority first', async () => {
    await putUpstream({ name: 'primary', platform: 'Anthropic', baseURL: env.spare.url });
    await putUpstream({ name: 'secondary', platform: 'Anthropic', baseURL: env.fake.url });
    const apiKey = await key({
      upstreams: [
        { name: 'secondary', weight: 100, priority: 5 },
        { name: 'primary', weight: 1, priority: 1 },
      ],
    });
    for (let index = 0; index < 4; index++)
      await (await callMessages(apiKey, message())).body.text();
    expect(env.spare.requests).toHaveLength(4);
    expect(env.fake.requests).toHaveLength(0);
  });

  it('falls back when an upstream is at its concurrency limit, else 503', async () => {
    await putUpstream({
      name: 'limited',
      platform: 'Anthropic',
      baseURL: env.spare.url,
      maxConcurrent: 1,
    });
    expect(
      await env.store.acquireUpstreamSlot({
        upstream: 'limited',
        requestId: 'holder',
        limit: 1,
        now: Date.now(),
        leaseMs: 60_000,
      }),
    ).toBe(true);
    const withFallback = await key({
      upstreams: [
        { name: 'limited', weight: 1, priority: 0 },
        { name: 'anthropic-upstream', weight: 1, priority: 1 },
      ],
    });
    const response = await callMessages(withFallback, message());
    expect(response.statusCode).toBe(200);
    await response.body.text();
    expect(env.fake.requests).toHaveLength(1);

    const onlyLimited = await key({ upstreams: [{ name: 'limited', weight: 1, priority: 0 }] });
    const busy = await callMessages(onlyLimited, message());
    expect(busy.statusCode).toBe(503);
    expect(await busy.body.text()).toContain('TG_UPSTREAM_BUSY');
    await env.store.releaseUpstreamSlot('limited', 'holder');
  });
});

describe('edges', () => {
  it('refuses GET /v1/responses without a key (401), and without an upgrade (426)', async () => {
    const anonymous = await env.app.inject({
      method: 'GET',
      url: '/v1/responses',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({
      error: { code: 'TG_KEY_MISSING', type: 'invalid_request_error' },
    });
    const plain = await env.app.inject({
      method: 'GET',
      url: '/v1/responses',
      headers: { authorization: `Bearer ${await key({ platform: 'OpenAI' })}` },
    });
    expect(plain.statusCode).toBe(426);
    expect(plain.json()).toMatchObject({ error: { code: 'TG_WEBSOCKET_REQUIRED' } });
  });

  it.each([
    ['POST', '/v1beta/models/gemini-2.5-flash:embedContent', 'google'],
    ['GET', '/v1beta/nothing', 'google'],
    ['POST', '/v1/messages/nothing', 'anthropic'],
    ['GET', '/v1/nothing', 'openai'],
    ['GET', '/antigravity/v1/nothing', 'anthropic'],
  ])('answers unknown route %s %s with 404 in the %s shape', async (method, url, shape) => {
    const response = await env.app.inject({ method: method as 'GET' | 'POST', url });
    expect(response.statusCode).toBe(404);
    const body = response.json<{ type?: string; error: { code: unknown; status?: string } }>();
    if (shape === 'anthropic') expect(body.type).toBe('error');
    if (shape === 'openai') expect(body.error.code).toBe('TG_ROUTE_NOT_FOUND');
    if (shape === 'google') expect(body.error.status).toBe('NOT_FOUND');
  });

  it('answers a bad JSON body with 400 in the caller protocol', async () => {
    const response = await callMessages(await key(), '{"model": ');
    expect(response.statusCode).toBe(400);
    const body = (await response.body.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('TG_BAD_REQUEST');
  });

  it('answers an oversized body with 413 in the caller protocol', async () => {
    const small = buildGateway(env.store, secrets, { config: { bodyLimitBytes: 64 } });
    try {
      const response = await small.inject({
        method: 'POST',
        url: '/v1beta/models/gemini-2.5-flash:generateContent',
        headers: {
          'content-type': 'application/json',
          'x-goog-api-key': await key({ platform: 'Gemini' }),
        },
        payload: JSON.stringify({ contents: [{ parts: [{ text: 'x'.repeat(200) }] }] }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
      expect(response.body).toContain('TG_BODY_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  it('lists what the group and key allow, in each route shape', async () => {
    const openaiKey = await key({
      platform: 'OpenAI',
      group: { modelsAllow: ['gpt-5*'] },
      overrides: { modelsAllow: ['gpt-5', 'gpt-5-mini', 'gpt-4.1'] },
    });
    const openai = await env.app.inject({
      url: '/v1/models',
      headers: { authorization: `Bearer ${openaiKey}` },
    });
    expect(openai.json()).toEqual({
      object: 'list',
      data: [
        expect.objectContaining({ id: 'gpt-5', object: 'model' }),
        expect.objectContaining({ id: 'gpt-5-mini', object: 'model' }),
      ],
    });
    const hidden = await env.app.inject({
      url: '/v1/models/gpt-4.1',
      headers: { authorization: `Bearer ${openaiKey}` },
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ error: { code: 'TG_MODEL_NOT_FOUND' } });

    const antigravityKey = await key({ platform: 'Antigravity' });
    const headers = { authorization: `Bearer ${antigravityKey}` };
    const openaiShape = await env.app.inject({ url: '/antigravity/models', headers });
    expect(openaiShape.json<{ object: string }>().object).toBe('list');
    const anthropicShape = await env.app.inject({ url: '/antigravity/v1/models', headers });
    expect(anthropicShape.json<{ data: { type: string }[] }>().data[0]?.type).toBe('model');
    const geminiShape = await env.app.inject({ url: '/antigravity/v1beta/models', headers });
    expect(geminiShape.json<{ models: { name: string }[] }>().models.map((m) => m.name)).toContain(
      'models/claude-sonnet-4-6',
    );
    const one = await env.app.inject({
      url: '/antigravity/v1beta/models/gemini-2.5-pro',
      headers,
    });
    expect(one.json()).toMatchObject({ name: 'models/gemini-2.5-pro' });
  });

  it('serves health and readiness', async () => {
    expect((await env.app.inject('/healthz')).statusCode).toBe(200);
    expect((await env.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });
});

describe('settlement and metrics', () => {
  it('settles each forwarded request once with a usage record', async () => {
    const created = await createKey(env.store, secrets, { platform: 'Anthropic', namespace });
    const response = await callMessages(created.value, message());
    const requestId = response.headers['x-tollgate-request-id'];
    await response.body.text();
    let records: { requestId: string; status: number; upstream: string | null }[] = [];
    for (let attempt = 0; attempt < 20 && records.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      records = (await env.store.pendingUsageRecords(namespace, 100)).filter(
        (record) => record.keyUid === created.policy.keyUid,
      );
    }
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ requestId, status: 200, upstream: 'anthropic-upstream' });
    const counters = await env.store.keyCounters(namespace, created.policy.keyUid, Date.now());
    expect(counters.reservedNano).toBe(0);
  });

  it('counts requests and refusals with bounded labels', async () => {
    await env.app.inject({ method: 'POST', url: '/v1/messages', payload: '{}' });
    const text = await registry.metrics();
    expect(text).toMatch(/tollgate_requests_total\{platform="Anthropic",status_class="2xx"\} \d+/);
    expect(text).toMatch(
      /tollgate_refusals_total\{platform="Anthropic",reason="TG_KEY_MISSING"\} \d+/,
    );
    expect(text).toMatch(
      /tollgate_upstream_time_to_first_byte_seconds_count\{platform="Anthropic"\} [1-9]/,
    );
    expect(text).not.toContain('sk-tg-');
  });
});
