/** The in-memory upstream cache over a real store: cached reads, list changes, refresh, deletes. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UpstreamCache } from '../../../gateway/upstreams/resolve-upstreams.js';
import { sealCredential } from '../../../store/seal-credential.js';
import type { Store } from '../../../store/store.js';
import { newSecrets, openStore } from '../../support/gateway-fixture.js';

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

it('answers the list built last for the same refs while every entry is fresh', async () => {
  let reads = 0;
  const cache = new UpstreamCache({
    store: {
      getUpstream: (name) => {
        reads += 1;
        return store.getUpstream(name);
      },
    },
    credentialKey: secrets.credentialKey,
    clock: () => now,
    refreshMs: 30_000,
  });
  await put('u3', 'three');
  const refs = [{ name: 'u3', weight: 1, priority: 0 }];
  const first = await cache.resolve('g3', refs);
  expect(await cache.resolve('g3', refs)).toBe(first);
  expect(reads).toBe(1);
  // The same names in a new list (the key policy read again) build it again from the entries.
  expect(await cache.resolve('g3', [...refs])).toEqual(first);
  expect(reads).toBe(1);
  // An invalidated upstream is read again at once, however fresh the group's list was.
  await put('u3', 'three-rotated');
  cache.invalidate('u3');
  expect((await cache.resolve('g3', refs))[0]?.credential).toBe('three-rotated');
  expect(reads).toBe(2);
  // Its oldest entry reaching the refresh interval rebuilds it.
  await put('u3', 'three-again');
  now += 30_000;
  expect((await cache.resolve('g3', refs))[0]?.credential).toBe('three-again');
});
