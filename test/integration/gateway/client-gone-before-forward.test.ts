/**
 * A client that goes away before its request reached the upstream leaves nothing behind: when it
 * leaves while the store's admission script runs (held by `CLIENT PAUSE WRITE` on a private Redis),
 * the request is settled once admission returns (one record, nothing billed, reservation and
 * concurrency slot free long before their lease would end) and never forwarded; when it leaves
 * while the upstream credential is fetched (a token endpoint held open), the upstream request is
 * not sent.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createStore } from '../../../store/create-store.js';
import { sealCredential } from '../../../store/seal-credential.js';
import type { Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { waitForRecords } from '../metering/metering-harness.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  postWithKey,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';

const namespace = 'team-client-gone';
/** Far longer than the test: a lease running out cannot be what frees anything here. */
const leaseMs = 600_000;
const secrets = newSecrets();
let redis: RedisServer;
let admin: Redis;
let store: Store;
let fake: FakeProvider;
let gateway: FastifyInstance;
let port = 0;

const messagesBody = (marker: string) =>
  JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: marker }],
  });

beforeAll(async () => {
  redis = await startRedisServer();
  admin = new Redis(redis.url);
  store = await createStore({ redisUrl: redis.url, prefix: 'tg-client-gone:' });
  fake = await startFakeProvider({ keepRequests: 1_000 });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  gateway = buildGateway(store, secrets, { config: { leaseMs, leaseSweepMs: 0 } });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as AddressInfo).port;
  // One whole call first: the store's scripts are loaded and the caches warm.
  const warm = await createKey(store, secrets, { platform: 'Anthropic', namespace });
  expect((await call('/v1/messages', warm.value, messagesBody('warm-up'))).status).toBe(200);
  fake.reset();
});

afterAll(async () => {
  await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
  await gateway.close();
  await fake.close();
  await store.close();
  admin.disconnect();
  await redis.stop();
});

beforeEach(() => {
  fake.reset();
});

function call(path: string, apiKey: string, body: string) {
  return postWithKey(`http://127.0.0.1:${String(port)}${path}`, apiKey, body);
}

/** Resolves once the gateway's side of its next accepted connection has closed. */
function nextConnectionClosed(app: FastifyInstance): Promise<void> {
  return new Promise((resolve) => {
    app.server.once('connection', (socket: Socket) => {
      // Node's own close listeners (the response's `close`) run in the same emit.
      socket.once('close', () => setImmediate(resolve));
    });
  });
}

/** Writes a whole request on a raw socket, never reading the answer. */
async function sendRaw(path: string, apiKey: string, body: string): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const opened = connect(port, '127.0.0.1', () => {
      resolve(opened);
    });
    opened.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `x-api-key: ${apiKey}\r\ncontent-length: ${String(Buffer.byteLength(body))}\r\n\r\n${body}`,
  );
  return socket;
}

/** Waits until an FCALL (the admission script) is held by the write pause. */
async function untilScriptPaused(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const clients = String(await admin.call('CLIENT', 'LIST')).split('\n');
    if (clients.some((line) => /flags=\w*b/.test(line) && line.includes('cmd=fcall'))) return;
    await sleep(10);
  }
  throw new Error('the admission script never reached the paused Redis');
}

async function untilNothingInFlight(): Promise<void> {
  for (let attempt = 0; attempt < 200 && gateway.gateway.inFlight() > 0; attempt++) await sleep(20);
}

