/**
 * The key-policy read of admission, cached in the process for a short time (default 500 ms), so a
 * busy key costs one store read per half second instead of one per request. Correctness: a policy
 * change written to the store (suspension, deletion, a new group) is seen by every replica at most
 * `ttlMs` later, well within the one second the operator promises; expiry is still checked per
 * request against the clock (`checkKeyPolicy`). Concurrent misses for one key share one read.
 * Unknown keys are not cached (a key created a moment ago works at once), nor are store failures.
 * `peekKeyPolicy` gives a fresh cached policy that has arrived without a promise, so the authorize
 * stage decides a busy key's request in the same turn (authorization-hook.ts).
 */
import type { KeyPolicy, PolicyReader } from '../../../store/store.js';

interface Entry {
  at: number;
  policy: Promise<KeyPolicy | null>;
  /** The policy once read (undefined until then). */
  value: KeyPolicy | undefined;
}

/** The cache's reads: the store's, plus the policy already in hand when there is one. */
export interface CachedKeyPolicies extends Pick<PolicyReader, 'getKeyPolicy'> {
  /** The cached policy when it is fresh and has been read; else undefined (ask `getKeyPolicy`). */
  peekKeyPolicy?(keyHash: string): KeyPolicy | undefined;
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

export function cacheKeyPolicies(options: KeyPolicyCacheOptions): CachedKeyPolicies {
  const { store, ttlMs } = options;
  const clock = options.clock ?? (() => performance.now());
  if (ttlMs <= 0) return store;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, Entry>();
  return {
    peekKeyPolicy(keyHash) {
      const cached = entries.get(keyHash);
      if (cached?.value === undefined) return undefined;
      const now = clock();
      return now - cached.at < ttlMs && now >= cached.at ? cached.value : undefined;
    },
    getKeyPolicy(keyHash) {
      const now = clock();
      const cached = entries.get(keyHash);
      if (cached !== undefined && now - cached.at < ttlMs && now >= cached.at) return cached.policy;
      if (entries.size >= maxEntries) entries.clear();
      const entry: Entry = { at: now, policy: store.getKeyPolicy(keyHash), value: undefined };
      entries.set(keyHash, entry);
      entry.policy.then(
        (policy) => {
          if (policy !== null) entry.value = policy;
          else if (entries.get(keyHash) === entry) entries.delete(keyHash);
        },
        () => {
          if (entries.get(keyHash) === entry) entries.delete(keyHash);
        },
      );
      return entry.policy;
    },
  };
}
