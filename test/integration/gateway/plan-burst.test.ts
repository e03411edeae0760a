/**
 * A burst of 200 concurrent calls against a plan's daily cap of $1.00, through two gateway
 * processes on one Redis (docs/billing.md, "The burst bound").
 *
 * The bound: the admission script admits a call only while the window's spend plus the account's
 * reservations in flight stays below the cap, and reserves the call's estimate. Each estimate
 * here is at least the call's cost (max_tokens 16 >= the fake's 10 output tokens), so what the
 * window settles stays below the cap plus the cost of one call.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { estimateRequestCost } from '../../../gateway/billing/estimate-request-cost.js';
import { computeFakeAnswer } from '../../../local/simulator/compute-fake-answer.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import { createStore } from '../../../store/create-store.js';
import type { Store } from '../../../store/store.js';
import {
  createKey,
  markPoliciesProgrammed,
  newSecrets,
  writeUpstreams,
} from '../../support/gateway-fixture.js';
import { freePort } from '../../support/redis-server.js';
import { spawnRunGateway, waitUntilReady } from './spawn-run-gateway.js';
import { buckets, waitForRecords } from '../metering/metering-harness.js';

const CAP_NANO = 1_000_000_000;
const price = {
  input: 1_000_000,
  output: 1_000_000,
  cacheRead: 100_000,
  cacheWrite5m: 1_250_000,
  cacheWrite1h: 2_000_000,
};
const one = { numerator: 1, denominator: 1 };
const body = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 16,
  messages: [{ role: 'user', content: 'a burst of requests against one plan window' }],
});

describe('a plan window under a burst through two gateways on one Redis', () => {
  const secrets = newSecrets();
  const prefix = `tg-test-plan-burst-${Date.now()}:`;
  const namespace = 'team-plan-burst';
  let store: Store;
  let children: ChildProcess[] = [];
  let bases: string[] = [];
  let fake: FakeProvider;
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-plan-burst-'));

  async function startGatewayProcess(): Promise<{ child: ChildProcess; base: string }> {
    const port = await freePort();
    const child = spawnRunGateway({
      args: [
        `--port=${String(port)}`,
        '--host=127.0.0.1',
        `--metrics-port=${String(await freePort())}`,
        '--metrics-host=127.0.0.1',
        `--redis-url=${inject('redisUrl')}`,
        `--redis-prefix=${prefix}`,
      ],
      env: {
        TOLLGATE_PEPPER_FILE: join(folder, 'pepper'),
        TOLLGATE_CREDENTIAL_KEY_FILE: join(folder, 'credential-key'),
        TOLLGATE_LOG_LEVEL: 'silent',
      },
    });
    const base = `http://127.0.0.1:${String(port)}`;
    await waitUntilReady(`${base}/readyz`);
    return { child, base };
  }

  beforeAll(async () => {
    store = await createStore({ redisUrl: inject('redisUrl'), prefix });
    fake = await startFakeProvider({ keepRequests: 1_000 });
    await writeUpstreams(store, { secrets, baseURL: fake.url });
    await markPoliciesProgrammed(store);
    writeFileSync(join(folder, 'pepper'), secrets.pepper);
    writeFileSync(join(folder, 'credential-key'), secrets.credentialKey);
    const started = await Promise.all([startGatewayProcess(), startGatewayProcess()]);
    children = started.map(({ child }) => child);
    bases = started.map(({ base }) => base);
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await fake.close();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('settles at most the cap plus one call when 200 calls race for a $1.00 daily window', async () => {
    const now = Date.now();
    await store.putAccount(namespace, {
      digest: 'plan-burst',
      uid: `acct-${namespace}`,
      namespace,
      creditNano: null,
      maxConcurrent: 0,
      plan: {
        planName: 'burst',
        startTime: now - 60_000,
        endTime: null,
        limits: { FiveHour: 0, Daily: CAP_NANO, Weekly: 0, Monthly: 0 },
      },
    });
    const budget = { plan: true, memberLimits: false, timeZone: null, planModelsAllow: null };
    const group = { priceOverrides: { 'claude-sonnet-4-5': price } };
    // Two keys of the account: the window is the account's, not a key's.
    const keys = await Promise.all(
      [0, 1].map(() =>
        createKey(store, secrets, {
          platform: 'Anthropic',
          namespace,
          overrides: { budget },
          group,
        }),
      ),
    );
    fake.setBehaviour({ firstByteDelayMs: 20 });
    const answer = computeFakeAnswer({
      model: 'claude-sonnet-4-5',
      bodyBytes: Buffer.byteLength(body),
      behaviour: {},
    });
    const cost = computeCost(
      buckets({ inputUncached: answer.inputTotal, output: answer.textTokens }),
      price,
      one,
    );
    const estimate = estimateRequestCost({
      bodyBytes: Buffer.byteLength(body),
      outputTokens: 16,
      price,
      multiplier: one,
    });
    expect(estimate).toBeGreaterThanOrEqual(cost);

    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const response = await request(`${bases[index % 2]}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': keys[index % 2]!.value },
          body,
        });
        const text = await response.body.text();
        if (response.statusCode === 429) {
          expect(text).toContain('TG_SUBSCRIPTION_EXHAUSTED');
          expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
        }
        return response.statusCode;
      }),
    );
    const succeeded = statuses.filter((status) => status === 200).length;
    expect(succeeded + statuses.filter((status) => status === 429).length).toBe(200);
    expect(succeeded).toBeGreaterThan(0);
    expect(succeeded).toBeLessThan(200);

    const env = { store, namespace };
    const records = [
      ...(await waitForRecords(env, { keyUid: keys[0]!.policy.keyUid, count: 1 })),
      ...(await waitForRecords(env, { keyUid: keys[1]!.policy.keyUid, count: 1 })),
    ];
    // Every settlement reached the stream (the counters settle in the same script).
    const deadline = Date.now() + 5_000;
    let counters = await store.accountCounters(namespace);
    while (counters.spentNano < succeeded * cost && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      counters = await store.accountCounters(namespace);
    }
    expect(records.length).toBeGreaterThan(0);
    expect(counters.reservedNano).toBe(0);
    expect(counters.spentNano).toBe(succeeded * cost);
    const daily = counters.planWindows?.find((window) => window.name === 'Daily');
    expect(daily?.usedNano).toBe(succeeded * cost);
    expect(daily?.usedNano).toBeLessThan(CAP_NANO + cost);
    // What the burst's reservations held back (each estimate above its call's cost) may admit a
    // few more calls one by one; the window then refuses before it passes the cap plus one call.
    let refused = false;
    for (let call = 0; call < 100 && !refused; call++) {
      const next = await request(`${bases[call % 2]}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': keys[0]!.value },
        body,
      });
      refused = next.statusCode === 429;
      await next.body.text();
    }
    expect(refused).toBe(true);
    const after = await store.accountCounters(namespace);
    const dailyAfter = after.planWindows?.find((window) => window.name === 'Daily');
    expect(dailyAfter?.usedNano).toBeLessThan(CAP_NANO + cost);
  });
});
