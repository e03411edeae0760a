/**
 * Watch events -> queue keys. Status-only updates are dropped (a status write never triggers a
 * reconcile); the fan-out follows the references: a Group to its keys, an Upstream to the Groups,
 * an Account or Namespace to the keys of its namespace, a Secret to whoever reads it.
 */
import { FINALIZER } from '../crds/schema/resources.js';
import { KeyReferenceIndex } from './index-key-references.js';
import type { OperatorContext } from './operator-context.js';
import { queueKey } from './operator-context.js';
import type { CachedObject, SourceName, WatchEventType } from './watch-resources.js';

interface NotifierRefs {
  webhook?: { signingSecretRef?: { name?: string } };
  slack?: { webhookURLSecretRef?: { name?: string } };
}

interface KeySpecRefs {
  groupName?: string;
}

/**
 * The parts of an object whose change needs a reconcile (status excluded). The operator's own
 * finalizer is left out: adding it is the reconcile's first step, and the same reconcile goes on to
 * do everything else, so the update it causes needs no second pass. Losing it is a change.
 */
function fingerprint(source: SourceName, object: CachedObject): string {
  const meta = object.metadata;
  if (source === 'Secret') return meta.resourceVersion ?? '';
  if (source === 'Namespace') return JSON.stringify(meta.labels ?? {});
  return JSON.stringify([
    meta.generation,
    meta.labels,
    meta.annotations,
    meta.deletionTimestamp,
    // No finalizers and only the operator's own are the same ([] both, never undefined against []).
    (meta.finalizers ?? []).filter((finalizer) => finalizer !== FINALIZER),
  ]);
}

function hasFinalizer(object: CachedObject): boolean {
  return object.metadata.finalizers?.includes(FINALIZER) ?? false;
}

export class EventRouter {
  private readonly seen = new Map<string, { print: string; finalizer: boolean }>();
  private readonly references = new KeyReferenceIndex();

  constructor(private readonly context: OperatorContext) {}