it('settles a request whose client left during admission once, and never forwards it', async () => {
  const created = await createKey(store, secrets, {
    platform: 'Anthropic',
    namespace,
    overrides: { maxConcurrent: 1 },
  });
  const keyUid = created.policy.keyUid;
  await admin.call('CLIENT', 'PAUSE', '5000', 'WRITE');
  const closed = nextConnectionClosed(gateway);
  const socket = await sendRaw('/v1/messages', created.value, messagesBody('dropped'));
  await untilScriptPaused();
  socket.destroy();
  await closed;
  await admin.call('CLIENT', 'UNPAUSE');

  const dropped = await waitForRecords({ store, namespace }, { keyUid, count: 1 });
  expect(dropped).toHaveLength(1);
  expect(dropped[0]).toMatchObject({ costNano: 0, upstream: null, status: 499 });
  await untilNothingInFlight();
  expect(gateway.gateway.inFlight()).toBe(0);
  expect((await store.keyCounters(namespace, keyUid, Date.now())).reservedNano).toBe(0);
  expect(fake.requests).toHaveLength(0);

  // The key's one concurrency slot is free again, well inside the lease.
  const next = await call('/v1/messages', created.value, messagesBody('after'));
  expect(next.status).toBe(200);
  const records = await waitForRecords({ store, namespace }, { keyUid, count: 2 });
  expect(records.map((record) => record.requestId).sort()).toEqual(
    [dropped[0]!.requestId, next.requestId].sort(),
  );
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]!.rawBody).toContain('after');
  await untilNothingInFlight();
  expect((await store.keyCounters(namespace, keyUid, Date.now())).reservedNano).toBe(0);
});

interface HeldTokenEndpoint {
  url: string;
  /** Resolves when the gateway asked for a token. */
  asked: Promise<void>;
  /** Answers the held token request. */
  release(): void;
  server: Server;
}

/** A Google token endpoint that holds its first answer until released. */
async function startHeldTokenEndpoint(): Promise<HeldTokenEndpoint> {
  let asked = (): void => undefined;
  let release = (): void => undefined;
  const askedPromise = new Promise<void>((resolve) => (asked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = createServer((incoming, response) => {
    incoming.resume();
    asked();
    void released.then(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'fake-access-token', expires_in: 3600 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: tokenPort } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(tokenPort)}/token`,
    asked: askedPromise,
    release,
    server,
  };
}

it('does not send the upstream request when the client left before it was sent', async () => {
  const held = await startHeldTokenEndpoint();
  const upstream = `antigravity-held-${randomUUID().slice(0, 8)}`;
  await store.putUpstream({
    digest: randomUUID(),
    name: upstream,
    platform: 'Antigravity',
    baseURL: fake.url,
    sealedCredential: sealCredential(
      secrets.credentialKey,
      JSON.stringify({ refreshToken: 'fake-refresh-token', clientSecret: 'fake-client-secret' }),
    ),
    credentialType: 'GoogleOAuth',
    oauth: { clientID: 'fake-client-id', tokenURL: held.url, projectID: 'fake-project' },
    maxConcurrent: 0,
    modelOverrides: {},
    chatCompletions: 'Translate',
  });
  const created = await createKey(store, secrets, {
    platform: 'Antigravity',
    namespace,
    upstreams: [{ name: upstream, weight: 1, priority: 0 }],
  });
  const body = (marker: string) =>
    JSON.stringify({
      model: 'claude-opus-4-6-thinking',
      max_tokens: 64,
      messages: [{ role: 'user', content: marker }],
    });
  try {
    const closed = nextConnectionClosed(gateway);
    const socket = await sendRaw('/antigravity/v1/messages', created.value, body('dropped'));
    await held.asked;
    socket.destroy();
    await closed;
    held.release();

    // A later call on the same upstream goes through; the dropped one was never sent before it.
    const next = await call('/antigravity/v1/messages', created.value, body('after'));
    expect(next.status).toBe(200);
    expect(fake.requests.map((recorded) => recorded.rawBody.includes('dropped'))).toEqual([false]);
    const records = await waitForRecords(
      { store, namespace },
      { keyUid: created.policy.keyUid, count: 2 },
    );
    expect(records).toHaveLength(2);
    await untilNothingInFlight();
    const counters = await store.keyCounters(namespace, created.policy.keyUid, Date.now());
    expect(counters.reservedNano).toBe(0);
  } finally {
    await new Promise((resolve) => held.server.close(resolve));
  }
});
