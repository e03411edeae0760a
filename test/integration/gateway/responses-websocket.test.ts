/**
 * Responses over WebSocket (`GET /v1/responses`) through the gateway in front of the simulator's
 * HTTP Responses endpoint (the bridge: each turn is a streamed POST upstream): several turns on one
 * connection, each billed once with its own record; warm-ups; refusals before the upgrade in the
 * OpenAI shape; a refusal mid-connection as an error event; the limits (messages, idle time,
 * message size, one turn at a time).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  spend,
  writeAccount,
  writeUpstreams,
  type KeyOptions,
} from '../../support/gateway-fixture.js';
import { openResponsesSocket, refusedUpgrade } from '../../support/responses-websocket-client.js';
import { exchange } from './raw-http.js';

const secrets = newSecrets();
const namespace = 'team-websocket';
const registry = new Registry();
let store: Store;
let fake: FakeProvider;
let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  store = await openStore('memory', '');
  fake = await startFakeProvider({ keepRequests: 100 });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets, {
    registry,
    config: {
      websocketMaxMessages: 4,
      websocketIdleTimeoutMs: 1_000,
      websocketMaxMessageBytes: 64 * 1024,
    },
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await fake.close();
  await store.close();
});

beforeEach(() => {
  fake.reset();
});

async function newKey(options: Partial<KeyOptions> = {}) {
  return createKey(store, secrets, { platform: 'OpenAI', namespace, ...options });
}

const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

function userText(text: string) {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

const create = (input: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'response.create',
  model: 'gpt-5.4',
  store: false,
  input,
  ...extra,
});

async function recordsOf(keyUid: string, count: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const records = (await store.pendingUsageRecords(namespace, 1_000)).filter(
      (record) => record.keyUid === keyUid,
    );
    if (records.length >= count) return records;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${count} usage records`);
}

const closedTooLarge = 'tollgate_websocket_closes_total{reason="too_large"}';

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100 && !(await check()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function metric(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(name));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('turns on one connection', () => {
  it('forwards each response.create as one streamed call, billed once with its own record', async () => {
    const { value, policy } = await newKey();
    const client = await openResponsesSocket(base, bearer(value));
    const first = await client.turn(create([userText('hello')]));
    expect(first.map((event) => event.type)).toContain('response.output_text.delta');
    const completed = first.at(-1) as { type: string; response: { id: string } };
    expect(completed.type).toBe('response.completed');

    // Incremental input, chained: the upstream gets the whole conversation over HTTP.
    const second = await client.turn(
      create([userText('and again')], { previous_response_id: completed.response.id }),
    );
    expect(second.at(-1)?.type).toBe('response.completed');
    const third = await client.turn(create([userText('a fresh start')]));
    expect(third.at(-1)?.type).toBe('response.completed');
    client.socket.close();

    const forwarded = fake.requests.filter((request) => request.path === '/v1/responses');
    expect(forwarded).toHaveLength(3);
    for (const request of forwarded) {
      expect(request.method).toBe('POST');
      const body = request.body as Record<string, unknown>;
      expect(body.stream).toBe(true);
      expect(body.type).toBeUndefined();
      expect(body.previous_response_id).toBeUndefined();
    }
    const chained = (forwarded[1]?.body as { input: { type: string; role?: string }[] }).input;
    expect(chained.map((item) => item.type)).toEqual(['message', 'message', 'message']);
    expect(chained.map((item) => item.role)).toEqual(['user', 'assistant', 'user']);

    const records = await recordsOf(policy.keyUid, 3);
    expect(records).toHaveLength(3);
    expect(new Set(records.map((record) => record.requestId)).size).toBe(3);
    expect(records.every((record) => record.accuracy === 'exact' && record.costNano > 0)).toBe(
      true,
    );
    expect(records.every((record) => record.stream && record.status === 200)).toBe(true);
  });

  it('answers a warm-up (generate: false) itself, and chains from it', async () => {
    const { value, policy } = await newKey();
    const client = await openResponsesSocket(base, bearer(value));
    const warmup = await client.turn(create([userText('context')], { generate: false }));
    expect(warmup.map((event) => event.type)).toEqual(['response.created', 'response.completed']);
    const id = (warmup[1] as { response: { id: string; output: unknown[] } }).response.id;
    const turn = await client.turn(create([userText('go')], { previous_response_id: id }));
    expect(turn.at(-1)?.type).toBe('response.completed');
    client.socket.close();
    const forwarded = fake.requests.filter((request) => request.path === '/v1/responses');
    expect(forwarded).toHaveLength(1);
    expect((forwarded[0]?.body as { input: unknown[] }).input).toHaveLength(2);
    expect(await recordsOf(policy.keyUid, 1)).toHaveLength(1);
  });

  it('refuses an unknown previous_response_id and a second turn while one runs', async () => {
    const { value } = await newKey();
    const client = await openResponsesSocket(base, bearer(value));
    const unknown = await client.turn(create([], { previous_response_id: 'resp_nothing' }));
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({
      type: 'error',
      status: 400,
      error: { code: 'TG_WEBSOCKET_PREVIOUS_RESPONSE_NOT_FOUND' },
    });
    fake.setBehaviour({ chunkGapMs: 100 });
    client.socket.send(JSON.stringify(create([userText('slow')])));
    const busy = await client.turn(create([userText('too early')]));
    // The first event of the running turn may come first; the refusal is the second turn's answer.
    const refusal = busy.find((event) => event.type === 'error') as { status: number } | undefined;
    expect(refusal?.status).toBe(409);
    client.socket.close();
  });
  it('ends a turn whose client leaves mid-stream like a closed HTTP call: one record', async () => {
    const { value, policy } = await newKey();
    fake.setBehaviour({ chunkGapMs: 200, chunks: 10 });
    const client = await openResponsesSocket(base, bearer(value));
    client.socket.send(JSON.stringify(create([userText('long')])));
    expect((await client.next()).type).toBe('response.created');
    client.socket.terminate();
    const [record] = await recordsOf(policy.keyUid, 1);
    expect(record?.status).toBe(200);
    expect(await store.keyCounters(namespace, policy.keyUid, Date.now())).toMatchObject({
      reservedNano: 0,
    });
  });
  it('holds the upstream back while the client does not read, instead of buffering the stream', async () => {
    const { value, policy } = await newKey();
    // About 20 MB of events, far past what the gateway may queue for one socket.
    const chunks = 150_000;
    fake.setBehaviour({ chunks });
    const client = await openResponsesSocket(base, bearer(value));
    client.socket.send(JSON.stringify(create([userText('a long answer')])));
    const first = await client.next();
    expect(first.type, JSON.stringify(first)).toBe('response.created');
    client.socket.pause();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // The turn cannot have ended: the gateway waits for the client before it reads on.
    const settled = (await store.pendingUsageRecords(namespace, 1_000)).filter(
      (record) => record.keyUid === policy.keyUid,
    );
    expect(settled).toHaveLength(0);
    client.socket.resume();
    let deltas = 0;
    for (;;) {
      const event = await client.next();
      if (event.type === 'response.output_text.delta') deltas += 1;
      if (event.type === 'response.completed') break;
    }
    expect(deltas).toBe(chunks);
    expect(await recordsOf(policy.keyUid, 1)).toHaveLength(1);
    client.socket.close();
  }, 60_000);
});

describe('refusals', () => {
  it('refuses an upgrade without a key, with an unknown key, or from a denied address', async () => {
    const missing = await refusedUpgrade(base, {});
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('TG_KEY_MISSING');
    const unknown = await refusedUpgrade(base, bearer('sk-tg-unknown'));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('TG_KEY_UNKNOWN');
    const { value } = await newKey({
      overrides: { sourceRanges: { allow: ['10.0.0.0/8'], deny: [] } },
    });
    const denied = await refusedUpgrade(base, bearer(value));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: 'TG_SOURCE_DENIED', type: 'permission_error' });
    const metrics = await registry.metrics();
    expect(
      metric(metrics, 'tollgate_websocket_upgrades_total{outcome="refused"}'),
    ).toBeGreaterThanOrEqual(3);
  });

  it('sends a refusal mid-connection as an error event and keeps the connection', async () => {
    const { value, policy } = await newKey({
      overrides: {
        limits: { quotaNano: 1_000_000_000, fiveHourNano: 0, dailyNano: 0, sevenDayNano: 0 },
      },
    });
    const client = await openResponsesSocket(base, bearer(value));
    expect((await client.turn(create([userText('hi')]))).at(-1)?.type).toBe('response.completed');
    await recordsOf(policy.keyUid, 1);
    await spend(store, policy, 1_000_000_000);
    const refused = await client.turn(create([userText('more')]));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      type: 'error',
      status: 429,
      error: { code: 'TG_QUOTA_EXHAUSTED', type: 'insufficient_quota' },
    });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
    client.socket.close();
  });

  it('holds a concurrency slot per running turn, not per open connection', async () => {
    const { value } = await newKey({ overrides: { maxConcurrent: 1 } });
    const first = await openResponsesSocket(base, bearer(value));
    const second = await openResponsesSocket(base, bearer(value));
    // Both connections open, one turn each in turn: one slot is enough.
    expect((await first.turn(create([userText('a')]))).at(-1)?.type).toBe('response.completed');
    expect((await second.turn(create([userText('b')]))).at(-1)?.type).toBe('response.completed');
    // While the first connection's turn runs, the second's is refused as any second call is.
    fake.setBehaviour({ chunkGapMs: 100 });
    first.socket.send(JSON.stringify(create([userText('slow')])));
    expect((await first.next()).type).toBe('response.created');
    const refused = await second.turn(create([userText('now')]));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      type: 'error',
      status: 429,
      error: { code: 'TG_KEY_CONCURRENCY' },
    });
    first.socket.close();
    second.socket.close();
  });

  it('tells a plain GET /v1/responses to upgrade', async () => {
    const { value } = await newKey();
    const response = await fetch(`${base}/v1/responses`, { headers: bearer(value) });
    expect(response.status).toBe(426);
    expect(await response.json()).toMatchObject({ error: { code: 'TG_WEBSOCKET_REQUIRED' } });
  });
});

describe('other upgrades', () => {
  it('answers a POST asking for h2c (curl --http2 on http://) over HTTP/1.1 as before', async () => {
    const { value } = await newKey();
    const body = JSON.stringify({ model: 'gpt-5.4', input: 'hi' });
    const head = [
      'POST /v1/responses HTTP/1.1',
      'Host: gateway',
      'Connection: Upgrade, HTTP2-Settings',
      'Upgrade: h2c',
      'HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA',
      `Authorization: Bearer ${value}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
    ].join('\r\n');
    // The body arrives in two writes: the part after the head is read from the socket again.
    const port = Number(new URL(base).port);
    const response = await exchange(
      port,
      [
        `${head}\r\n\r\n${body.slice(0, 5)}`,
        body.slice(5),
        'GET /healthz HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n',
      ],
      50,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.split('HTTP/1.1')[0] ?? '')).toMatchObject({
      status: 'completed',
    });
    // The connection goes on: the next request on it is parsed and answered.
    expect(response.body).toContain('HTTP/1.1 200 OK');
  });
});

describe('limits', () => {
  it('closes a connection after its message limit with an error event', async () => {
    const { value } = await newKey();
    const client = await openResponsesSocket(base, bearer(value));
    for (let turn = 0; turn < 4; turn++) {
      expect((await client.turn(create([userText(`turn ${turn}`)]))).at(-1)?.type).toBe(
        'response.completed',
      );
    }
    const over = await client.turn(create([userText('one more')]));
    expect(over[0]).toMatchObject({ type: 'error', error: { code: 'TG_WEBSOCKET_MESSAGE_LIMIT' } });
    expect((await client.closed).code).toBe(1008);
  });

  it('closes an idle connection and refuses a message over the size limit', async () => {
    const { value } = await newKey();
    const idle = await openResponsesSocket(base, bearer(value));
    expect(await idle.closed).toEqual({ code: 1000, reason: 'idle timeout' });
    const large = await openResponsesSocket(base, bearer(value));
    large.socket.send(JSON.stringify(create([userText('x'.repeat(100 * 1024))])));
    expect((await large.closed).code).toBe(1009);
    // The gateway's side of the connection closes once the close handshake ends.
    await until(async () => metric(await registry.metrics(), closedTooLarge) >= 1);
    const metrics = await registry.metrics();
    expect(
      metric(metrics, 'tollgate_websocket_closes_total{reason="idle"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      metric(metrics, 'tollgate_websocket_closes_total{reason="too_large"}'),
    ).toBeGreaterThanOrEqual(1);
  });
});
