/**
 * A gateway that dies mid-stream does not make the call free, nor charge it its whole reservation:
 * two real `tollgate gateway` processes share a Redis; the one serving a stream is killed with
 * SIGKILL after its lease renewals carried the usage delivered so far, and once its lease has ended
 * the surviving replica's lease sweep charges one `estimated` usage record (flagged
 * `lease-expired`) with the delivered buckets: at least their cost, less than the reservation and
 * less than the same call run to its end. The namespace gets no further traffic from the cut
 * stream, so only the sweep can notice.
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
import { emptyUsage, type UsageBuckets } from '../../../store/usage-buckets.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { freePort } from '../../support/redis-server.js';
import {
  createKey,
  newSecrets,
  writeAccount,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
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

it('charges a stream whose gateway was killed for what it delivered, once, as estimated', async () => {
  const survivor = await startGateway();
  const doomed = await startGateway();
  // Sixty text deltas 200 ms apart: a twelve-second stream, cut after about a second and a half.
  fake.setBehaviour({ chunkGapMs: 200, chunks: 60 });
  const body = JSON.stringify({
    model: 'claude-sonnet-4-6',
    max_tokens: 2_000,
    stream: true,
    messages: [{ role: 'user', content: 'Write a long story' }],
  });
  const post = (url: string) =>
    request(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body,
    });
  // The same call run to its end on the surviving replica: what a complete call costs.
  const complete = await post(survivor.url);
  const completeId = String(complete.headers['x-tollgate-request-id']);
  const completeText = complete.body.text();
  const streaming = await post(doomed.url);
  expect(streaming.statusCode).toBe(200);
  const requestId = String(streaming.headers['x-tollgate-request-id']);
  const reader = streaming.body[Symbol.asyncIterator]();
  const startedAt = Date.now();
  let received = '';
  // Several lease renewals (every 333 ms) happen while text is delivered.
  while (Date.now() - startedAt < 1_500) {
    const chunk = await reader.next();
    expect(chunk.done).toBe(false);
    received += Buffer.from(chunk.value as Uint8Array).toString('utf8');
  }
  const exited = once(doomed.child, 'exit');
  doomed.child.kill('SIGKILL');
  await exited;
  await streaming.body.text().catch(() => '');
  await completeText;

  // Only the records are read here: unlike admission and counter reads, they charge nothing.
  const recordsOf = async () => {
    const records = await store.pendingUsageRecords(namespace, 10);
    return {
      cut: records.find((record) => record.requestId === requestId),
      whole: records.find((record) => record.requestId === completeId),
      count: records.length,
    };
  };
  for (let attempt = 0; attempt < 150; attempt++) {
    const found = await recordsOf();
    if (found.cut !== undefined && found.whole !== undefined) break;
    await sleep(100);
  }
  await sleep(1_000);
  const { cut, whole, count } = await recordsOf();
  expect(count).toBe(2);
  expect(cut).toMatchObject({
    namespace,
    keyUid: policy.keyUid,
    model: 'claude-sonnet-4-6',
    accuracy: 'estimated',
    stream: true,
    status: 0,
  });
  expect(cut?.flags).toEqual(expect.arrayContaining(['lease-expired', 'delivered-usage']));
  expect(cut?.upstream).toBe('anthropic-upstream');
  expect(whole?.accuracy).toBe('exact');
  const price = priceRequest({
    model: 'claude-sonnet-4-6',
    platform: 'Anthropic',
    group: policy.group!,
    table: loadGatewayPrices(undefined).table,
  });
  const costOf = (usage: UsageBuckets) => computeCost(usage, price!.price, price!.multiplier);
  // The reservation: the request's input estimate and its whole output cap.
  const reservationNano = costOf({
    ...emptyUsage(),
    inputUncached: Math.ceil(Buffer.byteLength(body) / 4),
    output: 2_000,
  });
  // The record carries the delivered buckets: the input the upstream reported, and some output
  // but less than the whole answer's.
  const usage = cut!.usage;
  const deliveredNano = costOf(usage);
  console.log(
    `lease-expired charge ${cut!.costNano} nano-USD: delivered ${deliveredNano}, ` +
      `complete call ${whole!.costNano}, reservation ${reservationNano}`,
  );
  expect(usage.inputUncached).toBe(whole!.usage.inputUncached);
  expect(usage.output).toBeGreaterThan(0);
  expect(usage.output).toBeLessThan(whole!.usage.output);
  const deliveredText = [...received.matchAll(/"text":"([^"]*)"/g)].map((m) => m[1]).join('');
  expect(usage.output).toBeLessThanOrEqual(Math.ceil(deliveredText.length / 4) + 8);
  expect(cut!.costNano).toBeGreaterThanOrEqual(deliveredNano);
  expect(cut!.costNano).toBeLessThan(whole!.costNano);
  expect(cut!.costNano).toBeLessThan(reservationNano);
  expect(cut?.durationMs).toBeGreaterThanOrEqual(1_000);

  const spent = cut!.costNano + whole!.costNano;
  expect(await store.accountCounters(namespace)).toEqual({ spentNano: spent, reservedNano: 0 });
  const counters = await store.keyCounters(namespace, policy.keyUid, Date.now());
  expect([counters.usedNano, counters.reservedNano]).toEqual([spent, 0]);
  const metrics = await (await request(survivor.metricsUrl)).body.text();
  expect(metrics).toContain('tollgate_expired_leases_charged_total 1');
}, 90_000);
