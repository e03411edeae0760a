/**
 * Failover before the first byte, the shared cool-down, the circuit, requests per minute and
 * sticky sessions, against real upstreams: the fake provider (slow headers, 429 / 500 / 529, a
 * stream dropped after its first frames) and tiny node:http servers (429 with and without reset
 * headers, a 400), plus a closed port (connection refused). Memory store; the suite sharing a
 * cool-down between two gateways on one Redis is `upstream-cooldown-shared.test.ts`.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import {
  anthropicError,
  inOrder,
  messageBody,
  poolKey,
  putUpstream,
  sessionBody,
  settledRecord,
  TinyServers,
} from './upstream-failover-setup.js';

const secrets = newSecrets();
const namespace = 'team-failover';
const registry = new Registry();
const tiny = new TinyServers();
const POLICY = { failureThreshold: 3, baseCooldownMs: 5_000, maxCooldownMs: 300_000 };
let store: Store;
let first: FakeProvider;
let second: FakeProvider;
let app: FastifyInstance;
let base: string;
/** Sticky-session tests pick with this; everything else takes the first of a priority. */
let nextRandom = 0;

beforeAll(async () => {
  store = await openStore('memory', '');
  first = await startFakeProvider({ keepRequests: 1_000 });
  second = await startFakeProvider({ keepRequests: 1_000 });
  await writeUpstreams(store, { secrets, baseURL: first.url });
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets, {
    registry,
    random: () => nextRandom,
    config: {
      // These tests change the shared health between calls as another replica would; how long a
      // replica may reuse a clean claim is cache-clean-claims.test.ts's subject.
      upstreamClaimCacheMs: 0,
      headersTimeoutMs: 400,
      connectTimeoutMs: 500,
      upstreamCooldownBaseMs: POLICY.baseCooldownMs,
      upstreamFailureThreshold: POLICY.failureThreshold,
    },
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await Promise.all([first.close(), second.close(), tiny.close()]);
  await store.close();
});

async function call(apiKey: string, body = messageBody(), headers: Record<string, string> = {}) {
  const response = await request(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...headers },
    body,
  });
  const text = await response.body.text();
  const requestId = String(response.headers['x-tollgate-request-id']);
  return { status: response.statusCode, headers: response.headers, text, requestId };
}

async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const found = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const values = (found?.values ?? []) as { labels: Record<string, unknown>; value: number }[];
  const value = values.find((entry) =>
    Object.entries(labels).every(([label, wanted]) => entry.labels[label] === wanted),
  );
  return value?.value ?? 0;
}

async function healthOf(upstream: string) {
  return (await store.upstreamHealth([upstream], Date.now())).get(upstream);
}

