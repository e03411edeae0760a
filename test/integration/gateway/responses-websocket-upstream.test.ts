/**
 * Responses over WebSocket forwarded over the upstream's own WebSocket (`responsesWebSocket` on the
 * upstream), with the simulator's WebSocket endpoint as the upstream: a client connection's turns
 * go over one upstream socket, each billed once with its own record; chaining sends only the new
 * input with `previous_response_id`; an upstream that refuses the upgrade is served over HTTP; an
 * error event before the first event fails over; a client that leaves mid-turn ends the turn with
 * one record and the upstream socket is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  putApiKeyUpstream,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { openResponsesSocket } from '../../support/responses-websocket-client.js';

const secrets = newSecrets();
const namespace = 'team-websocket-upstream';
const BETA = 'responses_websockets=2026-02-06';
let store: Store;
/** Serves the WebSocket mode. */
let socketed: FakeProvider;
/** Answers an upgrade as plain HTTP (no WebSocket mode). */
let plain: FakeProvider;
/** Serves the WebSocket mode, answering every turn with a 500 error event. */
let failing: FakeProvider;
let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  store = await openStore('memory', '');
  [socketed, plain, failing] = await Promise.all([
    startFakeProvider({ keepRequests: 100 }),
    startFakeProvider({ keepRequests: 100, websocket: false }),
    startFakeProvider({ keepRequests: 100 }),
  ]);
  failing.setBehaviour({ status: 500 }, '/v1/responses');
  await writeUpstreams(store, { secrets, baseURL: socketed.url });
  const upstreams = [
    { name: 'ws-socketed', baseURL: socketed.url },
    { name: 'ws-plain', baseURL: plain.url },
    { name: 'ws-failing', baseURL: failing.url },
  ];
  for (const upstream of upstreams) {
    await putApiKeyUpstream(store, secrets, {
      ...upstream,
      platform: 'OpenAI',
      responsesWebSocket: true,
    });
  }
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets, { registry: new Registry() });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await Promise.all([socketed.close(), plain.close(), failing.close()]);
  await store.close();
});

async function newKey(upstreams: { name: string; priority: number }[]) {
  return createKey(store, secrets, {
    platform: 'OpenAI',
    namespace,
    upstreams: upstreams.map((upstream) => ({ ...upstream, weight: 1 })),
  });
}

