/**
 * The first-output timeout (failover when a streamed reply sends its headers and then nothing) and
 * the stream idle timeout (a stream silent mid-way ends with the protocol's error event), against
 * real upstreams: stalling node:http servers and the fake provider, through the official SDKs and
 * raw HTTP, on every platform. Memory store (the settings travel in the key document, whose
 * round trip through both stores is in the store contract).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Registry } from 'prom-client';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { KeyPolicy } from '../../../store/policy-documents.js';
import type { Platform, Store } from '../../../store/store.js';
import type { AppConfig } from '../../../gateway/gateway-config.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
} from '../../support/gateway-fixture.js';
import { inOrder, settledRecord, TinyServers } from './upstream-failover-setup.js';
import {
  putPlatformUpstream,
  startStallingUpstream,
  STREAMED_CALLS,
  type StallingUpstream,
  type StreamedCall,
} from './stream-timeouts-setup.js';

const secrets = newSecrets();
const namespace = 'team-stream-timeouts';
const tiny = new TinyServers();
const FIRST_OUTPUT_MS = 300;
const IDLE_MS = 300;
let store: Store;
let healthy: FakeProvider;
/** Sends its first frame at once, then pauses longer than the idle timeout between frames. */
let pausing: FakeProvider;
const gateways: { app: FastifyInstance; base: string; registry: Registry }[] = [];

async function startGateway(config: Partial<AppConfig>) {
  const registry = new Registry();
  const app = buildGateway(store, secrets, {
    registry,
    config: { upstreamClaimCacheMs: 0, upstreamFailureThreshold: 1, ...config },
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const gateway = { app, base, registry };
  gateways.push(gateway);
  return gateway;
}

/** The gateway with the first-output timeout off by default (Groups turn it on). */
let main: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  store = await openStore('memory', '');
  healthy = await startFakeProvider({ keepRequests: 1_000 });
  pausing = await startFakeProvider();
  pausing.setBehaviour({ chunkGapMs: 3_000, chunks: 2 });
  await writeAccount(store, namespace);
  main = await startGateway({});
});

afterAll(async () => {
  for (const { app } of gateways) await app.close();
  await Promise.all([healthy.close(), pausing.close(), tiny.close()]);
  await store.close();
});

async function key(options: {
  platform: Platform;
  upstreams: string[];
  group?: Partial<NonNullable<KeyPolicy['group']>>;
}): Promise<string> {
  const created = await createKey(store, secrets, {
    platform: options.platform,
    namespace,
    upstreams: inOrder(...options.upstreams),
    ...(options.group === undefined ? {} : { group: options.group }),
  });
  return created.value;
}

async function metric(registry: Registry, name: string, labels: Record<string, string>) {
  const found = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const values = (found?.values ?? []) as { labels: Record<string, unknown>; value: number }[];
  const value = values.find((entry) =>
    Object.entries(labels).every(([label, wanted]) => entry.labels[label] === wanted),
  );
  return value?.value ?? 0;
}

async function recordsOf(requestId: string) {
  await settledRecord(store, namespace, requestId);
  const records = await store.pendingUsageRecords(namespace, 10_000);
  return records.filter((record) => record.requestId === requestId);
}