  route(source: SourceName, type: WatchEventType, object: CachedObject): void {
    const id = `${source}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    const print = fingerprint(source, object);
    const finalizer = hasFinalizer(object);
    if (source === 'ApiKey') this.references.observe(type, object);
    if (type !== 'resync') this.invalidateHashes(source, object);
    if (type === 'delete') this.seen.delete(id);
    else {
      const previous = this.seen.get(id);
      this.seen.set(id, { print, finalizer });
      const lostFinalizer = previous?.finalizer === true && !finalizer;
      if (type === 'update' && previous?.print === print && !lostFinalizer) return;
    }
    // A key Secret this operator created arrives: the reconcile that created it used its value.
    const created =
      source === 'Secret' &&
      type !== 'resync' &&
      this.context.ownSecretCreations.delete(
        `${object.metadata.namespace ?? ''}/${object.metadata.name}`,
      );
    // An edit or a deletion of one object is urgent; creations, resyncs and fan-outs are bulk.
    const urgent = type === 'update' || type === 'delete';
    const [own, ...others] = this.keysFor(source, object);
    if (own !== undefined && !(created && type === 'add')) this.context.queue.add(own, { urgent });
    for (const key of others) if (key !== undefined) this.context.queue.add(key);
  }

  /** The duplicate-value index recomputes the keys this event may have changed. */
  private invalidateHashes(source: SourceName, object: CachedObject): void {
    const { namespace, name } = object.metadata;
    if (source === 'ApiKey') this.context.keyHashIndex.invalidateKey(namespace, name);
    if (source === 'Secret') {
      for (const reader of this.references.readersOf(namespace ?? '', name)) {
        this.context.keyHashIndex.invalidateKey(namespace, reader);
      }
    }
  }

  /** The object's own queue key first (Secrets and Namespaces have none: undefined), then the rest. */
  private keysFor(source: SourceName, object: CachedObject): (string | undefined)[] {
    const { namespace, name } = object.metadata;
    switch (source) {
      case 'ApiKey':
        return [queueKey(source, namespace, name)];
      case 'Account':
        // The Plans count their subscribed accounts.
        return [
          queueKey(source, namespace, name),
          ...this.keysInNamespace(namespace ?? ''),
          ...this.context.cache
            .list('Plan')
            .map((plan) => queueKey('Plan', undefined, plan.metadata.name)),
        ];
      case 'Plan':
        return [queueKey('Plan', undefined, name), ...this.subscribersOf(name)];
      case 'Group':
        return [queueKey('Group', undefined, name), ...this.keysOfGroup(name)];
      case 'Upstream':
        return [
          queueKey('Upstream', undefined, name),
          ...this.context.cache
            .list('Group')
            .map((group) => queueKey('Group', undefined, group.metadata.name)),
        ];
      case 'Notifier':
      case 'ClusterNotifier':
        return [queueKey(source, namespace, name)];
      case 'Namespace':
        return [undefined, ...this.keysInNamespace(name)];
      case 'Secret':
        return this.readersOfSecret(namespace ?? '', name);
    }
  }

  private keysInNamespace(namespace: string): string[] {
    return this.context.cache
      .list('ApiKey', namespace)
      .map((key) => queueKey('ApiKey', namespace, key.metadata.name));
  }

  /** The Accounts subscribed to a plan and their keys (key documents carry the plan's models). */
  private subscribersOf(planName: string): string[] {
    return this.context.cache
      .list('Account')
      .filter(
        (account) =>
          (account as { spec?: { subscription?: { planName?: string } } }).spec?.subscription
            ?.planName === planName,
      )
      .flatMap((account) => {
        const namespace = account.metadata.namespace ?? '';
        return [
          queueKey('Account', namespace, account.metadata.name),
          ...this.keysInNamespace(namespace),
        ];
      });
  }

  private keysOfGroup(groupName: string): string[] {
    return this.context.cache
      .list('ApiKey')
      .filter((key) => (key as { spec?: KeySpecRefs }).spec?.groupName === groupName)
      .map((key) => queueKey('ApiKey', key.metadata.namespace, key.metadata.name));
  }

  /** The notifiers whose target Secret this is (their Ready condition follows it). */
  private notifiersOfSecret(namespace: string, secretName: string): string[] {
    const refers = (object: CachedObject) => {
      const spec = (object as { spec?: NotifierRefs }).spec;
      const ref = spec?.webhook?.signingSecretRef ?? spec?.slack?.webhookURLSecretRef;
      return ref?.name === secretName;
    };
    const namespaced = this.context.cache
      .list('Notifier', namespace)
      .filter(refers)
      .map((object) => queueKey('Notifier', namespace, object.metadata.name));
    if (namespace !== this.context.namespace) return namespaced;
    const cluster = this.context.cache
      .list('ClusterNotifier')
      .filter(refers)
      .map((object) => queueKey('ClusterNotifier', undefined, object.metadata.name));
    return [...namespaced, ...cluster];
  }

  /** The keys reading the Secret (the first one counts as the Secret's own: a rotation is urgent). */
  private readersOfSecret(namespace: string, secretName: string): (string | undefined)[] {
    const keys: (string | undefined)[] = this.references
      .readersOf(namespace, secretName)
      .map((name) => queueKey('ApiKey', namespace, name));
    if (keys.length === 0) keys.push(undefined);
    keys.push(...this.notifiersOfSecret(namespace, secretName));
    // A changed value may free (or take) a value another key was refused for as a duplicate.
    for (const duplicate of this.references.duplicateKeys()) {
      keys.push(queueKey('ApiKey', duplicate.namespace, duplicate.name));
    }
    if (namespace !== this.context.namespace) return keys;
    const upstreams = this.context.cache
      .list('Upstream')
      .map((upstream) => queueKey('Upstream', undefined, upstream.metadata.name));
    return [...keys, ...upstreams];
  }
}
