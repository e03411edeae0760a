/**
 * Which ApiKeys serve which key hash, for the duplicate-value check. Rebuilt lazily after an ApiKey
 * or Secret change (the router invalidates it), so a resync of n keys costs n hashes, not n².
 */
import type { CachedObject } from './watch-resources.js';

export class KeyHashIndex {
  private stale = true;
  private byHash = new Map<string, CachedObject[]>();

  invalidate(): void {
    this.stale = true;
  }

  keysWithHash(
    hash: string,
    source: { keys: () => readonly CachedObject[]; hashOf: (key: CachedObject) => string | null },
  ): readonly CachedObject[] {
    if (this.stale) {
      this.byHash = new Map();
      for (const key of source.keys()) {
        const keyHash = source.hashOf(key);
        if (keyHash === null) continue;
        const list = this.byHash.get(keyHash) ?? [];
        list.push(key);
        this.byHash.set(keyHash, list);
      }
      this.stale = false;
    }
    return this.byHash.get(hash) ?? [];
  }
}
