/**
 * A gateway that dies mid-stream does not make the call free (issue #10, item 3): two real
 * `tollgate gateway` processes share a Redis; the one serving a stream is killed with SIGKILL, and
 * once its lease has ended the surviving replica's lease sweep charges the reservation as one
 * `estimated` usage record (flagged `lease-expired`), with the spend on the key and the account.
 * The namespace gets no further traffic, so only the sweep can notice.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { loadGatewayPrices } from '../../../gateway/billing/load-gateway-prices.js';
import { priceRequest } from '../../../gateway/billing/price-request.js';
import { createRedisStore } from '../../../store/redis-store.js';
import type { KeyPolicy, Store } from '../../../store/store.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { freePort } from '../../support/redis-server.js';
import { createKey, newSecrets, writeAccount, writeUpstreams } from './gateway-fixture.js';
import { spawnRunGateway, waitUntilReady } from './spawn-run-gateway.js';

const namespace = 'team-crash';
const prefix = `test:lease:${randomUUID()}:`;
const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-lease-expiry-'));
const secrets = newSecrets();
const children: ChildProcess[] = [];
let store: Store;
let fake: FakeProvider;
let apiKey = '';
let policy: KeyPolicy;

interface RunningGateway {
  child: ChildProcess;
  url: string;
  metricsUrl: string;
}

async function startGateway(): Promise<RunningGateway> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawnRunGateway({
    args: [
      `--port=${port}`,
      '--host=127.0.0.1',
      `--metrics-port=${metricsPort}`,
      '--metrics-host=127.0.0.1',
      `--redis-url=${inject('redisUrl')}`,
      `--redis-prefix=${prefix}`,
      '--lease-ms=1000',
      '--lease-sweep-ms=300',
    ],
    env: {
      TOLLGATE_PEPPER_FILE: join(dataDir, 'pepper'),
      TOLLGATE_CREDENTIAL_KEY_FILE: join(dataDir, 'credential-key'),
      TOLLGATE_LOG_LEVEL: 'silent',
    },
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${url}/readyz`);
  return { child, url, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

beforeAll(async () => {
  fake = await startFakeProvider();
  store = await createRedisStore({ url: inject('redisUrl'), prefix });
  await writeUpstreams(store, { secrets, baseURL: fake.url });
  await writeAccount(store, namespace);
  const created = await createKey(store, secrets, { platform: 'Anthropic', namespace });
  apiKey = created.value;
  policy = created.policy;
  writeFileSync(join(dataDir, 'pepper'), secrets.pepper);
  writeFileSync(join(dataDir, 'credential-key'), secrets.credentialKey.toString('base64'));
}, 60_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await store.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('charges the reservation of a stream whose gateway was killed, once, as estimated', async () => {
  const survivor = await startGateway();
  const doomed = await startGateway();
  // A stream that would run for a minute: the gateway dies long before it ends.
  fake.setBehaviour({ chunkGapMs: 1_000, chunks: 60 });
  const body = JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 2_000,
    stream: true,
    messages: [{ role: 'user', content: 'Write a long story' }],
  });
  const streaming = await request(`${doomed.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body,
  });
  expect(streaming.statusCode).toBe(200);
  const requestId = String(streaming.headers['x-tollgate-request-id']);
  const reader = streaming.body[Symbol.asyncIterator]();
  expect((await reader.next()).done).toBe(false);
  const exited = once(doomed.child, 'exit');
  doomed.child.kill('SIGKILL');
  await exited;
  await streaming.body.text().catch(() => '');

  // Only the records are read here: unlike admission and counter reads, they charge nothing.
  for (let attempt = 0; attempt < 150; attempt++) {
    if ((await store.pendingUsageRecords(namespace, 10)).length > 0) break;
    await sleep(100);
  }
  await sleep(1_000);
  const records = await store.pendingUsageRecords(namespace, 10);
  expect(records).toHaveLength(1);
  const [record] = records;
  expect(record).toMatchObject({
    requestId,
    namespace,
    keyUid: policy.keyUid,
    model: 'claude-sonnet-4-6',
    accuracy: 'estimated',
    flags: ['lease-expired'],
    stream: true,
    status: 0,
    upstream: null,
  });
  // The reservation: the request's input estimate and its whole output cap, at the model's price.
  expect(record?.usage.output).toBe(2_000);
  const price = priceRequest({
    model: 'claude-sonnet-4-6',
    platform: 'Anthropic',
    group: policy.group!,
    table: loadGatewayPrices(undefined).table,
  });
  const expected = computeCost(record!.usage, price!.price, price!.multiplier);
  expect(record?.costNano).toBe(expected);
  expect(expected).toBeGreaterThan(0);
  expect(record?.durationMs).toBeGreaterThanOrEqual(1_000);

  expect(await store.accountCounters(namespace)).toEqual({ spentNano: expected, reservedNano: 0 });
  const counters = await store.keyCounters(namespace, policy.keyUid, Date.now());
  expect([counters.usedNano, counters.reservedNano]).toEqual([expected, 0]);
  const metrics = await (await request(survivor.metricsUrl)).body.text();
  expect(metrics).toContain('tollgate_expired_leases_charged_total 1');
}, 90_000);