describe('failover before the first byte', () => {
  it('goes to the next upstream after a refused connection; the record names both attempts', async () => {
    const refused = await putUpstream(store, secrets, {
      prefix: 'refused',
      baseURL: await tiny.refused(),
    });
    const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(refused, serving),
    });
    second.reset();
    const answer = await call(apiKey);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'message' });
    expect(second.requests).toHaveLength(1);
    // The body replayed on the second upstream is the caller's, byte for byte.
    expect(second.requests[0]?.rawBody).toBe(messageBody());
    const record = await settledRecord(store, namespace, answer.requestId);
    expect(record).toMatchObject({ upstream: serving, attempts: 2, status: 200 });
    expect(record.costNano).toBeGreaterThan(0);
    expect(
      await metric('tollgate_upstream_attempts_total', {
        upstream: refused,
        outcome: 'connect_error',
      }),
    ).toBe(1);
    expect(
      await metric('tollgate_upstream_failovers_total', {
        upstream: refused,
        reason: 'connect_error',
      }),
    ).toBe(1);
    expect(
      await metric('tollgate_upstream_attempts_total', { upstream: serving, outcome: 'ok' }),
    ).toBe(1);
  });

  it('goes to the next upstream when the first is too slow with its headers', async () => {
    const slowProvider = await startFakeProvider();
    try {
      slowProvider.setBehaviour({ firstByteDelayMs: 2_000 });
      const slow = await putUpstream(store, secrets, {
        prefix: 'slow',
        baseURL: slowProvider.url,
      });
      const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: second.url });
      const apiKey = await poolKey(store, secrets, {
        namespace,
        upstreams: inOrder(slow, serving),
      });
      const answer = await call(apiKey);
      expect(answer.status).toBe(200);
      const record = await settledRecord(store, namespace, answer.requestId);
      expect(record).toMatchObject({ upstream: serving, attempts: 2 });
      expect(
        await metric('tollgate_upstream_attempts_total', { upstream: slow, outcome: 'timeout' }),
      ).toBe(1);
    } finally {
      await slowProvider.close();
    }
  });

  it('opens the circuit after consecutive 500s and skips the upstream, then probes it once', async () => {
    const failing = await startFakeProvider({ keepRequests: 1_000 });
    try {
      failing.setBehaviour({ status: 500 });
      const broken = await putUpstream(store, secrets, { prefix: 'broken', baseURL: failing.url });
      const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: second.url });
      const apiKey = await poolKey(store, secrets, {
        namespace,
        upstreams: inOrder(broken, serving),
      });
      for (let index = 0; index < POLICY.failureThreshold; index++) {
        expect((await call(apiKey)).status).toBe(200);
      }
      expect(failing.requests).toHaveLength(POLICY.failureThreshold);
      const health = await healthOf(broken);
      expect(health).toMatchObject({ state: 'CircuitOpen', cause: 'failed' });
      expect(health?.until).toBeGreaterThan(Date.now() + POLICY.baseCooldownMs - 1_000);
      const skipped = await call(apiKey);
      expect(skipped.status).toBe(200);
      expect(failing.requests).toHaveLength(POLICY.failureThreshold);
      expect((await settledRecord(store, namespace, skipped.requestId)).attempts).toBe(1);
      expect(
        await metric('tollgate_upstream_cooldowns_total', {
          upstream: broken,
          reason: 'circuit_open',
        }),
      ).toBe(1);
    } finally {
      await failing.close();
    }
  });

  it('cools an upstream down after a 529 without reset headers (backoff) and skips it', async () => {
    const overloaded = await startFakeProvider({ keepRequests: 1_000 });
    try {
      overloaded.setBehaviour({ status: 529 });
      const busy = await putUpstream(store, secrets, { prefix: 'busy', baseURL: overloaded.url });
      const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: second.url });
      const apiKey = await poolKey(store, secrets, {
        namespace,
        upstreams: inOrder(busy, serving),
      });
      const before = Date.now();
      expect((await call(apiKey)).status).toBe(200);
      const health = await healthOf(busy);
      expect(health).toMatchObject({ state: 'CoolingDown', cause: 'overloaded' });
      expect(health?.until).toBeGreaterThanOrEqual(before + POLICY.baseCooldownMs);
      expect(health?.until).toBeLessThanOrEqual(Date.now() + POLICY.baseCooldownMs);
      expect((await call(apiKey)).status).toBe(200);
      expect(overloaded.requests).toHaveLength(1);
      expect(
        await metric('tollgate_upstream_failovers_total', { upstream: busy, reason: 'status_529' }),
      ).toBe(1);
    } finally {
      await overloaded.close();
    }
  });

  it.each([
    ['retry-after seconds', { 'retry-after': '40' }, 40_000],
    [
      'Anthropic reset headers',
      {
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': 'RESET',
      },
      90_000,
    ],
    ['no reset header (backoff)', {}, POLICY.baseCooldownMs],
  ])('cools a 429 down until the reset time: %s', async (_name, headers, expectedMs) => {
    const resetAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + expectedMs).toISOString();
    const resolved = Object.fromEntries(
      Object.entries(headers).map(([header, value]) => [
        header,
        value === 'RESET' ? resetAt : value,
      ]),
    );
    const limited = await putUpstream(store, secrets, {
      prefix: 'limited',
      baseURL: await tiny.start(anthropicError(429, resolved)),
    });
    const serving = await putUpstream(store, secrets, { prefix: 'serving', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(limited, serving),
    });
    const before = Date.now();
    const answer = await call(apiKey);
    expect(answer.status).toBe(200);
    const health = await healthOf(limited);
    expect(health).toMatchObject({ state: 'CoolingDown', cause: 'rate-limited' });
    expect(health?.until).toBeGreaterThanOrEqual(before + expectedMs - 1_000);
    expect(health?.until).toBeLessThanOrEqual(Date.now() + expectedMs + 1_000);
    expect(
      await metric('tollgate_upstream_cooldowns_total', {
        upstream: limited,
        reason: 'rate_limited',
      }),
    ).toBe(1);
  });

  it('cools a Gemini 429 down until its RetryInfo delay', async () => {
    const limited = await putUpstream(store, secrets, {
      prefix: 'gemini-limited',
      platform: 'Gemini',
      baseURL: await tiny.start((_request, response) => {
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              code: 429,
              message: 'quota',
              status: 'RESOURCE_EXHAUSTED',
              details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '45s' }],
            },
          }),
        );
      }),
    });
    const serving = await putUpstream(store, secrets, {
      prefix: 'gemini-ok',
      platform: 'Gemini',
      baseURL: second.url,
    });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      platform: 'Gemini',
      upstreams: inOrder(limited, serving),
    });
    const before = Date.now();
    const response = await request(`${base}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
    });
    expect(response.statusCode).toBe(200);
    await response.body.text();
    const health = await healthOf(limited);
    expect(health).toMatchObject({ state: 'CoolingDown', cause: 'rate-limited' });
    expect(health?.until).toBeGreaterThanOrEqual(before + 45_000);
    expect(health?.until).toBeLessThanOrEqual(Date.now() + 45_000);
  });

  it('lets one probe through a half-open circuit; its success closes the circuit', async () => {
    const recovered = await putUpstream(store, secrets, {
      prefix: 'recovered',
      baseURL: first.url,
    });
    const spare = await putUpstream(store, secrets, { prefix: 'spare', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(recovered, spare),
    });
    // Opened long enough ago that the open period is over: the circuit is half-open.
    const past = Date.now() - 2 * POLICY.baseCooldownMs;
    for (let index = 0; index < POLICY.failureThreshold; index++) {
      await store.reportUpstreamFailure({
        upstream: recovered,
        kind: 'failed',
        resetAt: null,
        now: past,
        policy: POLICY,
      });
    }
    expect((await healthOf(recovered))?.state).toBe('CircuitOpen');
    const probe = await call(apiKey);
    expect(probe.status).toBe(200);
    expect((await settledRecord(store, namespace, probe.requestId)).upstream).toBe(recovered);
    for (
      let attempt = 0;
      attempt < 50 && (await healthOf(recovered))?.state !== 'Healthy';
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await healthOf(recovered)).toMatchObject({ state: 'Healthy', failures: 0 });
  });

  it('passes a 400 through without trying another upstream', async () => {
    const refusing = await putUpstream(store, secrets, {
      prefix: 'refusing',
      baseURL: await tiny.start(anthropicError(400)),
    });
    const spare = await putUpstream(store, secrets, { prefix: 'spare', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(refusing, spare),
    });
    second.reset();
    const answer = await call(apiKey);
    expect(answer.status).toBe(400);
    expect(second.requests).toHaveLength(0);
    expect(await settledRecord(store, namespace, answer.requestId)).toMatchObject({
      upstream: refusing,
      attempts: 1,
      costNano: 0,
    });
    expect((await healthOf(refusing))?.state).toBe('Healthy');
  });

  it('never retries once bytes went to the caller: the stream error reaches it, billed once', async () => {
    const dropping = await startFakeProvider();
    try {
      dropping.setBehaviour({ dropAfterChunks: 3, chunks: 6 });
      const broken = await putUpstream(store, secrets, { prefix: 'drops', baseURL: dropping.url });
      const spare = await putUpstream(store, secrets, { prefix: 'spare', baseURL: second.url });
      const apiKey = await poolKey(store, secrets, {
        namespace,
        upstreams: inOrder(broken, spare),
      });
      second.reset();
      const answer = await call(apiKey, messageBody({ stream: true }));
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('event: message_start');
      expect(answer.text).toContain('event: error');
      expect(second.requests).toHaveLength(0);
      const record = await settledRecord(store, namespace, answer.requestId);
      expect(record).toMatchObject({ upstream: broken, attempts: 1, status: 200 });
      expect(record.flags).toContain('upstream-failed');
      expect(
        await metric('tollgate_upstream_attempts_total', {
          upstream: broken,
          outcome: 'stream_error',
        }),
      ).toBe(1);
    } finally {
      await dropping.close();
    }
  });

  it('answers a whole reply broken mid-body with an error in the caller protocol, not retried', async () => {
    const breaking = await putUpstream(store, secrets, {
      prefix: 'half',
      baseURL: await tiny.start((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
        response.write('{"id":"msg_half","type":"message","content":[');
        setTimeout(() => response.destroy(), 20);
      }),
    });
    const spare = await putUpstream(store, secrets, { prefix: 'half-spare', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(breaking, spare),
    });
    second.reset();
    const answer = await call(apiKey);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(second.requests).toHaveLength(0);
    const record = await settledRecord(store, namespace, answer.requestId);
    expect(record).toMatchObject({ upstream: breaking, attempts: 1, status: 502 });
    expect(record.flags).toContain('upstream-failed');
    expect(
      await metric('tollgate_upstream_attempts_total', {
        upstream: breaking,
        outcome: 'stream_error',
      }),
    ).toBe(1);
  });

  it('stops after the configured attempts and answers the last failure', async () => {
    const names: string[] = [];
    for (let index = 0; index < 4; index++) {
      names.push(
        await putUpstream(store, secrets, {
          prefix: `down${index}`,
          baseURL: await tiny.refused(),
        }),
      );
    }
    const apiKey = await poolKey(store, secrets, { namespace, upstreams: inOrder(...names) });
    const answer = await call(apiKey);
    expect(answer.status).toBe(502);
    expect(answer.text).toContain('TG_UPSTREAM_UNREACHABLE');
    const record = await settledRecord(store, namespace, answer.requestId);
    expect(record).toMatchObject({ attempts: 3, costNano: 0, upstream: names[2] });
  });
});

describe('every upstream cooling down', () => {
  it('answers 429 in the caller protocol with retry-after = the earliest reset', async () => {
    const a = await putUpstream(store, secrets, {
      prefix: 'cool-a',
      baseURL: await tiny.start(anthropicError(429, { 'retry-after': '30' })),
    });
    const b = await putUpstream(store, secrets, {
      prefix: 'cool-b',
      baseURL: await tiny.start(anthropicError(429, { 'retry-after': '50' })),
    });
    const apiKey = await poolKey(store, secrets, { namespace, upstreams: inOrder(a, b) });
    // Both answer 429: the last one's answer passes through.
    const firstAnswer = await call(apiKey);
    expect(firstAnswer.status).toBe(429);
    expect(firstAnswer.headers['retry-after']).toBe('50');
    // Both cool down now: nothing is sent, the caller gets the pool's 429 through the SDK.
    const client = new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
    const error = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'x' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const limited = error as InstanceType<typeof Anthropic.RateLimitError>;
    expect(limited.status).toBe(429);
    expect(JSON.stringify(limited.error)).toContain('TG_UPSTREAMS_RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(28);
    expect(retryAfter).toBeLessThanOrEqual(30);
  });

  it('answers 503 in the Google shape when every circuit is open', async () => {
    const gemini = await putUpstream(store, secrets, {
      prefix: 'open-gemini',
      platform: 'Gemini',
      baseURL: first.url,
    });
    const now = Date.now();
    for (let index = 0; index < POLICY.failureThreshold; index++) {
      await store.reportUpstreamFailure({
        upstream: gemini,
        kind: 'failed',
        resetAt: null,
        now,
        policy: POLICY,
      });
    }
    const apiKey = await poolKey(store, secrets, {
      namespace,
      platform: 'Gemini',
      upstreams: inOrder(gemini),
    });
    first.reset();
    const response = await request(`${base}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
    });
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers['retry-after'])).toBe(POLICY.baseCooldownMs / 1000);
    const body = (await response.body.json()) as { error: { code: number; status: string } };
    expect(body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
    expect(JSON.stringify(body)).toContain('TG_UPSTREAMS_UNAVAILABLE');
    expect(first.requests).toHaveLength(0);
  });
});