async function send(base: string, call: StreamedCall, apiKey: string) {
  const response = await request(`${base}${call.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...call.headers(apiKey) },
    body: call.body,
  });
  const text = await response.body.text().catch(() => '');
  const requestId = String(response.headers['x-tollgate-request-id']);
  return { status: response.statusCode, text, requestId };
}

/** Waits (bounded) until each upstream saw `count` connections closed; the caller then checks. */
async function closedBy(stalls: StallingUpstream[], count: number): Promise<void> {
  for (let round = 0; round < 200 && stalls.some((stall) => stall.closed < count); round++) {
    await sleep(10);
  }
  expect(stalls.map((stall) => stall.closed)).toEqual(stalls.map(() => count));
}

/** A pool's two upstreams of one platform: one that stalls after its headers, then a healthy one. */
async function stallingThenServing(
  prefix: string,
  platform: Platform,
  stallOptions?: Parameters<typeof startStallingUpstream>[1],
) {
  const stall = await startStallingUpstream(tiny, stallOptions);
  const stalling = await putPlatformUpstream(store, secrets, {
    prefix,
    platform,
    baseURL: stall.url,
  });
  const serving = await putPlatformUpstream(store, secrets, {
    prefix: 'serving',
    platform,
    baseURL: healthy.url,
  });
  return { stall, stalling, serving };
}

/** The data of the last `data:` line of a server-sent event stream, parsed. */
function lastEventData(text: string): unknown {
  const lines = text.split(/\r?\n/).filter((line) => line.startsWith('data:'));
  return JSON.parse((lines.at(-1) ?? '').slice('data:'.length));
}

describe('first-output timeout', () => {
  it('fails over from an upstream that stalls after its headers (Anthropic SDK, stream)', async () => {
    const { stall, stalling, serving } = await stallingThenServing('stalling', 'Anthropic');
    const apiKey = await key({
      platform: 'Anthropic',
      upstreams: [stalling, serving],
      group: { firstOutputTimeoutMs: FIRST_OUTPUT_MS },
    });
    const client = new Anthropic({ apiKey, baseURL: main.base, maxRetries: 0 });
    const { data: stream, response } = await client.messages
      .create({
        model: 'claude-sonnet-4-6',
        max_tokens: 32,
        stream: true,
        messages: [{ role: 'user', content: 'Hello' }],
      })
      .withResponse();
    let text = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
      }
    }
    expect(text).toContain('FAKE_OK');
    expect(stall.calls).toBe(1);
    await closedBy([stall], 1);
    const requestId = String(response.headers.get('x-tollgate-request-id'));
    const records = await recordsOf(requestId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ upstream: serving, attempts: 2, status: 200 });
    expect(records[0]?.flags).toContain('first-output-timeout');
    expect(records[0]?.costNano).toBeGreaterThan(0);
    const health = (await store.upstreamHealth([stalling], Date.now())).get(stalling);
    expect(health).toMatchObject({ state: 'CircuitOpen', cause: 'failed', failures: 1 });
    const labels = { upstream: stalling, outcome: 'first_output_timeout' };
    expect(await metric(main.registry, 'tollgate_upstream_attempts_total', labels)).toBe(1);
    expect(
      await metric(main.registry, 'tollgate_upstream_failovers_total', {
        upstream: stalling,
        reason: 'first_output_timeout',
      }),
    ).toBe(1);
    expect(
      await metric(main.registry, 'tollgate_upstream_cooldowns_total', {
        upstream: stalling,
        reason: 'circuit_open',
      }),
    ).toBe(1);
  });

  it('fails over past keep-alive comments, which are no output (OpenAI SDK, Responses stream)', async () => {
    const { stall, stalling, serving } = await stallingThenServing('keepalive', 'OpenAI', {
      keepAliveMs: 50,
    });
    const apiKey = await key({
      platform: 'OpenAI',
      upstreams: [stalling, serving],
      group: { firstOutputTimeoutMs: FIRST_OUTPUT_MS },
    });
    const client = new OpenAI({ apiKey, baseURL: `${main.base}/v1`, maxRetries: 0 });
    const { data: stream, response } = await client.responses
      .create({ model: 'gpt-5', input: 'Hello', stream: true })
      .withResponse();
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.completed');
    const requestId = String(response.headers.get('x-tollgate-request-id'));
    const records = await recordsOf(requestId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ upstream: serving, attempts: 2, status: 200 });
    expect(records[0]?.costNano).toBeGreaterThan(0);
    await closedBy([stall], 1);
  });

  it.each(STREAMED_CALLS.map((call) => [call.name, call] as const))(
    'relays and meters a healthy %s stream whole with the wait on',
    async (_name, call) => {
      const upstream = await putPlatformUpstream(store, secrets, {
        prefix: 'watched',
        platform: call.platform,
        baseURL: healthy.url,
      });
      const watched = await key({
        platform: call.platform,
        upstreams: [upstream],
        group: { firstOutputTimeoutMs: 5_000 },
      });
      const plain = await key({ platform: call.platform, upstreams: [upstream] });
      const [on, off] = [await send(main.base, call, watched), await send(main.base, call, plain)];
      expect([on.status, off.status]).toEqual([200, 200]);
      // The fake's streams differ only in their ids and times: same length, same text.
      const masked = (text: string) => text.replace(/[A-Za-z0-9_-]{16,}|\d{9,}/g, '#');
      expect(masked(on.text)).toBe(masked(off.text));
      const [record] = await recordsOf(on.requestId);
      const [plainRecord] = await recordsOf(off.requestId);
      expect(record).toMatchObject({ upstream, attempts: 1, accuracy: 'exact' });
      expect(record?.usage).toEqual(plainRecord?.usage);
      expect(record?.costNano).toBeGreaterThan(0);
    },
  );

  it('fails over from a reply that ends before its first complete event (no_output)', async () => {
    const cut = await tiny.start((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: message_start\ndata: {"type":"mess');
    });
    const ending = await putPlatformUpstream(store, secrets, {
      prefix: 'ending',
      platform: 'Anthropic',
      baseURL: cut,
    });
    const serving = await putPlatformUpstream(store, secrets, {
      prefix: 'serving',
      platform: 'Anthropic',
      baseURL: healthy.url,
    });
    const apiKey = await key({
      platform: 'Anthropic',
      upstreams: [ending, serving],
      group: { firstOutputTimeoutMs: 5_000 },
    });
    const answer = await send(main.base, STREAMED_CALLS[0] as StreamedCall, apiKey);
    expect(answer.status).toBe(200);
    // The caller sees the serving upstream's stream only, from its first byte.
    expect(answer.text.startsWith('event: message_start')).toBe(true);
    expect(answer.text.split('event: message_start')).toHaveLength(2);
    expect(answer.text).toContain('message_stop');
    const records = await recordsOf(answer.requestId);
    expect(records[0]).toMatchObject({ upstream: serving, attempts: 2 });
    expect(records[0]?.flags).not.toContain('first-output-timeout');
    expect(
      await metric(main.registry, 'tollgate_upstream_failovers_total', {
        upstream: ending,
        reason: 'no_output',
      }),
    ).toBe(1);
  });

  it('aborts the waiting attempt when the client goes away, reporting no upstream failure', async () => {
    const stall = await startStallingUpstream(tiny);
    const stalling = await putPlatformUpstream(store, secrets, {
      prefix: 'left',
      platform: 'Anthropic',
      baseURL: stall.url,
    });
    const apiKey = await key({
      platform: 'Anthropic',
      upstreams: [stalling],
      group: { firstOutputTimeoutMs: 60_000 },
    });
    const call = STREAMED_CALLS[0] as StreamedCall;
    const controller = new AbortController();
    const pending = request(`${main.base}${call.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...call.headers(apiKey) },
      body: call.body,
      signal: controller.signal,
    }).catch((error: unknown) => error);
    for (let round = 0; round < 200 && stall.calls === 0; round++) await sleep(10);
    expect(stall.calls).toBe(1);
    controller.abort();
    await pending;
    // Long before the 60 s wait would end: the attempt under way was aborted with the call.
    await closedBy([stall], 1);
    const health = (await store.upstreamHealth([stalling], Date.now())).get(stalling);
    expect(health?.failures ?? 0).toBe(0);
  });

  it.each(STREAMED_CALLS.map((call) => [call.name, call] as const))(
    'answers %s in its own error shape when every upstream stalls',
    async (_name, call) => {
      const stalls = [await startStallingUpstream(tiny), await startStallingUpstream(tiny)];
      const names: string[] = [];
      for (const stall of stalls) {
        names.push(
          await putPlatformUpstream(store, secrets, {
            prefix: 'stall',
            platform: call.platform,
            baseURL: stall.url,
          }),
        );
      }
      const apiKey = await key({
        platform: call.platform,
        upstreams: names,
        group: { firstOutputTimeoutMs: FIRST_OUTPUT_MS },
      });
      const answer = await send(main.base, call, apiKey);
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.text)).toMatchObject(
        call.expectedError('TG_UPSTREAM_FIRST_OUTPUT_TIMEOUT') as object,
      );
      // Each stalling upstream was called once and its reply aborted (its connection closed).
      await closedBy(stalls, 1);
      expect(stalls.map((stall) => [stall.calls, stall.closed])).toEqual([
        [1, 1],
        [1, 1],
      ]);
      const records = await recordsOf(answer.requestId);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 504, attempts: 2, costNano: 0 });
      expect(records[0]?.flags).toContain('first-output-timeout');
    },
  );

  it('is off for a group without the setting when the gateway default is off', async () => {
    const { stalling, serving } = await stallingThenServing('unwatched', 'Anthropic');
    const apiKey = await key({
      platform: 'Anthropic',
      upstreams: [stalling, serving],
      group: { streamIdleTimeoutMs: IDLE_MS },
    });
    const call = STREAMED_CALLS[0] as StreamedCall;
    const before = healthy.requests.length;
    const answer = await send(main.base, call, apiKey);
    // Committed at the headers: no failover; the silence ends it as an idle stream.
    expect(answer.status).toBe(200);
    expect(lastEventData(answer.text)).toMatchObject(
      call.expectedError('TG_UPSTREAM_IDLE_TIMEOUT') as object,
    );
    expect(healthy.requests.length).toBe(before);
    const records = await recordsOf(answer.requestId);
    expect(records[0]).toMatchObject({ upstream: stalling, attempts: 1 });
    expect(records[0]?.flags).toEqual(expect.arrayContaining(['stream-idle-timeout']));
    expect(records[0]?.flags).not.toContain('first-output-timeout');
  });

  it("takes the gateway's default for groups without the setting; a group's 0 turns it off", async () => {
    const gateway = await startGateway({ firstOutputTimeoutMs: FIRST_OUTPUT_MS });
    const call = STREAMED_CALLS[0] as StreamedCall;
    const { stalling, serving } = await stallingThenServing('defaulted', 'Anthropic');
    const defaulted = await key({ platform: 'Anthropic', upstreams: [stalling, serving] });
    const failedOver = await send(gateway.base, call, defaulted);
    expect(failedOver.status).toBe(200);
    expect(failedOver.text).toContain('message_stop');
    expect((await recordsOf(failedOver.requestId))[0]).toMatchObject({
      upstream: serving,
      attempts: 2,
    });
    const stall2 = await startStallingUpstream(tiny);
    const unwatched = await putPlatformUpstream(store, secrets, {
      prefix: 'group-off',
      platform: 'Anthropic',
      baseURL: stall2.url,
    });
    const off = await key({
      platform: 'Anthropic',
      upstreams: [unwatched, serving],
      group: { firstOutputTimeoutMs: 0, streamIdleTimeoutMs: IDLE_MS },
    });
    const committed = await send(gateway.base, call, off);
    expect(committed.status).toBe(200);
    expect((await recordsOf(committed.requestId))[0]).toMatchObject({
      upstream: unwatched,
      attempts: 1,
    });
  });
});

