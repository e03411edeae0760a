/**
 * Shared setup of the metering suites: a real store (memory, or Redis under a unique prefix), the
 * real fake provider as every upstream, the gateway built with `build()` on a real port, and helpers
 * that call it and wait for the settled usage records.
 */
import { Registry } from 'prom-client';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadShippedPriceTable } from '../../../gateway/billing/load-price-table.js';
import { computeCost, type Multiplier } from '../../../gateway/billing/compute-cost.js';
import type { Store } from '../../../store/store.js';
import { emptyUsage, type UsageBuckets } from '../../../store/usage-buckets.js';
import type { UsageRecord } from '../../../store/usage-records.js';
import type { BuildOptions } from '../../../gateway/app.js';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import {
  buildGateway,
  createKey,
  newSecrets,
  openStore,
  writeAccount,
  writeUpstreams,
  type KeyOptions,
  type StoreKind,
} from '../../support/gateway-fixture.js';

export const STORE_KINDS: readonly StoreKind[] = ['memory', 'redis'];

export interface MeteringEnvironment {
  kind: StoreKind;
  store: Store;
  fake: FakeProvider;
  app: FastifyInstance;
  base: string;
  registry: Registry;
  secrets: ReturnType<typeof newSecrets>;
  namespace: string;
  key(options?: Partial<KeyOptions>): Promise<{ value: string; keyUid: string }>;
  call(options: CallOptions): Promise<{ status: number; text: string; requestId: string }>;
  waitForRecords(keyUid: string, count: number): Promise<UsageRecord[]>;
}

export interface CallOptions {
  path: string;
  apiKey: string;
  body: string;
  header?: 'x-api-key' | 'authorization' | 'x-goog-api-key';
}

/** Registers setup and teardown for one store kind; the returned object is filled before tests. */
export function useMeteringGateway(
  kind: StoreKind,
  options: Partial<Omit<BuildOptions, 'store' | 'config'>> = {},
): MeteringEnvironment {
  const env = { kind, registry: new Registry(), secrets: newSecrets() } as MeteringEnvironment;
  env.namespace = `team-metering-${kind}-${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(async () => {
    env.store = await openStore(kind, inject('redisUrl'));
    env.fake = await startFakeProvider({ keepRequests: 1_000 });
    await writeUpstreams(env.store, { secrets: env.secrets, baseURL: env.fake.url });
    await writeAccount(env.store, env.namespace);
    env.app = buildGateway(env.store, env.secrets, { registry: env.registry, ...options });
    env.base = await env.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await env.app.close();
    await env.fake.close();
    await env.store.close();
  });
  beforeEach(() => {
    env.fake.reset();
  });
  env.key = async (keyOptions = {}) => {
    const created = await createKey(env.store, env.secrets, {
      platform: 'Anthropic',
      namespace: env.namespace,
      ...keyOptions,
    });
    return { value: created.value, keyUid: created.policy.keyUid };
  };
  env.call = async (call) => {
    const header = call.header ?? 'x-api-key';
    const credential = header === 'authorization' ? `Bearer ${call.apiKey}` : call.apiKey;
    const response = await request(`${env.base}${call.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [header]: credential },
      body: call.body,
    });
    const text = await response.body.text();
    const requestId = response.headers['x-tollgate-request-id'];
    return { status: response.statusCode, text, requestId: String(requestId) };
  };
  env.waitForRecords = (keyUid, count) => waitForRecords(env, { keyUid, count });
  return env;
}

export async function waitForRecords(
  env: Pick<MeteringEnvironment, 'store' | 'namespace'>,
  options: { keyUid: string; count: number; timeoutMs?: number },
): Promise<UsageRecord[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const pending = await env.store.pendingUsageRecords(env.namespace, 10_000);
    const records = pending.filter((record) => record.keyUid === options.keyUid);
    if (records.length >= options.count || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The shipped table's price of a model, as the gateway bills it. */
export function tableCost(model: string, usage: UsageBuckets, multiplier: Multiplier): number {
  const entry = loadShippedPriceTable().entries.get(model);
  if (entry === undefined) throw new Error(`no price for ${model}`);
  return computeCost(usage, entry.price, multiplier);
}

export function buckets(partial: Partial<UsageBuckets>): UsageBuckets {
  return { ...emptyUsage(), ...partial };
}
