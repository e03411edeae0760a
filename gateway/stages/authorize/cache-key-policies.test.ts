import { describe, expect, it } from 'vitest';
import type { KeyPolicy } from '../../../store/store.js';
import { cacheKeyPolicies } from './cache-key-policies.js';

function fakeStore(initial: Record<string, KeyPolicy | null>) {
  const policies = new Map(Object.entries(initial));
  let reads = 0;
  let failNext = false;
  return {
    policies,
    get reads() {
      return reads;
    },
    failOnce() {
      failNext = true;
    },
    getKeyPolicy(keyHash: string): Promise<KeyPolicy | null> {
      reads += 1;
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('store down'));
      }
      return Promise.resolve(policies.get(keyHash) ?? null);
    },
  };
}

const active = { state: 'Active', suspended: false } as unknown as KeyPolicy;
const suspended = { state: 'Active', suspended: true } as unknown as KeyPolicy;

describe('cacheKeyPolicies', () => {
  it('reads a key once per ttl and sees a suspension once the ttl has passed', async () => {
    const store = fakeStore({ k: active });
    let now = 1_000;
    const cache = cacheKeyPolicies({ store, ttlMs: 500, clock: () => now });
    expect(await cache.getKeyPolicy('k')).toBe(active);
    store.policies.set('k', suspended);
    now += 499;
    expect(await cache.getKeyPolicy('k')).toBe(active);
    expect(store.reads).toBe(1);
    now += 1;
    expect(await cache.getKeyPolicy('k')).toBe(suspended);
    expect(store.reads).toBe(2);
  });

  it('shares one read between concurrent misses', async () => {
    const store = fakeStore({ k: active });
    const cache = cacheKeyPolicies({ store, ttlMs: 500, clock: () => 0 });
    const answers = await Promise.all([cache.getKeyPolicy('k'), cache.getKeyPolicy('k')]);
    expect(answers).toEqual([active, active]);
    expect(store.reads).toBe(1);
  });

  it('never caches an unknown key or a failed read', async () => {
    const store = fakeStore({});
    const cache = cacheKeyPolicies({ store, ttlMs: 500, clock: () => 0 });
    expect(await cache.getKeyPolicy('new')).toBeNull();
    store.policies.set('new', active);
    expect(await cache.getKeyPolicy('new')).toBe(active);
    store.failOnce();
    await expect(cache.getKeyPolicy('other')).rejects.toThrow('store down');
    store.policies.set('other', active);
    expect(await cache.getKeyPolicy('other')).toBe(active);
    expect(store.reads).toBe(4);
  });

  it('reads every time with a ttl of 0', async () => {
    const store = fakeStore({ k: active });
    const cache = cacheKeyPolicies({ store, ttlMs: 0 });
    await cache.getKeyPolicy('k');
    await cache.getKeyPolicy('k');
    expect(store.reads).toBe(2);
  });

  it('gives a read, fresh policy in hand (peek), and nothing for a key unread, unknown or stale', async () => {
    const store = fakeStore({ k: active });
    let now = 1_000;
    const cache = cacheKeyPolicies({ store, ttlMs: 500, clock: () => now });
    expect(cache.peekKeyPolicy?.('k')).toBeUndefined();
    const reading = cache.getKeyPolicy('k');
    expect(cache.peekKeyPolicy?.('k')).toBeUndefined();
    await reading;
    expect(cache.peekKeyPolicy?.('k')).toBe(active);
    expect(await cache.getKeyPolicy('unknown')).toBeNull();
    expect(cache.peekKeyPolicy?.('unknown')).toBeUndefined();
    now += 500;
    expect(cache.peekKeyPolicy?.('k')).toBeUndefined();
    store.policies.set('k', suspended);
    expect(await cache.getKeyPolicy('k')).toBe(suspended);
    expect(cache.peekKeyPolicy?.('k')).toBe(suspended);
    expect(store.reads).toBe(3);
  });
});