describe('stream idle timeout', () => {
  it.each(STREAMED_CALLS.map((call) => [call.name, call] as const))(
    'ends a %s stream silent mid-way with the protocol error and bills what it delivered',
    async (_name, call) => {
      const upstream = await putPlatformUpstream(store, secrets, {
        prefix: 'pausing',
        platform: call.platform,
        baseURL: pausing.url,
      });
      const apiKey = await key({
        platform: call.platform,
        upstreams: [upstream],
        group: { streamIdleTimeoutMs: IDLE_MS },
      });
      const answer = await send(main.base, call, apiKey);
      expect(answer.status).toBe(200);
      if (call.expectedEvent !== null) {
        expect(lastEventData(answer.text)).toMatchObject(
          call.expectedEvent('TG_UPSTREAM_IDLE_TIMEOUT') as object,
        );
      }
      const records = await recordsOf(answer.requestId);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ upstream, attempts: 1, status: 200 });
      expect(records[0]?.flags).toEqual(
        expect.arrayContaining(['upstream-failed', 'stream-idle-timeout']),
      );
      if (call.platform === 'Anthropic') {
        // message_start reported the input: billed, the output estimated from what was relayed.
        expect(records[0]?.costNano).toBeGreaterThan(0);
      }
      expect(
        await metric(main.registry, 'tollgate_upstream_attempts_total', {
          upstream,
          outcome: 'stream_idle_timeout',
        }),
      ).toBe(1);
    },
  );
});