describe('requests per minute', () => {
  it('skips an upstream at its limit instead of waiting', async () => {
    const limited = await putUpstream(store, secrets, {
      prefix: 'rpm',
      baseURL: first.url,
      requestsPerMinute: 1,
    });
    const spare = await putUpstream(store, secrets, { prefix: 'spare', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, { namespace, upstreams: inOrder(limited, spare) });
    first.reset();
    second.reset();
    const firstAnswer = await call(apiKey);
    const secondAnswer = await call(apiKey);
    expect([firstAnswer.status, secondAnswer.status]).toEqual([200, 200]);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);
    expect(await settledRecord(store, namespace, secondAnswer.requestId)).toMatchObject({
      upstream: spare,
      attempts: 1,
    });
  });
});

describe('sticky sessions', () => {
  async function pair() {
    const a = await putUpstream(store, secrets, { prefix: 'sticky-a', baseURL: first.url });
    const b = await putUpstream(store, secrets, { prefix: 'sticky-b', baseURL: second.url });
    // One priority, equal weights: the weighted random order decides without a session.
    const upstreams = [a, b].map((name) => ({ name, weight: 1, priority: 0 }));
    return { a, b, apiKey: await poolKey(store, secrets, { namespace, upstreams }) };
  }

  async function servedBy(apiKey: string, body: string): Promise<string | null> {
    const answer = await call(apiKey, body);
    expect(answer.status).toBe(200);
    return (await settledRecord(store, namespace, answer.requestId)).upstream;
  }

  it('keeps a conversation on the upstream that served it, whatever the random pick', async () => {
    const { a, b, apiKey } = await pair();
    const session = randomUUID();
    nextRandom = 0.9; // weighted pick: the second of the two
    const bound = await servedBy(apiKey, sessionBody(session));
    expect(bound).toBe(b);
    const served: (string | null)[] = [];
    for (const pick of [0, 0.1, 0, 0.2]) {
      nextRandom = pick; // without the session these would all go to a
      served.push(await servedBy(apiKey, sessionBody(session)));
    }
    expect(served).toEqual([b, b, b, b]);
    // Another session is scheduled afresh.
    nextRandom = 0;
    expect(await servedBy(apiKey, sessionBody(randomUUID()))).toBe(a);
    nextRandom = 0;
  });

  it('breaks the binding when its upstream cools down, and keeps the new one after', async () => {
    const { a, b, apiKey } = await pair();
    const session = randomUUID();
    nextRandom = 0;
    expect(await servedBy(apiKey, sessionBody(session))).toBe(a);
    await store.reportUpstreamFailure({
      upstream: a,
      kind: 'rate-limited',
      resetAt: Date.now() + 60_000,
      now: Date.now(),
      policy: POLICY,
    });
    expect(await servedBy(apiKey, sessionBody(session))).toBe(b);
    // a is available again, but the conversation now lives on b.
    await store.reportUpstreamSuccess(a);
    expect(await servedBy(apiKey, sessionBody(session))).toBe(b);
    expect(await servedBy(apiKey, sessionBody(randomUUID()))).toBe(a);
  });

  it('reads the session from Codex prompt_cache_key on the Responses route', async () => {
    const a = await putUpstream(store, secrets, {
      prefix: 'codex-a',
      platform: 'OpenAI',
      baseURL: first.url,
    });
    const b = await putUpstream(store, secrets, {
      prefix: 'codex-b',
      platform: 'OpenAI',
      baseURL: second.url,
    });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      platform: 'OpenAI',
      upstreams: [a, b].map((name) => ({ name, weight: 1, priority: 0 })),
    });
    const body = JSON.stringify({ model: 'gpt-5', input: 'hi', prompt_cache_key: randomUUID() });
    const served: (string | null)[] = [];
    for (const pick of [0.9, 0, 0.1]) {
      nextRandom = pick;
      const response = await request(`${base}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body,
      });
      expect(response.statusCode).toBe(200);
      await response.body.text();
      const requestId = String(response.headers['x-tollgate-request-id']);
      served.push((await settledRecord(store, namespace, requestId)).upstream);
    }
    nextRandom = 0;
    expect(served).toEqual([b, b, b]);
  });
});

describe('through the official SDK', () => {
  it('streams from the second upstream after the first refused the connection', async () => {
    const refused = await putUpstream(store, secrets, {
      prefix: 'sdk-refused',
      baseURL: await tiny.refused(),
    });
    const serving = await putUpstream(store, secrets, { prefix: 'sdk', baseURL: second.url });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      upstreams: inOrder(refused, serving),
    });
    const client = new Anthropic({ apiKey, baseURL: base, maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'claude-sonnet-4-6',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .finalMessage();
    expect(message.content[0]?.type).toBe('text');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('fails over a translated Chat Completions call, and renders the pool refusal for the SDK', async () => {
    const refused = await putUpstream(store, secrets, {
      prefix: 'chat-refused',
      platform: 'OpenAI',
      baseURL: await tiny.refused(),
    });
    const serving = await putUpstream(store, secrets, {
      prefix: 'chat-ok',
      platform: 'OpenAI',
      baseURL: second.url,
    });
    const apiKey = await poolKey(store, secrets, {
      namespace,
      platform: 'OpenAI',
      upstreams: inOrder(refused, serving),
    });
    const client = new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBeTruthy();
    // Both upstreams paused: the pool's 503 in the OpenAI shape.
    for (const name of [refused, serving]) {
      for (let index = 0; index < POLICY.failureThreshold; index++) {
        await store.reportUpstreamFailure({
          upstream: name,
          kind: 'failed',
          resetAt: null,
          now: Date.now(),
          policy: POLICY,
        });
      }
    }
    const error = await client.chat.completions
      .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    const unavailable = error as InstanceType<typeof OpenAI.InternalServerError>;
    expect(unavailable.status).toBe(503);
    expect(unavailable.code).toBe('TG_UPSTREAMS_UNAVAILABLE');
    expect(Number(unavailable.headers.get('retry-after'))).toBeGreaterThanOrEqual(4);
  });
});
