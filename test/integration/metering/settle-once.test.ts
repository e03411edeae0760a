/**
 * Every way an admitted request can end settles it exactly once, from the one trigger (the
 * response's close): a normal completion, an upstream error status, an upstream that breaks
 * mid-stream, a refusal after admission but before forwarding, and a client that goes away before
 * the upstream answered. Each leaves one usage record, no reservation and nothing in flight.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../../store/usage-records.js';
import { STORE_KINDS, useMeteringGateway, type MeteringEnvironment } from './metering-harness.js';

const messagesBody = (stream: boolean) =>
  JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    stream,
    messages: [{ role: 'user', content: 'hello there' }],
  });

/** The key's one record, checked again later so a second settlement would show. */
async function settledOnce(env: MeteringEnvironment, keyUid: string): Promise<UsageRecord> {
  const first = await env.waitForRecords(keyUid, 1);
  await delay(200);
  const again = await env.waitForRecords(keyUid, 1);
  expect(first).toHaveLength(1);
  expect(again).toHaveLength(1);
  const counters = await env.store.keyCounters(env.namespace, keyUid, Date.now());
  expect(counters.reservedNano).toBe(0);
  expect(env.app.gateway.inFlight()).toBe(0);
  return again[0]!;
}

describe.each(STORE_KINDS)('one settlement per request on the %s store', (kind) => {
  const env = useMeteringGateway(kind);

  it('settles a completed reply once', async () => {
    const key = await env.key();
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: key.value,
      body: messagesBody(false),
    });
    expect(answer.status).toBe(200);
    const record = await settledOnce(env, key.keyUid);
    expect(record).toMatchObject({ requestId: answer.requestId, status: 200, accuracy: 'exact' });
  });

  it('settles an upstream error status once, billing nothing', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ status: 500 });
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: key.value,
      body: messagesBody(false),
    });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    const record = await settledOnce(env, key.keyUid);
    expect(record).toMatchObject({ requestId: answer.requestId, status: 500, costNano: 0 });
  });

  it('settles a stream the upstream broke once', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ chunks: 10, dropAfterChunks: 3 });
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: key.value,
      body: messagesBody(true),
    });
    expect(answer.status).toBe(200);
    const record = await settledOnce(env, key.keyUid);
    expect(record).toMatchObject({ requestId: answer.requestId, status: 200 });
    expect(record.flags).toContain('upstream-failed');
  });

  it('settles a request refused after admission, before forwarding, once', async () => {
    const key = await env.key({
      upstreams: [{ name: 'no-such-upstream', weight: 1, priority: 0 }],
    });
    const answer = await env.call({
      path: '/v1/messages',
      apiKey: key.value,
      body: messagesBody(false),
    });
    expect(answer.text).toContain('TG_NO_UPSTREAM');
    const record = await settledOnce(env, key.keyUid);
    expect(record).toMatchObject({ requestId: answer.requestId, costNano: 0, upstream: null });
    expect(env.fake.requests).toHaveLength(0);
  });

  it('settles a request whose client left before the upstream answered once', async () => {
    const key = await env.key();
    env.fake.setBehaviour({ firstByteDelayMs: 1_000 });
    const abort = new AbortController();
    const pending = request(`${env.base}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key.value },
      body: messagesBody(true),
      signal: abort.signal,
    });
    while (env.fake.requests.length === 0) await delay(10);
    abort.abort();
    await expect(pending).rejects.toThrow();
    const record = await settledOnce(env, key.keyUid);
    expect(record).toMatchObject({ costNano: 0, upstream: 'anthropic-upstream' });
  });
});
