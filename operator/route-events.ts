/**
 * Watch events -> queue keys. Status-only updates are dropped (a status write never triggers a
 * reconcile); the fan-out follows the references: a Group to its keys, an Upstream to the Groups,
 * an Account or Namespace to the keys of its namespace, a Secret to whoever reads it.
 */
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import type { CachedObject, SourceName, WatchEventType } from './watch-resources.js';

interface KeySpecRefs {
  groupName?: string;
  secretName?: string;
}

/** The parts of an object whose change needs a reconcile (status excluded). */
function fingerprint(source: SourceName, object: CachedObject): string {
  const meta = object.metadata;
  if (source === 'Secret') return meta.resourceVersion ?? '';
  if (source === 'Namespace') return JSON.stringify(meta.labels ?? {});
  return JSON.stringify([
    meta.generation,
    meta.labels,
    meta.annotations,
    meta.deletionTimestamp,
    meta.finalizers,
  ]);
}

export class EventRouter {
  private readonly seen = new Map<string, string>();

  constructor(private readonly context: OperatorContext) {}

  route(source: SourceName, type: WatchEventType, object: CachedObject): void {
    const id = `${source}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    const print = fingerprint(source, object);
    if (type === 'delete') this.seen.delete(id);
    else {
      const previous = this.seen.get(id);
      this.seen.set(id, print);
      if (type === 'update' && previous === print) return;
    }
    if (type !== 'resync' && (source === 'ApiKey' || source === 'Secret')) {
      this.context.keyHashIndex.invalidate();
    }
    for (const key of this.keysFor(source, object)) this.context.queue.add(key);
  }

  private keysFor(source: SourceName, object: CachedObject): string[] {
    const { namespace, name } = object.metadata;
    switch (source) {
      case 'ApiKey':
      case 'Account':
        return [
          queueKey(source, namespace, name),
          ...(source === 'Account' ? this.keysInNamespace(namespace ?? '') : []),
        ];
      case 'Group':
        return [queueKey('Group', undefined, name), ...this.keysOfGroup(name)];
      case 'Upstream':
        return [
          queueKey('Upstream', undefined, name),
          ...this.context.cache
            .list('Group')
            .map((group) => queueKey('Group', undefined, group.metadata.name)),
        ];
      case 'Namespace':
        return this.keysInNamespace(name);
      case 'Secret':
        return this.readersOfSecret(namespace ?? '', name);
    }
  }

  private keysInNamespace(namespace: string): string[] {
    return this.context.cache
      .list('ApiKey', namespace)
      .map((key) => queueKey('ApiKey', namespace, key.metadata.name));
  }

  private keysOfGroup(groupName: string): string[] {
    return this.context.cache
      .list('ApiKey')
      .filter((key) => (key as { spec?: KeySpecRefs }).spec?.groupName === groupName)
      .map((key) => queueKey('ApiKey', key.metadata.namespace, key.metadata.name));
  }

  private readersOfSecret(namespace: string, secretName: string): string[] {
    const keys = this.context.cache
      .list('ApiKey', namespace)
      .filter((key) => {
        const spec = (key as { spec?: KeySpecRefs }).spec;
        return (spec?.secretName ?? `${key.metadata.name}-key`) === secretName;
      })
      .map((key) => queueKey('ApiKey', namespace, key.metadata.name));
    // A changed value may free (or take) a value another key was refused for as a duplicate.
    const duplicates = this.context.cache
      .list('ApiKey')
      .filter((key) => {
        const status = (key as { status?: { conditions?: { type: string; reason: string }[] } })
          .status;
        return status?.conditions?.some(
          (condition) => condition.type === 'Ready' && condition.reason === 'DuplicateKey',
        );
      })
      .map((key) => queueKey('ApiKey', key.metadata.namespace, key.metadata.name));
    keys.push(...duplicates);
    if (namespace !== this.context.namespace) return keys;
    const upstreams = this.context.cache
      .list('Upstream')
      .map((upstream) => queueKey('Upstream', undefined, upstream.metadata.name));
    return [...keys, ...upstreams];
  }
}