async function openSocket(value: string) {
  return openResponsesSocket(base, { authorization: `Bearer ${value}`, 'openai-beta': BETA });
}

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

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200 && !(await check()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function recordsOf(keyUid: string, count: number) {
  let records: Awaited<ReturnType<Store['pendingUsageRecords']>> = [];
  await until(async () => {
    records = (await store.pendingUsageRecords(namespace, 1_000)).filter(
      (record) => record.keyUid === keyUid,
    );
    return records.length >= count;
  });
  return records;
}

/** The messages the upstream received on its sockets, as sent, with their socket's key. */
function socketMessages(fake: FakeProvider, since: number) {
  return fake.requests
    .slice(since)
    .filter((request) => request.method === 'WEBSOCKET')
    .map((request) => ({
      socket: request.headers['sec-websocket-key'],
      headers: request.headers,
      message: JSON.parse(request.rawBody) as Record<string, unknown> & { input: unknown[] },
    }));
}

const completedId = (events: Record<string, unknown>[]) =>
  (events.at(-1) as { response: { id: string } }).response.id;

describe('turns over the upstream socket', () => {
  it('sends every turn of a connection over one upstream socket, each billed once', async () => {
    const { value, policy } = await newKey([{ name: 'ws-socketed', priority: 0 }]);
    const since = socketed.requests.length;
    const client = await openSocket(value);
    const first = await client.turn(create([userText('hello')]));
    expect(first.at(-1)?.type).toBe('response.completed');
    expect(first.map((event) => event.type)).toContain('response.output_text.delta');
    // Chained by the client: the upstream gets only the new input, chained to its response.
    const second = await client.turn(
      create([userText('and again')], { previous_response_id: completedId(first) }),
    );
    expect(second.at(-1)?.type).toBe('response.completed');
    // The full conversation sent by the client: chained upstream all the same.
    const output = second
      .filter((event) => event.type === 'response.output_item.done')
      .map((event) => event.item);
    const whole = [
      userText('hello'),
      ...first
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => event.item),
      userText('and again'),
      ...output,
      userText('third'),
    ];
    const third = await client.turn(create(whole));
    expect(third.at(-1)?.type).toBe('response.completed');
    // A fresh start: not a continuation, the whole input unchained.
    const fourth = await client.turn(create([userText('a fresh start')]));
    expect(fourth.at(-1)?.type).toBe('response.completed');
    expect(socketed.openWebsockets).toBe(1);

    const received = socketMessages(socketed, since);
    expect(received).toHaveLength(4);
    expect(new Set(received.map((entry) => entry.socket)).size).toBe(1);
    expect(socketed.requests.slice(since).filter((request) => request.method === 'POST')).toEqual(
      [],
    );
    expect(received[0]?.headers['openai-beta']).toBe(BETA);
    expect(received[0]?.headers.authorization).toBe('Bearer fake-upstream-key');
    const [one, two, three, four] = received.map((entry) => entry.message);
    expect(one).toMatchObject({ type: 'response.create', model: 'gpt-5.4', store: false });
    expect(one?.previous_response_id).toBeUndefined();
    expect(one?.stream).toBeUndefined();
    expect(two?.previous_response_id).toBe(completedId(first));
    expect(two?.input).toEqual([userText('and again')]);
    expect(three?.previous_response_id).toBe(completedId(second));
    expect(three?.input).toEqual([userText('third')]);
    expect(four?.previous_response_id).toBeUndefined();
    expect(four?.input).toEqual([userText('a fresh start')]);

    const records = await recordsOf(policy.keyUid, 4);
    expect(records).toHaveLength(4);
    expect(new Set(records.map((record) => record.requestId)).size).toBe(4);
    expect(records.every((record) => record.accuracy === 'exact' && record.costNano > 0)).toBe(
      true,
    );
    expect(records.every((record) => record.stream && record.status === 200)).toBe(true);
    expect(records.every((record) => record.upstream === 'ws-socketed')).toBe(true);

    client.socket.close();
    await until(() => socketed.openWebsockets === 0);
    expect(socketed.openWebsockets).toBe(0);
  });

  it('serves an upstream that refuses the upgrade over HTTP, and asks it once', async () => {
    const { value, policy } = await newKey([{ name: 'ws-plain', priority: 0 }]);
    const since = plain.requests.length;
    const client = await openSocket(value);
    const first = await client.turn(create([userText('hello')]));
    expect(first.at(-1)?.type).toBe('response.completed');
    const second = await client.turn(
      create([userText('again')], { previous_response_id: completedId(first) }),
    );
    expect(second.at(-1)?.type).toBe('response.completed');
    client.socket.close();
    const requests = plain.requests.slice(since);
    const posts = requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses']);
    // The refused upgrade (answered as a plain GET) was tried at the first turn only.
    expect(requests.filter((request) => request.method === 'GET')).toHaveLength(1);
    expect(await recordsOf(policy.keyUid, 2)).toHaveLength(2);
  });

  it('fails over to the next upstream on an error event before the first event', async () => {
    const { value, policy } = await newKey([
      { name: 'ws-failing', priority: 0 },
      { name: 'ws-plain', priority: 1 },
    ]);
    const since = failing.requests.length;
    const client = await openSocket(value);
    const events = await client.turn(create([userText('hello')]));
    expect(events.at(-1)?.type).toBe('response.completed');
    client.socket.close();
    // The first upstream was tried over its socket (not over HTTP), then the next one.
    expect(socketMessages(failing, since)).toHaveLength(1);
    expect(failing.requests.slice(since).filter((request) => request.method === 'POST')).toEqual(
      [],
    );
    const [record] = await recordsOf(policy.keyUid, 1);
    expect(record?.upstream).toBe('ws-plain');
    expect(record?.attempts).toBe(2);
  });

  it('fails over when the first event does not come within the first-output timeout', async () => {
    const { value, policy } = await createKey(store, secrets, {
      platform: 'OpenAI',
      namespace,
      upstreams: [
        { name: 'ws-socketed', weight: 1, priority: 0 },
        { name: 'ws-plain', weight: 1, priority: 1 },
      ],
      group: { name: 'openai-slow-group', firstOutputTimeoutMs: 300 },
    });
    socketed.setBehaviour({ firstByteDelayMs: 3_000 });
    try {
      const since = socketed.requests.length;
      const client = await openSocket(value);
      const events = await client.turn(create([userText('hello')]));
      expect(events.at(-1)?.type).toBe('response.completed');
      client.socket.close();
      expect(socketMessages(socketed, since)).toHaveLength(1);
      const [record] = await recordsOf(policy.keyUid, 1);
      expect(record?.upstream).toBe('ws-plain');
      expect(record?.attempts).toBe(2);
      // The abandoned socket was closed.
      await until(() => socketed.openWebsockets === 0);
      expect(socketed.openWebsockets).toBe(0);
    } finally {
      socketed.reset();
    }
  });

  it('ends a turn whose client leaves mid-stream with one record, and closes the upstream socket', async () => {
    const { value, policy } = await newKey([{ name: 'ws-socketed', priority: 0 }]);
    socketed.setBehaviour({ chunkGapMs: 200, chunks: 10 });
    try {
      const client = await openSocket(value);
      client.socket.send(JSON.stringify(create([userText('long')])));
      expect((await client.next()).type).toBe('response.created');
      expect(socketed.openWebsockets).toBe(1);
      client.socket.terminate();
      const records = await recordsOf(policy.keyUid, 1);
      expect(records).toHaveLength(1);
      expect(records[0]?.status).toBe(200);
      await until(() => socketed.openWebsockets === 0);
      expect(socketed.openWebsockets).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await recordsOf(policy.keyUid, 1)).toHaveLength(1);
      expect(await store.keyCounters(namespace, policy.keyUid, Date.now())).toMatchObject({
        reservedNano: 0,
      });
    } finally {
      socketed.reset();
    }
  });
});
