/** The in-memory upstream cache over a real store: cached reads, list changes, refresh, deletes. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UpstreamCache } from '../../../gateway/upstreams/resolve-upstreams.js';
import { sealCredential } from '../../../store/seal-credential.js';
import type { Store } from '../../../store/store.js';
import { newSecrets, openStore } from './gateway-fixture.js';

const secrets = newSecrets();
let store: Store;
let now = 1_000_000;

async function put(name: string, apiKey: string): Promise<void> {
  await store.putUpstream({
    digest: randomUUID(),
    name,
    platform: 'OpenAI',
    baseURL: 'http://127.0.0.1:9/base/',
    sealedCredential: sealCredential(secrets.credentialKey, JSON.stringify({ apiKey })),
    credentialType: 'APIKey',
    oauth: null,
    maxConcurrent: 2,
    modelOverrides: { a: 'b' },
    chatCompletions: 'Translate',
  });
}

beforeAll(async () => {
  store = await openStore('memory', '');
});

afterAll(async () => {
  await store.close();
});

it('reads once, re-reads on a list change or after the refresh interval, drops deleted ones', async () => {
  const cache = new UpstreamCache({
    store,
    credentialKey: secrets.credentialKey,
    clock: () => now,
    refreshMs: 30_000,
  });
  const one = [{ name: 'u1', weight: 3, priority: 1 }];
  const two = [...one, { name: 'u2', weight: 1, priority: 2 }];
  await put('u1', 'first');
  await put('u2', 'other');

  const [first] = await cache.resolve('g', one);
  expect(first).toMatchObject({
    name: 'u1',
    credential: 'first',
    origin: 'http://127.0.0.1:9',
    basePath: '/base',
    weight: 3,
    priority: 1,
    maxConcurrent: 2,
    modelOverrides: { a: 'b' },
  });

  await put('u1', 'rotated');
  expect((await cache.resolve('g', one))[0]?.credential).toBe('first');
  expect((await cache.resolve('g', two)).map((upstream) => upstream.credential)).toEqual([
    'rotated',
    'other',
  ]);

  await put('u1', 'rotated-again');
  now += 30_000;
  expect((await cache.resolve('g', two))[0]?.credential).toBe('rotated-again');

  await store.deleteUpstream('u2');
  now += 30_000;
  expect((await cache.resolve('g', two)).map((upstream) => upstream.name)).toEqual(['u1']);
});
