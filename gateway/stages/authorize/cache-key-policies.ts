/**
 * The key-policy read of admission, cached in the process for a short time (default 500 ms), so a
 * busy key costs one store read per half second instead of one per request. Correctness: a policy
 * change written to the store (suspension, deletion, a new group) is seen by every replica at most
 * `ttlMs` later, well within the one second the operator promises; expiry is still checked per
 * request against the clock (`checkKeyPolicy`). Concurrent misses for one key share one read.
 * Unknown keys are not cached (a key created a moment ago works at once), nor are store failures.
 */
import type { KeyPolicy, PolicyReader } from '../../../store/store.js';

interface Entry {
  at: number;
  policy: Promise<KeyPolicy | null>;
}

export interface KeyPolicyCacheOptions {
  store: Pick<PolicyReader, 'getKeyPolicy'>;
  /** A monotonic clock in ms (default `performance.now`), never the business clock of tests. */
  clock?: () => number;
  /** How long a read policy is used; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the cache starts over beyond it. */
  maxEntries?: number;
}

export function cacheKeyPolicies(
  options: KeyPolicyCacheOptions,
): Pick<PolicyReader, 'getKeyPolicy'> {
  const { store, ttlMs } = options;
  const clock = options.clock ?? (() => performance.now());
  if (ttlMs <= 0) return store;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, Entry>();
  return {
    getKeyPolicy(keyHash) {
      const now = clock();
      const cached = entries.get(keyHash);
      if (cached !== undefined && now - cached.at < ttlMs && now >= cached.at) return cached.policy;
      if (entries.size >= maxEntries) entries.clear();
      const entry: Entry = { at: now, policy: store.getKeyPolicy(keyHash) };
      entries.set(keyHash, entry);
      entry.policy.then(
        (policy) => {
          if (policy === null && entries.get(keyHash) === entry) entries.delete(keyHash);
        },
        () => {
          if (entries.get(keyHash) === entry) entries.delete(keyHash);
        },
      );
      return entry.policy;
    },
  };
}
