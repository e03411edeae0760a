/**
 * Which ApiKeys serve which key hash, for the duplicate-value check. Kept up to date key by key: the
 * router marks the ApiKeys an event touches (the key itself, or the readers of a changed Secret)
 * and the next lookup recomputes only those, so a bulk import of n keys costs n hashes, not n². A
 * full rebuild happens on the first lookup and after `invalidate()`.
 */
import type { CachedObject } from './watch-resources.js';

export interface KeyHashSource {
  keys: () => readonly CachedObject[];
  get: (namespace: string, name: string) => CachedObject | undefined;
  hashOf: (key: CachedObject) => string | null;
}

function idOf(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class KeyHashIndex {
  private stale = true;
  private readonly hashById = new Map<string, string>();
  private readonly idsByHash = new Map<string, Set<string>>();
  private readonly dirty = new Set<string>();

  /** Everything is recomputed at the next lookup. */
  invalidate(): void {
    this.stale = true;
    this.dirty.clear();
  }

  /** One ApiKey (or its Secret) changed. */
  invalidateKey(namespace: string | undefined, name: string): void {
    if (!this.stale) this.dirty.add(idOf(namespace, name));
  }

  keysWithHash(hash: string, source: KeyHashSource): readonly CachedObject[] {
    if (this.stale) {
      this.hashById.clear();
      this.idsByHash.clear();
      this.dirty.clear();
      for (const key of source.keys())
        this.set(idOf(key.metadata.namespace, key.metadata.name), key, source);
      this.stale = false;
    } else if (this.dirty.size > 0) {
      for (const id of this.dirty) {
        const slash = id.indexOf('/');
        const object = source.get(id.slice(0, slash), id.slice(slash + 1));
        this.set(id, object, source);
      }
      this.dirty.clear();
    }
    const out: CachedObject[] = [];
    for (const id of this.idsByHash.get(hash) ?? []) {
      const slash = id.indexOf('/');
      const object = source.get(id.slice(0, slash), id.slice(slash + 1));
      if (object !== undefined) out.push(object);
    }
    return out;
  }

  private set(id: string, object: CachedObject | undefined, source: KeyHashSource): void {
    const previous = this.hashById.get(id);
    if (previous !== undefined) {
      const ids = this.idsByHash.get(previous);
      ids?.delete(id);
      if (ids?.size === 0) this.idsByHash.delete(previous);
      this.hashById.delete(id);
    }
    const hash = object === undefined ? null : source.hashOf(object);
    if (hash === null) return;
    this.hashById.set(id, hash);
    let ids = this.idsByHash.get(hash);
    if (ids === undefined) {
      ids = new Set();
      this.idsByHash.set(hash, ids);
    }
    ids.add(id);
  }
}
