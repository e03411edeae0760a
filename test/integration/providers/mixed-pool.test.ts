/**
 * A first-party OpenAI upstream and an Azure OpenAI upstream in one Group's pool, through the
 * `openai` SDK: priority order, failover before the first byte from Azure's 429, the cool-down
 * from its retry-after shared by the next calls, sticky sessions across the two providers, and the
 * Azure upstreams' price override billed only when they serve.
 */
import type { FastifyInstance } from 'fastify';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeProvider,
  type FakeProvider,
} from '../../../local/simulator/start-fake-provider.js';
import type { Store } from '../../../store/store.js';
import type { UpstreamRef } from '../../../store/policy-documents.js';
import { computeCost } from '../../../gateway/billing/compute-cost.js';
import { putCloudUpstream } from '../../support/cloud-upstreams.js';
import { startFakeAzureOpenAI, type FakeAzureOpenAI } from '../../support/fake-azure-openai.js';
import {
  buildGateway,
  createKey,
  markPoliciesProgrammed,
  newSecrets,
  openStore,
  putApiKeyUpstream,
  writeAccount,
} from '../../support/gateway-fixture.js';
import { settledRecord } from '../gateway/upstream-failover-setup.js';

const namespace = 'team-mixed';
const secrets = newSecrets();
const entra = { tenantID: 't', clientID: 'c', clientSecret: 's' };
let store: Store;
let azure: FakeAzureOpenAI;
let openai: FakeProvider;
let app: FastifyInstance;
let base: string;
let nextRandom = 0;
/** Azure's price for gpt-5 on these upstreams, nano-USD per token (far from the table's). */
const AZURE_PRICE = {
  input: 7_000,
  output: 70_000,
  cacheRead: 700,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
};
const ONE = { numerator: 1, denominator: 1 };

beforeAll(async () => {
  store = await openStore('memory', '');
  azure = await startFakeAzureOpenAI({ apiKey: 'azure-key', entra });
  openai = await startFakeProvider({ keepRequests: 100 });
  const apiKey = { type: 'APIKey', apiKey: 'azure-key' } as const;
  for (const name of ['azure-failover', 'azure-sticky']) {
    await putCloudUpstream(store, secrets, {
      name,
      platform: 'OpenAI',
      provider: { kind: 'AzureOpenAI', endpoint: azure.url, apiVersion: null, credentials: apiKey },
      priceOverrides: { 'gpt-5': AZURE_PRICE },
    });
  }
  for (const name of ['openai-failover', 'openai-sticky']) {
    await putApiKeyUpstream(store, secrets, { name, platform: 'OpenAI', baseURL: openai.url });
  }
  await markPoliciesProgrammed(store);
  await writeAccount(store, namespace);
  app = buildGateway(store, secrets, { random: () => nextRandom });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app.close();
  await Promise.all([azure.close(), openai.close()]);
  await store.close();
});

async function clientFor(group: string, upstreams: UpstreamRef[]): Promise<OpenAI> {
  const { value } = await createKey(store, secrets, {
    platform: 'OpenAI',
    namespace,
    upstreams,
    group: { name: group },
  });
  return new OpenAI({ apiKey: value, baseURL: `${base}/v1`, maxRetries: 0 });
}

async function servedBy(client: OpenAI, body: OpenAI.Responses.ResponseCreateParamsNonStreaming) {
  const { data, response } = await client.responses.create(body).withResponse();
  expect(data.output_text).toContain('FAKE_OK');
  const requestId = response.headers.get('x-tollgate-request-id') ?? '';
  return settledRecord(store, namespace, requestId);
}

describe('a pool of first-party and Azure upstreams', () => {
  it('fails over from a throttled Azure upstream before the first byte and keeps it cooling down', async () => {
    const client = await clientFor('mixed-failover', [
      { name: 'azure-failover', weight: 1, priority: 0 },
      { name: 'openai-failover', weight: 1, priority: 1 },
    ]);
    const first = await servedBy(client, { model: 'gpt-5', input: 'one' });
    expect(first).toMatchObject({ upstream: 'azure-failover', attempts: 1 });
    // Priced by the serving Azure upstream's override, and recorded as such.
    expect(first.priceVersion).toMatch(/\/upstream-override$/);
    expect(first.costNano).toBe(computeCost(first.usage, AZURE_PRICE, ONE));

    azure.throttle(1, 30);
    const azureCalls = azure.calls.length;
    const failedOver = await servedBy(client, { model: 'gpt-5', input: 'two', stream: false });
    expect(failedOver).toMatchObject({ upstream: 'openai-failover', attempts: 2, status: 200 });
    // Billed by the serving attempt: the first-party upstream, at the table price.
    expect(failedOver.priceVersion).not.toContain('upstream-override');
    expect(failedOver.costNano).toBeGreaterThan(0);
    expect(failedOver.costNano).not.toBe(computeCost(failedOver.usage, AZURE_PRICE, ONE));
    expect(azure.calls.length).toBe(azureCalls + 1);
    const health = (await store.upstreamHealth(['azure-failover'], Date.now())).get(
      'azure-failover',
    );
    expect(health?.cause).toBe('rate-limited');
    // Until the reset Azure named (30 s), not the 5 s cool-down of a 429 without one.
    expect(health?.until).toBeGreaterThan(Date.now() + 20_000);

    // The 429's retry-after (30 s) cools Azure down: the next calls go to the first-party upstream
    // without trying it.
    for (const input of ['three', 'four']) {
      expect(await servedBy(client, { model: 'gpt-5', input })).toMatchObject({
        upstream: 'openai-failover',
        attempts: 1,
      });
    }
    expect(azure.calls.length).toBe(azureCalls + 1);
  });

  it('keeps a conversation on the provider that served it', async () => {
    const client = await clientFor('mixed-sticky', [
      { name: 'openai-sticky', weight: 1, priority: 0 },
      { name: 'azure-sticky', weight: 1, priority: 0 },
    ]);
    const session = { model: 'gpt-5', prompt_cache_key: 'conversation-1' };
    nextRandom = 0.9; // the weighted pick: the second of the two
    expect(await servedBy(client, { ...session, input: 'a' })).toMatchObject({
      upstream: 'azure-sticky',
    });
    for (const pick of [0, 0.1]) {
      nextRandom = pick; // without the session these go to the first-party upstream
      expect(await servedBy(client, { ...session, input: 'b' })).toMatchObject({
        upstream: 'azure-sticky',
      });
    }
    nextRandom = 0;
    expect(
      await servedBy(client, { model: 'gpt-5', prompt_cache_key: 'conversation-2', input: 'c' }),
    ).toMatchObject({ upstream: 'openai-sticky' });
  });
});
